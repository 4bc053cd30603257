"""Why this number? Each glued number that carries its derivation (roofline.show.why) becomes a quiet disclosure
button on its page; _static/why.js opens the panel "이 값은 어떻게 나왔나" from the page's records, a JSON file of its
own (named by its content's digest) fetched when the first panel opens; a large one is also written in parts, and a
first panel fetches only its own (coursebook.recordfiles).

The numbers are marked where they are made: a page module writes each number with `roofline.show.why`, glue keeps
its record beside the text, and the glue roles (coursebook.marking) turn each piece `why.*` made into a `number` node
of the doctree, written as the button. At `html-page-context` (before `assets.page_assets`, which keeps why.js on a
page only where the marker `data-rl-why` is) the page's `number` nodes give its entries and records.

The gate (`gate`, one rule for the site and for the dry run of `make refresh`): it counts the numbers `why.*` made in
each glued value, and names a glued text that is a number, a number inside a glued sentence, or a number cell of a
glued table that no `why.*` made; each stops the build (a warning; the site's build treats warnings as errors), as
does an input that does not resolve (a course.toml key not in the file, a parameter-cell variable not in the page's
cell, a derived record missing). So does a number in the words of a table's cells or of Markdown pasted in a
sentence (`{glue:md}` roles) that no `why.*` made (`unmarked`): a number that labels a row or a case is written by
`why.label` with its origin (checked by its kind, no button), a name with digits ("GPT-2") by `why.name` (`is_name`).
Counts per page go to _build/why-coverage.json.
"""
from __future__ import annotations

import ast
import hashlib
import html
import json
import os
import re
import tomllib
from pathlib import Path

from coursebook import recordfiles

WHY_MIME = "application/vnd.roofline.why+json"   # roofline.show.why.WHY_MIME (the tooling does not import the library)
FOLDER = "_static/why"

_TEXT_USE = re.compile(r"\{glue:text\}`([^`]+)`")
_MD_USE = re.compile(r"^[`:]{3,}\{glue:md\}\s+(\S+)", re.M)
_MD_ROLE = re.compile(r"\{glue:md\}`([^`]+)`")
_NUMBER = re.compile(r"^[−-]?\d[\d,]*(?:\.\d+)?(?:/\d+)?(?![A-Za-z⁰¹²³⁴⁵⁶⁷⁸⁹\d/]|[.:]\d|\s?[·×]\s?[A-Za-z])")


def is_number(text: str) -> bool:
    """A glued text that a reader reads as a number ("15.876", "4,096으로", "1/12", "63.51배"), not a name or a
    formula ("FP32", "2N³", "8N³/T + 4N²", "N/6은", "4·T_M·T_K Byte", "1/s", "2/(3s)"), a version ("2.4.6") or a pattern's name ("2:4")."""
    return bool(_NUMBER.match(text.strip()))


# a number inside a glued sentence ("T = 128에서 메모리는 약 4.362 ms"), not a formula's ("2N³", "N/(4N+2)"), an
# index ("C[0,0]"), a pattern's name ("2:4") or a power's base ("10⁻¹⁰")
_IN_SENTENCE = re.compile(r"(?<![A-Za-z_\d.,/:⁰¹²³⁴⁵⁶⁷⁸⁹\[+])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                          r"(?![A-Za-z_⁰¹²³⁴⁵⁶⁷⁸⁹⁻\d/\]]|[.:,]\d)")
_TIMES_SYMBOL = re.compile(r"\s?[·×]\s?[A-Za-z]")   # "2·s", "3 × N": a coefficient (but "T = 32·T = 64" lists values)


def sentence_numbers(text: str, names=()) -> list[tuple[int, int]]:
    """(start, end) of each number a reader reads inside a glued text that is not itself a number; a number inside
    one of `names` (the presets' names: "RTX 4090", also with no-break spaces, as a table cell writes it) is a
    name's."""
    text = text.replace("\u00a0", " ")   # (one character for one: the spans stay the text's)
    for name in names:
        text = text.replace(name, "x" * len(name))
    return [m.span() for m in _IN_SENTENCE.finditer(text)
            if not _TIMES_SYMBOL.match(text, m.end()) or text[:m.start()].endswith("= ")]


