"""The explorers of ②, ④, ⑤ and the week-3 note, in headless Chromium, operated through their controls.

Each control is worked the way a reader works it: a range with the keyboard (Home, End, arrows), a radio
button with a click, a <select> by choosing an option (and by the keyboard once). After every change the
values the page shows (tables, the summary line, the plotted points) are compared with the values the
model gives for the state the controls now show, computed here through kernels/cost/buffers and fmt, not
read back from the page's data. Also checked: requests leaving the site (none), console errors (none), dark mode,
390 px, reduced motion, the page without JavaScript, the weight of the explorers' script and of each page.
The time from a reader's input to the updated text is a figure of `make bench`, not a test.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

import roofline as rl
from browser_helpers import (
    HANGUL,
    ROOT,
    address_naming,
    html_dir,
    keep_shot,
    label_page,
    local_context,
    page_file,
    screenshot_contrast,
    start_explorer,
)
from coursebook.assets import explorer_data
from roofline import buffers, kernels, occupancy
from roofline.show import fmt, ko

pytestmark = pytest.mark.heavy(55)   # rough seconds, for the order of the run (tests/conftest.py)

EXPLORERS = {"roofline": "ch-roofline", "tile": "ch-tile-size", "matmul": "ch-matmul", "vector": "ch-week3"}
MAX_SCRIPT_BYTES = 1_500_000
MAX_PAGE_BYTES = 1_500_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TERA = 10**12

# Time from the reader's input event to the first frame after the explorer said it had updated.
PROBE = """() => {
  window.__rl = {pending: null, updates: 0, latency: [], work: []};
  for (const type of ["keydown", "pointerdown", "input", "change"]) {
    document.addEventListener(type, (e) => { if (window.__rl.pending === null) window.__rl.pending = e.timeStamp; }, true);
  }
  document.addEventListener("rl-update", (e) => {
    const t0 = window.__rl.pending;
    window.__rl.pending = null;
    window.__rl.work.push(e.detail.ms);
    requestAnimationFrame(() => { window.__rl.latency.push(performance.now() - t0); window.__rl.updates += 1; });
  }, true);
}"""

READ = r"""(root) => {
  const norm = (s) => s.replace(/\u00a0/g, " ").replace(/\s+/g, " ").trim();
  const controls = {};
  root.querySelectorAll("[data-rl-control]").forEach((el) => {
    const name = el.dataset.rlControl;
    if (el.type === "radio") { if (el.checked) controls[name] = norm(el.parentElement.innerText); }
    else if (el.type === "range") controls[name] = norm(root.querySelector(`[data-rl-output="${name}"]`).innerText);
    else controls[name] = el.value;
  });
  const charts = {};
  for (const [name, u] of Object.entries(root.rlExplorer ? root.rlExplorer.charts : {})) {
    charts[name] = {data: u.data, aria: u.root.parentElement.getAttribute("aria-label"),
                    labels: u.axes.map((a) => norm(String(a.label || "")))};   // drawn on the canvas: the axes' own options
  }
  return {
    controls,
    tables: [...root.querySelectorAll("table")].map((t) =>
      [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.cells].map((td) => norm(td.innerText)))),
    summary: norm(root.querySelector(".rl-summary").innerText),
    heads: [...root.querySelectorAll("table")].map((t) => [...t.querySelectorAll("thead th")].map((th) => norm(th.innerText))),
    charts,
    widths: [...root.querySelectorAll("[data-rl-width]")].map((el) => el.style.width),
  };
}"""


def norm(text: str) -> str:
    return " ".join(str(text).replace("\u00a0", " ").split())


def number_of(label: str) -> int:
    return int(label.replace(",", ""))


def factor_of(label: str) -> Fraction:
    return Fraction(label.removesuffix("배"))


def close(a, b, rel=1e-5) -> bool:
    return a is not None and abs(float(a) - float(b)) <= rel * abs(float(b))


# ---------------------------------------------------------------- what the model gives for a state

def expect_roofline(course, key: str, dtype: str) -> dict:
    preset = course.presets[key]
    hw, s = preset.roofline(dtype), course.dtypes[dtype]
    N = course.week4.N
    costs = [("재사용 없음", kernels.matmul_no_reuse(N, s, s))]
    costs += [(f"T = {T}", kernels.matmul_tiled(N, T, s, s)) for T in course.week4.tiles]
    rows, points = [], []
    for label, cost in costs:
        t = rl.Timing(cost, hw)
        memory = "HBM" if preset.memory.startswith("HBM") else preset.memory   # the memory by its name
        rows.append([label, fmt.decimal(cost.I, 6), fmt.tera(t.R_roof, 6), fmt.ms(t.t_ideal, 6), ko.bound(t, memory)])
        points.append((float(cost.I), float(t.R_roof) / TERA))
    summary = [f"{preset.name}, {dtype}", f"P = {fmt.number(hw.P / TERA, 3)} {fmt.unit('TFLOPs/s', dtype)}",
               f"BW = {fmt.number(hw.BW / TERA, 3)} TB/s",
               f"I* = P/BW = {fmt.number(hw.ridge, 3)} {fmt.unit('FLOPs/Byte', dtype)}"]   # OPs for an integer dtype
    return {"rows": rows, "points": points, "P": float(hw.P) / TERA, "summary": summary}


def check_roofline(course, shown, plots=True):
    key, dtype = shown["controls"]["hw"], shown["controls"]["dtype"]
    assert key in course.presets and dtype in course.presets[key].peak, shown["controls"]
    want = expect_roofline(course, key, dtype)
    assert shown["tables"][0] == want["rows"], (key, dtype)
    for part in want["summary"]:
        assert part in shown["summary"], (part, shown["summary"])
    heads = [f"I ({fmt.unit('FLOPs/Byte', dtype)})", f"성능 상한 ({fmt.unit('TFLOPs/s', dtype)})"]   # the chosen dtype's units
    assert shown["heads"][0][1:3] == heads, (key, dtype, shown["heads"])
    if not plots:
        return
    axes = " ".join(shown["charts"]["roofline"]["labels"])   # the state's own axis units
    assert fmt.unit("FLOPs/Byte", dtype) in axes and fmt.unit("TFLOPs/s", dtype) in axes, (key, dtype, axes)
    data = shown["charts"]["roofline"]["data"]
    xs, line, cases = data[0], data[1], data[2:]
    assert close(max(line), want["P"]), "the compute ceiling is not at P"
    for (I, R), ys in zip(want["points"], cases, strict=True):
        plotted = [(x, y) for x, y in zip(xs, ys) if y is not None]
        assert len(plotted) == 1 and close(plotted[0][0], I) and close(plotted[0][1], R), (key, dtype, plotted, I, R)
    assert f"I* = {fmt.number(course.presets[key].roofline(dtype).ridge, 3)}" in shown["charts"]["roofline"]["aria"]


def matmul_tiles(course, N: int) -> list[int]:
    """The tile sides the reader may choose at N: every power of two from 8 dividing N (and the chapter's tiles)."""
    Ts = {2**k for k in range(3, N.bit_length()) if N % 2**k == 0}
    return sorted(Ts | (set(course.week4.tiles) if N == course.week4.N else set()))


def expect_matmul(course, N: int, T: int) -> dict:
    w4 = course.week4
    hw, s = w4.roofline, w4.s
    base = rl.Timing(kernels.matmul_no_reuse(N, s, s), hw)
    rows = []
    for label, t in (("재사용 없음", base), (f"T = {T}", rl.Timing(kernels.matmul_tiled(N, T, s, s), hw))):
        rows.append([label, fmt.integer(t.cost.F), fmt.integer(t.cost.Q), fmt.decimal(t.cost.I, 6, grouping=True), fmt.tera(t.R_roof, 6),
                     fmt.ms(t.t_compute, 6), fmt.ms(t.t_memory, 6), fmt.ms(t.t_ideal, 6), ko.bound(t),
                     fmt.ratio(base.t_ideal / t.t_ideal)])
    sweep = {t: rl.Timing(kernels.matmul_tiled(N, t, s, s), hw) for t in matmul_tiles(course, N)}
    return {"rows": rows, "sweep": sweep, "chosen": sweep[T]}


def check_matmul(course, shown, plots=True):
    N, T = number_of(shown["controls"]["N"]), number_of(shown["controls"]["T"])
    want = expect_matmul(course, N, T)
    assert shown["tables"][0] == want["rows"], (N, T)
    assert f"{N:,}×{N:,}" in shown["summary"] and f"T = {T}" in shown["summary"]
    if not plots:
        return
    Ts = list(want["sweep"])
    for name, value in (("intensity", lambda t: t.cost.I), ("times", lambda t: t.t_ideal * 1000)):
        data = shown["charts"][name]["data"]
        assert data[0] == Ts, (name, data[0], Ts)
        assert all(close(y, value(t)) for y, t in zip(data[1], want["sweep"].values())), (name, N)
        point = [(x, y) for x, y in zip(data[0], data[-1]) if y is not None]
        assert point == [(T, point[0][1])] and close(point[0][1], value(want["chosen"])), (name, N, T, point)


BUFFERING = {"단일 버퍼": 1, "이중 버퍼링": 2}


def expect_tile(course, T: int, copies: int, key: str, threads: int, extra: int) -> tuple[list[str], list[str], object]:
    """The buffer rows and the occupancy rows of one state, from buffers and roofline.occupancy (the one function)."""
    s = course.week4.s
    b = buffers.tile_buffers(T, T, T, s, s, copies)
    sizes = [f"{fmt.integer(b.A)} B ({fmt.kib(b.A)})", f"{fmt.integer(b.B)} B ({fmt.kib(b.B)})", fmt.kib(b.inputs),
             fmt.kib(b.acc), fmt.kib(b.total)]
    case = occupancy.tile_case(course.presets[key], T, s, copies, threads, extra)
    regs = f"{case.partial_sums} + {extra} = {case.partial_sums + extra}"
    r = case.result
    if r is None:
        return sizes, [fmt.kib(b.inputs), "—", regs] + ["—"] * 8, case
    limits = ["제한 없음" if r.limits[k] is None else fmt.integer(r.limits[k]) for k in ("warps", "registers", "smem", "blocks")]
    names = {"warps": "워프 수", "registers": "레지스터", "smem": "Shared Memory", "blocks": "블록 수"}
    return sizes, [fmt.kib(b.inputs), fmt.kib(r.smem_per_block), regs, *limits, fmt.integer(r.blocks),
                   f"{fmt.integer(r.warps)} / {fmt.integer(r.max_warps)}", fmt.percent(r.occupancy, 1),
                   "·".join(names[k] for k in r.binding)], case


def expect_tiles(course, key: str, threads: int, extra: int) -> list[list[str]]:
    """The problem's tiles on one GPU, single and double buffering: "blocks, occupancy" and the binding limit."""
    rows = []
    for T in course.week4.tiles:
        row = [f"T = {fmt.integer(T)}"]
        for copies in (1, 2):
            _, occ, case = expect_tile(course, T, copies, key, threads, extra)
            row += ["올라가지 않음", "—"] if case.result is None else [f"{occ[7]}개, {occ[9]}", occ[10]]
        rows.append(row)
    return rows


def check_tile(course, shown, plots=True):
    c = shown["controls"]
    T, copies, key = number_of(c["T"]), BUFFERING[c["copies"]], c["gpu"]
    threads, extra = course.week4.threads, course.week4.extra_registers   # the problem's (other values: live mode)
    sizes, occ, case = expect_tile(course, T, copies, key, threads, extra)
    assert [row[1] for row in shown["tables"][0]] == sizes, c
    assert [row[1] for row in shown["tables"][1]] == occ, c
    assert shown["tables"][2] == expect_tiles(course, key, threads, extra), c
    assert f"T = {T}" in shown["summary"] and course.presets[key].name.split(" (")[0] in shown["summary"] or case.result is None
    if case.result is not None:   # never more blocks than the SM holds
        assert case.result.blocks <= course.presets[key].sm.blocks
        assert f"블록 {fmt.integer(case.result.blocks)}개가 상주한다" in shown["summary"] or not case.result.blocks
    else:
        assert "넘" in shown["summary"], shown["summary"]


def expect_vector(course, kP: Fraction, kBW: Fraction, kC: Fraction) -> dict:
    w3 = course.week3
    add = kernels.vector_add(w3.L, w3.s)
    base = rl.Timing(add, w3.roofline)
    t = rl.Timing(add, w3.roofline.with_(P=kP * w3.roofline.P, BW=kBW * w3.roofline.BW))

    def ms(x):
        return fmt.number(Fraction(x) * 1000) + " ms"

    capacity = kC * w3.capacity
    row = [ms(t.t_compute), ms(t.t_memory), ms(t.t_ideal), fmt.number(base.t_ideal / t.t_ideal) + "배", ko.bound(t),
           fmt.number(capacity / 10**9) + " GB"]
    longer = max(t.t_compute, t.t_memory)
    return {"row": row, "fits": 3 * w3.s * w3.L <= capacity, "bars": [100 * t.t_compute / longer, 100 * t.t_memory / longer],
            "P": fmt.number(kP * w3.roofline.P / TERA), "BW": fmt.number(kBW * w3.roofline.BW / TERA)}


def check_vector(course, shown, plots=True):
    k = {name: factor_of(shown["controls"][name]) for name in ("P", "BW", "cap")}
    want = expect_vector(course, k["P"], k["BW"], k["cap"])
    assert shown["tables"][0] == [want["row"]], k
    assert f"P = {want['P']} TFLOPs/s" in shown["summary"] and f"BW = {want['BW']} TB/s" in shown["summary"]
    assert ("들어가지 않는다" not in shown["summary"]) == want["fits"], (k, shown["summary"])
    if plots:   # the two bars: each time as a share of the longer one
        bars = [float(w.removesuffix("%")) for w in shown["widths"]]
        assert all(abs(b - float(x)) <= 0.05 for b, x in zip(bars, want["bars"], strict=True)), (k, bars, want["bars"])


CHECKS = {"roofline": check_roofline, "tile": check_tile, "matmul": check_matmul, "vector": check_vector}


# ---------------------------------------------------------------- the module, without a browser

def test_html_on_the_site_markdown_elsewhere(course):
    """The glue record holds the controls (the site shows them) and the Markdown; a notebook (Colab, the editions)
    shows only the Markdown note and the chapter's table (no dead controls), and the edition's text is that Markdown."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from coursebook import editions
    from roofline.show import glue
    from roofline.show.glue import display_data
    from roofline.show.pages import week3_vector_add

    w3 = course.week3
    e = week3_vector_add.vector_explorer(w3)
    bundle = display_data(e)
    assert bundle["text/html"] == e.html and bundle["text/markdown"] == e.markdown
    InteractiveShell.instance(cache_size=0)   # a notebook's shell (as coursebook.editions.recompute starts it)
    with editions.book_mode(False), capture_output(display=True) as captured:
        glue("x", e)
    record, shown = captured.outputs
    assert {"text/html", "text/markdown"} <= {k.rsplit("/", 2)[-2] + "/" + k.rsplit("/", 1)[-1] for k in record.data}
    assert set(shown.data) == {"text/markdown"} and shown.data["text/markdown"] == e.markdown
    assert expect_vector(course, 1, 1, 1)["row"][0] in norm(e.markdown)
    glued = {"x": {"text/markdown": e.markdown, "text/plain": repr(e)}}
    assert editions.plain("```{glue} x\n```", glued) == e.markdown


def test_the_explorer_starts_at_the_problems_machine(course):
    from roofline.show.pages import w4_2_roofline

    w4 = course.week4.with_(hardware="H100_SXM", dtype="BF16")   # what a student might type in the parameter cell
    e = w4_2_roofline.roofline_explorer(w4)
    data = explorer_data(e.html)[0]
    assert (data["controls"]["hw"]["initial"], data["controls"]["dtype"]["initial"]) == ("H100_SXM", "BF16")
    assert f"P = {fmt.number(w4.roofline.P / TERA, 3)} TFLOPs/s" in norm(e.html)


@pytest.mark.parametrize("call, key", [
    (lambda c, x: x.w4_5_matmul.matmul_explorer(c.week4, 3), "T"),
    (lambda c, x: x.w4_4_tile_size.tile_explorer(c.week4.with_(gpu=next(k for k, p in c.presets.items() if not p.sm)), c.week4.tiles[0]),
     "gpu"),
    (lambda c, x: x.w4_4_tile_size.tile_explorer(c.week4, 3), "T"),
    (lambda c, x: x.week3_vector_add.vector_explorer(c.week3, [2, 4]), "factors"),
    (lambda c, x: x.w4_2_roofline.roofline_explorer(c.week4.with_(dtype="FP64")), "dtype"),
], ids=["T-not-offered", "gpu-without-shared-memory", "tile-T-not-offered", "factors-without-1", "unknown-dtype"])
def test_bad_input_is_a_korean_error_naming_the_key(course, call, key):
    from roofline.errors import ParameterError
    from roofline.show import pages
    from roofline.show.pages import w4_2_roofline, w4_4_tile_size, w4_5_matmul, week3_vector_add  # noqa: F401

    with pytest.raises(ParameterError) as err:
        call(course, pages)
    assert str(err.value).startswith(f"{key}: ") and HANGUL.search(str(err.value)), str(err.value)


# ---------------------------------------------------------------- the browser

@pytest.fixture(scope="module")
def browser_site(site_url, browser):
    """The session's server and Chromium (tests/browser_helpers.py)."""
    return html_dir(), site_url, browser


class Reader:
    """One explorer page in one browser context: acts through the page's controls, checks every update. The context
    asks for reduced motion: a changed value's highlight (600 ms) would repaint the page through the whole walk;
    test_labels_dark_mode_phone_and_motion turns the motion back on to check the highlight and its absence."""

    def __init__(self, browser, base, name, course, **context):
        self.name, self.course = name, course
        self.blocked, self.errors = [], []
        self.context = local_context(browser, base, self.blocked,
                                     **{"viewport": DESKTOP, "reduced_motion": "reduce", **context})
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.goto(base + page_file(label_page(EXPLORERS[name])), wait_until="load")
        self.root = self.page.locator(f"#rl-{name}")   # ② also has "내 커널"
        assert self.root.count() == 1, f"{name}: expected its explorer on the page"
        self.page.evaluate("() => { window.__rlRead = " + READ + "; }")
        if context.get("java_script_enabled", True):
            start_explorer(self.root)
            self.page.evaluate(PROBE)
        self.checked, self.updates, self.focused = 0, 0, None

    def control(self, name):
        return self.root.locator(f'[data-rl-control="{name}"]')

    def shown(self) -> dict:
        return self.root.evaluate("(root) => window.__rlRead(root)")

    def act(self, do, expect_change: bool = True, keeps_focus: bool = False):
        """Do one reader action; if it changes the state, wait for the update (and the next frame), then check
        every shown value. One round trip for the action and one for waiting and reading."""
        if not keeps_focus:
            self.focused = None
        do()
        if expect_change:
            self.updates += 1
            shown = self.root.evaluate("""async (root, want) => {
              const start = performance.now();
              while (window.__rl.updates < want) {
                if (performance.now() - start > 3000) throw new Error("the explorer did not update");
                await new Promise((ok) => requestAnimationFrame(ok));
              }
              window.__rl.pending = null;
              return {...window.__rlRead(root), latency: window.__rl.latency.at(-1), work: window.__rl.work.at(-1)};
            }""", self.updates)
            self.last = (shown.pop("latency"), shown.pop("work"))
        else:
            shown = self.root.evaluate("(root) => { window.__rl.pending = null; return window.__rlRead(root); }")
        CHECKS[self.name](self.course, shown, plots=True)
        self.checked += 1

    def check(self):
        CHECKS[self.name](self.course, self.shown(), plots=True)
        self.checked += 1

    def key(self, control, key, expect_change=True):
        """Press a key on a control, as a reader does (the focus stays on it for the next key)."""
        def press():
            if self.focused == control:
                self.page.keyboard.press(key)
            else:
                self.control(control).press(key)
                self.focused = control
        self.act(press, expect_change, keeps_focus=True)

    def range_to(self, control, index):
        """Home, then ArrowRight `index` times (each press a checked state)."""
        at = int(self.control(control).input_value())
        if at != 0:
            self.key(control, "Home")
        for _ in range(index):
            self.key(control, "ArrowRight")

    def range_size(self, control) -> int:
        return int(self.control(control).get_attribute("max")) + 1

    def latency(self) -> list[float]:
        return self.page.evaluate("() => window.__rl.latency")

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def readers(browser_site, course):
    """One page per explorer for the whole file (opening a page with its math is the slow part)."""
    root, base, browser = browser_site
    opened: dict[tuple, Reader] = {}

    def get(name: str, **context) -> Reader:
        key = (name, *sorted(context.items()))
        if key not in opened:
            opened[key] = Reader(browser, base, name, course, **context)
        return opened[key]

    yield get
    for r in opened.values():
        r.close()


@pytest.fixture
def reader(readers, request):
    return readers(request.param)


def finish(r: Reader, transitions: dict):
    """Each change and its undo once more through the UI (every state checked); no console error, no request out."""
    for forward, back in transitions.values():
        forward()
        back()
    assert r.errors == [], f"{r.name}: console errors {r.errors}"
    assert r.blocked == [], f"{r.name}: requests left the site {r.blocked}"


# ---------------------------------------------------------------- operating each explorer

@pytest.mark.parametrize("reader", ["roofline"], indirect=True)
def test_roofline_every_preset_and_dtype(reader, course):
    r, w4 = reader, course.week4
    r.check()   # the first state: the chapter's own machine and dtype
    first = r.shown()["controls"]
    assert first["dtype"] == w4.dtype
    assert (course.presets[first["hw"]].P(w4.dtype), course.presets[first["hw"]].BW) == (w4.roofline.P, w4.roofline.BW)
    r.control("hw").focus()
    r.page.keyboard.press("Tab")
    r.focused = "dtype"
    r.page.evaluate("() => { window.__rl.pending = null; }")   # that key changed nothing: time the next change from its own input
    assert r.page.evaluate("() => document.activeElement.dataset.rlControl") == "dtype", "Tab does not reach the dtype"
    for key, preset in course.presets.items():
        if key != r.shown()["controls"]["hw"]:
            r.act(lambda: r.control("hw").select_option(key))
        offered = r.control("dtype").locator("option").evaluate_all("(os) => os.map((o) => o.value)")
        assert offered == [d for d in course.dtypes if d in preset.peak], f"{key}: offers {offered}"
        for dtype in offered:
            if dtype != r.shown()["controls"]["dtype"]:
                r.act(lambda: r.control("dtype").select_option(dtype))
    if len(offered) > 1:   # the keyboard works on the <select> too
        r.key("dtype", "Home")
        r.key("dtype", "ArrowDown")
        assert r.shown()["controls"]["dtype"] == offered[1]
    first_key, last_key = list(course.presets)[0], list(course.presets)[-1]
    finish(r, {"hw": (lambda: r.act(lambda: r.control("hw").select_option(first_key)),
                      lambda: r.act(lambda: r.control("hw").select_option(last_key))),
               "dtype": (lambda: r.key("dtype", "End"), lambda: r.key("dtype", "Home"))})


@pytest.mark.parametrize("reader", ["matmul"], indirect=True)
def test_matmul_every_N_and_T(reader, course):
    r, w4 = reader, course.week4
    r.check()
    assert r.shown()["controls"] == {"N": fmt.integer(w4.N), "T": fmt.integer(w4.tiles[len(w4.tiles) // 2])}
    sizes = []
    r.range_to("N", 0)   # (a term can start at the smallest N: then there is nothing to press)
    while True:   # every N, and at each N every T, from the smallest to the largest
        N = number_of(r.shown()["controls"]["N"])
        sizes.append(N)
        assert r.range_size("T") == len(matmul_tiles(course, N)), f"N = {N}: the T offered are not the powers of two from 8"
        r.range_to("T", 0)
        for _ in range(r.range_size("T") - 1):
            r.key("T", "ArrowRight")
        r.key("T", "ArrowRight", expect_change=False)   # at the end nothing moves
        if len(sizes) == r.range_size("N"):
            break
        r.key("N", "ArrowRight")   # T stays where it was, or on the largest T of the smaller list
    assert sizes == sorted(sizes) and sizes[0] == 1024 and sizes[-1] == 16384 and w4.N in sizes
    r.key("N", "Home")   # T was N_max: now clamped to the largest T of N = 1,024
    assert number_of(r.shown()["controls"]["T"]) == 1024
    if 256 in matmul_tiles(course, w4.N):   # a T the course does not compare
        r.range_to("N", sizes.index(w4.N))
        r.range_to("T", matmul_tiles(course, w4.N).index(256))
        assert r.shown()["controls"]["T"] == "256"
    # a browser that refuses the next address change (Safari, after a hundred in thirty seconds): the explorer goes on
    r.page.evaluate("""() => { const real = history.replaceState.bind(history); window.__rlWrites = 0;
      history.replaceState = (...args) => {
        if (!window.__rlWrites++) throw new DOMException("too many address changes", "SecurityError");
        return real(...args);
      }; }""")
    finish(r, {"N": (lambda: r.key("N", "ArrowRight"), lambda: r.key("N", "ArrowLeft")),
               "T": (lambda: r.key("T", "ArrowLeft"), lambda: r.key("T", "ArrowRight"))})
    # the reader pauses: the page's address names the state shown (once the browser allows it), and opens it again
    shown = r.shown()["controls"]
    want = {f"matmul.{name}": str(number_of(shown[name])) for name in ("N", "T")}
    # (the address may name this state already, from before the refusal: the retry is waited for, not raced)
    r.page.wait_for_function("() => window.__rlWrites >= 2")   # the refused address change is tried again
    link = address_naming(r.page, want)
    again = r.context.new_page()
    again.goto(link, wait_until="load")
    start_explorer(again.locator("#rl-matmul"))
    assert again.locator("#rl-matmul").evaluate(READ)["controls"] == shown
    again.close()


@pytest.mark.parametrize("reader", ["tile"], indirect=True)
def test_tile_every_T_buffering_gpu_threads_and_registers(reader, course):
    from roofline.show.pages import w4_4_tile_size

    r, w4 = reader, course.week4
    r.check()
    first = r.shown()["controls"]
    assert first["T"] == fmt.integer(w4.tiles[-1]) and first["copies"] == "단일 버퍼"
    assert first["gpu"] == w4.gpu
    options = w4_4_tile_size.tile_options(w4)
    gpus = [k for k, p in course.presets.items() if p.sm]
    offered = r.control("gpu").locator("option").evaluate_all("(os) => os.map((o) => o.value)")
    assert offered == gpus == list(options.gpus)
    Ts = list(options.Ts)
    assert r.range_size("T") == len(Ts)
    r.range_to("T", 0)   # every T on the chapter's GPU, single buffering
    for _ in range(len(Ts) - 1):
        r.key("T", "ArrowRight")
    for key in gpus:     # then every GPU and buffering at the smallest and the largest T
        if key != r.shown()["controls"]["gpu"]:
            r.act(lambda: r.control("gpu").select_option(key))
        for mode in BUFFERING:
            if r.shown()["controls"]["copies"] != mode:
                r.act(lambda: r.root.get_by_label(mode, exact=True).click())
            r.key("T", "Home", expect_change=r.shown()["controls"]["T"] != fmt.integer(Ts[0]))
            r.key("T", "End")
    r.key("T", "Home")
    r.key("T", "End")
    assert r.shown()["controls"]["T"] == fmt.integer(Ts[-1])
    finish(r, {"T": (lambda: r.key("T", "ArrowLeft"), lambda: r.key("T", "ArrowRight")),
               "copies": (lambda: r.act(lambda: r.root.get_by_label("단일 버퍼", exact=True).click()),
                          lambda: r.act(lambda: r.root.get_by_label("이중 버퍼링", exact=True).click())),
               "gpu": (lambda: r.act(lambda: r.control("gpu").select_option(gpus[0])),
                       lambda: r.act(lambda: r.control("gpu").select_option(gpus[-1])))})


@pytest.mark.parametrize("reader", ["vector"], indirect=True)
def test_vector_add_factors(reader, course):
    r = reader
    r.check()
    assert r.shown()["controls"] == {"P": "1배", "BW": "1배", "cap": "1배"}
    for name in ("P", "BW", "cap"):   # each to both ends and back
        r.key(name, "End")
        r.key(name, "ArrowLeft")
        r.key(name, "Home")
        r.key(name, "ArrowRight")
    r.key("P", "Home")      # the least compute with the most bandwidth: the bound flips to compute
    r.key("BW", "End")
    r.key("cap", "Home")    # the least capacity: the vectors may no longer fit
    r.key("P", "End")       # the last state
    r.key("cap", "End")
    finish(r, {name: (lambda name=name: r.key(name, "ArrowLeft"), lambda name=name: r.key(name, "ArrowRight"))
               for name in ("P", "BW", "cap")})


# ---------------------------------------------------------------- labels, dark mode, phone, reduced motion

CONTRAST = """(root) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const out = [];
  root.querySelectorAll("label, legend, output, .rl-summary, .rl-intro, td, th, select, .rl-legend").forEach((el) => {
    const a = lum(rgb(getComputedStyle(el).color).slice(0, 3)), b = lum(background(el));
    out.push([el.tagName + "." + el.className, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]);
  });
  return out;
}"""

SIDEWAYS = """(root) => {
  const width = document.documentElement.clientWidth;
  const box = root.getBoundingClientRect();
  const wide = [...root.querySelectorAll("*")].filter((el) => {
    if (el.closest("table")) return false;   // tables scroll in their own box
    return el.getBoundingClientRect().right > box.right + 1;
  }).map((el) => el.tagName + "." + el.className).slice(0, 5);
  return {width, right: box.right, scrollWidth: document.documentElement.scrollWidth, wide};
}"""


def move(control) -> str:
    """A key that changes this range or <select> from where it stands (Home/End, ArrowUp/ArrowDown)."""
    at_end = control.evaluate("(el) => el.type === 'range' ? el.value === el.max : el.selectedIndex === el.options.length - 1")
    if control.evaluate("(el) => el.type") == "range":
        return "Home" if at_end else "End"
    return "ArrowUp" if at_end else "ArrowDown"


@pytest.mark.parametrize("reader", list(EXPLORERS), indirect=True)
def test_labels_dark_mode_phone_and_motion(reader):
    r = reader
    controls = r.root.locator("[data-rl-control]")
    for i in range(controls.count()):
        el = controls.nth(i)
        label = el.evaluate("(el) => [...el.labels].map((l) => l.innerText).join(' ') + ' ' + "
                            "((el.closest('fieldset') || {}).querySelector ? el.closest('fieldset').querySelector('legend').innerText : '')")
        assert HANGUL.search(label), f"{r.name}: a control without a Korean label"
        assert el.is_visible() and el.evaluate("(el) => el.tabIndex >= 0"), f"{r.name}: a control the keyboard cannot reach"
    names = {"roofline": ["하드웨어", "자료형"], "matmul": ["행렬 한 변 N", "타일 한 변 T"],
             "tile": ["타일 한 변 T (T_M = T_N = T_K)", "단일 버퍼", "이중 버퍼링", "GPU 프리셋"],
             "vector": ["연산 성능 P의 배율 k", "메모리 대역폭 BW의 배율 k", "메모리 용량의 배율 k"]}[r.name]
    for text in names:   # the label names the course's symbol, and it finds its control
        assert r.root.get_by_label(text, exact=True).count() == 1, f"{r.name}: no control labelled {text!r}"
    keep_shot(r.root, f"explorer-{r.name}-light.png")

    for theme in ("light", "dark"):
        r.page.evaluate(f"""() => {{ document.documentElement.dataset.theme = "{theme}";
                                    document.documentElement.dataset.mode = "{theme}"; }}""")
        r.page.wait_for_timeout(50)
        faint = [(what, round(c, 2)) for what, c in r.root.evaluate(CONTRAST) if c < 4.5]
        assert faint == [], f"{r.name}: text with low contrast in {theme} mode"
        for i in range(r.root.locator("canvas").count()):
            c = screenshot_contrast(r.root.locator("canvas").nth(i).screenshot())
            assert c >= 3.0, f"{r.name}: a plot with contrast {c:.2f} in {theme} mode"
    keep_shot(r.root, f"explorer-{r.name}-dark.png")
    r.page.evaluate("""() => { document.documentElement.dataset.theme = "light"; document.documentElement.dataset.mode = "light"; }""")

    r.page.set_viewport_size(PHONE)
    r.page.wait_for_timeout(150)
    first = r.root.locator('input[type="range"][data-rl-control], select[data-rl-control]').first
    r.act(lambda: first.press(move(first)))
    side = r.root.evaluate(SIDEWAYS)
    assert side["right"] <= side["width"] + 1 and side["scrollWidth"] <= side["width"] and side["wide"] == [], \
        f"{r.name}: at 390 px the explorer is wider than the screen: {side}"
    keep_shot(r.root, f"explorer-{r.name}-phone.png")

    # a changed value is highlighted briefly, but not for a reader who asked for reduced motion: the highlights
    # started are counted (not the ones still running, which a busy machine may already have finished)
    r.page.evaluate("""() => { const animate = Element.prototype.animate; window.__rlAnimated = 0;
      Element.prototype.animate = function (...args) { window.__rlAnimated += 1; return animate.apply(this, args); }; }""")
    started = "() => window.__rlAnimated"
    r.page.emulate_media(reduced_motion="no-preference")   # (the reader's context asks for reduced motion: Reader)
    r.act(lambda: first.press(move(first)))
    assert r.page.evaluate(started) > 0, f"{r.name}: no highlight (the reduced-motion check below could not fail)"
    r.page.emulate_media(reduced_motion="reduce")
    r.page.evaluate("() => { window.__rlAnimated = 0; }")
    r.act(lambda: first.press(move(first)))
    assert r.page.evaluate(started) == 0, f"{r.name}: animations run although the reader asked for reduced motion"
    assert r.errors == [] and r.blocked == [], (r.errors, r.blocked)


# ---------------------------------------------------------------- without JavaScript

@pytest.mark.parametrize("name", list(EXPLORERS))
def test_without_javascript_the_static_figure_and_numbers_stay(browser_site, readers, course, name):
    root, base, browser = browser_site
    r = readers(name, java_script_enabled=False)
    shown = r.shown()   # evaluate works with page scripts disabled
    assert r.root.locator("form.rl-controls").is_hidden(), f"{name}: controls shown that cannot work"
    assert r.root.locator("noscript").count() == 1
    CHECKS[name](course, shown, plots=False)   # the chapter's own condition, as the library gives it
    images = r.page.locator(".bd-article img")
    for i in range(images.count()):
        img = images.nth(i)
        if img.is_visible():
            img.scroll_into_view_if_needed()
            assert img.evaluate("(img) => img.complete && img.naturalWidth > 0"), f"{name}: a static figure did not load"
    static = {"roofline": ["#fig-roofline img"], "matmul": ["#fig-tile-sweep img", "#fig-matmul-times img"]}.get(name, [])
    for selector in static:
        assert r.page.locator(selector).is_visible(), f"{name}: the static figure {selector} is gone without JavaScript"
    assert r.page.locator(".bd-article table").count() > 1, f"{name}: the chapter's tables are gone"
    assert r.blocked == [] and r.errors == []


# ---------------------------------------------------------------- weight

def test_script_and_page_weight():
    root = html_dir()
    scripts = sorted((root / "_static").glob("explorer.*")) + sorted((root / "_static" / "vendor" / "uplot").glob("*.*"))
    script_bytes = sum(p.stat().st_size for p in scripts if p.suffix in (".js", ".css"))
    assert script_bytes <= MAX_SCRIPT_BYTES, f"explorer script and styles: {script_bytes:,} bytes"
    for name, label in EXPLORERS.items():
        page = root / page_file(label_page(label))
        raw = page.read_text(encoding="utf-8")
        data = sum(len(m.encode()) for m in re.findall(r'<script type="application/json" class="rl-data">(.*?)</script>', raw, re.S))
        images = set(re.findall(r'<img[^>]+src="([^"]+)"', raw))
        total = page.stat().st_size + sum((page.parent / src).stat().st_size for src in images if (page.parent / src).is_file())
        assert data > 0, f"{name}: no precomputed states on the page"
        assert total <= MAX_PAGE_BYTES, f"{name}: HTML + images (with the states) = {total:,} bytes"


def test_the_plotting_library_is_the_pinned_copy():
    """The vendored uPlot is the release named in SOURCE.txt, byte for byte, with its licence."""
    import hashlib

    folder = ROOT / "_static" / "vendor" / "uplot"
    source = (folder / "SOURCE.txt").read_text(encoding="utf-8")
    version = re.match(r"uPlot (\d+\.\d+\.\d+) ", source)[1]
    digests = dict((name, digest) for digest, name in re.findall(r"^  ([0-9a-f]{64})  (\S+)$", source, re.M))
    assert set(digests) == {"uPlot.iife.min.js", "uPlot.min.css"}
    for name, digest in digests.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, f"{name} is not the pinned file"
    assert (folder / "uPlot.iife.min.js").read_text(encoding="utf-8").startswith(f"/*! https://github.com/leeoniya/uPlot (v{version}) */")
    assert "MIT License" in (folder / "LICENSE").read_text(encoding="utf-8")
