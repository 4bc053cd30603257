"""figures/ holds exactly what the library draws now for the live parameters, every figure draws cleanly for them,
and the week-4 figures show the seed's data for the seed's parameters (tests/seed/course.toml).

Each figure is drawn once for the live parameters in a test run (`drawn`) and that drawing serves every check:
figures/NAME.svg was written by another process (`make figures`), so equal bytes also show the drawing is
deterministic across processes; one figure is drawn a second time, after all the others, to show a drawing does not
depend on what the process drew before it.
"""
from __future__ import annotations

import warnings

import pytest

from coursebook.__main__ import stale_figures, svg, svg_bytes
from roofline.show.figures import FIGURES, draw


@pytest.fixture(scope="session")
def drawn(course) -> dict[str, tuple[bytes, list[str], object]]:
    """name → (SVG bytes, the warnings drawing it raised, the matplotlib Figure) for the live parameters, each
    figure drawn once."""
    found = {}
    for name in sorted(FIGURES):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")   # "Glyph … missing" is a UserWarning
            fig = draw(name, course)
            picture = svg_bytes(fig)
        found[name] = picture, [f"{w.category.__name__}: {w.message}" for w in caught], fig
    return found


def test_figures_folder_is_fresh(course, drawn):
    problems = stale_figures(course, {name: picture for name, (picture, _, _) in drawn.items()})
    assert not problems, "stale figures:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_draws_without_warning_or_missing_glyph(drawn, name):
    picture, caught, _ = drawn[name]
    assert caught == [], f"{name}: drawing it warns"
    assert picture.startswith(b"<?xml") and b"<svg" in picture
    assert b"\xe2\x88\x92" not in picture  # no U+2212 text: the Hangul font lacks it


def test_a_drawing_does_not_depend_on_what_was_drawn_before(course, drawn):
    """The first figure again, after every other figure: the same bytes (ids come from a fixed hash salt, not from a
    counter of the process)."""
    first = sorted(FIGURES)[0]
    assert svg(first, course) == drawn[first][0]


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


def test_intensity_figure_marks_the_live_N(course, drawn):
    """Whatever the live N and dtype: the dashed line stands at N, and the curves there are the library's I."""
    from roofline import kernels

    w4 = course.week4
    ax = drawn["week4-intensity"][2].axes[0]
    assert [list(line.get_xdata()) for line in ax.lines if line.get_linestyle() == "--"] == [[w4.N, w4.N]]
    lines = {line.get_label(): line for line in ax.lines if not line.get_label().startswith("_")}
    sides = list(lines["Vector Add"].get_xdata())
    assert w4.N in sides
    at_N = sides.index(w4.N)
    assert set(lines["Vector Add"].get_ydata()) == {float(kernels.vector_add(1, w4.s).I)}
    assert lines["행렬곱, 재사용 없음"].get_ydata()[at_N] == float(kernels.matmul_no_reuse(w4.N, w4.s, w4.s).I)
    assert lines["행렬곱, 이상적 기준"].get_ydata()[at_N] == float(kernels.matmul_ideal(w4.N, w4.s, w4.s).I)