def uncovered(text: str, record: dict | None, names=()) -> list[tuple[int, int]]:
    """(start, end) of each number in glued text `text` that its derivation record (None: it has none) leaves
    without a button: the gate's one rule, read by `mark` on the page and by the dry run of `make refresh` on a
    chapter's records. A text that is a number needs a record; a record with `parts` (a sentence, a range) must
    cover each number inside the sentence; a record without parts covers the whole text."""
    number = is_number(text)
    inside = [] if number else sentence_numbers(text, names)
    if record is None:
        return ([(0, len(text))] if number else []) + inside
    if "parts" not in record:
        return []
    spans = [(p["at"], p["at"] + p["length"]) for p in record["parts"] + record.get("labels", [])]
    return [(a, b) for a, b in inside if not any(x <= a and b <= y for x, y in spans)]


_NAME_WORD = re.compile(r"[A-Za-z][\w.+-]*")   # roofline.show.why.NAME_WORD (tests/tooling/test_why_marking.py)


def is_name(text: str, origin: str) -> bool:
    """Whether a label `roofline.show.why.name` made ("name:GPT-2") is a name: it names its own text, and every word
    of it begins with a letter, so no number ("7.6배", "2 FLOPs") passes as a name."""
    return origin == f"name:{text}" and bool(text.split()) and all(_NAME_WORD.fullmatch(w) for w in text.split())


def labels(text: str, record: dict | None) -> list[tuple[str, str]]:
    """(its text, its origin) of each number `roofline.show.why.label` made in a glued text (no button: a row's or a
    case's label), and of each name `why.name` made."""
    return [(text[one["at"]:one["at"] + one["length"]], one["origin"]) for one in (record or {}).get("labels", [])]


def preset_names(file: dict) -> list[str]:
    """The presets' names in a parsed course.toml (and each without its parenthesised detail, as pages write them)."""
    names = {p["name"] for p in file.get("presets", {}).values() if isinstance(p, dict) and "name" in p}
    return sorted(names | {n.split(" (")[0] for n in names}, key=len, reverse=True)


def uses(source: str) -> list[tuple[str, str]]:
    """("text" | "md" | "mdrole", key) for each `{glue:text}`, `{glue:md}` directive and `{glue:md}` role of a
    chapter's source, in reading order (the dry run of `make refresh` has no doctree: it gates the keys a page uses)."""
    found = [(m.start(), "text", m.group(1)) for m in _TEXT_USE.finditer(source)]
    found += [(m.start(), "md", m.group(1)) for m in _MD_USE.finditer(source)]
    found += [(m.start(), "mdrole", m.group(1)) for m in _MD_ROLE.finditer(source)]
    return [(kind, key) for _, kind, key in sorted(found)]


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of a Markdown table (as glued), each a list of its cells."""
    return [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            for line in markdown.splitlines()[2:]]


def table_cells(markdown: str) -> list[str]:
    """The body cells of a Markdown table (as glued), in reading order."""
    return [cell for row in table_rows(markdown) for cell in row]


ENTRY = ("of", "shown", "unit", "rounding", "scale", "digits")   # roofline.show.why.ENTRY: what a button's panel needs


def entry(record: dict, records: dict) -> dict:
    """A number's button: its entry (ENTRY's fields of a record, or of a sentence's part) and the records it cites."""
    return {**{k: record[k] for k in ENTRY}, "records": records}


