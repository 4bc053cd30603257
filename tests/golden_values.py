"""Golden files of what each page shows: every glue record of a page at the seed parameters, written as a reader
sees it, one small YAML file per page (tests/golden/<page>.yaml).

Regenerate them with the one flag `--force-regen` (documented in docs/contributing.md): `python tests/golden_values.py
--force-regen [PAGE …]` writes the files of the pages named (all without a name) from the current code; without the
flag it writes nothing and lists the pages whose file differs. tests/pages/test_every_page.py recomputes every page
in-process (no Sphinx build, no kernel) and compares; a failure names the keys and shows the first lines that differ.

What a file keeps, per glue key: the text the page shows (`text`), a table's Markdown (`markdown`), an equation
(`latex`), the words of an HTML block (tags dropped: `html`), the data an explorer or a quiz carries (`explorer`,
`quiz`), and each derivation a reader can open, as an indented tree: `symbol (name) = formula = numbers = exact unit`,
its inputs below it with their origins (`← toml:week4.N`). A record's id never appears: a reference to a record is
replaced by the record itself, so the files survive any change to how ids are made. Figures are kept as their glued
text (the fingerprint of what they plot), not as PNG bytes; values measured on the running machine by key only (null).
"""
from __future__ import annotations

import functools
import html
import json
import re
import sys
from pathlib import Path

import yaml

from roofline.show.glue import shown_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "golden"
SEED_TOML = HERE / "seed" / "course.toml"
WHY = "application/vnd.roofline.why+json"
FLAG = "--force-regen"
DATA = re.compile(r'<script type="application/json" class="(rl-data|rl-quiz-data)">(.*?)</script>', re.S)


def glued_pages() -> list[str]:
    """The pages whose source glues values, in the book's order."""
    sys.path.insert(0, str(HERE))
    from site_pages import toc_pages

    return [Path(p).name for p in toc_pages(ROOT) if "{glue" in (ROOT / f"{p}.md").read_text(encoding="utf-8")]


def path_of(stem: str) -> Path:
    return GOLDEN / f"{stem}.yaml"


# ---------------------------------------------------------------- a derivation as a tree, without ids

def tree(ref: str, records: dict, seen: set, depth: int = 0) -> list[str]:
    """The record `ref` and, indented below it, its inputs: a derived input by its own tree, another by its origin.
    A record already written out for the same glued value (`seen`) is one line, marked `(as above)`."""
    pad = "  " * depth
    if ref not in records:
        return [pad + "(no record)"]
    record = records[ref]
    parts = [record["formula"], record["numbers"], record["exact"]]
    said = " = ".join(dict.fromkeys(p for p in parts if p and p != record["symbol"]))   # (N = 4,096: once)
    line = f"{pad}{record['symbol']} ({record['name']}) = {said} {record['unit']}".rstrip()
    line += f" ← {record['origin']}" if record.get("origin") else ""
    if ref in seen and record["inputs"]:
        return [line + " (as above)"]
    seen.add(ref)
    lines = [line]
    for given in record["inputs"]:
        target = given["origin"].partition(":")[2]
        if target in records:
            lines += tree(target, records, seen, depth + 1)
        else:
            value = f"{given['value']} {given['unit']}".rstrip()
            lines.append(f"{pad}  {given['symbol']} ({given['name']}) = {value} ← {given['origin']}")
    return lines


def entry(shown: dict, records: dict, seen: set) -> str:
    """A value a reader can open: where it stands in a sentence (`at`), what is shown with its rounding, and the
    tree of the record it is of."""
    head = f"shown: {shown['shown']} {shown.get('unit', '')}".rstrip() + f" ({shown['rounding']})"
    if "cell" in shown and shown["cell"] != shown["shown"]:
        head = f"cell: {shown['cell']}; {head}"
    if "at" in shown:
        head = f"at {shown['at']}: {head}"
    return "\n".join([head, *tree(shown["of"], records, seen)]) + "\n"


def labels(value: dict) -> list[str]:
    """The numbers that label (`why.label`, no button) or name (`why.name`), one line per origin: what (or where,
    in a sentence whose text is the glued value's), in order, and the origin."""
    text, by_origin = value.get("cell"), {}
    for one in value["labels"]:
        said = text[one["at"]:one["at"] + one["length"]] if text else f"at {one['at']}"
        by_origin.setdefault(one["origin"], []).append(said)
    return [f"{', '.join(said)} ← {origin}" for origin, said in by_origin.items()]


def why(value, seen: set, records: dict | None = None):
    """A glued value's derivation records as text: one entry (`of`), a table's cells, a sentence's parts; a table
    cell of labels only is one line."""
    if isinstance(value, dict):
        records = value.get("records", records)
        if "of" in value:
            return entry(value, records or {}, seen)
        if "labels" in value and "cell" in value and not value.get("parts"):
            return f"cell: {value['cell']}; labels: " + "; ".join(labels(value))
        said = {key: why(item, seen, records) for key, item in value.items() if key not in ("records", "labels")}
        return {**said, "labels": labels(value)} if "labels" in value else said
    if isinstance(value, list):
        return [why(item, seen, records) for item in value]
    return value


