"""Rows → Markdown tables (with Korean headers), ready for `glue` as IPython Markdown."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # annotations only: IPython is imported where a table is made
    from IPython.display import Markdown


def markdown(headers: Sequence[str], rows: Sequence[Sequence], align: str | None = None) -> Markdown:
    """A GitHub-flavoured Markdown table. `align` is one letter per column: l, c or r (numbers right)."""
    from IPython.display import Markdown  # here, not above: the page's live engine imports this module's users

    if align is None:
        align = "l" + "r" * (len(headers) - 1)
    if len(align) != len(headers):
        raise ValueError(f"align has {len(align)} letters for {len(headers)} columns")
    rule = {"l": ":--", "c": ":-:", "r": "--:"}
    lines = [
        "| " + " | ".join(headers) + " |",
        "| " + " | ".join(rule[a] for a in align) + " |",
    ]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"row {row!r} has {len(row)} cells for {len(headers)} columns")
        lines.append("| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |")
    table = Markdown("\n".join(lines))
    # the cells that carry their derivation (roofline.show.why), by place: glue stores them beside the table, and the
    # site marks the cell in that row and column (coursebook.marking)
    cells = [{"cell": str(cell), "row": i, "column": j, **cell.why} for i, row in enumerate(rows)
             for j, cell in enumerate(row) if getattr(cell, "why", None)]
    if cells:
        table.why_cells = cells
    return table