def pieces(text: str, record: dict | None) -> list[tuple[str, dict | None]]:
    """`text` cut at the numbers `roofline.show.why` made: (piece, the number's `entry` | None for words), in order.
    A record without parts (a number, a label such as "T = 128") is the whole text's; a sentence's record names
    each part (at, length) of its text."""
    if record is None:
        return [(text, None)]
    if "parts" not in record:
        return [(text, entry(record, record["records"]))]
    out, at = [], 0
    for part in sorted(record["parts"], key=lambda p: p["at"]):
        start, end = part["at"], part["at"] + part["length"]
        out += [(text[at:start], None)] * (start > at) + [(text[start:end], entry(part, record["records"]))]
        at = end
    return out + [(text[at:], None)] * (at < len(text))


def marked(record: dict | None) -> int:
    """How many numbers `why.*` made in a glued value's record: a sentence's (or a text diagram's) parts, or one."""
    return 0 if record is None else len(record["parts"]) if "parts" in record else 1


def cell_records(record: dict) -> dict[tuple[int, int], dict]:
    """(row, column) → the record of a glued table's cell that `why.*` made (roofline.show.tables)."""
    return {(c["row"], c["column"]): c for c in record.get("cells", [])}


def gate(kind: str, bundle: dict, names=()) -> tuple[int, list[str], list[str], list[tuple[str, str]]]:
    """The gate's one rule on a glued value (its mime bundle, as the chapter's run glued it; `kind` as `uses` names
    it): (how many numbers `why.*` made in it, the numbers without a derivation, the numbers in words around them that
    no `why.*` made (`unmarked`), the labels `why.label` and `why.name` made, as (text, origin)). Both lists stop the
    build; a label's origin is checked by its kind (`origin_resolves`, a name by `is_name`). The site's roles
    (coursebook.marking) and the dry run of `make refresh` both read it. Each number is said as "'4,096'", "문장
    '…'의 숫자 '15.5'" or "표의 칸 '12.5%'"."""
    record = bundle.get(WHY_MIME)
    if kind == "text":
        text = str(ast.literal_eval(bundle["text/plain"])) if "text/plain" in bundle else ""
        gaps = uncovered(text, record, names)
        said = [f"{text!r}" if (a, b) == (0, len(text)) and is_number(text) else f"문장 {text!r}의 숫자 {text[a:b]!r}"
                for a, b in gaps]
        return marked(record), said, [], labels(text, record)
    markdown = bundle.get("text/markdown", "")
    if kind == "mdrole":   # Markdown pasted in a sentence carries no record: a number in it is made by none
        return 0, [], [f"문장 {markdown[:60]!r}의 숫자 {markdown[a:b]!r}" for a, b in uncovered(markdown, None, names)], []
    if record is not None and "block" in record:   # a text diagram: its indices and line numbers stay text
        return marked(record["block"]), [], [], []
    cells = cell_records(record or {})
    count, missing, unmarked, labelled = 0, [], [], []
    for i, row in enumerate(table_rows(markdown)):
        for j, cell in enumerate(row):
            found = cells.get((i, j))
            count += marked(found)
            labelled += labels(cell, found)
            if is_number(cell):
                missing += [f"표의 칸 {cell!r}"] * (found is None)
            else:
                unmarked += [f"표의 칸 {cell!r}의 숫자 {cell[a:b]!r}" for a, b in uncovered(cell, found, names)]
    return count, missing, unmarked, labelled


def carried(bundle: dict) -> dict:
    """The records a glued value carries (a text's, a table's cells'): where a label's "derived:" origin resolves."""
    record = bundle.get(WHY_MIME) or {}
    found = dict(record.get("records", {}))
    for cell in record.get("cells", []):
        found.update(cell.get("records", {}))
    return found


def not_names(labelled: list[tuple[str, str]]) -> list[str]:
    """The names `why.name` marked (`gate`'s labels) that are not names (`is_name`), said as "이름 '최대 7.6배'"."""
    return [f"이름 {text!r}" for text, origin in labelled if origin.startswith("name:") and not is_name(text, origin)]


