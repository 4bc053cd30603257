"""The .ipynb edition beside each chapter .md: what Colab opens and what nbval re-runs.

`build(md)` reads the MyST notebook (jupytext), executes it with nbclient (outside the book,
so `glue` also shows its tables and figures), then rewrites its Markdown cells as plain
Markdown with every glued value filled in: no `{glue:…}` role, no MyST directive, nothing
Colab cannot render. A first cell, made from `_config.yml`'s repository, installs the
project and its font in Colab only.
"""
from __future__ import annotations

import re
from pathlib import Path

import jupytext
import nbformat
import yaml
from nbclient import NotebookClient

from .glue import PREFIX

ROOT = Path(__file__).resolve().parents[2]
SETUP_TAG = "colab-setup"
ADMONITION_TITLES = {
    "note": "참고", "tip": "팁", "important": "중요", "warning": "주의", "caution": "주의",
    "attention": "주의", "hint": "힌트", "seealso": "함께 보기", "admonition": "",
}


def repository(root: Path = ROOT) -> tuple[str, str]:
    """(https URL, branch) of the repository, from `_config.yml` (the only place it is written)."""
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]
    return repo["url"].rstrip("/"), repo.get("branch", "main")


def setup_cell(root: Path = ROOT):
    url, branch = repository(root)
    source = (
        "# Colab에서만 실행된다: 강의 라이브러리(roofline)와 한글 글꼴을 설치한다. 다른 환경에서는 아무것도 하지 않는다.\n"
        "import sys\n"
        "if 'google.colab' in sys.modules:\n"
        f"    %pip install -q 'roofline-course @ git+{url}@{branch}'"
    )
    return nbformat.v4.new_code_cell(source, metadata={"tags": [SETUP_TAG, "remove-cell"]})


def records(nb) -> dict[str, dict]:
    """name → mime bundle of every glue record in the executed notebook."""
    found = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                found[name] = {k[len(PREFIX):]: v for k, v in output["data"].items() if k.startswith(PREFIX)}
    return found


FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                   re.S | re.M)
ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<content>[^`]*)`")


def split_options(body: str) -> tuple[dict, str]:
    options, lines = {}, body.split("\n")
    while lines and lines[0].startswith(":"):
        key, _, value = lines.pop(0)[1:].partition(":")
        options[key.strip()] = value.strip()
    return options, "\n".join(lines).strip("\n")


def plain(text: str, glued: dict[str, dict]) -> str:
    """MyST Markdown → plain Markdown with glued values substituted."""

    def value(key: str, mime: str = "text/plain") -> str:
        key = key.split(":")[0].strip()
        if key not in glued or mime not in glued[key]:
            raise KeyError(f"no glued {mime} named {key!r}")
        return glued[key][mime]

    def directive(match) -> str:
        name, arg = match["name"], match["arg"].strip()
        options, body = split_options(match["body"])
        body = plain(body, glued)
        if name == "glue:md":
            return value(arg, "text/markdown")
        if name == "glue:math":
            latex = value(arg, "text/latex").strip().strip("$").replace("\\displaystyle", "").strip()
            return f"$$\n{latex}\n$$"
        if name in ("glue:figure", "glue"):
            return f"**그림.** {body}" if body else ""
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
        if name in ("figure", "image"):
            return f"![{options.get('alt', '')}]({arg})\n\n{body}".strip()
        raise ValueError(f"the Colab edition cannot render the MyST directive {{{name}}}; add it to editions.plain")

    def role(match) -> str:
        name, content = match["role"], match["content"]
        shown = re.sub(r"\s*<[^>]*>$", "", content)
        if name in ("glue", "glue:text"):
            key, _, spec = content.partition(":")
            text = value(key)
            return format(float(text), spec) if spec else text
        if name == "glue:md":
            return value(content, "text/markdown")
        if name == "math":
            return f"${content}$"
        if name in ("term", "ref", "doc", "numref", "abbr"):
            return shown
        if name in ("cite", "cite:p", "cite:t"):
            return f"[{content}]"
        raise ValueError(f"the Colab edition cannot render the MyST role {{{name}}}; add it to editions.plain")

    text = FENCE.sub(directive, text)
    text = ROLE.sub(role, text)
    text = re.sub(r"^\([\w-]+\)=[ \t]*\n", "", text, flags=re.M)   # (label)= targets
    return text


def execute(nb, cwd: Path, timeout: int = 300):
    NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False, resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


def build(md: Path, root: Path = ROOT):
    """The executed, plain-Markdown edition of chapter `md` (an nbformat notebook)."""
    nb = jupytext.read(md, fmt="md:myst")
    nb.cells.insert(0, setup_cell(root))
    execute(nb, md.parent)
    glued = records(nb)
    for number, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            cell.source = plain(cell.source, glued)
        cell.id = f"cell-{number}"   # stable ids: a regenerated edition differs only where content does
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["colab"] = {"provenance": []}
    return nb


def write(md: Path, root: Path = ROOT) -> Path:
    nb = build(md, root)
    out = md.with_suffix(".ipynb")
    nbformat.write(nb, out)
    return out
