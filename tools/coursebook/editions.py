"""The .ipynb edition beside each chapter .md: what Colab opens and what nbval re-runs.

`from_book_run(md, run)` makes it from the book's run of the chapter (bookrun: the one way a chapter is
executed), adding what `glue` shows outside the book (tables, figures, `name = value` lines), then rewrites its
Markdown cells as plain Markdown with every glued value filled in: no `{glue:…}` role, no MyST directive,
nothing Colab cannot render (`plain`). A first cell installs, in Colab only, the library the edition was made
with: the wheel the site publishes (live.colab_wheel, at the address `_config.yml`'s repository gives), pinned by
its sha256, and pyproject's dependencies (with them the Hangul font of koreanize-matplotlib).

The editions are built, never committed (git-ignored): `make book` writes them before the pages (a page's Colab
button names its .ipynb), and the publishing workflow pushes the published commit with them to the branch
`_config.yml`'s `repository.branch` names, where Colab opens them. Their measured outputs never enter main's history.

`problems(md)` says, cheaply and precisely, what is stale: an edition whose cells no longer
match its .md, whose glued values differ from what the library computes now (`recompute` runs
the chapter's code in-process, no kernel), or a built page (`_build/jupyter_execute`) that does.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
from pathlib import Path

import nbformat
import yaml

from roofline.show.glue import PICTURES, PREFIX, shown, shown_text

ROOT = Path(__file__).resolve().parents[2]
MYST = "md:myst"
SETUP_TAG = "colab-setup"
PACKAGE = "roofline-course"          # pyproject.toml's [project] name
COMPARED = ("text/plain", "text/markdown", "text/latex")   # picture bytes differ across machines
UNCOMPARED_TAGS = {"nbval-ignore-output", "nbval-skip"}     # live measurements: differ on every run
ADMONITION_TITLES = {
    "note": "참고", "tip": "팁", "important": "중요", "warning": "주의", "caution": "주의",
    "attention": "주의", "hint": "힌트", "seealso": "함께 보기", "admonition": "",
}


# ---------------------------------------------------------------- repository, Colab, setup cell

def repository(root: Path = ROOT) -> tuple[str, str]:
    """(https URL, branch) of the repository, from `_config.yml` (the only place it is written). The branch is the
    one the publishing workflow writes: the published commit with its built editions (what Colab opens)."""
    return repository_in((root / "_config.yml").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=8)
def repository_in(config_text: str) -> tuple[str, str]:
    """`repository` of the text of a _config.yml (parsed once per text: every link of every edition asks)."""
    repo = yaml.safe_load(config_text)["repository"]
    return repo["url"].rstrip("/"), repo.get("branch", "main")


def colab_url(path: str, root: Path = ROOT) -> str:
    """Colab's address of the repository file `path` (e.g. chapters/w4_1_intensity.ipynb)."""
    url, branch = repository(root)
    return f"https://colab.research.google.com/github/{url.removeprefix('https://github.com/')}/blob/{branch}/{path}"


def site_url(root: Path = ROOT) -> str:
    """The published site's address: `_config.yml`'s `html.baseurl` if set, else GitHub Pages' address of the
    repository (https://OWNER.github.io/NAME)."""
    base = _baseurl_in((root / "_config.yml").read_text(encoding="utf-8"))
    if base:
        return base
    url, _ = repository(root)
    owner, _, name = url.removeprefix("https://github.com/").partition("/")
    return f"https://{owner.lower()}.github.io/{name}"


@functools.lru_cache(maxsize=8)
def _baseurl_in(config_text: str) -> str:
    """_config.yml's `html.baseurl` (parsed once per text: every edition's setup cell asks)."""
    config = yaml.safe_load(config_text)
    return ((config.get("html") or {}).get("baseurl") or "").rstrip("/")


def wheel_digest(root: Path = ROOT) -> str:
    """sha256 of the wheel the site publishes for Colab (live.colab_wheel), made from `root`'s lib/ now: what an
    edition written now was computed with."""
    from coursebook import live

    return hashlib.sha256(live.colab_wheel(root / "lib")[1]).hexdigest()


