"""Live mode in headless Chromium, with every request outside 127.0.0.1 aborted.

On ②, ⑤ and the week-3 note the reader presses "이 페이지에서 직접 계산하기", types values no precomputed state has
(N = 3000 with tiles [40, 75]; H100 in BF16; L = 123,456,789 …), and every number and sentence the explorer then
shows is compared with the library's output for the same values computed here (roofline.show.engine, the same
function the page runs in Pyodide, and for the tables also the model directly). A bad value shows the library's
Korean ParameterError beside its field and changes nothing else. "내 커널" is checked for three kernels, on the same
page as ②'s explorer (one Pyodide per page, as a reader has). A state link round-trips: on ④ opened and pressed, on
② back into the form. No request leaves the machine. The time from the press to the first live result and of one
recompute are figures (written to <build>/screenshots/live-measurements.json), never assertions.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

import roofline as rl
from browser_helpers import (
    HANGUL,
    SCREENSHOTS,
    address_naming,
    chromium,
    html_dir,
    label_page,
    local_context,
    page_file,
    screenshot_dir,
    serve,
)
from roofline import buffers, kernels, occupancy
from roofline.cost import Timing
from roofline.show import engine, fmt
from roofline.show.pages import w4_2_roofline

pytestmark = pytest.mark.heavy(100)   # rough seconds, for the order of the run (tests/conftest.py)

MEASURED: dict = {}
DESKTOP = {"width": 1280, "height": 900}
LOAD_MS = 600_000      # Pyodide's cold start on a busy 2-core machine: a generous bound, not a target

READ = r"""(root) => {
  const norm = (s) => s.replace(/\u00a0/g, " ").replace(/\s+/g, " ").trim();
  const fields = {};
  root.querySelectorAll("[data-rl-field]").forEach((el) => { if (el.tagName === "SPAN" || el.tagName === "BUTTON") fields[el.dataset.rlField] = norm(el.textContent); });
  const tables = {};
  root.querySelectorAll("[data-rl-table]").forEach((el) => {
    tables[el.dataset.rlTable] = [...el.rows].map((tr) => [...tr.cells].map((td) => norm(td.textContent)));
  });
  const charts = {};
  for (const [name, u] of Object.entries(root.rlExplorer.charts)) charts[name] = u.data;
  const errors = {};
  root.querySelectorAll("[data-rl-error]").forEach((el) => { errors[el.dataset.rlError] = el.textContent; });
  const widths = {};
  root.querySelectorAll("[data-rl-width]").forEach((el) => { widths[el.dataset.rlWidth] = el.style.width; });
  const intro = norm(root.querySelector(".rl-intro").textContent);
  const summary = norm(root.querySelector(".rl-summary").textContent);
  return {fields, tables, charts, errors, widths, intro, summary, flags: [...root.classList]};
}"""


def norm(text: str) -> str:
    return " ".join(str(text).replace("\u00a0", " ").split())


def expected(page: str, values: dict) -> dict:
    out = json.loads(engine.live(page, json.dumps(values)))
    assert "state" in out, out
    return out["state"]


@pytest.fixture(scope="module")
def site():
    root = html_dir()
    assert (root / "_static" / "live" / "pyodide" / "pyodide.asm.wasm").is_file(), "no Pyodide in the built site"
    with serve(root) as base, chromium() as browser:
        tab = Tab(browser, base)
        yield base, browser, tab
        tab.close()
    path = screenshot_dir() / "live-measurements.json"
    path.write_text(json.dumps(MEASURED, indent=2, ensure_ascii=False), encoding="utf-8")


class Tab:
    """One tab for the module's readers, one after another (roofline_page, open through several tests, has its own):
    the renderer of a tab compiles Pyodide's WebAssembly once and finds it compiled on the tab's next page (V8 keeps
    a compiled module for the same bytes), where a tab per reader compiled it for each page (a press on ⑤ or ④: about
    1.4 against 2.9 CPU-s). Each reader's page is still a new load, with an empty record (the last reader's live mode
    is not remembered)."""

    def __init__(self, browser, base: str):
        self.browser, self.base, self.page, self.blocked = browser, base, None, []

    def take(self):
        """The tab, its record cleared, and its (emptied) list of blocked requests."""
        if self.page is None:
            self.page = local_context(self.browser, self.base, self.blocked, viewport=DESKTOP).new_page()
        elif self.page.url.startswith(self.base):
            self.page.evaluate("() => localStorage.clear()")
        self.blocked.clear()
        return self.page, self.blocked

    def close(self):
        if self.page is not None:
            self.page.context.close()


class Reader:
    def __init__(self, site, label: str, uid: str, hash_: str = "", own_tab: bool = False):
        base, browser, tab = site
        self.context = None
        if own_tab:
            self.blocked: list[str] = []
            self.context = local_context(browser, base, self.blocked, viewport=DESKTOP)
            self.page = self.context.new_page()
        else:
            self.page, self.blocked = tab.take()
        self.errors: list[str] = []
        self.listeners = {"console": lambda m: self.errors.append(m.text) if m.type == "error" else None,
                          "pageerror": lambda e: self.errors.append(str(e))}
        for event, listener in self.listeners.items():
            self.page.on(event, listener)
        self.url = base + page_file(label_page(label))
        if self.page.url.split("#")[0] == self.url:   # the tab's page already: a goto to another #… would not load it
            self.page.goto(self.url + hash_, wait_until="commit")
            self.page.reload(wait_until="load")
        else:
            self.page.goto(self.url + hash_, wait_until="load")
        self.uid = uid
        self.root = self.page.locator(f"#{uid}")
        self.root.scroll_into_view_if_needed()     # an explorer starts when it comes near the screen
        self.root.locator(".rl-live-button").wait_for()

    def explorer(self, uid: str) -> "Reader":
        """Another explorer of the same page (one Pyodide per page: pressing its button reuses the one loaded)."""
        other = object.__new__(Reader)
        other.__dict__.update(self.__dict__, uid=uid, root=self.page.locator(f"#{uid}"))
        other.root.scroll_into_view_if_needed()
        other.root.locator(".rl-live-button").wait_for()
        return other

    def press(self) -> float:
        started = time.perf_counter()
        self.page.evaluate("(uid) => { window.__live = 0; document.getElementById(uid).addEventListener('rl-live', "
                           "() => { window.__live += 1; }); }", self.uid)
        self.root.locator(".rl-live-button").click()
        self.page.wait_for_function("() => window.__live > 0", timeout=LOAD_MS)
        return (time.perf_counter() - started) * 1000

    def type(self, values: dict, error: bool = False) -> float:
        """Fill the fields; wait for the recompute (or the error) that follows the last one."""
        self.page.evaluate("(uid) => { const r = document.getElementById(uid); window.__n = 0; window.__ms = 0;"
                           "r.addEventListener('rl-live', (e) => { window.__n += 1; window.__ms = e.detail.ms; });"
                           "r.addEventListener('rl-live-error', () => { window.__n += 1; }); }", self.uid)
        for name, value in values.items():
            field = self.root.locator(f'[data-rl-live="{name}"]')
            if field.evaluate("el => el.tagName") == "SELECT":
                field.select_option(str(value))
            else:
                field.fill(str(value))
                field.dispatch_event("change")
        # each field's `change` recomputes at once (live.js: compute is synchronous, and clears the debounce timer of
        # its `input` event), so every field typed has its recompute or error by now: no timer is left to wait for
        self.page.wait_for_function("(n) => window.__n >= n", arg=len(values))
        return self.page.evaluate("() => window.__ms")

    def read(self) -> dict:
        return self.root.evaluate(READ)

    def close(self):
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)
        assert not self.blocked, f"requests left the machine: {self.blocked[:5]}"
        assert not self.errors, self.errors
        if self.context is not None:
            self.context.close()


def check_state(shown: dict, state: dict) -> None:
    for name, text in state.get("fields", {}).items():
        if name in shown["fields"]:
            assert shown["fields"][name] == norm(text), name
    for name, table in state.get("tables", {}).items():
        assert shown["tables"][name] == [[norm(c) for c in row] for row in table["rows"]]
    for name, plot in state.get("plots", {}).items():
        assert shown["charts"][name] == [plot["x"], *plot["y"]], name
    for name, on in state.get("flags", {}).items():
        assert (f"rl-{name}" in shown["flags"]) is on
    for name, width in state.get("widths", {}).items():
        assert float(shown["widths"][name].removesuffix("%")) == float(width.removesuffix("%")), name   # "0.0%" is "0%" in CSS


@pytest.fixture(scope="module")
def roofline_page(site):
    """②, with its two explorers (the conditions and "내 커널"): one page, so one Pyodide for both."""
    reader = Reader(site, "ch-roofline", "rl-roofline", own_tab=True)
    yield reader
    reader.close()


def test_roofline_live(site, roofline_page):
    course = rl.load()
    reader = roofline_page
    MEASURED["press_to_first_result_ms"] = round(reader.press())
    shown = reader.read()
    w4 = course.week4
    check_state(shown, expected("roofline", {"hardware": w4.hardware, "dtype": w4.dtype, "N": str(w4.N),
                                             "tiles": str(list(w4.tiles))}))
    values = {"hardware": "H100_SXM", "dtype": "BF16", "N": "3000", "tiles": "[40, 75]"}
    MEASURED["recompute_ms"] = round(reader.type(values), 1)
    shown = reader.read()
    state = expected("roofline", values)
    check_state(shown, state)
    # the table also equals the model computed here directly
    hw, s = course.catalog.roofline("H100_SXM", "BF16"), course.dtypes["BF16"]
    for row, T in zip(shown["tables"]["cases"], [None, 40, 75]):
        cost = kernels.matmul_no_reuse(3000, s, s) if T is None else kernels.matmul_tiled(3000, T, s, s)
        t = Timing(cost, hw)
        assert row[1:4] == [fmt.decimal(cost.I, 6), fmt.tera(t.R_roof, 6), fmt.ms(t.t_ideal, 6)]
    assert shown["fields"]["machine"] == f"{course.presets['H100_SXM'].name}, BF16"
    assert "메모리 한계" in shown["fields"]["regimes"] or "연산 한계" in shown["fields"]["regimes"]
    # bad values: the Korean error beside the field, nothing else changes
    for bad, field in [({"N": "0"}, "N"), ({"tiles": "[40, 64]"}, "tiles")]:
        reader.type(bad, error=True)
        after = reader.read()
        want = json.loads(engine.live("roofline", json.dumps({**values, **bad})))
        assert after["errors"][field] == want["error"] and want["field"] == field
        assert [k for k, v in after["errors"].items() if v] == [field]
        assert after["tables"] == shown["tables"] and after["fields"] == shown["fields"]
        reader.type({"N": "3000", "tiles": "[40, 75]"})
    # the state link: the address the page wrote brings the typed values back into the form (that pressing then gives
    # their state is checked on ④, test_tile_size_live, which is opened from such a link)
    link = address_naming(reader.page, {"roofline.N": "3000", "roofline.hardware": "H100_SXM"})
    again = Reader(site, "ch-roofline", "rl-roofline", "#" + link.split("#", 1)[1])
    for name, value in values.items():
        assert again.root.locator(f'[data-rl-live="{name}"]').input_value() == value, name
    again.close()


def test_precomputed_state_link(site):
    """A link to a precomputed state ("H100, BF16") restores it without live mode."""
    course = rl.load()
    reader = Reader(site, "ch-roofline", "rl-roofline", "#roofline.hardware=H100_SXM&roofline.dtype=BF16")
    w4 = course.week4.with_(hardware="H100_SXM", dtype="BF16")
    check_state(reader.read(), json.loads(json.dumps(w4_2_roofline.roofline_state(w4))))
    assert reader.root.locator('[data-rl-control="hw"]').input_value() == "H100_SXM"
    reader.close()


def test_my_kernel_live(roofline_page):
    reader = roofline_page.explorer("rl-kernel")
    reader.press()
    for values in [
        {"hardware": "H100_SXM", "dtype": "BF16", "kernel": "matmul", "N": "6144", "T": "128", "t_ms": "2.5"},
        {"hardware": "T4", "dtype": "FP32", "kernel": "vector_add", "L": "123_456_789", "t_ms": "0.01"},
        {"hardware": "A100_SXM", "dtype": "FP16", "kernel": "batched_gemm", "b": "16", "N": "4096", "K": "4096", "t_ms": ""},
    ]:
        reader.type(values)
        sent = {k: v for k, v in values.items()}
        state = expected("kernel", sent)
        check_state(reader.read(), state)
    shown = reader.read()
    reader.type({"hardware": "T4", "dtype": "FP32", "kernel": "vector_add", "L": "123_456_789", "t_ms": "0.01"})
    shown = reader.read()
    assert "rl-above" in shown["flags"] and "불가능한 값" in shown["fields"]["k-verdict"]


def test_my_kernel_live_predict_first(roofline_page):
    """Live mode with predict mode on ("내 커널", issue 39): the library's state for the typed values waits for the
    guess (no headline value in the text or the accessibility tree), then the model's value, the error and the why
    are the engine's, and every value is placed."""
    from roofline.show import exercises as ex
    from roofline.show import predict as pr

    reader = object.__new__(Reader)
    reader.__dict__.update(roofline_page.__dict__, uid="rl-kernel", root=roofline_page.page.locator("#rl-kernel"))
    root = reader.root
    root.scroll_into_view_if_needed()
    root.locator(".rl-predict-toggle").wait_for()
    if root.locator(".rl-live-form").is_hidden():
        reader.press()
    if root.locator(".rl-predict-toggle").get_attribute("aria-pressed") != "true":
        root.locator(".rl-predict-toggle").click()
        root.locator(".rl-predict").wait_for()
    values = {"hardware": "H100_SXM", "dtype": "BF16", "kernel": "matmul", "N": "2048", "T": "64", "t_ms": ""}
    reader.type(values)
    root.locator(".rl-predict-form").wait_for()
    state = expected("kernel", values)
    part = state["predict"]
    for name in part["hide"]["fields"]:
        assert root.locator(f'[data-rl-field="{name}"]').inner_text() == "?", name
    text, tree = root.inner_text(), root.aria_snapshot()
    for q in part["questions"]:
        if "." in q["shown"]:
            assert q["shown"] not in text and q["shown"] not in tree, q["id"]
    q = next(q for q in part["questions"] if q["id"] == "t")
    guess = f"{float(pr.exact(q['answer']) * 2000):.10g}"        # twice the time, in ms
    root.locator(".rl-predict-form fieldset").filter(has_text=q["ask"]).locator("input[type=text]").fill(guess)
    root.locator(".rl-predict-check").click()
    item = root.locator('.rl-predict-result[data-quantity="t"]')
    item.wait_for()
    assert f"모델: {q['shown']}." in item.inner_text()
    error = pr.error_text(ex.read(guess).value / 1000, pr.exact(q["answer"]))
    assert item.locator(".rl-predict-error").inner_text() == f"오차 {error}."
    assert item.locator(".rl-predict-why").inner_text() == q["why"]
    check_state(reader.read(), state)
    root.locator(".rl-predict-toggle").click()
    roofline_page.page.evaluate("() => window.rlProgress.reset()")


