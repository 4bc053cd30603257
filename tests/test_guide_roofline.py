"""What the week-4 guide (ch-guide) and chapter ② Roofline (ch-roofline) rely on.

The literal expected values are the seed's (seeds/000, "4주차" guide and "② Roofline"), typed here as the seed
prints them; the library must reproduce them exactly after rounding for the seed's parameters (the `seed` fixture)
and the chapters must show them when run with those parameters (`seed_glued`). Properties of the model and of the
figures are checked for the live parameters, whatever an instructor made them.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import roofline as rl
from roofline.show import fmt, ko
from roofline.show.figures import FIGURES

from conftest import live_glued, seed_glued

pytestmark = pytest.mark.heavy(30)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "chapters" / "week4_guide.md", ROOT / "chapters" / "w4_2_roofline.md"]
TERA = 10**12


@pytest.fixture(scope="module")
def cases(course):
    """The live parameters' cases."""
    return rl.problems.week4_cases(course.week4)


@pytest.fixture(scope="module")
def seed_cases(seed):
    return rl.problems.week4_cases(seed.week4)


# ---- the shared problem (guide §5) ---------------------------------------------------------

def test_shared_problem_is_the_seeds(seed):
    w4 = seed.week4
    assert (w4.N, w4.dtype, w4.s, w4.tiles) == (4096, "FP32", 4, (32, 64, 128))
    assert (w4.small_N, w4.small_T) == (4, 2)
    assert w4.hardware.P == 20 * TERA and w4.hardware.BW == 1 * TERA
    assert fmt.power10(w4.hardware.P) == "20 × 10¹²"
    assert fmt.power10(w4.hardware.BW) == "1 × 10¹²"


def test_ridge_point_is_20_flops_per_byte(seed):
    ridge = seed.week4.hardware.ridge
    assert ridge == 20 and isinstance(ridge, Fraction)
    assert fmt.number(ridge, 3) == "20"


# ---- ② §4: the time table --------------------------------------------------------------------

SEED_TABLE = [  # 경우, 성능 상한 (TFLOPs/s), Roofline 예상 시간 (ms)
    ("재사용 없음", "0.249969", "549.822923"),
    ("T = 32", "7.968872", "17.246978"),
    ("T = 64", "15.875969", "8.657043"),
    ("T = 128", "20.000000", "6.871948"),
]


def test_week4_cases_give_the_seeds_time_table(seed_cases):
    got = [(ko.case(c), fmt.tera(c.timing.R_roof, 6), fmt.ms(c.timing.t_ideal, 6)) for c in seed_cases]
    assert got == SEED_TABLE


def test_same_F_for_every_case(seed_cases):
    assert {c.cost.F for c in seed_cases} == {137_438_953_472}
    assert fmt.integer(seed_cases[0].cost.F) == "137,438,953,472"


def test_four_points_in_the_summary_digits(seed_cases):
    # "재사용 없음·32 타일·64 타일은 각각 약 0.250·7.969·15.876 TFLOPs/s … 128 타일의 I는 약 31.508 … 20 TFLOPs/s"
    assert [fmt.tera(c.timing.R_roof, 3) for c in seed_cases] == ["0.250", "7.969", "15.876", "20.000"]
    assert fmt.decimal(seed_cases[-1].cost.I, 3) == "31.508"


def test_only_the_128_tile_reaches_the_ceiling(seed_cases):
    # guide caption: "교점은 20 FLOPs/Byte이고 128 타일만 연산 상한에 도달한다"
    assert [c.timing.memory_bound for c in seed_cases] == [True, True, True, False]
    assert [c.T for c in seed_cases if not c.timing.memory_bound] == [128]
    assert seed_cases[-1].timing.R_roof == seed_cases[-1].timing.hw.P


def test_a_case_reaches_the_ceiling_exactly_when_its_I_reaches_the_ridge(cases):
    for c in cases:
        hw = c.timing.hw
        assert (c.timing.R_roof == hw.P) == (c.cost.I >= hw.ridge) == (not c.timing.memory_bound), ko.case(c)


