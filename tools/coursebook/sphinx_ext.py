"""The site's Sphinx extension (_config.yml: sphinx.local_extensions).

- keys jupyter-cache on a hash of the library and its parameters, so an edit to lib/roofline (model,
  presentation, course.toml) re-executes every chapter, and an edit to this tooling does not (jupyter-cache alone notices only the notebook's own code);
- finds every chapter already run (bookrun.ensure puts each into myst-nb's jupyter-cache before Sphinx starts,
  with the project's one runner, bookrun.execute: kernels on Unix sockets, a failure naming the chapter and the
  cell), and stops the build when a chapter it has to run itself fails (nb_execution_raise_on_error); a failed build
  leaves no pages in _build/html (`no_half_built_site`); a page's executed notebook (and download) gets its outputs
  from the cache (`with_cached_outputs`);
- makes two builds of one commit give the same bytes: the page's "last updated" date
  is the commit's date, the executed notebooks offered for download have the same cells and metadata,
  and pages link static files the same way in a clean build and in a rebuild;
- registers the Korean search language (search_ko), per-page descriptions (sitemeta) and the Korean
  interface words the themes lack (korean_ui);
- registers the service worker and the web app manifest (offline);
- `make serve`'s development build (`coursebook_dev`, set by coursebook.serve, never by `make book`): the execution
  cache of one fixed name that coursebook.serve keeps fresh per chapter, the chapters it re-ran read again
  (`coursebook_reread`), the pages each build writes (`written_pages`), and a failed build keeps the pages it had.
"""
from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

LIB = Path(__file__).resolve().parents[2] / "lib" / "roofline"   # model, presentation and course.toml


