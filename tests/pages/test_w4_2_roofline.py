"""② Roofline (chapters/w4_2_roofline.md, roofline.show.pages.w4_2_roofline): its glued values for the seed and the
live parameters, its sentences, the roofline figure, and its explorer's states (the roofline and "내 커널") in Python.
"""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import roofline as rl
from conftest import SEED_TABLE, live_glued, seed_glued
from roofline import gemm, kernels
from roofline.cost import Timing
from roofline.show import engine, fmt, ko
from roofline.show.figures import FIGURES

pytestmark = pytest.mark.heavy(20)   # rough seconds, for the order of the run (tests/conftest.py)
BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)


def test_roofline_figure_marks_the_seeds_four_cases(seed):
    fig = FIGURES["week4-roofline"](seed.week4)
    ax = fig.axes[0]
    points = [v for line in ax.lines if line.get_marker() == "o" for v in (line.get_xdata()[0], line.get_ydata()[0])]
    expected = [0.249969, 0.249969, 7.968872, 7.968872, 15.875969, 15.875969, 31.507692, 20.0]
    assert points == pytest.approx(expected, rel=1e-5)
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert "FLOPs/Byte" in ax.get_xlabel() and "TFLOPs/s" in ax.get_ylabel()
    ridge = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert ridge and ridge[0].get_xdata()[0] == 20


TERA = 10**12


def test_figure_points_are_the_computed_bounds(course, cases):
    ax = FIGURES["week4-roofline"](course.week4).axes[0]
    points = [(float(line.get_xdata()[0]), float(line.get_ydata()[0])) for line in ax.get_lines()
              if line.get_marker() == "o"]
    expected = [(float(c.cost.I), float(c.timing.R_roof) / TERA) for c in cases]
    assert [v for point in points for v in point] == pytest.approx([v for point in expected for v in point], rel=1e-12)


def test_figure_case_colours_are_the_shared_mapping(course, cases):
    # one mapping for every week-4 figure: 0 = 재사용 없음, then the tiles in order
    from matplotlib.colors import to_hex

    from roofline.show import style

    assert style.CASE_COLORS[0] == "#d62728" and len(set(style.CASE_COLORS)) == len(style.CASE_COLORS)
    assert [style.case_color(i) for i in range(len(cases))] == style.CASE_COLORS[:len(cases)]
    with pytest.raises(ValueError, match=r"^tiles: "):
        style.case_color(len(style.CASE_COLORS))
    ax = FIGURES["week4-roofline"](course.week4).axes[0]
    colours = [to_hex(line.get_color()) for line in ax.get_lines() if line.get_marker() == "o"]
    assert colours == style.CASE_COLORS[:len(cases)]


def machines(course):
    """The live week-4 problem on every preset of the catalog, in the dtypes of its highest and lowest ridge
    (the labels right of the ridge need the most room at the highest)."""
    found = []
    for key, preset in course.presets.items():
        ridges = {dtype: course.catalog.roofline(key, dtype).ridge for dtype in preset.peak}
        for dtype in sorted({max(ridges, key=ridges.get), min(ridges, key=ridges.get)}):
            found.append(course.week4.with_(hardware=key, dtype=dtype))
    return found


@pytest.mark.parametrize("term", ["live", "seed", "every machine"])
def test_figure_labels_stay_off_the_line_and_inside(course, seed, term):
    for w4 in machines(course) if term == "every machine" else [{"live": course, "seed": seed}[term].week4]:
        labels_stay_off_the_lines(w4)


def labels_stay_off_the_lines(w4):
    fig = FIGURES["week4-roofline"](w4)
    canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()                  # the layout (where each text lands) without painting the pixels
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    roof = ax.get_lines()[0]                      # min(P, BW×I), drawn first
    xy = ax.transData.transform(list(zip(roof.get_xdata(), roof.get_ydata())))
    axes_box = ax.get_window_extent(renderer)
    ridge_x = ax.transData.transform((float(w4.roofline.ridge), 1))[0]
    labels = [t for t in ax.findobj(Text) if t.get_text() and t.axes is ax
              and t not in (ax.title, ax.xaxis.label, ax.yaxis.label)
              and t not in ax.get_xticklabels() + ax.get_yticklabels()
              and (ax.get_legend() is None or t not in [*ax.get_legend().get_texts(), ax.get_legend().get_title()])]
    assert len(labels) >= 3                       # memory, ceiling, ridge
    for text in labels:
        box = text.get_window_extent(renderer)
        assert axes_box.contains(box.x0, box.y0) and axes_box.contains(box.x1, box.y1), text.get_text()
        inside = contains(text, renderer)
        assert not [p for p in xy if inside(p)], f"label {text.get_text()!r} overlaps the roofline"
        assert not box.x0 <= ridge_x <= box.x1, \
            f"{w4.hardware} {w4.dtype}: label {text.get_text()!r} crosses the dashed ridge line"


