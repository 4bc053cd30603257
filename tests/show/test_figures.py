"""roofline.show.figures, the figure registry, across every figure: figures/ holds exactly what the library draws
now for the live parameters, and every figure draws cleanly for them. What a figure shows is tested with its page
(tests/pages/test_<page>.py).

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
