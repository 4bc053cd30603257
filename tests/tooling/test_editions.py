"""The .ipynb editions (what Colab opens and nbval re-runs) and `python -m coursebook check`.

- (nothing is stale: `make test` runs `python -m coursebook check` once, before pytest; it is not repeated here;)
- an edition reads well in Colab: plain Markdown (no MyST role, directive or label), values filled in,
  the Colab setup cell first (from _config.yml's repository; it installs only in Colab);
- its numbers equal the site's (the built page's glue records and its text);
- the converter (`editions.plain`) handles each MyST construct the conventions allow;
- the editions are built, never committed: a fresh clone has none, and its `make book` writes every one, pinned to
  the wheel its site publishes, and nbval re-runs them there; the Colab buttons and links open them on the branch
  the publishing workflow writes (`_config.yml`'s repository.branch).
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import types
from functools import cache
from pathlib import Path

import nbformat
import pytest
import yaml

from coursebook import editions
from coursebook.__main__ import chapter_sources
from roofline.show.glue import shown_text
from site_pages import HTML, page_text

pytestmark = pytest.mark.heavy(40)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = chapter_sources()
IDS = [md.stem for md in SOURCES]


@cache
def edition(md: Path):
    path = md.with_suffix(".ipynb")
    if not path.exists():
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run `make book` (the editions are built, not committed)")
    return nbformat.read(path, as_version=4)


@cache
def recomputed(md: Path) -> editions.Glued:
    return editions.recompute(md)


def chapter_text(md: Path) -> str | None:
    path = HTML / "chapters" / f"{md.stem}.html"
    return page_text(path) if path.exists() else None


# ---------------------------------------------------------------- Colab reads it well

@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_edition_markdown_is_plain(md):
    for number, cell in enumerate(edition(md).cells):
        if cell.cell_type == "markdown":
            left = editions.myst_leftovers(cell.source)
            assert not left, f"{md.stem}.ipynb cell {number}: MyST left for Colab to show raw: {left}"
            assert "{glue" not in cell.source and "{term}" not in cell.source


@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_edition_starts_with_the_colab_setup_cell(md):
    first = edition(md).cells[0]
    assert first.cell_type == "code" and editions.SETUP_TAG in first.metadata.get("tags", [])
    assert first.source == "# @title Colab 준비: 강의 라이브러리와 한글 글꼴을 설치한다 (Colab에서만)\n" + editions.setup_cell().source
    assert first.metadata["cellView"] == "form"
    assert editions.requirement() in first.source


@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_colab_folds_the_plumbing_and_opens_the_parameters(md):
    """Cells hidden on the site are Colab forms under a Korean title; the parameter cell and teaching code are open;
    the first thing under the title is prose."""
    nb = edition(md)
    source = editions.read_source(md)
    for cell, original in zip(nb.cells[1:], source.cells):
        tags = set(original.metadata.get("tags", []))
        if cell.cell_type != "code":
            continue
        folded = bool(tags & {"remove-cell", "remove-input", "hide-input"}) and "parameters" not in tags
        assert (cell.metadata.get("cellView") == "form") == folded, (md.stem, cell.source[:80])
        if folded:
            assert re.match(r"# @title [^\n]*[가-힣]", cell.source) and cell.source.endswith(original.source)
        else:
            assert cell.source == original.source
    assert nb.cells[1].cell_type == "markdown" and re.match(r"# .+\n\n\*\*한 줄 답\.\*\* \S", nb.cells[1].source), \
        f"{md.stem}: the edition's title is not followed by its one-line answer: {nb.cells[1].source[:120]!r}"


@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_edition_shows_every_table_and_figure_as_a_stored_output(md):
    """In Colab, before anything runs: each glued table and figure is also a visible output."""
    nb = edition(md)
    shown = [o.get("data", {}) for c in nb.cells for o in c.get("outputs", []) if "scrapbook" not in o.get("metadata", {})]
    for name, bundle in editions.records(nb).items():
        if "image/png" in bundle:
            assert any(d.get("image/png") == bundle["image/png"] for d in shown), f"{md.stem}: figure {name!r} not shown"
        if "text/markdown" in bundle:
            assert any(d.get("text/markdown") == bundle["text/markdown"] for d in shown), f"{md.stem}: table {name!r} not shown"


def run_setup(source: str, colab: bool, installed: bool, returncode: int = 0):
    """Execute the setup cell's code with a fake Colab and a fake pip; return pip's calls."""
    calls = []

    def fake_run(args, **kwargs):
        calls.append(args)
        return subprocess.CompletedProcess(args, returncode, stdout="", stderr="ERROR: no such branch")

    saved = sys.modules.get("google.colab")
    real_run, real_find = subprocess.run, importlib.util.find_spec
    try:
        if colab:
            sys.modules["google.colab"] = types.ModuleType("google.colab")
        else:
            sys.modules.pop("google.colab", None)
        subprocess.run = fake_run
        importlib.util.find_spec = lambda name, *a: (object() if installed else None) if name == "roofline" else real_find(name, *a)
        exec(compile(source, "<setup cell>", "exec"), {})
    finally:
        subprocess.run, importlib.util.find_spec = real_run, real_find
        if saved is not None:
            sys.modules["google.colab"] = saved
        else:
            sys.modules.pop("google.colab", None)
    return calls


def test_setup_cell_installs_the_sites_wheel_pinned_by_its_sha256_in_colab_only():
    import hashlib
    import tomllib

    from coursebook import live

    source = editions.setup_cell().source
    name, wheel = live.colab_wheel()
    digest = hashlib.sha256(wheel).hexdigest()
    url, _ = editions.repository()
    owner, repo = url.removeprefix("https://github.com/").split("/")
    assert run_setup(source, colab=False, installed=False) == [], "the setup cell ran pip outside Colab"
    assert run_setup(source, colab=True, installed=True) == [], "re-running in Colab reinstalls"
    calls = run_setup(source, colab=True, installed=False)
    assert len(calls) == 1
    assert calls[0][:4] == [sys.executable, "-m", "pip", "install"] and "-q" in calls[0]
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    # the wheel the site publishes, at an address named by its content, pinned by its sha256 (pip checks it); the
    # wheel declares no dependency, so the cell names pyproject's (whose lower bounds Colab's packages meet)
    assert calls[0][-1 - len(dependencies):] == [
        f"roofline-course @ https://{owner.lower()}.github.io/{repo}/_static/colab/{digest[:16]}/{name}#sha256={digest}",
        *dependencies]
    assert editions.pinned_digest(source) == digest
    with pytest.raises(RuntimeError, match="no such branch"):
        run_setup(source, colab=True, installed=False, returncode=1)


@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_edition_installs_the_library_it_was_written_with(md):
    digest = editions.pinned_digest(edition(md).cells[0].source)
    assert editions.pin_problems(digest) == [], f"{md.stem}: {editions.pin_problems(digest)}"


def test_the_pin_names_the_librarys_content_not_a_commit(tmp_path):
    """A changed docstring of the model changes the pin (so `make editions` writes it, in the same commit); the same
    files give the same pin, wherever they are; a pin of other bytes is named."""
    import shutil

    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "lib", copy / "lib", ignore=shutil.ignore_patterns("__pycache__"))
    digest = editions.wheel_digest()
    assert editions.wheel_digest(copy) == digest and editions.pin_problems(digest, copy) == []
    model = copy / "lib" / "roofline" / "__init__.py"
    model.write_text(model.read_text(encoding="utf-8").replace('"""', '"""(다듬은 설명) ', 1), encoding="utf-8")
    now = editions.wheel_digest(copy)
    assert now != digest
    assert editions.pin_problems(digest, copy) == [
        f"its setup cell installs the library's wheel of sha256 {digest[:12]}, but lib/ now makes {now[:12]} "
        "(write the editions again)"]
    assert editions.pin_problems(None) == ["its setup cell installs no wheel pinned by its sha256"]
    nb = nbformat.v4.new_notebook(cells=[editions.setup_cell(digest="0" * 64)])
    assert editions.pinned_digest(nb.cells[0].source) == "0" * 64
    assert editions.pin_problems("0" * 64)


def test_the_built_site_publishes_the_pinned_wheel():
    """`make book` writes the wheel the editions pin where their setup cell fetches it (and nowhere a page loads)."""
    from coursebook import live

    name, wheel = live.colab_wheel()
    digest = editions.wheel_digest()
    published = HTML / live.colab_path(digest, name)
    if not HTML.is_dir():
        pytest.skip("the site is not built (make book)")
    assert published.read_bytes() == wheel, f"the built site has no {published.relative_to(HTML)}: make book"
    assert editions.requirement().split(" @ ")[1] == \
        f"{editions.site_url()}/{published.relative_to(HTML).as_posix()}#sha256={digest}"


def test_the_project_name_matches_pyproject():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == editions.PACKAGE
    deps = " ".join(project["dependencies"])
    assert "koreanize-matplotlib" in deps, "the Hangul font comes with the project in Colab"
    assert "myst" not in deps and "jupyter-book" not in deps, "Colab must not need myst-nb"


def test_repository_url_is_written_only_in_config():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    url = config["repository"]["url"].rstrip("/")
    assert url.startswith("https://github.com/") and config["repository"].get("branch")
    assert config["launch_buttons"]["colab_url"].rstrip("/") == "https://colab.research.google.com"
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True)
    files = listed.stdout.split() if listed.returncode == 0 else [
        p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
        if p.is_file() and not {".venv", "_build", ".git"} & set(p.relative_to(ROOT).parts)]
    slug = url.removeprefix("https://github.com/")
    others = [f for f in files if not f.endswith(".ipynb") and f != "_config.yml" and (ROOT / f).is_file()
              and slug in (ROOT / f).read_text(encoding="utf-8", errors="ignore")]
    assert not others, f"the repository address is written outside _config.yml (read it with editions.repository()): {others}"


@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_site_page_has_a_colab_launch_button_for_the_edition(md):
    path = HTML / "chapters" / f"{md.stem}.html"
    if not path.exists():
        pytest.skip("the site is not built (make book)")
    address = editions.colab_url(f"chapters/{md.stem}.ipynb")
    assert address in path.read_text(encoding="utf-8"), f"{md.stem}.html has no Colab button to {address}"


# ---------------------------------------------------------------- built, not committed

def test_the_editions_are_ignored_and_not_in_the_repository():
    listed = subprocess.run(["git", "ls-files", "chapters"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert not [f for f in listed.stdout.split() if f.endswith(".ipynb")], "an edition is committed"
    probe = [f"chapters/{md.stem}.ipynb" for md in SOURCES]
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *probe], cwd=ROOT, capture_output=True, text=True)
    assert ignored.stdout.split() == probe, "an edition is not git-ignored (a `git add -A` would commit it)"


def test_colab_opens_the_editions_on_the_branch_the_publishing_workflow_writes():
    """The buttons and links name blob/<repository.branch>/chapters/<page>.ipynb, and pages.yml pushes the
    published commit with its built editions to exactly that branch (read from _config.yml by its own command)."""
    url, branch = editions.repository()
    assert branch != "main", "the editions are not on main: Colab must open the branch the workflow writes"
    assert editions.colab_url("chapters/x.ipynb") == \
        f"https://colab.research.google.com/github/{url.removeprefix('https://github.com/')}/blob/{branch}/chapters/x.ipynb"
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["editions"]
    assert {"build", "deploy"} <= set(job["needs"]), "the editions must be pushed after the site (their wheel) is up"
    script = next(step["run"] for step in job["steps"] if "git push" in step.get("run", ""))
    read = next(line for line in script.splitlines() if line.strip().startswith("branch="))
    said = subprocess.run(["bash", "-c", read.strip() + '; echo "$branch"'], cwd=ROOT, capture_output=True, text=True)
    assert said.stdout.strip() == branch
    assert 'HEAD:refs/heads/$branch' in script and "chapters/*.ipynb" in script
    built = next(step for step in workflow["jobs"]["build"]["steps"] if step.get("uses", "").startswith(
        "actions/upload-artifact"))
    assert built["with"]["path"] == "chapters/*.ipynb"


def test_a_fresh_clone_builds_its_editions_and_nbval_runs_them(tmp_path):
    """A copy of the checkout as git would clone it has no edition; `coursebook book` (what `make book` runs, here
    without the Sphinx build: the pages are another test's) writes every one, each pinned by the sha256 of the wheel
    the clone's site publishes; nbval re-runs one of them there (`make test` re-runs all of this checkout's)."""
    import hashlib

    from course_copies import copy_caches, copy_checkout, env_for
    from coursebook import live

    clone = copy_checkout(tmp_path / "clone")
    assert not list((clone / "chapters").glob("*.ipynb")), "a fresh clone has editions"
    copy_caches(clone)   # the chapters' runs (only the rendering is tested here)
    python = Path(sys.executable)
    made = subprocess.run([str(python), "-m", "coursebook", "book"], cwd=clone, env=env_for(clone),
                          capture_output=True, text=True, timeout=1200)
    assert made.returncode == 0, (made.stdout + made.stderr)[-3000:]
    digest = hashlib.sha256(live.colab_wheel(clone / "lib")[1]).hexdigest()
    for md in SOURCES:
        nb = nbformat.read(clone / "chapters" / f"{md.stem}.ipynb", as_version=4)
        assert editions.pinned_digest(nb.cells[0].source) == digest, f"{md.stem}: not pinned to the clone's wheel"
        assert f"/{live.colab_path(digest, '')}" in nb.cells[0].source
    shortest = min(SOURCES, key=lambda md: md.stat().st_size)
    ran = subprocess.run([str(python), "-m", "pytest", "--nbval", "--nbval-current-env", "-q",
                          f"chapters/{shortest.stem}.ipynb"], cwd=clone, env=env_for(clone), capture_output=True,
                         text=True, timeout=1200)
    assert ran.returncode == 0, (ran.stdout + ran.stderr)[-3000:]


# ---------------------------------------------------------------- same numbers as the site

@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_edition_numbers_equal_the_site(md):
    """The glued values of the edition equal those of the built page (else those computed now), and
    every value pasted into the prose with {glue:text} appears in the page's text."""
    nb = edition(md)
    have = editions.glued_of(nb)
    executed = HTML.parent / "jupyter_execute" / "chapters" / f"{md.stem}.ipynb"
    text = chapter_text(md)
    if text is None or not executed.exists():
        now = recomputed(md)
        assert not editions.value_changes(have, now), editions.value_changes(have, now)
        return
    site = editions.Glued(editions.site_records(executed))
    site.measured = editions.glued_of(nb).measured
    changes = editions.value_changes(have, site, source="the built page shows")
    assert not changes, f"{md.stem}: edition and site differ:\n" + "\n".join(changes)
    source = md.read_text(encoding="utf-8")
    for key in sorted(set(re.findall(r"\{glue(?::text)?\}`([^`:]+)`", source)) - site.measured):
        value = " ".join(shown_text(have[key]["text/plain"]).split())
        assert value in text, f"{md.stem}: glued {key!r} = {value!r} is not in the built page's text"