def contains(text, renderer):
    """point → whether that display point lies in the text's (possibly rotated) box: the point is turned back
    about the text's anchor and compared with the box of the same text upright (measured once per label)."""
    angle = math.radians(text.get_rotation())
    if angle == 0:
        box = text.get_window_extent(renderer)
        return lambda point: box.x0 <= point[0] <= box.x1 and box.y0 <= point[1] <= box.y1
    assert text.get_rotation_mode() == "anchor"
    upright = Text(*text.get_position(), text.get_text(), transform=text.get_transform(), figure=text.figure,
                   fontproperties=text.get_fontproperties(), ha=text.get_ha(), va=text.get_va())
    box = upright.get_window_extent(renderer)
    ax, ay = text.get_transform().transform(text.get_position())
    cos, sin = math.cos(angle), math.sin(angle)

    def inside(point) -> bool:
        dx, dy = point[0] - ax, point[1] - ay
        x, y = ax + dx * cos + dy * sin, ay - dx * sin + dy * cos
        return box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1
    return inside


def shown(glued: dict[str, dict]) -> dict[str, str]:
    """name → what the page shows: the table (Markdown), the equation (LaTeX) or the text."""
    return {name: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle)
            for name, bundle in glued.items()}


def test_roofline_values_for_the_seed():
    glued = shown(seed_glued("w4_2_roofline"))
    for label, rate, ms in SEED_TABLE:
        assert f"| {label} | {rate} | {ms} |" in glued["time-table"]
    assert glued["F"] == "137,438,953,472"
    assert glued["points"] == ("분기점보다 I가 작은 재사용 없음·T = 32·T = 64는 메모리 한계로, 기울어진 선 위에 있고, "
                               "상한은 약 0.250·7.969·15.876 TFLOPs/s다. 분기점을 넘은 T = 128은 연산 한계다. "
                               "I가 약 31.508 FLOPs/Byte여도 상한이 P = 20 TFLOPs/s에서 멈춘다.")
    # the limiting resource is said in sentences, computed: at I = I* both ceilings limit
    assert glued["q-R0-limit"] == "I가 분기점보다 작으므로 제한 자원은 HBM 대역폭이다."
    assert glued["q-limit-P"] == "I가 새 분기점보다 작으므로 제한 자원은 HBM 대역폭이다."
    assert glued["q-limit-BW"] == ("이제 I가 새 분기점 I* = 10 FLOPs/Byte와 같아 두 상한이 만난다. "
                                   "HBM 대역폭과 연산 성능이 동시에 제한 자원이다.")
    assert glued["q-R-BW-change"] == "두 배가 된다"
    assert (glued["q-ridge-P"], glued["q-ridge-BW"]) == ("40", "10")
    assert (glued["q-I"], glued["q-R0"], glued["q-R-P"], glued["q-R-BW"]) == ("10", "10", "10", "20")
    assert glued["q-R-P-change"] == "그대로다"
    assert "&= 20\\ \\text{FLOPs/Byte}" in glued["ridge-eq"]
    assert "\\frac{20 \\times 10^{12}\\ \\text{FLOPs/s}}{1 \\times 10^{12}\\ \\text{Byte/s}}" in glued["ridge-eq"]


def test_roofline_chapter_follows_the_live_parameters(course, cases):
    glued = shown(live_glued("w4_2_roofline"))
    for c in cases:
        assert f"| {ko.case(c)} | {fmt.tera(c.timing.R_roof, 6)} | {fmt.ms(c.timing.t_ideal, 6)} |" in glued["time-table"]
    assert glued["F"] == fmt.integer(2 * course.week4.N**3)
    assert glued["n-cases"] == str(len(cases))
    memory = [c for c in cases if c.timing.memory_bound]
    assert not memory or f"상한은 약 {'·'.join(fmt.tera(c.timing.R_roof, 3) for c in memory)} TFLOPs/s다." in glued["points"]


def test_limit_sentences_and_changes():
    from roofline.hardware import Roofline
    from roofline.show.pages import w4_2_roofline as bounds

    hw = Roofline(20 * TERA, 1 * TERA)
    ridge, src = hw.derivation("I*"), {"P": "toml:presets.course.peak.FP32", "BW": "toml:presets.course.BW"}
    said = bounds.limit_sentence(ridge, 20, src, memory="HBM")
    assert said == "I가 분기점 I* = 20 FLOPs/Byte와 같아 두 상한이 만난다. HBM 대역폭과 연산 성능이 동시에 제한 자원이다."
    assert [p["shown"] for p in said.why["parts"]] == ["20"]   # the ridge, with its record I* = P/BW
    assert bounds.limit_sentence(ridge, 30, src, new=True, memory="HBM") == "I가 새 분기점보다 크므로 제한 자원은 연산 성능이다."
    assert bounds.limit_sentence(ridge, 5, src, memory="GDDR6") == "I가 분기점보다 작으므로 제한 자원은 GDDR6 대역폭이다."
    assert [bounds.change(10, x) for x in (10, 20, 25)] == ["그대로다", "두 배가 된다", "2.50배가 된다"]