def dependencies(root: Path = ROOT) -> list[str]:
    """pyproject.toml's [project] dependencies: the wheel declares none (the live page needs none), so the setup
    cell names them to pip itself. Their lower bounds accept what Colab has: installing changes none of its packages."""
    import tomllib

    return list(tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"])


def requirement(root: Path = ROOT, digest: str | None = None, site: str | None = None) -> str:
    """What the first cell pip-installs in Colab: the site's wheel of the library the edition was written with,
    at an address named by its sha256 and pinned by it (`#sha256=`: pip refuses other bytes). `site`: another
    address of the built site (a test serves `_build/html` on 127.0.0.1)."""
    from coursebook import live

    digest = digest or wheel_digest(root)
    name = f"{live.WHEEL_NAME}-{live.WHEEL_VERSION}-py3-none-any.whl"
    return f"{PACKAGE} @ {site or site_url(root)}/{live.colab_path(digest, name)}#sha256={digest}"


def pip_arguments(root: Path = ROOT, digest: str | None = None, site: str | None = None) -> list[str]:
    """Everything the setup cell gives `pip install` after its options: the pinned wheel and its dependencies."""
    return [requirement(root, digest, site), *dependencies(root)]


def pinned_digest(setup_source: str) -> str | None:
    """The sha256 of the wheel an edition's setup cell installs."""
    match = re.search(rf"{re.escape(PACKAGE)} @ \S+?#sha256=([0-9a-f]{{64}})['\"]", setup_source)
    return match[1] if match else None


def pin_problems(digest: str | None, root: Path = ROOT) -> list[str]:
    """Why an edition's setup cell would install another library than the one its outputs came from: its pin is
    compared with the wheel lib/ makes now (no commit is involved: the library and its editions go in one commit)."""
    if digest is None:
        return ["its setup cell installs no wheel pinned by its sha256"]
    now = wheel_digest(root)
    if digest != now:
        return [f"its setup cell installs the library's wheel of sha256 {digest[:12]}, but lib/ now makes "
                f"{now[:12]} (write the editions again)"]
    return []


SETUP = '''\
# Colab에서만 실행된다: 강의 라이브러리 roofline과 한글 글꼴(koreanize-matplotlib의 NanumGothic)을 조용히 설치한다.
# 다른 곳(Jupyter, 사이트 빌드)에서는 아무것도 하지 않는다.
import importlib, importlib.util, subprocess, sys
if "google.colab" in sys.modules and importlib.util.find_spec("roofline") is None:
    _pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                           {arguments}], capture_output=True, text=True)
    if _pip.returncode != 0:
        raise RuntimeError("roofline 설치에 실패했다 (pip):\\n" + (_pip.stdout + _pip.stderr)[-3000:])
    importlib.invalidate_caches()'''


def setup_cell(root: Path = ROOT, digest: str | None = None):
    arguments = (",\n" + " " * 27).join(repr(arg) for arg in pip_arguments(root, digest))
    return nbformat.v4.new_code_cell(SETUP.format(arguments=arguments), metadata={"tags": [SETUP_TAG, "remove-cell"]})


# ---------------------------------------------------------------- sources, labels, records

def read_source(md: Path):
    """The chapter .md as a notebook (jupytext's MyST format, stated explicitly: its guess is 'md'): a fresh copy
    each time (the caller may change it) of the one parse of these bytes."""
    import copy

    text = Path(md).read_text(encoding="utf-8")
    return copy.deepcopy(_parsed(text))


@functools.lru_cache(maxsize=32)
def _parsed(text: str):
    import jupytext

    return jupytext.reads(text, fmt=MYST)


def chapter_of(root: Path = ROOT) -> dict[str, tuple[Path, str]]:
    """Page label → (chapter .md, page title), from the `(label)=` line above each page title."""
    found = {}
    for md in sorted((root / "chapters").glob("*.md")):
        match = re.search(r"^\(([\w-]+)\)=[ \t]*\n+#[ \t]+(.+)$", md.read_text(encoding="utf-8"), re.M)
        if match:
            found[match[1]] = (md, match[2].strip())
    return found


def citations(root: Path = ROOT) -> dict[str, tuple[str, str]]:
    """Bibliography key → ("Williams et al. 2009", its https link), from references.bib (as the site's {cite} shows it)."""
    return dict(_citations_in((root / "references.bib").read_text(encoding="utf-8")))


@functools.lru_cache(maxsize=4)
def _citations_in(bib_text: str) -> tuple[tuple[str, tuple[str, str]], ...]:
    """`citations` of the text of a references.bib (parsed once per text: every edition's links ask)."""
    from pybtex.database import parse_string

    found = {}
    for key, entry in parse_string(bib_text, "bibtex").entries.items():
        names = [" ".join(p.last_names).strip("{}") for p in entry.persons.get("author", [])]
        who = names[0] if len(names) == 1 else f"{names[0]} and {names[1]}" if len(names) == 2 else f"{names[0]} et al."
        fields = entry.fields
        address = fields.get("url") or f"https://doi.org/{fields['doi']}"
        found[key] = (f"{who} {fields['year']}", address)
    return tuple(found.items())


def links(root: Path = ROOT) -> dict[str, tuple[str, str]]:
    """Page label or bibliography key → (title, address) for the edition: the other chapter's Colab notebook,
    its .md on GitHub, or the cited work."""
    url, branch = repository(root)
    result = dict(citations(root))
    for label, (md, title) in chapter_of(root).items():
        rel = md.relative_to(root).as_posix()
        notebook = "kernelspec:" in md.read_text(encoding="utf-8")[:600]
        result[label] = (title, colab_url(rel[:-3] + ".ipynb", root) if notebook else f"{url}/blob/{branch}/{rel}")
    return result


def records(nb, compared_only: bool = False) -> dict[str, dict]:
    """name → mime bundle of every glue record in the executed notebook.

    With `compared_only`, leave out records of cells tagged nbval-ignore-output / nbval-skip (live measurements)."""
    found = {}
    for cell in nb.cells:
        if compared_only and UNCOMPARED_TAGS & set(cell.get("metadata", {}).get("tags", [])):
            continue
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                found[name] = {k[len(PREFIX):]: v for k, v in output["data"].items() if k.startswith(PREFIX)}
    return found


# ---------------------------------------------------------------- MyST → plain Markdown

FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                   re.S | re.M)
ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<content>[^`]*)`")
LABEL = re.compile(r"^\([\w-]+\)=[ \t]*\n", re.M)
# What must never reach a Colab Markdown cell: a role, a directive fence, a `(label)=` target.
MYST_LEFTOVER = re.compile(r"\{[\w:-]+\}`|^[ \t>]*(`{3,}|:{3,})\{|^\([\w-]+\)=[ \t]*$", re.M)


def split_options(body: str) -> tuple[dict, str]:
    options, lines = {}, body.split("\n")
    while lines and lines[0].startswith(":"):
        key, _, value = lines.pop(0)[1:].partition(":")
        options[key.strip()] = value.strip()
    return options, "\n".join(lines).strip("\n")


def plain(text: str, glued: dict[str, dict], pages: dict[str, tuple[str, str]] | None = None) -> str:
    """MyST Markdown → plain Markdown with glued values substituted.

    `pages` (label → (title, address), see `links`) turns {ref} to another page into a link."""
    pages = pages or {}

    def value(key: str, mime: str = "text/plain") -> str:
        key = key.split(":")[0].strip()
        if key not in glued or mime not in glued[key]:
            raise KeyError(f"no glued {mime} named {key!r}")
        return shown_text(glued[key][mime]) if mime == "text/plain" else glued[key][mime]

    def directive(match) -> str:
        name, arg = match["name"], match["arg"].strip()
        options, body = split_options(match["body"])
        body = plain(body, glued, pages)
        if name == "glue:md":
            return value(arg, "text/markdown")
        if name == "glue:math":
            latex = value(arg, "text/latex").strip().strip("$").replace("\\displaystyle", "").strip()
            return f"$$\n{latex}\n$$"
        if name == "glue" and "image/png" not in glued.get(arg, {}):
            return value(arg, "text/markdown")   # an explorer: its controls need the site's script
        if name in ("glue:figure", "glue"):
            value(arg, "image/png")   # the figure is shown as the output of the cell that glued it
            return f"**그림.** {body} (그림은 이 그림을 만든 코드 셀의 출력에 있다.)" if body else ""
        if name == "math":
            return f"$$\n{body}\n$$"
        if name == "dropdown" or "dropdown" in options.get("class", ""):
            title = arg or "펼쳐 보기"
            return f"<details>\n<summary>{title}</summary>\n\n{body}\n\n</details>"
        if name in ADMONITION_TITLES:
            title = arg or ADMONITION_TITLES[name]
            quoted = "\n".join("> " + line if line else ">" for line in body.split("\n"))
            return (f"> **{title}**\n>\n" if title else "") + quoted
        if name in ("code-block", "code"):
            return f"```{arg}\n{body}\n```"
        raise ValueError(f"the Colab edition cannot render the MyST directive {{{name}}}; add it to editions.plain")

    def role(match) -> str:
        name, content = match["role"], match["content"]
        target = re.search(r"<([^>]*)>\s*$", content)
        shown = re.sub(r"\s*<[^>]*>$", "", content)
        if name in ("glue", "glue:text"):
            key, _, spec = content.partition(":")
            text = value(key)
            return format(float(text), spec) if spec else text
        if name == "glue:md":
            return value(content, "text/markdown")
        if name == "math":
            return f"${content}$"
        if name == "ref":
            label = target[1] if target else content
            if label in pages:
                title, address = pages[label]
                return f"[{shown if target else title}]({address})"
            return shown
        if name in ("term", "doc", "numref", "abbr"):
            return shown
        if name in ("cite", "cite:p", "cite:t"):
            cited = [pages[key.strip()] for key in content.split(",")]
            shown_links = "; ".join(f"[{who}]({address})" for who, address in cited)
            return f"({shown_links})" if name == "cite:p" else shown_links
        raise ValueError(f"the Colab edition cannot render the MyST role {{{name}}}; add it to editions.plain")

    text = FENCE.sub(directive, text)
    text = ROLE.sub(role, text)
    text = LABEL.sub("", text)
    return text


def myst_leftovers(text: str) -> list[str]:
    """MyST syntax left in a Markdown cell (what Colab would show raw)."""
    return [m.group(0).strip() for m in MYST_LEFTOVER.finditer(text)]


# ---------------------------------------------------------------- building an edition

def execute(nb, cwd: Path, timeout: int = 300, kernel_name: str = "python3", kernel_dirs: list | None = None):
    """Run `nb` in a fresh kernel with working folder `cwd`: the project's one runner (bookrun.execute).
    `kernel_dirs`: where to look for `kernel_name`'s spec (default: Jupyter's usual places)."""
    from coursebook.bookrun import execute as run

    return run(nb, cwd=cwd, timeout=timeout, kernel_name=kernel_name, kernel_dirs=kernel_dirs)


FOLDED_TAGS = {"remove-cell", "remove-input", "hide-input", SETUP_TAG}   # plumbing: hidden on the site
FORM_TITLES = {SETUP_TAG: "Colab 준비: 강의 라이브러리와 한글 글꼴을 설치한다 (Colab에서만)",
               "imports": "불러오기: 강의 라이브러리와 매개변수 파일",
               "code": "계산: 라이브러리로 구한 값을 본문·표·그림에 넘긴다 (펼쳐 볼 수 있다)"}


def colab_source(cell, first_code: bool) -> str:
    """A code cell's source in the edition: plumbing (hidden on the site) becomes a Colab form, folded under a
    Korean `# @title`; the parameter cell and the teaching code stay as they are."""
    tags = set(cell.get("metadata", {}).get("tags", []))
    if cell.cell_type != "code" or PARAMETERS_TAG in tags or not tags & FOLDED_TAGS:
        return cell.source
    kind = SETUP_TAG if SETUP_TAG in tags else "imports" if first_code else "code"
    return f"# @title {FORM_TITLES[kind]}\n{cell.source}"


def finish(nb, root: Path = ROOT):
    """Executed source notebook (setup cell first) → the edition: plain Markdown, plumbing folded as Colab forms,
    stable ids, Colab metadata."""
    glued, pages = records(nb), links(root)
    code_cells = 0
    for number, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            cell.source = plain(cell.source, glued, pages)
        elif cell.cell_type == "code":
            code_cells += 1
            folded = colab_source(cell, first_code=code_cells == 2)   # 1: the setup cell, 2: the imports
            if folded != cell.source:
                cell.source = folded
                cell.metadata["cellView"] = "form"
        cell.id = f"cell-{number}"   # stable ids: a regenerated edition differs only where content does
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["colab"] = {"provenance": []}
    return nb


def from_book_run(md: Path, run, root: Path = ROOT):
    """The edition of chapter `md` made from the book's executed notebook `run` (bookrun), without executing
    anything: what executing the edition outside the book gives (nbval re-runs every edition and compares every
    output, the glued figures' PNG records too). Outside the book, each glue record is followed by what glue shows
    for it (`glue.shown`, a function of the record alone), and the Colab setup cell, run first, prints nothing:
    every execution count is one higher."""
    nb = read_source(md)
    nb.cells.insert(0, setup_cell(root))
    code = [c for c in nb.cells if c.cell_type == "code"]
    ran = [c for c in run.cells if c.cell_type == "code"]
    if [c.source for c in code[1:]] != [c.source for c in ran]:
        raise ChapterError(f"{md.name}: the book's run has other code cells than the chapter")
    code[0].execution_count, code[0].outputs = 1, []
    for cell, book in zip(code[1:], ran):
        cell.execution_count = book.execution_count + 1 if book.execution_count else book.execution_count
        cell.outputs = outside_book(book.outputs)
    return finish(nb, root)


def outside_book(outputs) -> list:
    """A code cell's outputs in the book → the same cell's outputs outside it (an edition, Colab)."""
    import copy

    result = []
    for output in outputs:
        output = copy.deepcopy(output)
        if output.get("output_type") == "execute_result" and output.get("execution_count"):
            output["execution_count"] += 1
        result.append(output)
        name = output.get("metadata", {}).get("scrapbook", {}).get("name")
        if name:
            data = {k[len(PREFIX):]: v for k, v in output["data"].items() if k.startswith(PREFIX)}
            result.append(nbformat.from_dict({"output_type": "display_data", "data": shown(name, data), "metadata": {}}))
    return result


def write(md: Path, run=None, root: Path = ROOT, nb=None) -> Path:
    """Write chapter `md`'s edition beside it (git-ignored: built by `make book`, published on the branch that
    _config.yml's `repository.branch` names, never committed), made from the book's run `run` (bookrun.ensure), or `nb` made from it
    already (`from_book_run`)."""
    nb = nb if nb is not None else from_book_run(md, run, root)
    out = md.with_suffix(".ipynb")
    text = nbformat.writes(nb)
    text += "" if text.endswith("\n") else "\n"     # (as nbformat.write ends the file)
    if not out.is_file() or out.read_text(encoding="utf-8") != text:   # (unchanged: left as it is)
        out.write_text(text, encoding="utf-8")
    return out


# ---------------------------------------------------------------- what is stale

@contextlib.contextmanager
def book_mode(on: bool):
    """`glue` only records for the duration (`on`), as in the book's runs (glue.records_only), or also shows."""
    import importlib

    glue_module = importlib.import_module("roofline.show.glue")   # (roofline.show.glue is also the function's name)
    old = glue_module.RECORDS_ONLY
    glue_module.records_only(on)
    try:
        yield
    finally:
        glue_module.records_only(old)


class ChapterError(Exception):
    pass


class Glued(dict):
    """name → mime bundle, and `.measured`: the names glued by cells whose output may differ on every
    run (tagged nbval-ignore-output / nbval-skip: live measurements), which are never compared."""

    measured: frozenset = frozenset()


def glued_of(nb) -> Glued:
    found = Glued(records(nb))
    found.measured = frozenset(found) - set(records(nb, compared_only=True))
    return found


PARAMETERS_TAG = "parameters"


def parameter_cell(nb):
    """The chapter's one visible parameter cell (tagged `parameters`)."""
    cells = [c for c in nb.cells if c.cell_type == "code" and PARAMETERS_TAG in c.metadata.get("tags", [])]
    if len(cells) != 1:
        raise ChapterError(f"expected one cell tagged {PARAMETERS_TAG!r}, found {len(cells)}")
    return cells[0]


def recompute(md: Path, parameters: str | None = None, course_path: Path | None = None,
              pictures: bool = False, measured: bool = False, memo: Path | None = None) -> Glued:
    """The glue records the chapter's code gives now, run in-process (an IPython shell, no kernel):
    about as fast as the arithmetic itself. `parameters`: another source for the
    parameter cell (what a student would type). `course_path`: another parameter file, as if an instructor
    had put it in place of course.toml and run `make refresh` (its values written into the parameter cell).
    A figure is compared by its fingerprint (what it plots) and its presence, so it is not drawn unless
    `pictures` (then its PNG is made, as in a notebook: a figure that fails to draw fails here too).
    The cells that measure this machine (tagged nbval-ignore-output / nbval-skip: their values are never compared)
    are run only if `measured`: they are most of the note's time (a pure-Python matmul, copies of a 64 MiB matrix),
    and the values compared never depend on them (a chapter whose compared cell did would fail here, naming it).
    `memo` (a build folder's `.recomputed`, given by the commands: the dry run of `make refresh` and `make check`
    run the same chapters on the same term): the records kept there for these exact inputs (`_kept`), else run and
    kept; never with `pictures` or `measured`. A kept run is found before the chapter is parsed or the course file
    loaded (the key is made of the bytes they come from), so it costs a file read.
    Raises ChapterError naming the failing cell."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from coursebook import paramcell
    from roofline import params

    kept = _kept(md, parameters, course_path, memo) if memo is not None and not pictures and not measured else None
    if kept is not None and (found := _held(kept)) is not None:
        return found
    # No output cache (Out, _): the chapters do not read it, and with it every reset below ends in a full garbage
    # collection (IPython's DisplayHook.flush), a tenth of a second in a test process that holds many objects.
    shell = InteractiveShell.instance(cache_size=0)
    shell.reset(new_session=False)
    nb = read_source(md)
    saved_path, saved_pictures = os.environ.get(params.ENVIRONMENT), os.environ.get(PICTURES)
    os.environ[PICTURES] = "1" if pictures else "0"
    if course_path is not None:
        os.environ[params.ENVIRONMENT] = str(course_path)   # what the chapter's `rl.load()` reads
        cell = parameter_cell(nb)
        cell.source = paramcell.write_source(cell.source, params.load(), cell.metadata["params"])
    if parameters is not None:
        parameter_cell(nb).source = parameters
    cwd = os.getcwd()
    try:
        os.chdir(md.parent)
        with book_mode(True):
            for cell in nb.cells:
                if cell.cell_type != "code" or (not measured and UNCOMPARED_TAGS & set(cell.metadata.get("tags", []))):
                    continue
                with capture_output(display=True) as captured:
                    result = shell.run_cell(cell.source, store_history=False, silent=False)
                if not result.success:
                    err = result.error_in_exec or result.error_before_exec
                    raise ChapterError(f"{type(err).__name__}: {err} (in the cell starting {cell.source[:60]!r})") from err
                cell.outputs = [{"output_type": "display_data", "data": o.data, "metadata": o.metadata or {}}
                                for o in captured.outputs]
    finally:
        os.chdir(cwd)
        for name, saved in ((params.ENVIRONMENT, saved_path), (PICTURES, saved_pictures)):
            _put_back(name, saved)
    found = glued_of(nb)   # (the chapter's objects stay in the shell until the next run resets it)
    if kept is not None:
        _keep(kept, found)
    return found


def _put_back(name: str, saved: str | None) -> None:
    if saved is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = saved


def _kept(md: Path, parameters: str | None, course_path: Path | None, memo: Path) -> Path | None:
    """Where recompute keeps the records of this run: named by the digest of everything it reads, found before the
    chapter is parsed: the chapter's source with its parameter cell as the run writes it for `course_path` (so that
    `make refresh`, which writes that cell into the source, keeps the key: paramcell.write) and the cell typed in
    its place (`parameters`), the course file, the library's bytes (sphinx_ext.library_hash), this file, and the
    Python and IPython that run it. None when the cell cannot be written (the run itself says why)."""
    import sys

    import IPython

    from coursebook import paramcell
    from coursebook.sphinx_ext import library_hash
    from roofline import params

    text = Path(md).read_text(encoding="utf-8")
    course = Path(course_path or os.environ.get(params.ENVIRONMENT) or params.DEFAULT_PATH)
    data = course.read_bytes()
    if course_path is not None:
        try:
            text = paramcell.write(text, _loaded(str(course), data))
        except (params.ParameterError, ValueError):
            return None
    digest = hashlib.sha256()
    # (not whether `course_path` was given: a run for the course file that `rl.load()` reads anyway, with the cell
    # written from it, is the run of the chapter whose cell says the same: the tests' runs of the live term share it)
    for part in (text.encode(), json.dumps([parameters]).encode(), data,
                 Path(paramcell.__file__).read_bytes(), library_hash().encode(), Path(__file__).read_bytes(),
                 f"{sys.version} {IPython.__version__}".encode()):
        digest.update(hashlib.sha256(part).digest())
    return memo / f"{md.stem}.{digest.hexdigest()[:24]}.json"


@functools.lru_cache(maxsize=4)
def _loaded(path: str, data: bytes):
    """params.load of the course file at `path` whose bytes are `data` (loaded once for the chapters of a command)."""
    from roofline import params

    return params.load(Path(path))


def _held(kept: Path) -> Glued | None:
    """The records kept in `kept`, or None (none yet, or a damaged file: the chapter is run again)."""
    try:
        held = json.loads(kept.read_text(encoding="utf-8"))
        found = Glued(held["records"])
        found.measured = frozenset(held["measured"])
        return found
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _keep(kept: Path, found: Glued) -> None:
    """Keep a run that succeeded (one a chapter: the others are of other inputs); only a memo, so a read-only or
    full disk runs the chapter again next time."""
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        for old in kept.parent.glob(f"{kept.name.split('.', 1)[0]}.*.json"):
            old.unlink(missing_ok=True)
        partial = kept.with_name(f".{kept.name}.{os.getpid()}")
        partial.write_text(json.dumps({"records": found, "measured": sorted(found.measured)}), encoding="utf-8")
        partial.replace(kept)
    except OSError:
        pass


def short(value: str, width: int = 70) -> str:
    value = " ".join(str(value).split())
    return value if len(value) <= width else value[: width - 1] + "…"


def value_changes(have: Glued, now: Glued, limit: int = 8, source: str = "the library now gives") -> list[str]:
    """'key': old → new, for every glued value that differs (texts, tables, equations; a figure by presence).
    A value measured in either (`.measured`) is not compared."""
    lines = []
    for key in sorted((set(have) | set(now)) - now.measured - have.measured):
        if key not in now:
            lines.append(f"glued {key!r} is no longer computed")
        elif key not in have:
            lines.append(f"glued {key!r} is missing")
        else:
            for mime in COMPARED:
                if have[key].get(mime) != now[key].get(mime):
                    was, new = (shown_text(b[mime]) if mime == "text/plain" and mime in b else b.get(mime)
                                for b in (have[key], now[key]))
                    lines.append(f"glued {key!r} is {short(was)!r} but {source} {short(new)!r}" if was != new else
                                 f"glued {key!r} ({short(new)!r}) is stored in an outdated {mime} record")
                    break
            else:
                if ("image/png" in have[key]) != ("image/png" in now[key]):
                    lines.append(f"glued figure {key!r} is missing")
    if len(lines) > limit:
        lines = lines[:limit] + [f"… and {len(lines) - limit} more glued values"]
    return lines


def cell_changes(edition, expected, label: str) -> list[str]:
    """Where `edition`'s cells differ from `expected` (a list of (cell_type, source))."""
    cells = [(c.cell_type, c.source) for c in edition.cells]
    if len(cells) != len(expected):
        return [f"has {len(cells)} cells, {label} {len(expected)}"]
    for number, ((kind, source), (want_kind, want)) in enumerate(zip(cells, expected)):
        if kind != want_kind or source != want:
            have_lines, want_lines = source.splitlines(), want.splitlines()
            first = next((want_lines[i] if i < len(want_lines) else have_lines[i]
                          for i in range(max(len(have_lines), len(want_lines)))
                          if (have_lines[i:i + 1] or [None]) != (want_lines[i:i + 1] or [None])), "")
            return [f"cell {number} ({want_kind}) differs from {label}, near {short(first)!r}"]
    return []