def resolved(value, pool: dict, seen: set):
    """`value` with every string naming an entry or record of the explorer's pool replaced by its text."""
    entries, records = pool.get("g", {}), pool.get("r", {})
    if isinstance(value, dict):
        return {key: resolved(item, pool, seen) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item, pool, seen) for item in value]
    if isinstance(value, str) and value in entries:
        return entry(entries[value], records, seen)
    if isinstance(value, str) and value in records:
        return "\n".join(tree(value, records, seen)) + "\n"
    return value


def explorer(data: dict) -> dict:
    """An explorer's data: its controls, and every state of each part. The chapter's own state (the controls' first
    values) in full: its values, derivation trees, plots and prediction questions; every other state in one line
    (`line`): the same trees and questions with other numbers would make the file a hundred times longer."""
    pool = data.pop("why", {})
    initial = {name: control["initial"] for name, control in data["controls"].items()}
    parts = []
    for part in data["parts"]:
        first = "|".join(initial[name] for name in part["on"])
        states = {key: resolved(state, pool, set()) if key == first else line(state)
                  for key, state in part["states"].items()}
        parts.append({**part, "states": states})
    return {**data, "parts": parts}


def line(state: dict) -> str:
    """A state of an explorer as one line: each field's text, and each prediction question with its answer."""
    shown = [f"{name} = {value}" for name, value in state.get("fields", {}).items()]
    shown += [f"{flag}" for flag in state.get("flags", [])]
    shown += [f"{q['ask']} → {q['shown']}" for q in (state.get("predict") or {}).get("questions", [])]
    return "; ".join(shown)


# ---------------------------------------------------------------- a glue record as a reader sees it

def words(markup: str) -> str:
    """The text of an HTML block, tags (and with them every generated DOM id) dropped, one line per block."""
    text = DATA.sub("", markup)
    text = re.sub(r"<(br|/p|/li|/tr|/h\d|/summary|/div|/section|/option|/label|/output|/button)\b[^>]*>", "\n", text)
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return "\n".join(line for line in (" ".join(part.split()) for part in text.split("\n")) if line) + "\n"


def readable(bundle: dict) -> dict:
    """One glue record (mime → payload) as the reader sees it; PNG bytes are left out."""
    shown: dict = {}
    if "text/plain" in bundle:
        shown["text"] = shown_text(bundle["text/plain"])
    if "text/markdown" in bundle:
        shown["markdown"] = bundle["text/markdown"].rstrip("\n") + "\n"
    if "text/latex" in bundle:
        shown["latex"] = bundle["text/latex"]
    if "text/html" in bundle:
        shown["html"] = words(bundle["text/html"])
        for kind, data in DATA.findall(bundle["text/html"]):
            data = json.loads(data)
            if kind == "rl-data":
                shown["explorer"] = explorer(data)
            else:
                shown["quiz"] = data
    if WHY in bundle:
        shown["why"] = why(bundle[WHY], set())
    return shown


@functools.lru_cache(maxsize=None)
def golden(stem: str) -> dict[str, dict | None]:
    """glue key → what the reader sees of it, for page `stem` run at the seed parameters (None: measured). Kept for
    the process: a page's run (its measured cells too) is made once for the tests that read it (read, never changed)."""
    from coursebook import editions

    glued = editions.recompute(ROOT / "chapters" / f"{stem}.md", course_path=SEED_TOML, measured=True)
    return {key: None if key in glued.measured else readable(bundle) for key, bundle in sorted(glued.items())}


# ---------------------------------------------------------------- the file

class _Dumper(yaml.SafeDumper):
    pass


def _string(dumper, value: str):
    """Several lines as a literal block (a table, a derivation tree reads as it prints)."""
    block = "\n" in value and not re.search(r"[ \t]\n|\t|[^\S\n \xa0]", value)
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if block else None)


_Dumper.add_representer(str, _string)


def text(values: dict) -> str:
    return yaml.dump(values, Dumper=_Dumper, allow_unicode=True, sort_keys=True, width=120,
                     default_flow_style=False)


def load(stem: str) -> dict:
    # libyaml's parser when PyYAML has it (its wheels do): the same values, ten times faster than the pure-Python one
    return yaml.load(path_of(stem).read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def main(argv: list[str]) -> int:
    regen = FLAG in argv
    stems = [a for a in argv if a != FLAG] or glued_pages()
    differ = []
    GOLDEN.mkdir(exist_ok=True)
    for stem in stems:
        now = text(golden(stem))
        path = path_of(stem)
        if path.is_file() and path.read_text(encoding="utf-8") == now:
            continue
        differ.append(stem)
        if regen:
            path.write_text(now, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if not regen:
        for stem in differ:
            print(f"{path_of(stem).relative_to(ROOT)} differs from what the page shows now ({FLAG} writes it)")
    return 1 if differ and not regen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