NCU = Path(__file__).resolve().parents[1] / "fixtures" / "ncu"


def test_my_kernel_from_ncu_csv(roofline_page):
    """"내 커널" from an Nsight Compute CSV (issue 58): pasted, chosen with the file picker and dropped, the file's
    kernel is placed as the library places it (roofline.ncu through kernel_state); a file with several kernels asks
    for the ID beside its field and places nothing; the file stays out of the page's address."""
    reader = object.__new__(Reader)   # the explorer pressed by the tests above (its button is gone then)
    reader.__dict__.update(roofline_page.__dict__, uid="rl-kernel", root=roofline_page.page.locator("#rl-kernel"))
    reader.root.scroll_into_view_if_needed()
    if reader.root.locator(".rl-live-form").is_hidden():
        reader.press()
    course = rl.load()
    hardware = next(key for key, preset in course.presets.items() if "FP32" in preset.peak)
    reader.type({"hardware": hardware, "dtype": "FP32"})
    before = reader.read()
    several = (NCU / "raw_several.csv").read_text(encoding="utf-8")
    reader.type({"kernel": "ncu", "ncu_id": "", "ncu": several}, error=True)
    shown = reader.read()
    want = json.loads(engine.live("kernel", json.dumps({"hardware": hardware, "dtype": "FP32", "kernel": "ncu",
                                                        "ncu": several, "ncu_id": ""})))
    assert want["field"] == "ncu_id" and shown["errors"]["ncu_id"] == want["error"]
    assert shown["fields"] == before["fields"]          # nothing placed
    assert reader.root.locator('[data-rl-live-row="t_ms"]').is_hidden()   # the file holds the time
    reader.type({"ncu_id": "1"})
    values = {"hardware": hardware, "dtype": "FP32", "kernel": "ncu", "ncu": several, "ncu_id": "1"}
    check_state(reader.read(), expected("kernel", values))
    # F's panel: the rule and the file's metrics with their row
    reader.root.locator('button.rl-why[data-rl-field="k-F"]').first.click()
    reader.page.wait_for_selector("#rl-why-panel .rl-why-result")
    text = reader.page.inner_text("#rl-why-panel")
    assert "n_fadd + n_fmul + 2·n_ffma" in text, text
    assert "sm__sass_thread_inst_executed_op_ffma_pred_on.sum = 68,719,476,736 inst (Nsight Compute CSV 5행)" in text, text
    reader.page.keyboard.press("Escape")
    # the address, once written (the explorer writes it when the reader pauses), names the ID and not the file
    assert "ncu=" not in urlsplit(address_naming(reader.page, {"kernel.ncu_id": "1"})).fragment
    # the device's file picker, then a file dropped on the field
    details = NCU / "details.csv"
    reader.type({"ncu_id": ""}, error=True)   # several kernels again: the ID is asked for
    for put in ("picker", "drop"):
        reader.page.evaluate("(uid) => { window.__n = 0; document.getElementById(uid).addEventListener('rl-live', "
                             "() => { window.__n += 1; }); }", reader.uid)
        if put == "picker":
            reader.root.locator('[data-rl-live-row="ncu"] input[type=file]').set_input_files(str(details))
        else:
            reader.page.evaluate("""([uid, text]) => {
              const dt = new DataTransfer();
              dt.items.add(new File([text], "details.csv", {type: "text/csv"}));
              document.querySelector(`#${uid} [data-rl-live="ncu"]`).dispatchEvent(
                new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
            }""", [reader.uid, details.read_text(encoding="utf-8")])
        reader.page.wait_for_function("() => window.__n > 0")
        text = details.read_text(encoding="utf-8")
        assert reader.root.locator('[data-rl-live="ncu"]').input_value() == text
        check_state(reader.read(), expected("kernel", {**values, "ncu": text, "ncu_id": ""}))
        reader.root.locator('[data-rl-live="ncu"]').fill("")


