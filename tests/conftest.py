"""Shared test set-up.

nbval compares every output of the committed .ipynb editions with a fresh run: that is the
drift check for glued numbers (application/papermill.record/text/plain) and tables. Picture
bytes differ across machines (PNG encoders, fonts), so both the shown PNG and the glued PNG
record are left out here; figures are checked as data in test_figures.py instead.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from roofline.glue import PREFIX

ROOT = Path(__file__).resolve().parents[1]

try:
    from nbval.plugin import IPyNbCell
except ImportError:  # nbval absent: nothing to patch
    IPyNbCell = None

if IPyNbCell is not None:
    _init = IPyNbCell.__init__

    def _init_skipping_glued_pictures(self, *args, **kwargs):
        _init(self, *args, **kwargs)
        self.skip_compare = self.skip_compare + (PREFIX + "image/png", "image/png")

    IPyNbCell.__init__ = _init_skipping_glued_pictures


@pytest.fixture(scope="session")
def course():
    import roofline

    return roofline.load()
