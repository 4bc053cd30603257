"""Every page's glued values at the seed parameters equal tests/golden/<page>.json byte for byte (in-process, no build).

The golden files were written from the code before roofline.show was reorganised (tests/golden_values.py); a change
of structure must not change a single glued character. Rewrite a page's file only for a deliberate change of its words.
"""
from __future__ import annotations

import pytest

from golden_values import GOLDEN, glued_pages, golden, text


def test_every_glued_page_has_a_golden_file():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(glued_pages())


@pytest.mark.parametrize("stem", glued_pages())
def test_glued_values_equal_the_golden_file(stem):
    want = (GOLDEN / f"{stem}.json").read_text(encoding="utf-8")
    got = text(golden(stem))
    if got != want:
        import json

        old, new = json.loads(want), json.loads(got)
        changed = sorted(k for k in set(old) | set(new) if old.get(k, "<absent>") != new.get(k, "<absent>"))
        pytest.fail(f"{stem}: glued values differ from tests/golden/{stem}.json for keys {changed[:20]}")