# ---------------------------------------------------------------- the converter

GLUED = {   # text records are quoted reprs, as roofline.glue stores them
    "n": {"text/plain": "'4,096'"},
    "x": {"text/plain": "'0.25'"},
    "tab": {"text/markdown": "| a | b |\n| :-- | --: |\n| 1 | 2 |"},
    "eq": {"text/latex": "$\\displaystyle I = 0.25$"},
    "fig": {"image/png": "iVBOR", "text/plain": "<그림>"},
}
PAGES = {"ch-x": ("② 제목", "https://colab.research.google.com/github/o/r/blob/main/chapters/x.ipynb"),
         "w2009": ("Williams et al. 2009", "https://doi.org/10.1145/1498765.1498785"),
         "d2022": ("Dao et al. 2022", "https://arxiv.org/abs/2205.14135")}


@pytest.mark.parametrize("myst, want", [
    ("N = {glue:text}`n`.", "N = 4,096."),
    ("I = {glue}`x`", "I = 0.25"),
    ("{glue:text}`x:.1f`", "0.2"),
    ("```{glue:md} tab\n:format: myst\n```", "| a | b |\n| :-- | --: |\n| 1 | 2 |"),
    ("```{glue:math} eq\n:label: e\n```", "$$\nI = 0.25\n$$"),
    ("```{glue:figure} fig\n:alt: 대체\n:name: fig-a\n\n캡션이다.\n```", "**그림.** 캡션이다. (그림은 이 그림을 만든 코드 셀의 출력에 있다.)"),
    ("{term}`산술 강도 <산술 강도>`와 {term}`타일`", "산술 강도와 타일"),
    ("{ref}`보기 <ch-x>`", f"[보기]({PAGES['ch-x'][1]})"),
    ("{ref}`ch-x`", f"[② 제목]({PAGES['ch-x'][1]})"),
    ("{ref}`그림 <fig-a>`", "그림"),
    ("{math}`I = F/Q`", "$I = F/Q$"),
    ("{cite}`w2009`", "[Williams et al. 2009](https://doi.org/10.1145/1498765.1498785)"),
    ("{cite:p}`w2009,d2022`", "([Williams et al. 2009](https://doi.org/10.1145/1498765.1498785); "
                              "[Dao et al. 2022](https://arxiv.org/abs/2205.14135))"),
    ("(ch-a)=\n# 제목", "# 제목"),
    ("```{note}\n본문 {glue:text}`n`\n```", "> **참고**\n>\n> 본문 4,096"),
    ("```{important}\n- a\n\n- b\n```", "> **중요**\n>\n> - a\n>\n> - b"),
    ("````{admonition} 답 펼쳐 보기\n:class: dropdown\n\n답 {glue:text}`x`\n\n```{glue:md} tab\n:format: myst\n```\n````",
     "<details>\n<summary>답 펼쳐 보기</summary>\n\n답 0.25\n\n| a | b |\n| :-- | --: |\n| 1 | 2 |\n\n</details>"),
    (":::{tip}\n짧다\n:::", "> **팁**\n>\n> 짧다"),
    ("```{code-block} python\nx = 1\n```", "```python\nx = 1\n```"),
    ("$$\nI = \\frac{F}{Q}\n$$", "$$\nI = \\frac{F}{Q}\n$$"),
])
def test_plain_converts_each_allowed_construct(myst, want):
    got = editions.plain(myst, GLUED, PAGES)
    assert got == want
    assert not editions.myst_leftovers(got)


