"""`make serve` (coursebook/serve.py): what a chapter's run depends on, and the marked pages it serves.

- A chapter runs again when a library file its code imports changes, and only then: the files are read from its
  import statements and theirs (a page module, what it imports, the packages on the way, course.toml), and a page
  module no chapter imports but its own is not among another chapter's.
- The server adds the reload script and the "개발용 미리보기" mark to each page it sends, not to the file, and answers
  for the pages' service worker with one that removes itself; the published site (`make book`'s) carries neither mark
  nor script (nor does the development build write there).
"""
from __future__ import annotations

import json
import urllib.request

from conftest import CHAPTERS, ROOT
from coursebook import serve

PAGES = ROOT / "lib" / "roofline" / "show" / "pages"


def files_of(stem: str) -> set:
    return serve.imports(serve.code_of(serve.notebook(CHAPTERS / f"{stem}.md")))


def test_a_chapter_depends_on_the_page_modules_it_imports_and_theirs():
    tiling = files_of("w4_3_tiling")
    assert {PAGES / "w4_3_tiling.py", PAGES / "__init__.py", ROOT / "lib" / "roofline" / "course.toml",
            ROOT / "lib" / "roofline" / "__init__.py", ROOT / "lib" / "roofline" / "show" / "fmt.py"} <= tiling
    assert not {PAGES / "w4_1_intensity.py", PAGES / "w4_4_tile_size.py"} & tiling
    guide = files_of("week4_guide")                      # week4_guide → w4_2_roofline → w4_5_matmul
    assert {PAGES / "week4_guide.py", PAGES / "w4_2_roofline.py", PAGES / "w4_5_matmul.py"} <= guide
    assert serve.fingerprint(serve.notebook(CHAPTERS / "w4_3_tiling.md")) != \
        serve.fingerprint(serve.notebook(CHAPTERS / "w4_1_intensity.md"))


def test_relative_imports_resolve_in_their_package():
    import ast

    tree = ast.parse("from . import fmt\nfrom ..errors import ParameterError\n")
    assert serve._imported(tree, "roofline.show") >= {"roofline.show.fmt", "roofline.errors"}


def test_the_served_page_is_marked_and_the_file_is_not(tmp_path):
    page = "<!DOCTYPE html><html><body><p>본문</p></body></html>\n"
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "a.html").write_text(page, encoding="utf-8")
    server = serve.serve(0, tmp_path)
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        with urllib.request.urlopen(f"{base}/chapters/a.html") as response:
            sent = response.read().decode("utf-8")
            assert response.headers["Cache-Control"] == "no-store"
        with urllib.request.urlopen(f"{base}/__serve__/state") as response:
            state = json.loads(response.read())
        with urllib.request.urlopen(f"{base}/sw.js") as response:   # the pages' service worker: one that leaves
            worker = response.read().decode("utf-8")
    finally:
        server.shutdown()
    assert sent.startswith(page.split("</body>")[0]) and "개발용 미리보기" in sent and sent.endswith("</body></html>\n")
    assert sent.index('id="rl-dev-mark"') < sent.index("</body>")
    assert (tmp_path / "chapters" / "a.html").read_text(encoding="utf-8") == page
    assert set(state) == {"build", "ok"} and "unregister()" in worker and "fetch" not in worker


def test_the_published_site_has_no_mark_of_the_development_build():
    from browser_helpers import html_dir

    site = html_dir()
    assert serve.HTML != site and site not in serve.HTML.parents
    marked = [p.relative_to(site).as_posix() for p in site.rglob("*.html")
              if "rl-dev-mark" in p.read_text(encoding="utf-8") or "__serve__" in p.read_text(encoding="utf-8")]
    assert marked == []