def library_hash(lib: Path = LIB, suffixes: tuple[str, ...] = (".py", ".toml")) -> str:
    """sha256 over what the chapters execute: the library's .py and .toml files (model, presentation, parameters;
    names and bytes), not this tooling. The jupyter-cache folder's name (and the figures' cache key). Bytes, not
    code: a page shows the library's own text too (the matmul / FlashAttention note's listings of `gemm` and
    `attention`, docstrings and comments with them), so an edit of a docstring or a comment runs the chapters again.
    `suffixes=(".py",)`: the code alone, without the parameters (a figure's key names its own problem instead)."""
    digest = hashlib.sha256()
    for path in sorted(lib.rglob("*")):
        if path.is_file() and path.suffix in suffixes:
            digest.update(path.relative_to(lib).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def commit_time(folder: Path) -> str | None:
    """Unix time of the checkout's last commit (git log -1 --format=%ct), or None outside a git checkout."""
    try:
        run = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=folder, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    stamp = run.stdout.strip()
    return stamp if run.returncode == 0 and stamp.isdigit() else None


DEV_CACHE = "dev"   # the development build's execution cache (_build/dev/.jupyter_cache/dev): coursebook.serve


def on_config(app, config) -> None:
    config.nb_execution_raise_on_error = True   # a chapter that fails here stops the build (not a warning)
    config.nb_execution_show_tb = True          # … and says in which cell
    if config.nb_execution_mode == "cache":
        base = Path(app.outdir).parent / ".jupyter_cache"
        config.nb_execution_cache_path = str(base / (DEV_CACHE if config.coursebook_dev else library_hash()))


def last_updated_from_commit(app, config) -> None:
    """The footer's "최종 업데이트" date (html_last_updated_fmt) is the date (UTC) of the commit being
    built, not of the day of the build: two builds of one commit agree. It is written into the setting
    itself, so that Sphinx sees a new commit's date as a changed setting and writes every page again
    (a rebuild would otherwise keep the old date on the pages it does not rewrite)."""
    if config.html_last_updated_fmt is None or not (stamp := commit_time(Path(app.srcdir))):
        return
    from datetime import datetime, timezone

    from sphinx.locale import _
    from sphinx.util.i18n import format_date

    when = datetime.fromtimestamp(int(stamp), tz=timezone.utc)
    shown = format_date(config.html_last_updated_fmt or _("%b %d, %Y"), date=when, language=config.language)
    config.html_last_updated_fmt = shown.replace("%", "%%")


# ---- the same bytes from every build of one commit -------------------------------------------------

def stable_notebook(app, doctree) -> None:
    """doctree-read: myst-nb has just written the executed notebook of this page to jupyter_execute/ (the
    theme copies it to _sources/ for the download button). Make its bytes depend on the page only:
    - cell ids: nbformat gives every cell read from MyST Markdown a random id; number them instead,
      as the chapters' editions do ("cell-0", "cell-1", …);
    - execution counts and language_info: a fresh run has them, a notebook from jupyter-cache does not;
      count the code cells as the one top-to-bottom run does (1, 2, …; blank cells are not run) and
      keep only the language's name, as the editions do."""
    import nbformat

    folder = getattr(getattr(app.env, "mystnb_config", None), "output_folder", None)
    if not folder:
        return
    path = Path(folder, *f"{app.env.docname}.ipynb".split("/"))
    if not path.is_file():
        return
    nb = with_cached_outputs(app, nbformat.reads(path.read_text(encoding="utf-8"), as_version=nbformat.NO_CONVERT))
    count = 0
    for number, cell in enumerate(nb.cells):
        cell.id = f"cell-{number}"
        if cell.cell_type == "code":
            count += bool(cell.source.strip())
            cell.execution_count = count if cell.source.strip() else None
    nb.metadata["language_info"] = {"name": nb.metadata.get("kernelspec", {}).get("language", "python")}
    content = nbformat.writes(nb).encode("utf-8")
    if content != path.read_bytes():
        path.write_bytes(content)
    # the page's glue records (NAME.glue.json, written by myst-nb just before): one left from an earlier build
    # of a page that glues nothing now must not pass for this build's (editions.site_records reads it)
    from myst_nb.sphinx_ import NbMetadataCollector

    glue = path.with_name(path.stem + ".glue.json")
    if glue.exists() and not NbMetadataCollector.get_doc_data(app.env).get(app.env.docname, {}).get("glue"):
        glue.unlink()


def with_cached_outputs(app, nb):
    """`nb` with its outputs from the execution cache when it has none: on a cache hit myst-nb renders the page from the
    cached run but writes the chapter it read, without outputs, to jupyter_execute/ (and so to the download).
    jupyter-cache's public `merge_match_into_notebook` gives the chapter with the cached run's outputs."""
    code = [cell for cell in nb.cells if cell.cell_type == "code" and cell.source.strip()]
    path = getattr(app.config, "nb_execution_cache_path", "")
    if not code or any(cell.get("outputs") for cell in code) or app.config.nb_execution_mode != "cache" or not path:
        return nb
    from jupyter_cache import get_cache

    try:
        return get_cache(path).merge_match_into_notebook(nb)[1]
    except KeyError:     # not in the cache (a chapter that gives no output at all): as myst-nb wrote it
        return nb


def run_missing_chapters(app) -> None:
    """builder-inited: every chapter not in the execution cache is run now by the project's runner (bookrun.ensure,
    as `coursebook book` does before Sphinx: a failure names the chapter and the cell) and stored where myst-nb's
    cache mode reads it, so that myst-nb executes nothing itself, in a plain `jupyter-book build` too. Nothing to do
    in the build `coursebook book` or `refresh` starts just after putting every chapter into this very cache
    (bookrun.CHAPTERS_RUN names it): looking again would read every chapter and match it in the cache once more."""
    if app.config.nb_execution_mode != "cache" or app.config.coursebook_dev:   # (coursebook.serve has run them)
        return
    import os

    from coursebook import bookrun

    if os.environ.get(bookrun.CHAPTERS_RUN) == str(Path(app.config.nb_execution_cache_path).resolve()):
        return
    root = Path(app.srcdir)
    chapters = sorted(p for p in (root / "chapters").glob("*.md")
                      if "kernelspec:" in p.read_text(encoding="utf-8", errors="replace")[:600])
    bookrun.ensure(chapters, Path(app.outdir).parent, root, fetch=False)


def no_half_built_site(app, exception) -> None:
    """build-finished: a build that failed (an exception, or with --keep-going any warning, which -W makes an
    error) leaves no pages: a page whose chapter failed would show no values. The exit status stays non-zero."""
    if app.config.coursebook_dev:   # `make serve`: the last pages stay; the terminal says what failed
        return
    if exception is not None or (app.warningiserror and app._warncount):
        import shutil

        shutil.rmtree(app.outdir, ignore_errors=True)
        print(f"the build failed: removed {app.outdir} (no page without its values)", file=sys.stderr)


def assets_before_pages(app, builder) -> None:
    """write-started: copy the static file that myst-nb copies only at build-finished (mystnb.<hash>.css)
    before the pages are written. Sphinx links a
    static file as `…?v=<checksum>` only when the file is already in the output folder, so otherwise a
    clean build links them bare and every later build with the checksum."""
    if builder.format != "html":
        return
    from myst_nb.sphinx_ext import add_global_html_resources

    Path(app.outdir, "_static").mkdir(parents=True, exist_ok=True)   # a clean build has none yet
    add_global_html_resources(app, None)


def reread(app, env, added, changed, removed) -> list[str]:
    """env-get-outdated: the development build reads again the chapters coursebook.serve has just re-run (their
    sources are as they were; what they import changed)."""
    return [d for d in app.config.coursebook_reread if d in env.found_docs] if app.config.coursebook_dev else []


def note_written(app, pagename, templatename, context, doctree) -> None:
    if app.config.coursebook_dev:
        app.__dict__.setdefault("rl_written", set()).add(pagename)


def written_pages(app) -> list[Path]:
    """The development build: the pages this build wrote (the others are as an earlier build left them)."""
    return [Path(app.outdir, app.builder.get_target_uri(name)) for name in sorted(app.__dict__.get("rl_written", ()))]


def setup(app):
    app.add_config_value("coursebook_dev", False, "")       # `make serve` (coursebook.serve) sets these two
    app.add_config_value("coursebook_reread", [], "")
    app.connect("env-get-outdated", reread)
    app.connect("html-page-context", note_written)
    app.connect("config-inited", on_config, priority=100)
    app.connect("config-inited", last_updated_from_commit, priority=100)
    app.connect("builder-inited", run_missing_chapters)
    app.connect("doctree-read", stable_notebook)
    app.connect("write-started", assets_before_pages)
    app.connect("build-finished", no_half_built_site)
    # Korean search language; <meta name="description"> per page; Korean interface words
    from coursebook import korean_ui, search_ko, sitemeta

    search_ko.setup(app)
    sitemeta.setup(app)
    korean_ui.setup(app)
    # formulas as MathML at build time; only the icons in use; keyboard-reachable tables, landmarks
    from coursebook import a11y, icons, mathml

    mathml.setup(app)
    icons.setup(app)
    a11y.setup(app)
    # a service worker and a web app manifest from the build's own file list: pages kept offline, one edition at a time
    from coursebook import offline

    offline.setup(app)
    # each glued number with its derivation: a disclosure button, the page's records on demand (why.js), the gate
    from coursebook import derivations

    derivations.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