def test_matmul_live(site):
    reader = Reader(site, "ch-matmul", "rl-matmul")
    reader.press()
    values = {"hardware": "course", "dtype": "FP32", "N": "3000", "tiles": "[40, 75]", "T": "75"}
    reader.type(values)
    check_state(reader.read(), expected("matmul", values))
    # a number's panel: the live result's record, with the typed values put in and named as typed
    reader.root.locator('button.rl-why[data-rl-field="r1-7"]').first.click()
    reader.page.wait_for_selector("#rl-why-panel .rl-why-result")
    text = reader.page.inner_text("#rl-why-panel")
    assert expected("matmul", values)["fields"]["r1-7"] in text and "t_ideal" in text, text
    reader.page.locator("#rl-why-panel a", has_text="유도 보기: t_memory").click()
    expect(reader.page.locator("#rl-why-panel")).to_contain_text("Q_T")
    reader.page.locator("#rl-why-panel a", has_text="유도 보기: Q_T").click()
    expect(reader.page.locator("#rl-why-panel")).to_contain_text("3,000")
    text = reader.page.inner_text("#rl-why-panel")
    assert "N = 3,000 ← 직접 계산하기에 적은 값 N" in text and "T = 75 ← 직접 계산하기에 적은 값 T" in text, text
    reader.page.keyboard.press("Escape")
    shown = reader.read()
    reader.type({"T": "64"}, error=True)
    after = reader.read()
    assert after["errors"]["T"].startswith("T: ") and after["fields"] == shown["fields"]
    reader.close()