def test_min_max_duality(cases):
    # R_roof = F / max(F/P, Q/BW) = min(P, BW × I), exactly
    for c in cases:
        t, hw = c.timing, c.timing.hw
        assert t.t_ideal == max(c.cost.F / hw.P, c.cost.Q / hw.BW)
        assert t.R_roof == c.cost.F / t.t_ideal == min(hw.P, hw.BW * c.cost.I)


def test_128_tile_times(seed_cases):
    # ⑤/guide: "최소 F/P ≈ 6.872 ms … 메모리 이동 시간은 Q/BW ≈ 4.362 ms"
    t = seed_cases[-1].timing
    assert (fmt.ms(t.t_compute, 3), fmt.ms(t.t_memory, 3)) == ("6.872", "4.362")


# ---- ② discussion: I = 10, double P or double BW ---------------------------------------------

def test_doubling_P_or_BW_at_I_10(seed):
    # seed: "각각 10 TFLOPs/s 유지, 20 TFLOPs/s로 증가"
    hw = seed.week4.hardware
    I = hw.ridge / 2
    assert I == 10
    assert hw.R_roof(I) == 10 * TERA
    assert hw.with_(P=2 * hw.P).R_roof(I) == 10 * TERA
    assert hw.with_(BW=2 * hw.BW).R_roof(I) == 20 * TERA
    assert hw.with_(P=2 * hw.P).ridge == 40 and hw.with_(BW=2 * hw.BW).ridge == 10


def test_doubling_P_or_BW_at_half_the_live_ridge(course):
    """② discussion for any machine: below the ridge only BW counts; doubling BW halves the ridge to I itself."""
    hw = course.week4.hardware
    I = hw.ridge / 2
    assert hw.R_roof(I) == hw.BW * I < hw.P
    assert hw.with_(P=2 * hw.P).R_roof(I) == hw.R_roof(I)
    assert hw.with_(BW=2 * hw.BW).R_roof(I) == 2 * hw.R_roof(I) == hw.P
    assert (hw.with_(P=2 * hw.P).ridge, hw.with_(BW=2 * hw.BW).ridge) == (2 * hw.ridge, I)


# ---- the figure "week4-roofline" ---------------------------------------------------------------

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
    with pytest.raises(ValueError, match="case index"):
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
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    roof = ax.get_lines()[0]                      # min(P, BW×I), drawn first
    xy = ax.transData.transform(list(zip(roof.get_xdata(), roof.get_ydata())))
    axes_box = ax.get_window_extent(renderer)
    ridge_x = ax.transData.transform((float(w4.hardware.ridge), 1))[0]
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
            f"{w4.hardware_key} {w4.dtype}: label {text.get_text()!r} crosses the dashed ridge line"


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


# ---- the two pages ----------------------------------------------------------------------------

@pytest.mark.parametrize("page, label", [(PAGES[0], "ch-guide"), (PAGES[1], "ch-roofline")], ids=["guide", "roofline"])
def test_page_label_and_one_parameter_cell(page, label):
    md = page.read_text(encoding="utf-8")
    assert f"({label})=" in md
    assert md.count(":tags: [parameters, hide-input]") == 1
    assert "# ▶ 매개변수 셀:" in md
    text = re.sub(r"```\{code-cell\}.*?```", "", md, flags=re.S)
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links and all(url.startswith("https://") for url in links), links


def test_guide_links_every_chapter():
    md = PAGES[0].read_text(encoding="utf-8")
    for label in ("ch-intensity", "ch-roofline", "ch-tiling", "ch-tile-size", "ch-matmul"):
        assert f"<{label}>`" in md, label


def shown(glued: dict[str, dict]) -> dict[str, str]:
    """name → what the page shows: the table (Markdown), the equation (LaTeX) or the text."""
    return {name: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle)
            for name, bundle in glued.items()}


