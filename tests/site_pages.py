"""The built site as text, for the tests that read pages without a browser (one extractor, one TOC reader)."""
from __future__ import annotations

import functools
import html
import os
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("ROOFLINE_HTML", ROOT / "_build" / "html"))


@functools.lru_cache(maxsize=None)
def toc_pages(root: Path = ROOT) -> tuple[str, ...]:
    """Docnames of _toc.yml in reading order: root, then every file of every part/chapter/section."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                pages.append(str(entry["file"]).removesuffix(".md").removesuffix(".ipynb"))
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    walk(toc.get("parts"))
    walk(toc.get("chapters"))
    walk(toc.get("sections"))
    return tuple(pages)


def page_text(path: Path) -> str:
    """The readable text of a built page's main content (no scripts, styles or tags; spaces collapsed)."""
    raw = path.read_text(encoding="utf-8")
    main = re.search(r'<main[^>]*id="main-content".*?</main>', raw, re.S)
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", main.group(0) if main else raw, flags=re.S)
    body = re.sub(r"</?button\b[^>]*>", "", body)   # a number's derivation button: inline, inside its words ("T = 64면")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