def test_vector_add_live(site):
    """Week 3 on another machine: the numbers, and the intro's words that name the machine, follow. A dtype the
    machine's CUDA cores do not run at a peak of its own (a vector add cannot use Tensor Cores) is refused beside
    the field in the library's Korean line, and nothing else changes."""
    course = rl.load()
    reader = Reader(site, "ch-week3", "rl-vector")
    reader.press()
    dtype = next(iter(course.presets["H100_SXM"].cuda))
    values = {"hardware": "H100_SXM", "dtype": dtype, "L": "123,456,789".replace(",", "_"),
              "capacity": "16_000_000_000", "kP": "3", "kBW": "1/4", "kcap": "1/32"}
    reader.type(values)
    shown = reader.read()
    check_state(shown, expected("vector-add", values))
    name = course.presets["H100_SXM"].name
    assert (shown["fields"]["base"], shown["fields"]["dtype"]) == (name, dtype)
    assert name in shown["intro"] and dtype in shown["intro"]
    assert course.presets[course.week3.hardware].name not in shown["intro"]
    tensor_only = next(d for d in course.presets["H100_SXM"].peak if d not in course.presets["H100_SXM"].cuda)
    reader.type({"dtype": tensor_only}, error=True)
    after = reader.read()
    want = json.loads(engine.live("vector-add", json.dumps({**values, "dtype": tensor_only})))
    assert want["field"] == "dtype" and after["errors"]["dtype"] == want["error"], after["errors"]
    assert after["fields"] == shown["fields"] and after["tables"] == shown["tables"]
    reader.close()


