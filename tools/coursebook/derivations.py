"""Why this number? Each glued number that carries its derivation (roofline.show.why) becomes a quiet disclosure
button on its page; _static/why.js opens the panel "이 값은 어떻게 나왔나" from the page's records, a JSON file of its
own (named by its content's digest) fetched when the first panel opens.

At `html-page-context` (before `assets.page_assets`, which keeps why.js on a page only where the marker
`data-rl-why` is): the page's glue records (myst-nb's NAME.glue.json beside the executed notebook) are matched to the
page's `{glue:text}` uses and `{glue:md}` tables in the order the chapter's source names them (myst-nb writes a
pasted text as `<span class="pasted-text">`, without its key). The gate: a glued number (a text that begins with a
digit, a table cell of a glued table that begins with a digit, a number inside a glued sentence: each part of a
`why.sentence` is a button of its own) without a derivation on any page, or an input
that does not resolve (a course.toml key not in the file, a parameter-cell variable not in the page's cell, a derived
record missing), is a build warning naming the page and the key, and the site's build treats warnings as errors.
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

WHY_MIME = "application/vnd.roofline.why+json"   # roofline.show.why.WHY_MIME (the tooling does not import the library)
FOLDER = "_static/why"

_TEXT_USE = re.compile(r"\{glue:text\}`([^`]+)`")
_MD_USE = re.compile(r"^[`:]{3,}\{glue:md\}\s+(\S+)", re.M)
_SPAN = re.compile(r'<span class="pasted-text">(.*?)</span>', re.S)
_PRE = re.compile(r"(<pre[^>]*>(?:<span></span>)?)(.*?)</pre>", re.S)   # a glued code block, as Pygments writes it
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
    one of `names` (the presets' names: "RTX 4090") is a name's."""
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
    spans = [(p["at"], p["at"] + p["length"]) for p in record["parts"]]
    return [(a, b) for a, b in inside if not any(x <= a and b <= y for x, y in spans)]


def preset_names(file: dict) -> list[str]:
    """The presets' names in a parsed course.toml (and each without its parenthesised detail, as pages write them)."""
    names = {p["name"] for p in file.get("presets", {}).values() if isinstance(p, dict) and "name" in p}
    return sorted(names | {n.split(" (")[0] for n in names}, key=len, reverse=True)


def uses(source: str) -> list[tuple[str, str]]:
    """("text" | "md", key) for each `{glue:text}` and `{glue:md}` of a chapter's source, in reading order."""
    found = [(m.start(), "text", m.group(1)) for m in _TEXT_USE.finditer(source)]
    found += [(m.start(), "md", m.group(1)) for m in _MD_USE.finditer(source)]
    return [(kind, key) for _, kind, key in sorted(found)]


