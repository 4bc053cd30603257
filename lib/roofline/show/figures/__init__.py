"""Every figure of the course: a function `problem → matplotlib Figure`, registered by name.

A figure takes the problem object the chapter built from its parameter cell (`Week4` or `Note`), never the
whole course and never the parameter file. `FIGURES[name]` is the drawing function and `PROBLEM[name]` the
attribute of `Course` it draws (`"week4"`, `"note"`): `python -m coursebook figures` writes
`FIGURES[name](getattr(course, PROBLEM[name]))` to figures/NAME.svg.
"""
from __future__ import annotations

from collections.abc import Callable

FIGURES: dict[str, Callable] = {}
PROBLEM: dict[str, str] = {}


def figure(name: str, problem: str):
    """Register a figure function under `name` (also its file name in figures/), drawing `Course.<problem>`."""

    def register(draw):
        if name in FIGURES:
            raise ValueError(f"figure {name!r} is registered twice")
        FIGURES[name], PROBLEM[name] = draw, problem
        return draw

    return register


def draw(name: str, course):
    """Figure `name` for the course's own parameters (what figures/NAME.svg shows)."""
    return FIGURES[name](getattr(course, PROBLEM[name]))


from roofline.show.figures import attention, intensity, roofline, tile_sweep, tiling  # noqa: E402  (each registers its figures)
