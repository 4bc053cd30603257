"""One run of each chapter, shared by the site and the editions.

The book executes each chapter through jupyter-cache (myst-nb, `execute_notebooks: cache`, the cache keyed on
the library's hash: sphinx_ext.library_hash). `ensure(sources)` puts into that same cache, before the book is
built, the run the book itself would make of every chapter that is not in it yet: the notebook myst-nb's own
reader makes of the .md (so the cache's key, the code cells and their metadata, is the book's), executed by
jupyter-cache's own function with the book's timeout, working folder and environment (`ROOFLINE_BOOK=1`), on
as many kernels side by side as the machine has cores (for the book, a chapter that times the machine runs
alone). Sphinx then finds every chapter in the cache and
executes nothing; a clean build and a primed one give the same site (tests/test_reproducible.py compares them).

The editions are made from the same run (`editions.from_book_run`): outside the book, `glue` shows below the
cell what is a pure function of each record (glue.shown), so the edition's outputs are the book run's
outputs with those displays added after each record, and its execution counts one higher (the Colab setup
cell runs first). That is exactly what executing the edition gives (`python -m coursebook notebooks`, nbval).

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


def cache_of(build_dir: Path):
    """The book's jupyter-cache for the library as it is now (the folder sphinx_ext.on_config names)."""
    from jupyter_cache import get_cache

    from coursebook.sphinx_ext import library_hash

    return get_cache(str(build_dir / ".jupyter_cache" / library_hash()))


def cached(cache, nb):
    """The book's executed notebook for `nb` from the cache, or None."""
    try:
        record = cache.match_cache_notebook(nb)
    except KeyError:
        return None
    return cache.get_cache_bundle(record.pk).nb


def run_as_the_book(md: Path, nb, timeout: int):
    """Execute `nb` as myst-nb's cache mode does (jupyter-cache's single_nb_execution, our local-socket kernels)."""
    from jupyter_cache.executors.utils import single_nb_execution

    from coursebook import sphinx_ext

    sphinx_ext.local_kernels()
    result = single_nb_execution(nb, cwd=os.path.abspath(md.parent), allow_errors=False, timeout=timeout,
                                 meta_override=True)
    if result.err is not None:
        raise RuntimeError(f"{md.name}을(를) 실행하다 실패했다:\n{result.exc_string}")
    return result.time


MEASURING_TAGS = {"nbval-ignore-output", "nbval-skip"}   # a cell that measures this machine (editions.UNCOMPARED_TAGS)


def measures(nb) -> bool:
    """Whether the chapter times something on the machine that builds it (a cell tagged as varying run to run)."""
    return any(MEASURING_TAGS & set(c.metadata.get("tags", [])) for c in nb.cells if c.cell_type == "code")


def ensure(sources: list[Path], build_dir: Path = ROOT / "_build", root: Path = ROOT,
           jobs: int | None = None, meanwhile=None, measure_alone: bool = True) -> dict[Path, object]:
    """Every chapter's book run (md → executed notebook), executing only those not in the book's cache yet.

    Chapters run `jobs` at a time (default: one per core). With `measure_alone` (what `make book`, and so the
    published site, does), a chapter that times the machine runs when no other chapter does, as in the book's own
    one-by-one run, so that its timings are not shared with another kernel; without it (`make refresh`, about a
    fifth faster), it runs side by side with the others too. `meanwhile()`, if given, is called while the first
    ones run. Each run is stored in the cache as the book would store it."""
    from jupyter_cache.base import CacheBundleIn

    from coursebook.editions import book_mode

    config = book_config(root)
    timeout = int(config.get("execute", {}).get("timeout", 30))
    cache = cache_of(build_dir)
    runs, missing = {}, []
    for md in sources:
        nb = book_notebook(md, root, config)
        have = cached(cache, nb)
        if have is not None:
            runs[md] = have
        else:
            missing.append((md, nb))
    by_itself = [measure_alone and measures(nb) for _, nb in missing]
    shared = [item for item, alone_ in zip(missing, by_itself) if not alone_]
    alone = [item for item, alone_ in zip(missing, by_itself) if alone_]
    seconds = {}
    with book_mode(True):
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            started = [(md, pool.submit(run_as_the_book, md, nb, timeout)) for md, nb in shared]
            if meanwhile is not None:
                meanwhile()
            seconds.update((md, future.result()) for md, future in started)
        for md, nb in alone:
            seconds[md] = run_as_the_book(md, nb, timeout)
    for md, nb in missing:   # one writer for the cache's database
        cache.add_nb_to_project(str(md), read_data={"type": "plugin", "name": "myst_nb_md"})
        cache.cache_notebook_bundle(CacheBundleIn(nb, str(md), data={"execution_seconds": seconds[md]}),
                                    check_validity=False, overwrite=True)
        runs[md] = cached(cache, nb)
    return {md: runs[md] for md in sources}
