"""One run of each chapter, shared by the site and the editions.

The book executes each chapter through jupyter-cache (myst-nb, `execute_notebooks: cache`, the cache keyed on
the library's hash: sphinx_ext.library_hash). `ensure(sources)` puts into that same cache, before the book is
built, the run the book itself would make of every chapter that is not in it yet: the notebook myst-nb's own
reader makes of the .md (so the cache's key, the code cells and their metadata, is the book's), executed by
`execute` (the one runner) with the book's timeout (or the chapter's own: timeout_of), working folder and kernel
(`glue` only records there: RECORDS_ONLY), on as many kernels side by side as the machine has cores (for the book, a
chapter that times the machine runs alone). A chapter that fails, times out or loses its kernel stops it with
ChapterFailed (naming the chapter and the cell) before anything is cached or written. Sphinx then finds every
chapter in the cache and executes nothing; a clean build and a primed one give the same site
(tests/flows/test_reproducible.py compares them).

The editions are made from the same run (`editions.from_book_run`): outside the book, `glue` shows below the
cell what is a pure function of each record (glue.shown), so the edition's outputs are the book run's
outputs with those displays added after each record, and its execution counts one higher (the Colab setup
cell runs first). That is exactly what executing the edition gives: nbval re-runs every edition and compares it.

`ROOFLINE_KERNEL_LOG=<file>`: every chapter kernel started (here, by the book, or for an edition) appends a
line naming its chapter, so a test can count how often `make refresh` executes each one.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
KERNEL_LOG = "ROOFLINE_KERNEL_LOG"
# set by `coursebook book` and `refresh` for the site build they start, just after `ensure` put every chapter into the
# cache: that cache's folder, so that the book's extension (sphinx_ext.run_missing_chapters) does not look again
CHAPTERS_RUN = "ROOFLINE_CHAPTERS_RUN"
KERNEL_START_S = 300   # nbclient's default, 60 s, is too short for a kernel started on a busy machine


def log_kernel(cwd, nb) -> None:
    """Append the chapter's label (its `(label)=` line above the title) to $ROOFLINE_KERNEL_LOG, if set."""
    import re

    path = os.environ.get(KERNEL_LOG)
    if not path:
        return
    labels = (re.search(r"^\(([\w-]+)\)=", c.source, re.M) for c in nb.cells if c.cell_type == "markdown")
    name = next((m[1] for m in labels if m), f"(a notebook without a label, in {cwd})")
    with open(path, "a", encoding="utf-8") as log:
        log.write(name + "\n")


def book_config(root: Path = ROOT) -> dict:
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))   # returned as read: a new dict
    execute = config.get("execute", {})
    if execute.get("execute_notebooks") != "cache":
        raise ValueError("_config.yml: execute.execute_notebooks must be 'cache' (the site and the editions share the book's run)")
    return config


def book_notebook(md: Path, root: Path = ROOT, config: dict | None = None):
    """The chapter as the book reads it: myst-nb's reader with the book's Markdown extensions (`config`: the
    book's _config.yml, read if not given)."""
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    extensions = (config or book_config(root)).get("parse", {}).get("myst_enable_extensions", [])
    config = MdParserConfig(enable_extensions=set(extensions))
    return read_myst_markdown_notebook(md.read_text(encoding="utf-8"), config=config, add_source_map=True,
                                       path=str(md))


def cache_of(build_dir: Path, key: str | None = None):
    """The book's jupyter-cache for the library as it is now (the folder sphinx_ext.on_config names), or the folder
    `key` names (`make serve`'s: coursebook.serve keeps it fresh chapter by chapter)."""
    from jupyter_cache import get_cache

    from coursebook.sphinx_ext import library_hash

    return get_cache(str(build_dir / ".jupyter_cache" / (key or library_hash())))


def cached(cache, nb, fetch: bool = True):
    """The book's executed notebook for `nb` from the cache, or None (`fetch=False`: its cache record, or None; the
    executed notebook, which is most of the time, is not read)."""
    try:
        record = cache.match_cache_notebook(nb)
    except KeyError:
        return None
    return cache.get_cache_bundle(record.pk).nb if fetch else record


class ChapterFailed(RuntimeError):
    """A chapter's execution failed, timed out, or lost its kernel: the message names the chapter and the cell."""


def kernel_of(nb) -> str:
    """The kernel a notebook asks for in its metadata (Jupyter's default, python3, if it names none)."""
    return nb.metadata.get("kernelspec", {}).get("name") or "python3"


# what the book's runs execute in the chapter's kernel before the chapter: `glue` only records there (the page shows
# each value where its text names it); an IPython kernel's own option, passed on its command line
RECORDS_ONLY = "--IPKernelApp.exec_lines=from roofline.show.glue import records_only; records_only()"
# every run's kernel: no IPython history (a run keeps none: its cells are the notebook's, and its kernel would open,
# write and close ~/.ipython's history database, about a tenth of its start's CPU)
NO_HISTORY = "--HistoryManager.enabled=False"