def table_cells(markdown: str) -> list[str]:
    """The body cells of a Markdown table (as glued), in reading order."""
    cells = []
    for line in markdown.splitlines()[2:]:
        cells += [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
    return cells


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


def mark(body: str, source: str, glue: dict, names=()) -> tuple[str, list[dict], list[tuple[str, str]], dict]:
    """`body` with each glued number that has a record as a disclosure button; the buttons' records in order;
    (key, problem) of each glued number without a derivation; counts."""
    entries, missing = [], []
    counts = {"numbers": 0, "with": 0, "in_sentences": 0, "in_sentences_with": 0, "in_diagrams": 0}
    out, cursor = [], 0

    def button(text_html: str, record: dict) -> str:
        entries.append({k: record[k] for k in ("of", "shown", "unit", "rounding", "scale", "digits")})
        merge(records, record["records"])
        return (f'<button type="button" class="rl-why" aria-expanded="false" data-why="{len(entries) - 1}">'
                f"{text_html}</button>")

    def sentence_buttons(text: str, record: dict) -> str:
        """A cell that is a sentence ("1.5–2.0배"): each of its numbers a button of its own."""
        pieces, at = [], 0
        for part in sorted(record["parts"], key=lambda p: p["at"]):
            start, end = part["at"], part["at"] + part["length"]
            pieces += [html.escape(text[at:start], quote=False),
                       button(html.escape(text[start:end], quote=False), {**part, "records": record["records"]})]
            at = end
        return "".join(pieces) + html.escape(text[at:], quote=False)

    records: dict = {}
    for kind, key in uses(source):
        data = glue.get(key, {})
        if kind == "text":
            m = _SPAN.search(body, cursor)
            if m is None:
                missing.append((key, "쪽에 붙은 자리가 없다"))
                continue
            out.append(body[cursor:m.start()])
            cursor = m.end()
            text = str(ast.literal_eval(data["text/plain"])) if "text/plain" in data else ""
            if html.unescape(m.group(1)) != text:
                missing.append((key, f"쪽의 글자 {html.unescape(m.group(1))!r}가 기록 {text!r}와 다르다"))
                out.append(m.group(0))
                continue
            number = is_number(text)
            inside = [] if number else sentence_numbers(text, names)
            counts["numbers"] += number
            counts["in_sentences"] += len(inside)
            record = data.get(WHY_MIME)
            if record is None:
                if number:
                    missing.append((key, f"{text!r}에 유도가 없다"))
                missing += [(key, f"문장 {text!r}의 숫자 {text[a:b]!r}에 유도가 없다") for a, b in inside]
                out.append(m.group(0))
                continue
            counts["with"] += number
            if "parts" not in record:   # one record for the whole text (a number, or a label such as "T = 128")
                counts["in_sentences_with"] += len(inside)
                out.append(f'<span class="pasted-text">{button(m.group(1), record)}</span>')
                continue
            gaps = uncovered(text, record, names)
            counts["in_sentences_with"] += len(inside) - len(gaps)
            missing += [(key, f"문장 {text!r}의 숫자 {text[a:b]!r}에 유도가 없다") for a, b in gaps]
            pieces, at = [], 0
            for part in sorted(record["parts"], key=lambda p: p["at"]):
                start, end = part["at"], part["at"] + part["length"]
                pieces.append(html.escape(text[at:start], quote=False))
                pieces.append(button(html.escape(text[start:end], quote=False),
                                     {**part, "records": record["records"]}))
                at = end
            pieces.append(html.escape(text[at:], quote=False))
            out.append(f'<span class="pasted-text">{"".join(pieces)}</span>')
        elif "block" in data.get(WHY_MIME, {}):   # a text diagram (a code block): each number its button
            block = data[WHY_MIME]["block"]
            code = data.get("text/markdown", "").split("\n", 1)[-1].rsplit("\n```", 1)[0]
            m = _PRE.search(body, cursor)
            if m is None or html.unescape(m.group(2)).rstrip("\n") != code:
                missing.append((key, "그림 글자를 쪽에서 찾지 못했다"))
                continue
            pieces, at = [], 0
            for part in sorted(block["parts"], key=lambda p: p["at"]):
                start, end = part["at"], part["at"] + part["length"]
                pieces.append(html.escape(code[at:start], quote=False))
                pieces.append(button(html.escape(code[start:end], quote=False), {**part, "records": block["records"]}))
                at = end
            pieces.append(html.escape(code[at:], quote=False))
            counts["in_diagrams"] += len(block["parts"])
            out.append(body[cursor:m.start(2)] + "".join(pieces) + "\n")
            cursor = m.end(2)
        else:
            cells = table_cells(data.get("text/markdown", ""))
            # text → its cells' records in reading order: two cells that read the same ("6", "16 KiB") are two cases,
            # each keeps its own record (the n-th such cell of the table takes the n-th record)
            with_record: dict[str, list] = {}
            for c in data.get(WHY_MIME, {}).get("cells", []):
                with_record.setdefault(c["cell"], []).append(c)
            for cell in cells:
                if not is_number(cell):
                    continue
                counts["numbers"] += 1
                record = with_record[cell].pop(0) if with_record.get(cell) else None
                if record is None:
                    missing.append((key, f"표의 칸 {cell!r}에 유도가 없다"))
                    continue
                escaped = html.escape(cell, quote=False)
                m = re.compile(r"(<td[^>]*>\s*(?:<p>)?)" + re.escape(escaped) + r"((?:</p>)?\s*</td>)").search(body, cursor)
                if m is None:
                    missing.append((key, f"표의 칸 {cell!r}을 쪽에서 찾지 못했다"))
                    continue
                counts["with"] += 1
                out.append(body[cursor:m.start()])
                inner = sentence_buttons(cell, record) if "parts" in record else button(escaped, record)
                out.append(m.group(1) + inner + m.group(2))
                cursor = m.end()
    out.append(body[cursor:])
    return "".join(out), entries, missing, {**counts, "records": records}


_EXPLORER = re.compile(r'<div class="rl-explorer" id="([^"]+)"[^>]*>.*?<script type="application/json" class="rl-data">'
                       r'(.*?)</script>', re.S)


def _parts_cover(text: str, parts: list, entries: dict, names=()) -> bool:
    """A number-led text shown as a sentence ("48 / 64", "6개, 75.0%"): every part names an entry, and every number a
    reader reads in it is inside a part."""
    spans = [(at, at + n) for at, n, e in parts if e in entries]
    return bool(parts) and len(spans) == len(parts) and all(
        any(x <= a and b <= y for x, y in spans) for a, b in sentence_numbers(text, names))


def explorer_numbers(body: str, names=()) -> tuple[dict, list[tuple[str, str]], dict]:
    """Every explorer of a page: the numbers of its states (fields and table cells a reader reads as numbers, and
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
    """html-page-context: mark the page's glued numbers, write its records, and warn about every glued number
    without a derivation and every input that does not resolve."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    folder = getattr(getattr(app.env, "mystnb_config", None), "output_folder", None)
    body = context.get("body")
    if not folder or not body:
        return
    glue_path = Path(folder, *f"{pagename}.glue.json".split("/"))
    source_path = Path(app.srcdir, f"{pagename}.md")
    if not glue_path.is_file() or not source_path.is_file():
        return
    glue = {name: output.get("data", {}) for name, output in json.loads(glue_path.read_text(encoding="utf-8")).items()}
    source = source_path.read_text(encoding="utf-8")
    file = tomllib.loads(course_file(Path(app.srcdir)).read_text(encoding="utf-8"))
    body, entries, missing, counts = mark(body, source, glue, preset_names(file))
    records = counts.pop("records")
    in_explorers, explorer_missing, explorer_records = explorer_numbers(body, preset_names(file))
    cells = cell_names(source)
    bad = sorted(set(unresolved({**records, **explorer_records}, file, cells, source, bib_keys(Path(app.srcdir)))))
    coverage = app.env.__dict__.setdefault("rl_why_coverage", {})
    coverage[pagename] = {**counts, "missing": [f"{k}: {why}" for k, why in missing], "unresolved": bad,
                          "explorers": {**in_explorers, "missing": [f"{k}: {why}" for k, why in explorer_missing]}}
    for key, why in missing:
        logger.warning(f"{pagename}: glue {key!r}: {why} (roofline.show.why)")
    for uid, why in explorer_missing[:20]:
        logger.warning(f"{pagename}: 조건 탐색기 {uid}의 상태 {why}에 유도가 없다 (roofline.show.why)")
    if len(explorer_missing) > 20:
        logger.warning(f"{pagename}: 조건 탐색기의 유도 없는 값이 {len(explorer_missing) - 20}개 더 있다 (roofline.show.why)")
    for origin in bad:
        logger.warning(f"{pagename}: 입력의 출처 {origin!r}를 찾을 수 없다 (roofline.show.why)")
    if not entries:
        context["body"] = body
        return
    data = json.dumps({"g": entries, "r": records}, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    digest = hashlib.sha256(data.encode("utf-8")).hexdigest()[:12]
    name = f"{FOLDER}/{pagename.replace('/', '-')}.{digest}.json"
    target = Path(app.outdir, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists():
        target.write_text(data, encoding="utf-8")
    address = context["pathto"](name, 1)
    # the parameter cell: where a "cell:" input's link goes
    body = body.replace('<div class="cell tag_parameters', '<div id="rl-params" class="cell tag_parameters', 1)
    context["body"] = body + f'<div hidden data-rl-why="{html.escape(address)}"></div>'


def write_coverage(app, exception) -> None:
    """build-finished: the counts per page (glued numbers, with a derivation, missing, unresolved)."""
    coverage = getattr(app.env, "rl_why_coverage", None)
    if exception is None and coverage:
        path = Path(app.outdir).parent / "why-coverage.json"
        path.write_text(json.dumps(coverage, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")


def setup(app):
    app.connect("html-page-context", page_context, priority=900)   # before assets.page_assets (950)
    app.connect("build-finished", write_coverage)