def shoot(page, root, width: int, path) -> None:
    """The whole explorer in one frame: a window as tall as it, so no sticky header or scrolling cuts it."""
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(150)
    height = root.evaluate("(el) => el.getBoundingClientRect().height")
    page.set_viewport_size({"width": width, "height": int(height) + 240})
    root.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(150)
    page.screenshot(path=path, clip=root.bounding_box())


def tile_expected_here(course, v: dict) -> dict:
    """④'s shown values for the typed values, computed here from roofline.buffers and roofline.occupancy."""
    s = course.dtypes[v["dtype"]]
    T, copies, threads, extra = int(v["T"]), int(v["copies"]), int(v["threads"]), int(v["extra_registers"])
    preset = course.presets[v["gpu"]]
    b = buffers.tile_buffers(T, T, T, s, s, copies)
    case = occupancy.tile_case(preset, T, s, copies, threads, extra)
    want = {"b2": fmt.kib(b.inputs), "b4": fmt.kib(b.total), "smem": fmt.kib(copies * 2 * s * T * T)}
    if case.result is not None:
        r = occupancy.occupancy(preset, threads, case.registers, copies * 2 * s * T * T)
        want.update({"blocks": fmt.integer(r.blocks), "occupancy": fmt.percent(r.occupancy, 1),
                     "warps": f"{fmt.integer(r.warps)} / {fmt.integer(r.max_warps)}"})
    return want