def execute(nb, cwd=None, timeout=None, allow_errors: bool = False, kernel_name: str | None = None,
            kernel_dirs=None, record_timing: bool = False, book: bool = False, **kwargs):
    """The one way this project runs a chapter: `nb` executed in place by nbclient, in a fresh kernel on Unix
    sockets (ZeroMQ ipc) in a private temporary folder, not on TCP ports (only this user can reach it, and
    ipykernel has no reason to warn "Kernel is running over TCP without encryption"), and killed once its last cell
    has answered (nbclient's `shutdown_kernel="immediate"`): a run needs nothing more from it, and a graceful shutdown
    only spends a fifth of the kernel's CPU freeing what the process holds before it exits.

    The book's runs (`run_as_the_book`, which `ensure` caches before Sphinx starts, so myst-nb finds every chapter
    run), the editions' and the tests' all come here. nbclient's exceptions pass through
    (CellExecutionError and CellTimeoutError name the cell); a kernel that dies says in which cell.
    `kernel_dirs`: where to look for `kernel_name`'s spec (default: Jupyter's usual places). `book`: the book's run,
    whose kernel calls `glue.records_only()` before the chapter (RECORDS_ONLY)."""
    import tempfile

    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    log_kernel(cwd, nb)
    name = kernel_name or kernel_of(nb)
    running = {}

    def started(cell, cell_index, **_):
        running.update(cell=cell, index=cell_index)

    with tempfile.TemporaryDirectory(prefix="roofline-kernel-") as sockets:
        specs = {"kernel_spec_manager": KernelSpecManager(kernel_dirs=list(map(str, kernel_dirs)))} if kernel_dirs else {}
        km = AsyncKernelManager(kernel_name=name, transport="ipc", ip=os.path.join(sockets, "k"), **specs)
        resources = {"metadata": {"path": str(cwd)}} if cwd is not None else {}
        kwargs.setdefault("startup_timeout", KERNEL_START_S)
        kwargs.setdefault("shutdown_kernel", "immediate")
        kwargs["extra_arguments"] = [*kwargs.get("extra_arguments", []), NO_HISTORY, *([RECORDS_ONLY] if book else [])]
        client = NotebookClient(nb, km=km, timeout=timeout, allow_errors=allow_errors, record_timing=record_timing,
                                resources=resources, on_cell_start=started, **kwargs)
        # the kernel process's own log (not the cells' output, which comes by messages) goes to a file, not to the
        # command's stderr: ipykernel can log a ZeroMQ error while it shuts down, a traceback that is no failure
        log = Path(sockets) / "kernel.log"
        try:
            with log.open("wb") as kernel_log:
                client.execute(cleanup_kc=True, stderr=kernel_log)   # (start_kernel's options, as nbclient documents)
        except DeadKernelError as err:
            cell = running.get("cell")
            where = f"cell {running['index']} ({cell.source[:80]!r})" if cell is not None else "its start"
            said = log.read_text(encoding="utf-8", errors="replace").strip()[-1500:] if log.is_file() else ""
            raise DeadKernelError(f"the kernel died while running {where}: {err}"
                                  + (f"\n(the kernel's log: {said})" if said else "")) from err
    return nb


