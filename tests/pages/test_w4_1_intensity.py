"""① 산술 강도 (chapters/w4_1_intensity.md, roofline.show.pages.w4_1_intensity): the glued values for the seed,
the approximations per dtype, the intensity figure, and where K is defined.
"""
from __future__ import annotations

import pytest

from conftest import CHAPTERS, seed_glued
from roofline.show import fmt
from roofline.show.figures import FIGURES

pytestmark = pytest.mark.heavy(5)   # rough seconds, for the order of the run (tests/conftest.py)
BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)


def test_intensity_figure_shows_only_reuse_growing_with_N(seed):
    fig = FIGURES["week4-intensity"](seed.week4)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.lines if not line.get_label().startswith("_")}
    N = list(lines["Vector Add"].get_xdata())
    assert N[-1] == 4096 and N == sorted(N)
    assert set(lines["Vector Add"].get_ydata()) == {1 / 12}
    assert lines["행렬곱, 재사용 없음"].get_ydata()[-1] == pytest.approx(0.249969, abs=1e-6)
    assert lines["행렬곱, 이상적 기준"].get_ydata()[-1] == pytest.approx(682.667, abs=1e-3)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.yaxis.get_majorticklabels() if t.get_text()]
    assert "$10^{-1}$" in labels, labels   # powers of ten with a real minus (mathtext in DejaVu Sans)


def test_intensity_figure_marks_the_live_N(course):
    """Whatever the live N and dtype: the dashed line stands at N, and the curves there are the library's I."""
    from roofline import kernels

    w4 = course.week4
    ax = FIGURES["week4-intensity"](w4).axes[0]
    assert [list(line.get_xdata()) for line in ax.lines if line.get_linestyle() == "--"] == [[w4.N, w4.N]]
    lines = {line.get_label(): line for line in ax.lines if not line.get_label().startswith("_")}
    sides = list(lines["Vector Add"].get_xdata())
    assert w4.N in sides
    at_N = sides.index(w4.N)
    assert set(lines["Vector Add"].get_ydata()) == {float(kernels.vector_add(1, w4.s).I)}
    assert lines["행렬곱, 재사용 없음"].get_ydata()[at_N] == float(kernels.matmul_no_reuse(w4.N, w4.s, w4.s).I)
    assert lines["행렬곱, 이상적 기준"].get_ydata()[at_N] == float(kernels.matmul_ideal(w4.N, w4.s, w4.s).I)


def shown(glued: dict[str, dict]) -> dict[str, str]:
    """name → what the page shows: the table (Markdown), the equation (LaTeX) or the text."""
    return {name: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle)
            for name, bundle in glued.items()}


INTENSITY = CHAPTERS / "w4_1_intensity.md"


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


def test_intensity_defines_K_where_it_is_first_used():
    md = INTENSITY.read_text(encoding="utf-8")
    first_K = md.index("K-1")
    assert "K는 A의 열 수이자 B의 행 수" in md[first_K:first_K + 400]