def refused(kind: str, bundle: dict, names=()) -> list[str]:
    """What in a glued value stops the build (`gate`): its numbers without a derivation, its numbers no `why.*` made,
    and a name `why.name` made that is not a name."""
    _, missing, unmarked, labelled = gate(kind, bundle, names)
    return missing + unmarked + not_names(labelled)


def course_file(root: Path) -> Path:
    return Path(os.environ.get("ROOFLINE_COURSE") or root / "lib" / "roofline" / "course.toml")


def toml_value(table: dict, dotted: str):
    """The value of `week4.N`, `presets.course.peak.FP32` in the parsed file; KeyError when there is none."""
    value = table
    for part in dotted.split("."):
        value = value[part]
    return value


def cell_names(source: str) -> set[str]:
    """The variables of a chapter's parameter cell (the code cell tagged `parameters`)."""
    m = re.search(r"```\{code-cell\}[^\n]*\n:tags: \[parameters[^\n]*\n(.*?)```", source, re.S)
    return set(re.findall(r"^([A-Za-z_]\w*)\s*=", m.group(1), re.M)) if m else set()


def bib_keys(root: Path) -> set[str]:
    """The keys of the bibliography (references.bib): what a `cite:` origin may name."""
    path = Path(root, "references.bib")
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return set(re.findall(r"^@\w+\{([^,\s]+),", text, re.M))


_CONDITIONS = re.compile(r"\S.*\(.+\)", re.S)   # "what (its conditions or inputs) …"


def origin_resolves(origin: str, recs: dict, file: dict, cells: set[str], source: str, bib: set[str]) -> bool:
    """Whether an origin resolves by its kind:
    toml:<key>            the key is in course.toml (its value is the shown one: the tests check that);
    cell:<variable>       a variable of the chapter's parameter cell; control:, typed: an explorer's control or the
                          live form's field (named);
    derived:<id>          a record of the page;
    code:<call>           a call the chapter's source writes, or code:<name> = <value>, a code cell assigns <name>;
    measured:<what (conditions)>, simulated:<what (inputs)>, search:<what (inputs)>: the conditions in parentheses;
    cite:<key>, <locator> a key of references.bib and where in it;
    quoted:<what>         a value quoted without a source (the note checks it), said so."""
    kind, _, what = origin.partition(":")
    if kind == "toml":
        try:
            toml_value(file, what)
        except (KeyError, TypeError):
            return False
        return True
    if kind == "cell":
        return what.split("(")[0] in cells
    if kind in ("control", "typed", "quoted"):
        return bool(what.strip())
    if kind == "derived":
        return what in recs
    if kind == "code":
        name, equals, _ = what.partition(" = ")
        return what in source or bool(equals and re.search(rf"^{re.escape(name)}\s*=", source, re.M))
    if kind in ("measured", "simulated", "search"):
        return _CONDITIONS.search(what) is not None
    if kind == "cite":
        key, comma, locator = what.partition(", ")
        return key in bib and bool(comma and locator.strip())
    return False


def unresolved(recs: dict, file: dict, cells: set[str], source: str, bib: set[str]) -> list[str]:
    """The origins of the records `recs` that do not resolve by their kind (`origin_resolves`)."""
    return [origin for r in recs.values()
            for origin in [x["origin"] for x in r["inputs"]] + ([r["origin"]] if "origin" in r else [])
            if not origin_resolves(origin, recs, file, cells, source, bib)]


def merge(into: dict, recs: dict) -> dict:
    """Records of `recs` put into `into` (id → record): an id is a digest of its record's content
    (roofline.show.why.record_id), so an id that already names another content is an error, never a silent pick."""
    for key, record in recs.items():
        if into.setdefault(key, record) != record:
            raise ValueError(f"유도 기록 {key}가 두 내용을 가리킨다 (roofline.show.why.record_id)")
    return into


