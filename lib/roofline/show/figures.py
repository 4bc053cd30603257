"""Every figure of the course, registered by name; the figures themselves live in their page's module.

A page module draws its figures (`roofline.show.pages.<page>`): each is a function `problem → matplotlib Figure`
decorated `@figure(name, problem)`, taking the problem object the chapter built from its parameter cell (`Week4` or
`Note`), never the whole course and never the parameter file. The decorator registers it and runs it in the course
style (`roofline.show.style`, imported when a figure is drawn: a page module that the page's live engine imports
stays free of matplotlib).

`FIGURES[name]` is the drawing function and `PROBLEM[name]` the attribute of `Course` it draws (`"week4"`,
`"note"`). Reading either imports every page module first, so the registry is always complete:
`python -m coursebook figures` writes `FIGURES[name](getattr(course, PROBLEM[name]))` to figures/NAME.svg.
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

_FIGURES: dict[str, Callable] = {}
_PROBLEM: dict[str, str] = {}


def styled(draw):
    """A figure-drawing function run in the course style (its axes, texts and lines take `style.RC` when made);
    matplotlib is imported when it draws, not when the page module is imported."""

    @functools.wraps(draw)
    def drawn(*args, **kwargs):
        from roofline.show import style

        with style.course_style():
            return draw(*args, **kwargs)

    return drawn


def figure(name: str, problem: str):
    """Register a figure function under `name` (also its file name in figures/), drawing `Course.<problem>`,
    and run it in the course style."""

    def register(draw):
        if name in _FIGURES:
            raise ValueError(f"figure {name!r} is registered twice")
        drawn = styled(draw)
        _FIGURES[name], _PROBLEM[name] = drawn, problem
        return drawn

    return register


def _every_page() -> None:
    """Import every page module: each registers its figures."""
    from roofline.show import pages

    for page in pages.names():
        importlib.import_module(f"roofline.show.pages.{page}")


def __getattr__(name: str):
    """`FIGURES` and `PROBLEM`, complete (PEP 562: read once the page modules are imported)."""
    if name in ("FIGURES", "PROBLEM"):
        _every_page()
        return _FIGURES if name == "FIGURES" else _PROBLEM
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def draw(name: str, course):
    """Figure `name` for the course's own parameters (what figures/NAME.svg shows)."""
    _every_page()
    return _FIGURES[name](getattr(course, _PROBLEM[name]))