def import_for_threads(kernel_name: str = "python3") -> None:
    """Import, in the calling thread, what `execute` would import the first time it runs, so that runs in other
    threads import nothing more (tests/tooling/test_bookrun.py checks it).

    Python locks an import module by module, so two threads importing one package from different ends can each hold
    what the other waits for. jupyter_client imports IPython (and ipykernel) when it first looks up a kernel, and
    `ensure`'s `meanwhile` draws the figures, which imports IPython.display: CPython then fails one of the two
    imports, and the other finds the package gone (`KeyError: 'IPython'`, met once in `make refresh`)."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from jupyter_client.manager import AsyncKernelManager  # noqa: F401  (what `execute` and `failure` import)
    from nbclient import NotebookClient  # noqa: F401
    from nbclient.exceptions import CellTimeoutError, DeadKernelError  # noqa: F401

    try:
        KernelSpecManager().get_kernel_spec(kernel_name)
    except NoSuchKernel:
        pass   # the chapter's own run says so, naming the chapter


def failure(md: Path, err: BaseException) -> ChapterFailed:
    """`err` from executing chapter `md`, as one error naming the chapter (and, in nbclient's text, the cell)."""
    from nbclient.exceptions import CellTimeoutError

    what = "timed out" if isinstance(err, CellTimeoutError) else "failed"
    return ChapterFailed(f"{chapter_name(md)} {what} ({type(err).__name__}): {err}")


def chapter_name(md: Path) -> str:
    """`md` as a message names it: its path in the checkout (chapters/…), or its file name elsewhere."""
    try:
        return md.relative_to(ROOT).as_posix()
    except ValueError:
        return md.name


def timeout_of(md: Path, nb, book_timeout: int) -> int:
    """The seconds a cell of chapter `md` may take: its own when its front matter sets myst-nb's per-file
    `mystnb: execution_timeout` (what myst-nb's own run of the chapter would use), else the book's (_config.yml's
    `execute.timeout`). A value that is not a positive whole number of seconds stops the run, naming the chapter."""
    own = nb.metadata.get("mystnb", {}).get("execution_timeout")
    if own is None:
        return book_timeout
    if isinstance(own, bool) or not isinstance(own, int) or own <= 0:
        raise ChapterFailed(f"{chapter_name(md)}: 머리말의 mystnb.execution_timeout은 초를 세는 양의 정수여야 한다 "
                            f"(지금 {own!r})")
    return own


def run_as_the_book(md: Path, nb, timeout: int) -> float:
    """Execute `nb` as the book would (working folder: the chapter's; no errors allowed); the seconds it took.
    Raises ChapterFailed naming the chapter and the cell."""
    import time

    start = time.perf_counter()
    try:
        execute(nb, cwd=os.path.abspath(md.parent), timeout=timeout, allow_errors=False, book=True)
    except Exception as err:
        raise failure(md, err) from err
    return time.perf_counter() - start


MEASURING_TAGS = {"nbval-ignore-output", "nbval-skip"}   # a cell that measures this machine (editions.UNCOMPARED_TAGS)


def measures(nb) -> bool:
    """Whether the chapter times something on the machine that builds it (a cell tagged as varying run to run)."""
    return any(MEASURING_TAGS & set(c.metadata.get("tags", [])) for c in nb.cells if c.cell_type == "code")


def ensure(sources: list[Path], build_dir: Path = ROOT / "_build", root: Path = ROOT,
           jobs: int | None = None, meanwhile=None, measure_alone: bool = True,
           cache_key: str | None = None, fetch: bool = True) -> dict[Path, object]:
    """Every chapter's book run (md → executed notebook), executing only those not in the book's cache yet.

    Chapters run `jobs` at a time (default: one per core). With `measure_alone` (what `make book`, and so the
    published site, does), a chapter that times the machine runs when no other chapter does, as in the book's own
    one-by-one run, so that its timings are not shared with another kernel; without it (`make refresh`, about a
    fifth faster), it runs side by side with the others too. `meanwhile()`, if given, is called while the first
    ones run. Each run is stored in the cache as the book would store it (`cache_key`: in the cache of that name,
    cache_of). A damaged cache database is removed first (built.repair_cache: it is only a cache).
    `fetch=False` (a caller that only needs every chapter to be in the cache, the site build's extension): returns {}
    and reads no executed notebook from the cache."""
    from jupyter_cache.base import CacheBundleIn

    from coursebook.built import repair_cache

    repair_cache(build_dir)
    config = book_config(root)
    timeout = int(config.get("execute", {}).get("timeout", 30))
    cache = cache_of(build_dir, cache_key)
    runs, missing = {}, []
    for md in sources:
        nb = book_notebook(md, root, config)
        have = cached(cache, nb, fetch)
        if have is not None:
            runs[md] = have
        else:
            missing.append((md, nb))
    timeouts = {md: timeout_of(md, nb, timeout) for md, nb in missing}   # (a bad one stops it before any run)
    by_itself = [measure_alone and measures(nb) for _, nb in missing]
    shared = [item for item, alone_ in zip(missing, by_itself) if not alone_]
    alone = [item for item, alone_ in zip(missing, by_itself) if alone_]
    seconds, failed = {}, []
    for name in {kernel_of(nb) for _, nb in shared}:
        import_for_threads(name)
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        started = [(md, pool.submit(run_as_the_book, md, nb, timeouts[md])) for md, nb in shared]
        if meanwhile is not None:
            meanwhile()
        for md, future in started:
            try:
                seconds[md] = future.result()
            except ChapterFailed as err:
                failed.append(err)
    for md, nb in alone:
        if failed:
            break
        seconds[md] = run_as_the_book(md, nb, timeouts[md])
    if failed:   # nothing is cached (nor, by the caller, written) from an incomplete run
        raise ChapterFailed("\n".join(map(str, failed)))
    for md, nb in missing:   # one writer for the cache's database
        cache.add_nb_to_project(str(md), read_data={"type": "plugin", "name": "myst_nb_md"})
        cache.cache_notebook_bundle(CacheBundleIn(nb, str(md), data={"execution_seconds": seconds[md]}),
                                    check_validity=False, overwrite=True)
        if fetch:
            runs[md] = cached(cache, nb)
    return {md: runs[md] for md in sources} if fetch else {}
