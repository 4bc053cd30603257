"""The site's Sphinx extension (_config.yml: sphinx.local_extensions).

- marks the build (`ROOFLINE_BOOK=1`) so that `glue` only records, and chapters show tables once;
- keys jupyter-cache on a hash of the library and its parameters, so an edit to lib/roofline (model,
  presentation, course.toml) re-executes every chapter, and an edit to this tooling does not (jupyter-cache alone notices only the notebook's own code);
- registers the Korean search language (search_ko), per-page descriptions (sitemeta) and the Korean
  interface words the themes lack (korean_ui).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

LIB = Path(__file__).resolve().parents[2] / "lib" / "roofline"   # model, presentation and course.toml


def library_hash(lib: Path = LIB) -> str:
    """sha256 over what the chapters execute: the library's .py and .toml files (model, presentation, parameters;
    names and bytes), not this tooling. The jupyter-cache folder's name."""
    digest = hashlib.sha256()
    for path in sorted(lib.rglob("*")):
        if path.is_file() and path.suffix in {".py", ".toml"}:
            digest.update(path.relative_to(lib).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def on_config(app, config) -> None:
    os.environ["ROOFLINE_BOOK"] = "1"
    if config.nb_execution_mode == "cache":
        base = Path(app.outdir).parent / ".jupyter_cache"
        config.nb_execution_cache_path = str(base / library_hash())


def setup(app):
    app.connect("config-inited", on_config, priority=100)
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
    return {"parallel_read_safe": True, "parallel_write_safe": True}