def test_tile_size_live(site):
    """④ opened from a link that holds values no precomputed state has (as a reader receives one): the form holds
    them, and pressing gives their state; then more free values of the parameter cell (N = 3000, tiles [40, 75], another
    GPU, threads, registers allowance), every shown number and sentence the library's; bad values beside their field;
    the link the page writes is the one it was opened with (so a link round-trips); screenshots."""
    course = rl.load()
    w4 = course.week4
    start = {"dtype": w4.dtype, "N": str(w4.N), "tiles": str(list(w4.tiles)), "threads": str(w4.threads), "gpu": w4.gpu,
             "extra_registers": str(w4.extra_registers), "T": str(w4.tiles[-1]), "copies": "1"}
    cases = [
        {"dtype": "FP32", "N": "3000", "tiles": "[40, 75]", "threads": "384", "gpu": "T4", "extra_registers": "40",
         "T": "75", "copies": "1"},
        {"dtype": "BF16", "N": "6144", "tiles": "[48, 96, 192]", "threads": "96", "gpu": "A100_SXM",
         "extra_registers": "24", "T": "96", "copies": "2"},
        start,                           # the parameter cell's own values
        {"dtype": "FP32", "N": "3000", "tiles": "[40, 75]", "threads": "2048", "gpu": "H200_SXM", "extra_registers": "40",
         "T": "40", "copies": "1"},      # more threads than a block may have: the reason, no number
    ]
    link = {f"tile.{name}": value for name, value in cases[0].items()}
    reader = Reader(site, "ch-tile-size", "rl-tile", "#" + urlencode(link))
    for name, value in cases[0].items():
        assert reader.root.locator(f'[data-rl-live="{name}"]').input_value() == value, name
    labels = {name: label for name, label in engine.form("tile-size").fields}
    for name in start:   # the form: the parameter cell's names, with its comments
        assert reader.root.get_by_label(f"{name} {labels[name]}", exact=True).count() == 1, name
    MEASURED["tile_press_to_first_result_ms"] = round(reader.press())
    assert reader.root.locator(".rl-controls").is_hidden()
    timings = []
    for number, values in enumerate(cases):
        if number:
            timings.append(reader.type(values))
        shown = reader.read()
        state = expected("tile-size", values)
        check_state(shown, state)
        here = tile_expected_here(course, values)
        assert {k: shown["fields"][k] for k in here} == here
        name = course.presets[values["gpu"]].name.split(" (")[0]
        assert shown["fields"]["gpu-name"] == name and name in shown["intro"]
        assert f"{values['dtype']} 원소 {course.dtypes[values['dtype']]} Byte" in shown["intro"]
        assert shown["summary"] == norm(f"{state['fields']['tile']}: {state['fields']['verdict']}")
        assert [row[0] for row in shown["tables"]["tiles"]] == [f"T = {T}" for T in json.loads(values["tiles"])]
    MEASURED["tile_recompute_ms"] = [round(ms, 1) for ms in timings]
    assert "넘는다" in shown["fields"]["verdict"] and shown["fields"]["blocks"] == "—"
    values = cases[0]
    reader.type(values)
    shown = reader.read()
    # the page writes the typed values into its address: the very link it was opened with
    written = parse_qsl(urlsplit(address_naming(reader.page, link)).fragment)
    assert {k: v for k, v in written if k.startswith("tile.")} == link, written
    # bad values: the library's Korean error beside its field, nothing else changes
    for bad, field in [({"N": "0"}, "N"), ({"tiles": "[40, 64]"}, "tiles"), ({"T": "64"}, "T"),
                       ({"threads": "0"}, "threads"), ({"gpu": "course"}, "gpu"), ({"extra_registers": "-1"}, "extra_registers")]:
        reader.type(bad, error=True)
        after = reader.read()
        want = json.loads(engine.live("tile-size", json.dumps({**values, **bad})))
        assert want["field"] == field and after["errors"][field] == want["error"] and HANGUL.search(want["error"])
        assert [k for k, v in after["errors"].items() if v] == [field]
        assert (after["fields"], after["tables"], after["widths"]) == (shown["fields"], shown["tables"], shown["widths"])
        reader.type({field: values[field]})
    # screenshots of ④ in live mode: light, dark, 390 px (looked at, not compared: `make screenshots`)
    for name, theme, width in (("light", "light", 1280), ("dark", "dark", 1280), ("phone", "light", 390)):
        reader.page.evaluate("(t) => { document.documentElement.dataset.theme = t; document.documentElement.dataset.mode = t; }",
                             theme)
        if SCREENSHOTS:
            shoot(reader.page, reader.root, width, screenshot_dir() / f"live-tile-{name}.png")
        else:
            reader.page.set_viewport_size({"width": width, "height": 900})
    wide = reader.page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert wide, "at 390 px the live form is wider than the screen"
    reader.close()


def test_tile_size_precomputed_state_link(site):
    """A link to a precomputed state of ④ (T, buffering, GPU) restores it without live mode."""
    course = rl.load()
    w4 = course.week4
    T = w4.tiles[0]
    reader = Reader(site, "ch-tile-size", "rl-tile", f"#tile.T={T}&tile.copies=2&tile.gpu=T4")
    values = {"dtype": w4.dtype, "N": str(w4.N), "tiles": str(list(w4.tiles)), "threads": str(w4.threads), "gpu": "T4",
              "extra_registers": str(w4.extra_registers), "T": str(T), "copies": "2"}
    check_state(reader.read(), expected("tile-size", values))
    assert reader.root.locator('[data-rl-control="gpu"]').input_value() == "T4"
    assert reader.root.locator('[data-rl-control="copies"][value="2"]').is_checked()
    reader.close()