@pytest.mark.parametrize("myst", ["```{youtube} abc\n```", "{sub-ref}`x`", "```{figure} ../figures/a.svg\n```"])
def test_plain_refuses_what_colab_cannot_show(myst):
    with pytest.raises(ValueError, match="cannot render"):
        editions.plain(myst, GLUED)


def test_citations_come_from_the_bibliography():
    cited = editions.citations()
    assert cited["williams2009roofline"] == ("Williams et al. 2009", "https://doi.org/10.1145/1498765.1498785")
    assert cited["dao2023flashattention2"] == ("Dao 2023", "https://arxiv.org/abs/2307.08691")
    assert all(address.startswith("https://") for _, address in cited.values())


def test_plain_names_a_missing_glue_key():
    with pytest.raises(KeyError, match="nope"):
        editions.plain("{glue:text}`nope`", GLUED)


def test_leftover_lint_catches_myst():
    assert editions.myst_leftovers("a {glue:text}`n` b")
    assert editions.myst_leftovers("```{note}\nx\n```")
    assert editions.myst_leftovers("(ch-a)=\n# t")
    assert not editions.myst_leftovers("```python\nx = {'a': 1}\n```\n$f(x)$")


def test_a_kept_in_process_run_is_the_run_and_other_inputs_run_again(tmp_path, monkeypatch):
    """`make check` and the dry run of `make refresh` keep each chapter's in-process run (editions.recompute's
    memo) by the digest of what it reads: kept, it is the same records without running a cell; another course file
    runs it again (and gives that file's values); a damaged kept file is run again."""
    from IPython.core.interactiveshell import InteractiveShell

    from course_copies import set_key

    md = ROOT / "chapters" / "w4_1_intensity.md"
    course = ROOT / "lib" / "roofline" / "course.toml"
    fresh = editions.recompute(md, course_path=course)
    kept = editions.recompute(md, course_path=course, memo=tmp_path)
    assert kept == fresh and kept.measured == fresh.measured
    real_run_cell = InteractiveShell.run_cell

    def no_cell(*args, **kwargs):
        raise AssertionError("a cell ran for a kept run")

    monkeypatch.setattr(InteractiveShell, "run_cell", no_cell)
    again = editions.recompute(md, course_path=course, memo=tmp_path)
    assert again == fresh and again.measured == fresh.measured
    other = tmp_path / "other.toml"
    import tomllib

    N = tomllib.loads(course.read_text(encoding="utf-8"))["week4"]["N"]
    other.write_text(set_key(course.read_text(encoding="utf-8"), "week4.N", 2 * N), encoding="utf-8")
    with pytest.raises(AssertionError, match="a cell ran"):
        editions.recompute(md, course_path=other, memo=tmp_path)
    monkeypatch.setattr(InteractiveShell, "run_cell", real_run_cell)
    assert editions.recompute(md, course_path=other, memo=tmp_path) == editions.recompute(md, course_path=other)
    (file,) = tmp_path.glob(f"{md.stem}.*.json")   # one run kept a chapter: the other term's is gone
    file.write_text("{", encoding="utf-8")
    assert editions.recompute(md, course_path=other, memo=tmp_path) == editions.recompute(md, course_path=other)