def live(page, **values):
    return json.loads(engine.live(page, json.dumps({k: str(v) for k, v in values.items()})))


def expected_roofline_rows(course, hardware, dtype, N, tiles):
    hw = course.catalog.roofline(hardware, dtype)
    s = course.dtypes[dtype]
    # the memory by its name (course.toml): "HBM" for every HBM generation, GDDR6 on a T4
    memory = "HBM" if course.presets[hardware].memory.startswith("HBM") else course.presets[hardware].memory
    costs = [("재사용 없음", kernels.matmul_no_reuse(N, s, s))] + [(f"T = {T}", kernels.matmul_tiled(N, T, s, s)) for T in tiles]
    rows = []
    for label, cost in costs:
        t = Timing(cost, hw)
        rows.append([label.replace(" ", "\u00a0"), fmt.decimal(cost.I, 6), fmt.tera(t.R_roof, 6), fmt.ms(t.t_ideal, 6),
                     (f"{memory} 대역폭" if t.t_memory > t.t_compute else "연산 성능").replace(" ", "\u00a0")])
    return hw, rows


@pytest.mark.parametrize("hardware, dtype, N, tiles", [("H100_SXM", "BF16", 3000, [40, 75]), ("course", "FP32", 6144, [32, 96]),
                                                       ("T4", "FP16", 123, [3, 41])])
def test_roofline_state_is_the_model(live_course, hardware, dtype, N, tiles):
    out = live("roofline", hardware=hardware, dtype=dtype, N=N, tiles=tiles)["state"]
    hw, rows = expected_roofline_rows(live_course, hardware, dtype, N, tiles)
    assert out["tables"]["cases"]["rows"] == rows
    f = out["fields"]
    assert f["machine"] == f"{live_course.presets[hardware].name}, {dtype}"
    assert (f["P"], f["BW"], f["ridge"]) == (fmt.number(hw.P / TERA, 3), fmt.number(hw.BW / TERA, 3), fmt.number(hw.ridge, 3))
    plot = out["plots"]["roofline"]
    assert len(plot["y"]) == len(plot["series"]) == len(tiles) + 2
    assert plot["xrange"][0] < min(x for x in plot["x"]) * 1.0001


@pytest.mark.parametrize("kind, sizes, cost", [
    ("vector_add", {"L": 123_456_789}, lambda s: kernels.vector_add(123_456_789, s)),
    ("matmul", {"N": 3000, "T": 75}, lambda s: kernels.matmul_tiled(3000, 75, s, s)),
    ("gemv", {"M": 4096, "K": 8192}, lambda s: gemm.gemm(4096, 1, 8192, s)),
    ("batched_gemm", {"b": 16, "N": 4096, "K": 4096}, lambda s: gemm.gemm(16, 4096, 4096, s)),
    ("custom", {"F": 10**12, "Q": 10**9}, lambda s: rl.Cost(10**12, 10**9, 0)),
])
def test_my_kernel_is_the_model(live_course, kind, sizes, cost):
    out = live("kernel", hardware="H100_SXM", dtype="BF16", kernel=kind, t_ms="0.25", **sizes)["state"]
    hw = live_course.catalog.roofline("H100_SXM", "BF16")
    c = cost(live_course.dtypes["BF16"])
    t = Timing(c, hw)
    achieved = c.F / (Fraction(1, 4) / 1000)
    f = out["fields"]
    assert (f["k-F"], f["k-Q"], f["k-I"], f["k-R"], f["k-bound"]) == (
        fmt.integer(c.F), fmt.integer(c.Q), fmt.decimal(c.I, 6, grouping=True), fmt.tera(t.R_roof, 6), ko.bound(t))
    assert (f["k-achieved"], f["k-share"]) == (fmt.tera(achieved, 6), fmt.percent(achieved / t.R_roof, 1))
    assert out["flags"]["above"] is (achieved > t.R_roof)
    assert ("불가능한 값" in f["k-verdict"]) is (achieved > t.R_roof)


def test_my_kernel_without_a_time(live_course):
    f = live("kernel", hardware="T4", dtype="FP32", kernel="custom", F=1000, Q=10, t_ms="")["state"]["fields"]
    assert (f["k-achieved"], f["k-share"], f["k-verdict"]) == ("–", "–", "")