def edition_problems(md: Path, now: dict | None, root: Path = ROOT) -> list[str]:
    """Why chapters/X.ipynb is stale with respect to chapters/X.md and the library (empty: up to date)."""
    edition = md.with_suffix(".ipynb")
    rel = edition.relative_to(root).as_posix()
    fix = "run `make book` (the editions are built, never committed)"
    if not edition.exists():
        return [f"{rel} is missing: {fix}"]
    nb = readable(edition)
    if nb is None:
        return [f"{rel} cannot be read as a notebook (empty, cut short or not UTF-8 JSON): {fix}"]
    source = read_source(md)
    glued, pages = records(nb), links(root)
    digest = pinned_digest(nb.cells[0].source) if nb.cells else None
    setup = setup_cell(root, digest)
    expected = [("code", colab_source(setup, first_code=False))]
    try:
        code_cells = 1
        for cell in source.cells:
            code_cells += cell.cell_type == "code"
            expected.append((cell.cell_type, plain(cell.source, glued, pages) if cell.cell_type == "markdown"
                             else colab_source(cell, first_code=code_cells == 2)))
    except KeyError as err:
        return [f"{rel}: the .md uses {err.args[0]}, which the edition lacks: {fix}"]
    if nb.cells and nb.cells[0].source != expected[0][1]:
        return [f"{rel}: its first cell (Colab setup) differs from what _config.yml's repository and editions.SETUP "
                f"give now: {fix}"]
    found = [f"{rel}: {line}" for line in pin_problems(digest, root)]
    found += [f"{rel}: {line}" for line in cell_changes(nb, expected, "what " + md.name + " gives now")]
    if now is not None:
        found += [f"{rel}: {line}" for line in value_changes(glued_of(nb), now)]
    return [f"{line}: {fix}" for line in found]


