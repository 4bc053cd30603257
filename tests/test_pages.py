"""The page modules (roofline.show.pages) as a checked interface between the library and the prose; no build.

- The registry: every page of _toc.yml that glues a value has its module `roofline.show.pages.<stem>`, and every
  module is a page of the book, so a new chapter cannot escape the checks that loop over `pages.names()`.
- The glue keys: the keys a page glues (its golden file, which tests/test_golden.py recomputes from the library) equal
  the `{glue…}` references of its .md, both ways: no key glued only for a test, no reference to a missing key.
- No key is a grammatical case: a value that needs a particle carries it (`ko.particle`), and its key names the value.
- README's module table names every module of roofline.show.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from roofline.show import pages
from site_pages import toc_pages

ROOT = Path(__file__).resolve().parents[1]
SHOW = ROOT / "lib" / "roofline" / "show"
GOLDEN = ROOT / "tests" / "golden"
REFERENCE = re.compile(r"\{glue(?::\w+)?\}`([^`]+)`|^[`:]{3,}\{glue(?::\w+)?\}[ \t]+(\S+)", re.M)
# a key that ends in a Korean particle's or a case's name ("T-over-s-wa", "q-Bc2-ida", "dtype-obj", "occ-gpu-ui")
GRAMMATICAL = re.compile(r"-(wa|gwa|ida|obj|object|subj|subject|topic|quoting|ro|euro|if|myeon|neun|eun|i|ga|ui|reul|eul|do|ko|eseo|to|from)$")


def glued_pages() -> list[str]:
    return [Path(p).name for p in toc_pages(ROOT) if "{glue" in (ROOT / f"{p}.md").read_text(encoding="utf-8")]


def references(stem: str) -> set[str]:
    return {a or b for a, b in REFERENCE.findall((ROOT / "chapters" / f"{stem}.md").read_text(encoding="utf-8"))}


def glued_keys(stem: str) -> set[str]:
    return set(json.loads((GOLDEN / f"{stem}.json").read_text(encoding="utf-8")))


def test_the_registry_is_the_books_pages_that_glue():
    assert sorted(pages.names()) == sorted(glued_pages())
    for name in pages.names():
        assert (ROOT / pages.source(name)).is_file()


def test_importing_the_registry_imports_no_page():
    import subprocess
    import sys

    code = ("import sys, roofline.show.pages as p; p.names(); "
            "print(sorted(m for m in sys.modules if m.startswith('roofline.show.pages.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("stem", pages.names())
def test_glued_keys_equal_the_pages_references(stem):
    keys, refs = glued_keys(stem), references(stem)
    assert not sorted(keys - refs), f"{stem}: glued but never shown on the page"
    assert not sorted(refs - keys), f"{stem}: the page shows a key nothing glues"


@pytest.mark.parametrize("stem", pages.names())
def test_no_key_is_a_grammatical_case(stem):
    assert sorted(k for k in glued_keys(stem) if GRAMMATICAL.search(k)) == []


def test_readme_names_every_module_of_show():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**보여 주기**"):readme.index("**사이트 도구**")]
    section += readme[readme.index("장과 모듈:"):]
    modules = sorted(p.stem for p in SHOW.rglob("*.py") if p.stem != "__init__")
    assert [m for m in modules if f"`{m}`" not in section and f".{m}`" not in section and f"/{m}`" not in section] == []