OPS = re.compile(r"(?<![A-Za-z])(OPs?|TOPS|GOPs)(?![A-Za-z])")   # an integer unit of work, not inside FLOPs


def test_roofline_explorer_counts_an_integer_dtype_in_ops(course):
    """② on every preset and dtype it has: an integer dtype's state (fields, table, plot, predict part and every
    derivation it cites) counts its work in OPs (OPs/Byte, TOPS) and never in FLOPs; a float's never in OPs."""
    from roofline.show import why
    from roofline.show.pages import w4_2_roofline as page

    ops = OPS
    seen = set()
    for key, preset in course.presets.items():
        for dtype in preset.peak:
            pool = {}
            state = why.pooled(page.roofline_state(course.week4.with_(hardware=key, dtype=dtype)), pool)
            text = json.dumps([state, pool], ensure_ascii=False)
            if fmt.integer_dtype(dtype):
                assert "FLOP" not in text, (key, dtype)
                assert {"OPs/Byte", "TOPS"} <= set(state["fields"].values()), (key, dtype)
                assert '"unit": "OPs/s"' in text or '"unit":"OPs/s"' in text, (key, dtype)
            else:
                assert not ops.search(text), (key, dtype, ops.search(text))
                assert {"FLOPs/Byte", "TFLOPs/s"} <= set(state["fields"].values()), (key, dtype)
            seen.add(fmt.integer_dtype(dtype))
    assert seen == {True, False}   # the presets have both kinds


def test_roofline_explorer_header_units_are_fields(course):
    """The explorer's table header and summary name their units as fields the chosen state rewrites."""
    from roofline.show.pages import w4_2_roofline as page

    html = page.roofline_explorer(course.week4).html
    for name in ("u-I", "u-rate"):
        assert html.count(f'data-rl-field="{name}"') == 2   # the summary and the table's header
    assert page.roofline_headers("INT8")[1:3] == ["I (OPs/Byte)", "성능 상한 (TOPS)"]
    assert page.roofline_headers("FP16")[1:3] == ["I (FLOPs/Byte)", "성능 상한 (TFLOPs/s)"]


@pytest.mark.parametrize("kind, sizes", [("matmul", {"N": 3000, "T": 75}), ("vector_add", {"L": 123_456_789})])
def test_my_kernel_counts_an_integer_dtype_in_ops(course, kind, sizes):
    """"내 커널" on every preset and dtype (the live mode offers them all), with a measured time: an integer dtype's
    state and its derivations never say FLOPs, a float's never OPs."""
    from roofline.show import why
    from roofline.show.pages import w4_2_roofline as page

    for key, preset in course.presets.items():
        for dtype in preset.peak:
            pool = {}
            state = page.kernel_state(course.catalog, key, dtype, kind, sizes, t_ms=1)
            text = json.dumps([why.pooled(state, pool), pool], ensure_ascii=False)
            if fmt.integer_dtype(dtype):
                assert "FLOP" not in text, (key, dtype)
            else:
                assert not OPS.search(text), (key, dtype, OPS.search(text))


def test_the_prose_counts_an_integer_dtypes_work_in_ops(course):
    """Issue 55 (content-5 #27): a term whose week-4 dtype is an integer one reads OPs in ②'s prose, tables,
    equation and figure, never FLOPs: the units come from `fmt.unit(name, dtype)` (glued as `unit-*`), and the
    chapter's text outside its code names no unit of floating-point work itself."""
    import re

    from conftest import CHAPTERS
    from roofline.show.pages import w4_2_roofline as page

    w4 = course.week4.with_(hardware="H100_SXM", dtype="INT8")
    said = {**page.machine_section(w4), **page.points_section(w4), **page.time_table(page.week4_cases(w4), w4),
            **page.doubling(w4.roofline, w4)}
    assert (said["unit-rate"], said["unit-I"], said["unit-rate-base"], said["unit-work"]) == ("TOPS", "OPs/Byte", "OPs/s",
                                                                                              "OPs")
    text = " ".join(str(v) for v in said.values() if isinstance(v, str)) + str(said["time-table"].data)
    assert "FLOP" not in text and "TOPS" in text
    assert "FLOP" not in str(page.ridge_equation(w4.roofline, w4.dtype).data)
    fig = page.roofline_figure(w4)
    labels = [fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel(), *(t.get_text() for t in fig.axes[0].texts)]
    assert not [x for x in labels if "FLOP" in x]
    md = (CHAPTERS / "w4_2_roofline.md").read_text(encoding="utf-8")
    prose = re.sub(r"```\{code-cell\}.*?```", "", md, flags=re.S)
    assert not re.findall(r"TFLOPs/s|FLOPs/Byte|FLOPs/s|\bFLOPs\b", prose)