_EXPLORER = re.compile(r'<div class="rl-explorer" id="([^"]+)"[^>]*>.*?<script type="application/json" class="rl-data">'
                       r'(.*?)</script>', re.S)


def _parts_cover(text: str, parts: list, entries: dict, names=()) -> bool:
    """A number-led text shown as a sentence ("48 / 64", "6개, 75.0%"): every part names an entry, and every number a
    reader reads in it is inside a part."""
    spans = [(at, at + n) for at, n, e in parts if e in entries]
    return bool(parts) and len(spans) == len(parts) and all(
        any(x <= a and b <= y for x, y in spans) for a, b in sentence_numbers(text, names))


def explorer_numbers(body: str, names=()) -> tuple[dict, list[tuple[str, str]], dict]:
    """Every explorer in `body` (the HTML a page module glued: an explorer's states are data of its own): the numbers of its states (fields and table cells a reader reads as numbers, and
    the numbers inside a field's sentence) that name no entry of its records (`roofline.show.why.pooled`), as
    (explorer, "state key: field"); the counts; and the records, for their origins."""
    counts, missing, records = {"numbers": 0, "with": 0}, [], {}
    for m in _EXPLORER.finditer(body):
        data = json.loads(m.group(2).replace("<\\/", "</"))
        pool = data.get("why") or {}
        merge(records, pool.get("r", {}))
        entries = pool.get("g", {})
        for part in data["parts"]:
            for key, state in part["states"].items():
                ids = state.get("why", {})
                for name, text in state.get("fields", {}).items():
                    found = ids.get("fields", {}).get(name)
                    if is_number(str(text)):
                        counts["numbers"] += 1
                        if isinstance(found, list) and _parts_cover(str(text), found, entries, names) or (
                                not isinstance(found, list) and found in entries):
                            counts["with"] += 1
                        else:
                            missing.append((m.group(1), f"{key}: {name} = {text!r}"))
                        continue
                    spans = [(at, at + n) for at, n, e in found if e in entries] if isinstance(found, list) else []
                    for a, b in sentence_numbers(str(text), names):
                        counts["numbers"] += 1
                        if any(x <= a and b <= y for x, y in spans):
                            counts["with"] += 1
                        else:
                            missing.append((m.group(1), f"{key}: {name}의 {str(text)[a:b]!r} ({str(text)[:50]!r})"))
                for name, table in state.get("tables", {}).items():
                    table_ids = ids.get("tables", {}).get(name)
                    for i, row in enumerate(table["rows"]):
                        for j, text in enumerate(row):
                            if is_number(str(text)):
                                counts["numbers"] += 1
                                found = table_ids[i][j] if table_ids else None
                                if isinstance(found, list) and _parts_cover(str(text), found, entries, names) or (
                                        not isinstance(found, list) and found in entries):
                                    counts["with"] += 1
                                else:
                                    missing.append((m.group(1), f"{key}: {name}[{i}][{j}] = {text!r}"))
    return counts, missing, records


