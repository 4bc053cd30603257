"""One matplotlib style for every figure: a Hangul font, a real minus sign, a white background,
and deterministic SVG output (fixed hash salt, no date).

The style never touches matplotlib's global rcParams (a student's own plots in the same notebook keep theirs):
a drawing function decorated `@figures.styled` (or `@figures.figure`) runs inside `matplotlib.rc_context(RC)`, and the
`Figure` it makes (this module's subclass) draws and saves itself inside the same context, wherever it is rendered
later. This module and the tick helpers below are the generic figure helpers; each figure is in its page's module.

The font is NanumGothic from the koreanize-matplotlib package; we take only its font file
(importing that package runs code that needs distutils, gone from Python 3.12).
"""
from __future__ import annotations

import importlib.util
from contextlib import contextmanager
from pathlib import Path

import matplotlib
import matplotlib.figure
from matplotlib import font_manager

FONT = "NanumGothic"

RC = {
    "font.family": FONT,
    "axes.unicode_minus": False,   # U+2212 is missing from NanumGothic: use the ASCII hyphen-minus
    "figure.facecolor": "white",   # legible on the site's dark theme too
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 11,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "svg.hashsalt": "roofline",    # stable ids in SVG output
    "svg.fonttype": "path",        # glyphs as paths: the SVG needs no font on the reader's machine
    "figure.constrained_layout.use": True,
    "mathtext.fontset": "dejavusans",  # math ($10^{-2}$, $N^2$) in DejaVu Sans, which has the U+2212 minus
}


def font_files() -> list[Path]:
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the Hangul font comes from the koreanize-matplotlib package: pip install koreanize-matplotlib")
    folder = Path(next(iter(spec.submodule_search_locations))) / "fonts"
    return sorted(folder.glob("NanumGothic*.ttf"))


def register_font() -> None:
    """Make the Hangul font known to matplotlib's font manager (idempotent)."""
    known = {f.fname for f in font_manager.fontManager.ttflist}
    for path in font_files():
        if str(path) not in known:
            font_manager.fontManager.addfont(str(path))


@contextmanager
def course_style():
    """The course style in force inside the block only (matplotlib's rc_context restores rcParams after)."""
    register_font()
    with matplotlib.rc_context(RC):
        yield


class Figure(matplotlib.figure.Figure):
    """A matplotlib Figure that draws and saves itself in the course style (tick labels are made and formatted,
    and SVG ids salted, when the figure is rendered: that may happen outside the function that drew it)."""

    def draw(self, renderer):
        with course_style():
            return super().draw(renderer)

    def savefig(self, *args, **kwargs):
        with course_style():
            return super().savefig(*args, **kwargs)


SVG_METADATA = {"Date": None, "Creator": None}

from roofline.show.palette import CASE_COLORS, case_color  # noqa: E402,F401  (kept here for the figures)


def power_log_ticks(ax) -> None:
    """Log-axis tick labels as powers of ten, 10⁻² … 10³, written in mathtext (set in DejaVu Sans, which
    has the real minus U+2212; `\\mathdefault`, which the default formatter uses, would take the Hangul font)."""
    import math

    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    def label(value, _):
        exponent = math.log10(value) if value > 0 else math.nan
        return f"$10^{{{round(exponent)}}}$" if abs(exponent - round(exponent)) < 1e-9 else ""

    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_scale() == "log":
            axis.set_major_locator(LogLocator(base=10))
            axis.set_major_formatter(FuncFormatter(label))
            axis.set_minor_formatter(NullFormatter())


def plain_log_ticks(ax) -> None:
    """Log-axis tick labels as plain numbers (0.1, 1, 10, 1,000) instead of mathtext 10⁻¹:
    mathtext draws its minus as U+2212, which the Hangul font lacks."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_scale() == "log":
            axis.set_major_formatter(FuncFormatter(lambda v, _: f"{round(v):,}" if v >= 1 and v == round(v) else f"{v:g}"))
            axis.set_minor_formatter(NullFormatter())
