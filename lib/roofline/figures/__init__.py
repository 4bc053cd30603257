"""Every figure of the course: a function `Course → matplotlib Figure`, registered by name.

`FIGURES[name](course)` draws one; `python -m roofline figures` writes them all to figures/NAME.svg.
Each module of this package registers its figures with `@figure("name")`; all are imported here.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

FIGURES: dict[str, Callable] = {}


def figure(name: str):
    """Register a figure function under `name` (also its file name in figures/)."""

    def register(draw):
        if name in FIGURES:
            raise ValueError(f"figure {name!r} is registered twice")
        FIGURES[name] = draw
        return draw

    return register


for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
