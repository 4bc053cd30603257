"""The two changes this project makes to myst-nb and jupyter-cache, in one place, for the versions they were
written against. `apply()` refuses other versions loudly: each patch replaces a function whose body it
assumes, so after an upgrade re-read the functions named below, adjust, and update VERSIONS.

- jupyter-cache 1.0.1, `jupyter_cache.executors.utils.executenb` (called by `single_nb_execution`, which
  myst-nb's cache mode uses): replaced by `bookrun.execute`, the one way this project runs a chapter (its
  kernel on Unix sockets in a private folder, not on TCP ports; a failure names the chapter and the cell).
- myst-nb 1.4.0, `myst_nb.core.execute.cache.NotebookClientCache.start_client`: on a cache hit myst-nb renders
  from a merged copy of the chapter but writes the chapter it read, without outputs, to jupyter_execute/
  (the page's download); the patch puts the merged copy into the chapter object, so both cases write the same
  notebook; and a chapter that fails to execute there (myst-nb raises ExecutionError naming only the path, and
  lets DeadKernelError through naming nothing) stops the build with bookrun.ChapterFailed naming both.
"""
from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

VERSIONS = {"myst-nb": "1.4.0", "jupyter-cache": "1.0.1"}


class PatchedVersionError(RuntimeError):
    pass


def check_versions() -> None:
    for name, written_for in VERSIONS.items():
        installed = version(name)
        if installed != written_for:
            raise PatchedVersionError(
                f"tools/coursebook/patches.py was written against {name} {written_for}, but {name} {installed} is "
                f"installed: re-read the functions it replaces (see its docstring), adjust them, and update VERSIONS")


def local_kernels() -> None:
    from jupyter_cache.executors import utils

    from coursebook import bookrun

    utils.executenb = bookrun.execute


def downloads_from_the_cache() -> None:
    from myst_nb.core.execute.cache import NotebookClientCache

    start = NotebookClientCache.start_client
    if getattr(start, "roofline", False):
        return

    def start_client(self):
        from coursebook.bookrun import failure

        chapter = self.notebook
        try:
            start(self)                         # a cache miss executes the chapter here
        except Exception as err:                # name the chapter and the cell, whatever failed
            cause = err.__cause__ if err.__cause__ is not None else err
            raise failure(Path(self.path), cause) from err
        if self.notebook is not chapter:        # a cache hit
            merged = self.notebook
            chapter.clear()
            chapter.update(merged)
            self._notebook = chapter

    start_client.roofline = True
    NotebookClientCache.start_client = start_client


def apply() -> None:
    """Check the versions, then patch (idempotent)."""
    check_versions()
    local_kernels()
    downloads_from_the_cache()
