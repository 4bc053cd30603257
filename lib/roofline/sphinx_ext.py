"""The site's Sphinx extension (_config.yml: sphinx.local_extensions).

- marks the build (`ROOFLINE_BOOK=1`) so that `glue` only records, and chapters show tables once;
- keys jupyter-cache on a hash of the library and its parameters, so an edit to lib/ or
  course.toml re-executes every chapter (jupyter-cache alone notices only the notebook's own code);
- registers the Korean search language (search_ko), per-page descriptions (sitemeta) and the Korean
  interface words the themes lack (korean_ui).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

LIB = Path(__file__).resolve().parent


def library_hash(lib: Path = LIB) -> str:
    """sha256 over the library's .py and .toml files (names and bytes): the jupyter-cache folder's name."""
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
    from roofline import korean_ui, search_ko, sitemeta

    search_ko.setup(app)
    sitemeta.setup(app)
    korean_ui.setup(app)
    # formulas as MathML at build time; only the icons in use; keyboard-reachable tables, landmarks
    from roofline import a11y, icons, mathml

    mathml.setup(app)
    icons.setup(app)
    a11y.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
