"""`glue(name, value)`: hand a value to the page (myst-nb's glue format), and show it outside the book.

The record is the one myst-nb's own `glue` writes (a display_data output whose mime types carry the
prefix `application/papermill.record/` and whose metadata names it), so `{glue:text}`, `{glue:md}`,
`{glue:math}` and `{glue:figure}` find it; but this module needs only IPython, so it works in Colab,
which has no myst-nb.

- text (a str, already formatted by `fmt`) → text/plain as its quoted repr (see `shown_text`);
- a matplotlib Figure → image/png rendered here (no dependence on the inline backend);
- anything else (IPython Markdown, Math) → its own mime bundle.

In the book's runs it only records: the book's runner calls `records_only()` in the chapter's kernel before the
chapter (tools/coursebook/bookrun.py), and the tooling's in-process runs call it around theirs.
With `ROOFLINE_PICTURES=0` a figure is glued by its fingerprint alone, its image/png left empty (nothing is
drawn): the tooling's in-process runs, which compare values and never show a picture, set it.
Elsewhere (Colab, Jupyter, the .ipynb editions) it also shows tables, equations and figures, and a
line `name = value` for text, so that a changed parameter is visible below the cell.
"""
from __future__ import annotations

import ast
import base64
import functools
import hashlib
import io
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # annotations only: matplotlib is imported where a figure is drawn
    from matplotlib.figure import Figure

# NumPy, IPython and matplotlib are imported where they are used: `import roofline.show` (and the page's
# live engine, roofline.show.engine, which runs in the reader's browser) needs none of them.

# The record format's prefix, as myst-nb publishes it (`myst_nb.ext.glue.GLUE_PREFIX`). Named here, not imported:
# Colab has no myst-nb, and importing it in every chapter kernel would load Sphinx's docutils (some 270 modules).
# tests/tooling/test_site_tooling.py checks it against the installed myst-nb's, so an upgrade that changes it fails
# there (docs/upgrading.md).
PREFIX = "application/papermill.record/"
PICTURES = "ROOFLINE_PICTURES"   # "0": a figure is glued by its fingerprint, not drawn
PNG_DPI = 144


def is_figure(value) -> bool:
    """A matplotlib Figure (none can exist before matplotlib is imported)."""
    module = sys.modules.get("matplotlib.figure")
    return module is not None and isinstance(value, module.Figure)


RECORDS_ONLY = False    # True in the book's runs (`records_only`): glue records and shows nothing below the cell


def records_only(on: bool = True) -> None:
    """From now on `glue` only records (`on`), or records and shows below the cell (Colab, Jupyter: the default)."""
    global RECORDS_ONLY
    RECORDS_ONLY = on


def in_book() -> bool:
    return RECORDS_ONLY


def draws_pictures() -> bool:
    return os.environ.get(PICTURES) != "0"


