"""pytest set-up for the whole repository (tests/ and the chapters' .ipynb editions under nbval).

nbval compares every output of a committed edition with a fresh run: that is the drift check for
glued numbers (application/papermill.record/text/plain) and tables. Picture bytes differ across
machines (PNG encoder, fonts), so the shown PNG and the glued PNG record are left out; figures are
checked as data and as SVG in tests/show/test_figures.py instead; and as none is compared, an edition's kernel
starts with ROOFLINE_PICTURES=0 (roofline.show.glue: a figure is glued by the fingerprint compared, its PNG not
painted). That every figure draws is the site build's check (it paints each PNG a page shows) and the simulated
Colab's (tests/flows/test_colab.py). A kernel that exits as it starts (a port taken by another process in between)
is started once more.
"""
import os

from nbval.plugin import IPyNbFile

from roofline.show.glue import PICTURES, PREFIX

_init = IPyNbFile.__init__


def _init_skipping_glued_pictures(self, *args, **kwargs):
    """nbval keeps the mime types it does not compare on the notebook item (IPyNbFile.skip_compare)."""
    _init(self, *args, **kwargs)
    self.skip_compare = self.skip_compare + (PREFIX + "image/png", "image/png")


IPyNbFile.__init__ = _init_skipping_glued_pictures

_setup = IPyNbFile.setup
KERNEL_DIED = "Kernel died before replying to kernel_info"


def _setup_again_if_the_kernel_died_at_start(self):
    """An edition's kernel is started once more if it exits before its first reply. jupyter_client picks a kernel's
    TCP ports before the kernel binds them, and while the suite starts many kernels and servers at once another
    process can take one first: the kernel exits at start and every cell of the edition errs
    (jupyter/jupyter_client#487, open; see docs/upgrading.md). A kernel that dies twice still fails its edition."""
    try:
        _setup(self)
    except RuntimeError as error:
        if KERNEL_DIED not in str(error):
            raise
        _setup(self)


def _setup_painting_no_pictures(self):
    """The kernel starts with ROOFLINE_PICTURES=0 (a kernel's environment is a copy of this process's)."""
    saved = os.environ.get(PICTURES)
    os.environ[PICTURES] = "0"
    try:
        _setup_again_if_the_kernel_died_at_start(self)
    finally:
        if saved is None:
            del os.environ[PICTURES]
        else:
            os.environ[PICTURES] = saved


IPyNbFile.setup = _setup_painting_no_pictures
