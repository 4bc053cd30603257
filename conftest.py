"""pytest set-up for the whole repository (tests/ and the chapters' .ipynb editions under nbval).

nbval compares every output of a committed edition with a fresh run: that is the drift check for
glued numbers (application/papermill.record/text/plain) and tables. Picture bytes differ across
machines (PNG encoder, fonts), so the shown PNG and the glued PNG record are left out; figures are
checked as data and as SVG in tests/show/test_figures.py instead.
"""
from nbval.plugin import IPyNbFile

from roofline.show.glue import PREFIX

_init = IPyNbFile.__init__


def _init_skipping_glued_pictures(self, *args, **kwargs):
    """nbval keeps the mime types it does not compare on the notebook item (IPyNbFile.skip_compare)."""
    _init(self, *args, **kwargs)
    self.skip_compare = self.skip_compare + (PREFIX + "image/png", "image/png")


IPyNbFile.__init__ = _init_skipping_glued_pictures
