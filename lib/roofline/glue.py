"""`glue(name, value)`: hand a value to the page (myst-nb's glue format), and show it outside the book.

The record is the one myst-nb's own `glue` writes (a display_data output whose mime types carry the
prefix `application/papermill.record/` and whose metadata names it), so `{glue:text}`, `{glue:md}`,
`{glue:math}` and `{glue:figure}` find it; but this module needs only IPython, so it works in Colab,
which has no myst-nb.

- text (a str, already formatted by `fmt`) → text/plain as its quoted repr (see `shown_text`);
- a matplotlib Figure → image/png rendered here (no dependence on the inline backend);
- anything else (IPython Markdown, Math) → its own mime bundle.

During the book build (`ROOFLINE_BOOK=1`, set by the site's Sphinx extension) it only records.
Elsewhere (Colab, Jupyter, the .ipynb editions) it also shows tables, equations and figures, and a
line `name = value` for text, so that a changed parameter is visible below the cell.
"""
from __future__ import annotations

import ast
import base64
import io
import os

from IPython.core.formatters import format_display_data
from IPython.display import display
from matplotlib.figure import Figure

PREFIX = "application/papermill.record/"
PNG_DPI = 144


def in_book() -> bool:
    return os.environ.get("ROOFLINE_BOOK") == "1"


def png(fig: Figure) -> str:
    """The figure as base64 PNG (the notebook's image/png payload)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=PNG_DPI)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def bundle(value) -> dict:
    if isinstance(value, str):
        return {"text/plain": repr(value)}  # quoted, as IPython shows a str: myst-nb literal_evals it back
    if isinstance(value, Figure):
        return {"image/png": png(value), "text/plain": f"<그림 {value.get_figwidth():g}×{value.get_figheight():g} in>"}
    data, _ = format_display_data(value)
    return data


def shown_text(record: str) -> str:
    """What `{glue:text}` shows for a text/plain record: myst-nb literal_evals it (so a bare
    "100,000,000" would become a tuple; `bundle` therefore stores the quoted repr)."""
    try:
        return str(ast.literal_eval(record))
    except (SyntaxError, ValueError):
        return record


def glue(name: str, value) -> None:
    """Record `value` under `name` for the page; outside the book build, also show it."""
    if not isinstance(value, (str, Figure)) and not hasattr(value, "_repr_markdown_") and not hasattr(value, "_repr_latex_"):
        raise TypeError(
            f"glue({name!r}): give a str formatted by roofline.fmt, a Markdown table, a Math "
            f"equation or a Figure, not {type(value).__name__} (NumPy scalars break format specs)"
        )
    data = bundle(value)
    metadata = {"scrapbook": {"name": name, "mime_prefix": PREFIX}}
    display({PREFIX + mime: payload for mime, payload in data.items()}, raw=True, metadata=metadata)
    if in_book():
        return
    if isinstance(value, str):
        display({"text/plain": f"{name} = {value}"}, raw=True)
    else:
        display(data, raw=True)