def test_guide_values_for_the_seed():
    glued = shown(seed_glued("week4_guide"))
    assert glued["ridge"] == "20"
    assert glued["reach"] == "T = 128만 연산 상한에 닿는다"
    assert glued["tiles-compared"] == "32·64·128로"
    assert (glued["step-before"], glued["step-after"], glued["step-Q"], glued["step-t"]) == ("T = 64", "T = 128로", "0.50배", "0.79배")
    assert "| 분기점 I* = P/BW | 20 FLOPs/Byte |" in glued["problem-table"]
    assert "출처" not in glued["problem-table"]          # the hypothetical machine is the course's own
    assert glued["tiles"] == "32·64·128"
    assert glued["shape"] == "4096×4096"
    assert (glued["small-shape"], glued["small-tile"]) == ("4×4", "2×2")
    assert (glued["T-max"], glued["T-max-outputs"]) == ("128×128", "16,384")


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


def test_guide_follows_the_live_parameters(course):
    """Run with the live parameters, the guide states the live problem and draws the library's figure of it."""
    from roofline.show.glue import figure_digest

    w4 = course.week4
    glued = shown(live_glued("week4_guide"))
    assert glued["shape"] == f"{w4.N}×{w4.N}"
    assert glued["tiles"] == "·".join(str(T) for T in w4.tiles)
    assert glued["T-max"] == f"{max(w4.tiles)}×{max(w4.tiles)}"
    assert glued["ridge"] == fmt.number(w4.hardware.ridge, 3)
    assert figure_digest(FIGURES["week4-roofline"](w4)) in glued["roofline-figure"]


def test_roofline_chapter_follows_the_live_parameters(course, cases):
    glued = shown(live_glued("w4_2_roofline"))
    for c in cases:
        assert f"| {ko.case(c)} | {fmt.tera(c.timing.R_roof, 6)} | {fmt.ms(c.timing.t_ideal, 6)} |" in glued["time-table"]
    assert glued["F"] == fmt.integer(2 * course.week4.N**3)
    assert glued["n-cases"] == str(len(cases))
    memory = [c for c in cases if c.timing.memory_bound]
    assert not memory or f"상한은 약 {'·'.join(fmt.tera(c.timing.R_roof, 3) for c in memory)} TFLOPs/s다." in glued["points"]


# ---- ① 산술 강도 (w4_1): the Vector Add equation and the particles after glued formulas --------

INTENSITY = ROOT / "chapters" / "w4_1_intensity.md"


def test_intensity_values_for_the_seed():
    glued = shown(seed_glued("w4_1_intensity"))
    assert glued["vadd-eq"] == ("$\\displaystyle \\begin{aligned}I = \\frac{F}{Q} &= \\frac{L}{4L + 4L + 4L} \\\\"
                                " &= \\frac{1}{12} \\approx 0.08333\\ \\text{FLOPs/Byte}\\end{aligned}$")
    assert (glued["I-ideal-claim"], glued["I-ideal-named"]) == ("N/6은", "N/6이라고")
    # the seed's approximations in the four-way table, and the particle after the last N of the figure
    assert "| 행렬곱, 입력 재사용 없음 | 2N³ | 8N³ + 4N² | N/(4N+2), 약 1/4 | 0.249969 |" in glued["table-four"]
    assert "| 8N³/T + 4N² | NT/(4N+2T), N≫T이면 약 T/4 | 7.968872 (T = 32) |" in glued["table-four"]
    assert "I, N = 4,096" in glued["table-four"]
    assert glued["fig-N-max"] == "4,096으로"
    assert "| 입력만 FP16 | 4N³/T + 4N² | 4,362,076,160 | 31.507692 | 1.98배 |" in glued["table-dtypes"]


def test_intensity_particles_follow_the_last_sound():
    """The particles after the glued formulas and numbers, for values other than the seed's (a student may change dtype)."""
    assert [ko.particle(x, "은/는") for x in ("N/6", "N/9", "N/(4N+2)", "N/3", "N/5")] == ["N/6은", "N/9는", "N/(4N+2)는", "N/3은", "N/5는"]
    assert [ko.particle(x, "이라고/라고") for x in ("N/6", "N/9", "NT/(4N+2T)")] == ["N/6이라고", "N/9라고", "NT/(4N+2T)라고"]
    assert [ko.particle(x, "으로/로") for x in ("4,096", "2,048", "1,024", "8,192")] == ["4,096으로", "2,048로", "1,024로", "8,192로"]