def page_context(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: the page's marked numbers (coursebook.marking: the buttons are in the body already) give
    its list of entries and its records, a file of their own; every glued number without a derivation and every
    input that does not resolve is a warning; the counts go to why-coverage.json."""
    from docutils import nodes
    from sphinx.util import logging

    from coursebook import marking

    logger = logging.getLogger(__name__)
    body = context.get("body")
    if doctree is None or not body or pagename not in app.env.all_docs:
        return
    gated, numbers = marking.gate(doctree), marking.numbers(doctree)
    if not gated and not numbers:
        return
    source = Path(app.env.doc2path(pagename)).read_text(encoding="utf-8")
    file = tomllib.loads(course_file(Path(app.srcdir)).read_text(encoding="utf-8"))
    entries, records = [], {}
    for node in numbers:
        found = node["entry"]
        entries.append({k: found[k] for k in ENTRY})
        merge(records, found["records"])
    missing = [(g["key"], g["line"], f"{why}에 유도가 없다") for g in gated for why in g["missing"]]
    unmarked = [(g["key"], g["line"], f"{why}는 why.*가 만들지 않았다 (유도가 있는 숫자, why.label 또는 why.name으로 쓴다)")
                for g in gated for why in g["unmarked"]]
    made = sum(g["marked"] for g in gated)
    if made != len(numbers):   # a number `why.*` made that the page does not show as its own (a cell not found)
        missing.append(("", None, f"why.*가 만든 숫자 {made}개 가운데 {len(numbers)}개만 쪽에 표시됐다"))
    glued_html = "".join(raw.astext() for raw in doctree.findall(nodes.raw))   # the explorers as the library wrote them
    in_explorers, explorer_missing, explorer_records = explorer_numbers(glued_html, preset_names(file))
    cells, bib = cell_names(source), bib_keys(Path(app.srcdir))
    labelled = [(text, origin) for g in gated for text, origin in g.get("labels", [])]
    known = {k: v for g in gated for k, v in g.get("records", {}).items()}
    bad = sorted(set(unresolved({**records, **explorer_records}, file, cells, source, bib)) | {
        origin for _, origin in labelled if not origin.startswith("name:")
        and not origin_resolves(origin, {**known, **records}, file, cells, source, bib)})
    coverage = app.env.__dict__.setdefault("rl_why_coverage", {})
    coverage[pagename] = {"marked": len(numbers), "labels": len(labelled),
                          "missing": [f"{k}: {why}" for k, _, why in missing],
                          "unmarked": [f"{g['key']}: {why}" for g in gated for why in g["unmarked"]],
                          "unresolved": bad,
                          "explorers": {**in_explorers, "missing": [f"{k}: {why}" for k, why in explorer_missing]}}
    for key, line, why in missing + unmarked:   # at the line of the chapter's source that pastes it
        logger.warning(f"{pagename}: glue {key!r}: {why} (roofline.show.why)", location=(pagename, line))
    for uid, why in explorer_missing[:20]:
        logger.warning(f"{pagename}: 조건 탐색기 {uid}의 상태 {why}에 유도가 없다 (roofline.show.why)")
    if len(explorer_missing) > 20:
        logger.warning(f"{pagename}: 조건 탐색기의 유도 없는 값이 {len(explorer_missing) - 20}개 더 있다 (roofline.show.why)")
    for origin in bad:
        logger.warning(f"{pagename}: 입력의 출처 {origin!r}를 찾을 수 없다 (roofline.show.why)")
    if not entries:
        return
    data = recordfiles.dumps({"g": entries, "r": records})
    name = f"{FOLDER}/{pagename.replace('/', '-')}.{hashlib.sha256(data).hexdigest()[:12]}.json"
    files = {name: data}
    marker = f'data-rl-why="{html.escape(context["pathto"](name, 1))}"'
    if len(data) > recordfiles.PARTS_FROM:   # and in parts: a first panel fetches its own (coursebook.recordfiles)
        files.update(recordfiles.part_files(name, recordfiles.page_parts(entries, records)))
        marker += (f' data-rl-why-parts="{html.escape(recordfiles.part_names(context["pathto"](name, 1)))}"'
                   f' data-rl-why-per="{recordfiles.PAGE_PART}"')
    for file, content in files.items():
        target = Path(app.outdir, file)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_bytes(content)
    context["body"] = body + f'<div hidden {marker}></div>'


def write_coverage(app, exception) -> None:
    """build-finished: the counts per page (glued numbers, with a derivation, missing, unresolved)."""
    coverage = getattr(app.env, "rl_why_coverage", None)
    if exception is None and coverage:
        path = Path(app.outdir).parent / "why-coverage.json"
        path.write_text(json.dumps(coverage, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")


def setup(app):
    from coursebook import marking

    marking.setup(app)
    app.connect("html-page-context", page_context, priority=900)   # before assets.page_assets (950)
    app.connect("build-finished", write_coverage)
