"""The executed chapters: every notebook chapter has its .ipynb edition, and no executed cell
(in the built editions, or on the built pages) shows stderr, an error or a missing-glyph warning.

nbval itself re-runs the editions (`pytest --nbval chapters/`, part of `make test`): that compares
every glued value and table with a fresh run of the library.
"""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from coursebook.__main__ import chapter_sources

ROOT = Path(__file__).resolve().parents[2]
SOURCES = chapter_sources()
BAD_TEXT = ("Glyph", "missing from font", "Warning", "Traceback", "Error")


def outputs(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            yield cell, output


@pytest.mark.parametrize("md", SOURCES, ids=[p.stem for p in SOURCES])
def test_edition_exists_and_is_clean(md):
    edition = md.with_suffix(".ipynb")
    assert edition.exists(), f"{edition.relative_to(ROOT)} is missing: run `make book` (the editions are built, not committed)"
    nb = nbformat.read(edition, as_version=4)
    for cell, output in outputs(nb):
        assert output["output_type"] != "error", f"{edition.name}: an error in cell {cell.source[:60]!r}"
        if output["output_type"] == "stream":
            assert output["name"] == "stdout", f"{edition.name}: stderr in cell {cell.source[:60]!r}: {output['text'][:200]}"
        text = output.get("text", "") + str(output.get("data", {}).get("text/plain", ""))
        for bad in BAD_TEXT:
            assert bad not in text, f"{edition.name}: {bad!r} in the output of {cell.source[:60]!r}"


def test_every_notebook_chapter_is_in_the_toc():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    for md in SOURCES:
        assert f"chapters/{md.stem}" in toc, f"{md.name} is not in _toc.yml"
