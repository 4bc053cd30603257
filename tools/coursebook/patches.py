"""The two changes this project makes to myst-nb and jupyter-cache, in one place. Neither has a supported
option yet (docs/upgrading.md names the upstream issues); each is applied only where the function it wraps exists,
on any version, and where it does not the build goes on with myst-nb's own behaviour and says so once.

- jupyter-cache (written for 1.0.1), `jupyter_cache.executors.utils.executenb` (called by `single_nb_execution`,
  which myst-nb's cache mode uses): replaced by `bookrun.execute`, the one way this project runs a chapter (its
  kernel on Unix sockets in a private folder, not on TCP ports; a failure names the chapter and the cell).
  Without it: chapters run on nbclient's TCP kernels, and a failure names only the chapter.
- myst-nb (written for 1.4.0), `myst_nb.core.execute.cache.NotebookClientCache.start_client`: on a cache hit
  myst-nb renders from a merged copy of the chapter but writes the chapter it read, without outputs, to
  jupyter_execute/ (the page's download); the wrapper puts the merged copy into the chapter object, so both cases
  write the same notebook; and a chapter that fails to execute there stops the build with bookrun.ChapterFailed
  naming the chapter and the cell. Without it: a cached page's download has no outputs, and a failure stops the
  build by nb_execution_raise_on_error (conf), naming the chapter only.
"""
from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

def installed(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


def skipped(name: str, what: str) -> None:
    print(f"coursebook.patches: {name} {installed(name)} has no {what}; the build goes on without this project's "
          f"change to it (docs/upgrading.md)", file=sys.stderr)


def local_kernels() -> None:
    try:
        from jupyter_cache.executors import utils
    except ImportError:
        return skipped("jupyter-cache", "jupyter_cache.executors.utils")
    if not callable(getattr(utils, "executenb", None)):
        return skipped("jupyter-cache", "executors.utils.executenb")
    from coursebook import bookrun

    utils.executenb = bookrun.execute


def downloads_from_the_cache() -> None:
    try:
        from myst_nb.core.execute.cache import NotebookClientCache
    except ImportError:
        return skipped("myst-nb", "myst_nb.core.execute.cache.NotebookClientCache")
    start = getattr(NotebookClientCache, "start_client", None)
    if not callable(start):
        return skipped("myst-nb", "NotebookClientCache.start_client")
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
        merged = getattr(self, "notebook", chapter)
        if merged is not chapter and isinstance(chapter, dict):     # a cache hit
            chapter.clear()
            chapter.update(merged)
            if hasattr(self, "_notebook"):      # myst-nb 1.x keeps the notebook it hands out there
                self._notebook = chapter

    start_client.roofline = True
    NotebookClientCache.start_client = start_client


def apply() -> None:
    """Wrap what exists (idempotent); never refuse a version."""
    local_kernels()
    downloads_from_the_cache()