def test_intensity_approximations_follow_the_dtype(course):
    """"약 1/s" and "N≫T이면 약 T/s": the limits of the closed forms for the element size s."""
    from fractions import Fraction

    from roofline import kernels
    from roofline.show.pages import w4_1_intensity as intensity

    assert [intensity.symbol_over("T", x) for x in (Fraction(1, 4), Fraction(1, 2), 1, Fraction(3, 2))] == ["T/4", "T/2", "T", "3T/2"]
    for dtype in ("FP32", "FP16"):
        w4 = course.week4.with_(dtype=dtype)
        s = w4.s
        table = intensity.four_ways(w4, w4.tiles[0])["table-four"].data
        assert f"약 {fmt.fraction(Fraction(1, s))} |" in table and f"N≫T이면 약 {intensity.symbol_over('T', Fraction(1, s))} |" in table
        big = 2**20   # the approximations are the limits for N ≫ T
        assert abs(kernels.matmul_no_reuse(big, s, s).I - Fraction(1, s)) < Fraction(1, 10**5)
        assert abs(kernels.matmul_tiled(big, 32, s, s).I - Fraction(32, s)) < Fraction(1, 100)


def test_limit_sentences_and_changes():
    from roofline.hardware import Roofline
    from roofline.show.pages import w4_2_roofline as bounds

    hw = Roofline(20 * TERA, 1 * TERA)
    assert bounds.limit_sentence(hw, 20) == "I가 분기점 I* = 20 FLOPs/Byte와 같아 두 상한이 만난다. HBM 대역폭과 연산 성능이 동시에 제한 자원이다."
    assert bounds.limit_sentence(hw, 30, new=True) == "I가 새 분기점보다 크므로 제한 자원은 연산 성능이다."
    assert bounds.limit_sentence(hw, 5) == "I가 분기점보다 작으므로 제한 자원은 HBM 대역폭이다."
    assert [bounds.change(10, x) for x in (10, 20, 25)] == ["그대로다", "두 배가 된다", "2.50배가 된다"]


def test_reach_and_points_for_other_machines(course, seed):
    """On a real GPU the guide cites the maker's page; the sentences follow whichever cases reach the ceiling."""
    from roofline.show.pages import w4_2_roofline as bounds, week4_guide as guide

    w4 = course.week4.with_(hardware="H100_SXM", dtype="FP32")
    cases = rl.problems.week4_cases(w4)
    assert f"({w4.preset.source})" in guide.problem_table(w4)["problem-table"].data
    top = [c for c in cases if c.T is not None and not c.timing.memory_bound]
    reach = guide.reach(cases)["reach"]
    tiled = [c for c in cases if c.T is not None]
    if not top:
        assert reach == "어느 타일도 연산 상한에 닿지 못한다"
    elif len(top) == len(tiled):
        assert reach == "모든 타일이 연산 상한에 닿는다"
    else:
        assert all(ko.case(c) in reach for c in top) and not any(ko.case(c) in reach for c in tiled if c not in top)
    seed_cases = rl.problems.week4_cases(seed.week4)
    assert guide.reach(seed_cases[:3])["reach"] == "어느 타일도 연산 상한에 닿지 못한다"   # only T = 32, 64
    assert guide.reach(seed_cases[2:])["reach"] == "T = 128만 연산 상한에 닿는다"
    sentence = bounds.points(cases, w4.hardware)["points"]
    for c in cases:
        assert ko.case(c) in sentence


def test_intensity_defines_K_where_it_is_first_used():
    md = INTENSITY.read_text(encoding="utf-8")
    first_K = md.index("K-1")
    assert "K는 A의 열 수이자 B의 행 수" in md[first_K:first_K + 400]