def png(fig: Figure) -> str:
    """The figure as base64 PNG (the notebook's image/png payload)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=PNG_DPI)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def figure_data(fig: Figure) -> str:
    """What a figure shows, as text: per axes its titles, labels, scales and limits, and the data of its lines,
    markers, bars and texts (6 significant digits). Two figures that plot the same thing give the same text."""
    import numpy as np

    def numbers(values) -> str:
        return " ".join(f"{float(v):.6g}" for v in np.ravel(values))

    parts = [fig.get_suptitle() if hasattr(fig, "get_suptitle") else ""]
    for ax in fig.axes:
        parts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel(), ax.get_xscale(), ax.get_yscale(),
                  numbers(ax.get_xlim()), numbers(ax.get_ylim())]
        parts += [f"{line.get_label()}: {numbers(line.get_xydata())}" for line in ax.get_lines()]
        parts += [numbers(c.get_offsets()) for c in ax.collections if hasattr(c, "get_offsets")]
        parts += [patch_data(p, numbers) for p in ax.patches]
        parts += [f"{t.get_text()} @ {numbers(t.get_position())}" for t in ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            parts += [t.get_text() for t in legend.get_texts()]
    parts += [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    return "\n".join(parts)


def patch_data(patch, numbers) -> str:
    """A bar or box by its rectangle in data coordinates, an arrow by its two ends, anything else by its kind."""
    if hasattr(patch, "get_bbox"):
        return numbers(patch.get_bbox().bounds)
    ends = getattr(patch, "_posA_posB", None)
    return f"{type(patch).__name__} {numbers(ends) if ends else ''}"


def figure_digest(fig: Figure) -> str:
    """A short fingerprint of `figure_data`: glued as the figure's text, so nbval and the tests compare what is
    plotted (picture bytes differ across machines)."""
    return hashlib.sha256(figure_data(fig).encode("utf-8")).hexdigest()[:12]


def bundle(value) -> dict:
    if isinstance(value, str):
        data = {"text/plain": repr(str(value))}  # quoted, as IPython shows a str: myst-nb literal_evals it back
        record = getattr(value, "why", None)
        if record is not None:   # a number with its derivation (roofline.show.why): the page's panel, `why(name)`
            from roofline.show.why import WHY_MIME

            data[WHY_MIME] = record
        return data
    if is_figure(value):
        return {"image/png": png(value) if draws_pictures() else "",
                "text/plain": f"<그림 {value.get_figwidth():g}×{value.get_figheight():g} in, 자료 {figure_digest(value)}>"}
    data = display_data(value)
    cells = getattr(value, "why_cells", None)
    if cells:   # a table whose numbers carry their derivations (roofline.show.tables)
        from roofline.show.why import WHY_MIME

        data = {**data, WHY_MIME: {"cells": cells}}
    block = getattr(value, "why_block", None)
    if block:   # a text diagram whose numbers carry theirs (a why.sentence in a code block)
        from roofline.show.why import WHY_MIME

        data = {**data, WHY_MIME: {"block": block}}
    return data


def display_data(value) -> dict:
    """IPython's display data of `value` (its `_repr_*_` methods): in a notebook, its shell's formatter. Outside one
    (`make check`, the tests) a formatter of its own: IPython's format_display_data would start the process's shell
    with an output cache, and every later in-process chapter run (coursebook.editions.recompute) resets that shell,
    which with a cache ends in a full garbage collection, a tenth of a second in a process that holds many objects."""
    from IPython import get_ipython

    shell = get_ipython()   # (None outside a notebook: it starts no shell)
    return (shell.display_formatter if shell else _formatter()).format(value)[0]


@functools.cache
def _formatter():
    from IPython.core.formatters import DisplayFormatter

    return DisplayFormatter()


def shown_text(record: str) -> str:
    """What `{glue:text}` shows for a text/plain record: myst-nb literal_evals it (so a bare
    "100,000,000" would become a tuple; `bundle` therefore stores the quoted repr)."""
    try:
        return str(ast.literal_eval(record))
    except (SyntaxError, ValueError):
        return record


def short_parameter_errors() -> None:
    """In a notebook (Colab, Jupyter), show a bad parameter as its one-line Korean message instead of a
    traceback into the library: `ParameterError: N: 양의 정수여야 한다. 받은 값: -4096`. The cell still fails.
    Each chapter's first code cell calls it (importing this module changes nothing outside it)."""
    if "IPython" not in sys.modules:   # no notebook shell runs without IPython (the page's Pyodide has none)
        return
    from IPython import get_ipython

    from roofline.errors import ParameterError

    shell = get_ipython()
    if shell is None:
        return

    def one_line(shell, etype, value, tb, tb_offset=None):
        stb = [f"{etype.__name__}: {value}"]
        shell._showtraceback(etype, value, stb)   # the kernel's error output (and the terminal's text)
        return stb

    shell.set_custom_exc((ParameterError,), one_line)


def glue(name: str, value) -> None:
    """Record `value` under `name` for the page; outside the book build, also show it."""
    from IPython.display import display

    if not (isinstance(value, str) or is_figure(value)) and not hasattr(value, "_repr_markdown_") and not hasattr(value, "_repr_latex_"):
        raise TypeError(
            f"glue({name!r}): give a str formatted by roofline.fmt, a Markdown table, a Math "
            f"equation or a Figure, not {type(value).__name__} (NumPy scalars break format specs)"
        )
    data = bundle(value)
    if getattr(value, "why", None) is not None:
        from roofline.show.why import REGISTRY

        REGISTRY[name] = value.why
    metadata = {"scrapbook": {"name": name, "mime_prefix": PREFIX}}
    display({PREFIX + mime: payload for mime, payload in data.items()}, raw=True, metadata=metadata)
    if not in_book():
        display(shown(name, data), raw=True)


def glue_page(values: dict) -> None:
    """Glue every (name, value) of `values`, a page module's dict of its values: `glue_page(page.setup(w3))`."""
    for name, value in values.items():
        glue(name, value)


def shown(name: str, data: dict) -> dict:
    """What `glue` shows below the cell outside the book for the record `data` (the mime bundle glued as `name`):
    a line `name = value` for text, a table's (or an explorer's) Markdown, or else the bundle itself (figure,
    equation). A function of the record alone, so an edition can be made from the book's run (which only records)."""
    from roofline.show.why import WHY_MIME

    if set(data) - {WHY_MIME} == {"text/plain"}:   # text (a number's derivation is printed by `why(name)`)
        return {"text/plain": f"{name} = {shown_text(data['text/plain'])}"}
    if "text/markdown" in data:   # a table, or an explorer whose HTML controls only the site's script can run
        return {"text/markdown": data["text/markdown"]}
    return data
