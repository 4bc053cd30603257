"""figures/ holds exactly what the library draws now for the live parameters, every figure draws cleanly for them,
and the week-4 figures show the seed's data for the seed's parameters (tests/seed/course.toml)."""
from __future__ import annotations

import warnings

import pytest

from coursebook.__main__ import stale_figures, svg
from roofline.show.figures import FIGURES


def test_figures_folder_is_fresh(course):
    problems = stale_figures(course)
    assert not problems, "stale figures:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_is_deterministic_and_has_no_missing_glyph(course, name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph … missing" is a UserWarning: fail on it
        first = svg(name, course)
    assert first == svg(name, course)
    assert b"\xe2\x88\x92" not in first  # no U+2212 text: the Hangul font lacks it


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