def site_problems(md: Path, now: dict | None, build_dir: Path, root: Path = ROOT) -> list[str]:
    """Why the built page of chapter `md` (in `build_dir`, e.g. _build) is stale (empty: up to date)."""
    rel = md.relative_to(root).with_suffix("")
    executed = build_dir / "jupyter_execute" / rel.with_suffix(".ipynb")
    page = f"{build_dir.name}/html/{rel.as_posix()}.html"
    fix = "run `make book`"
    if not executed.exists():
        return [f"{page}: not built from the current chapter list: {fix}"]
    nb = readable(executed)
    if nb is None:
        return [f"{page}: its executed notebook {build_dir.name}/jupyter_execute/{rel.as_posix()}.ipynb cannot be read: {fix}"]
    expected = [(c.cell_type, c.source) for c in read_source(md).cells]
    found = cell_changes(nb, expected, "chapters/" + md.name)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    if errors:
        found.append(f"shows an error: {errors[0].get('ename')}: {short(errors[0].get('evalue'))}")
    if now is not None:
        try:
            site = Glued(site_records(executed))
        except (OSError, ValueError, AttributeError):
            return [f"{page}: its glue records ({executed.stem}.glue.json) cannot be read: {fix}"]
        edition = readable(md.with_suffix(".ipynb"))     # which of them are measured: the edition's tags say
        site.measured = glued_of(edition).measured if edition is not None else frozenset()
        found += value_changes(site, now)
    return [f"{page}: {line}: {fix}" for line in found]


def readable(path: Path):
    """The notebook at `path`, or None if it is missing, empty, cut short or not a notebook (no traceback: the
    caller names the file and the command that writes it again)."""
    try:
        return nbformat.read(path, as_version=4)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, nbformat.reader.NotJSONError,
            nbformat.ValidationError):
        return None


def site_records(executed: Path) -> dict[str, dict]:
    """The glue records of a built page: myst-nb moves them out of the executed notebook into
    NAME.glue.json beside it. (Not judged by modification times: the build rewrites the executed notebook after
    the records, later still on a busy machine, and a rule "records older than the notebook are left over"
    once made the check report a whole page's values missing.)"""
    import json

    path = executed.with_name(executed.stem + ".glue.json")
    if not path.exists():   # (the build removes one left from an earlier build: sphinx_ext.stable_notebook)
        return {}
    return {name: output.get("data", {}) for name, output in json.loads(path.read_text(encoding="utf-8")).items()}
