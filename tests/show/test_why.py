"""Why this number? (roofline.derive, roofline.show.why, tools/coursebook/derivations.py): every glued number's derivation,
re-evaluated here with a small evaluator of this test's own (Fraction, not the library), its course.toml inputs
equal to the file, for this term and the next; every glued number of every page has one (counts printed)."""
from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import CHAPTERS, LIVE_TOML
from coursebook import derivations as site_why
from notation import evaluate
from roofline.derive import bare_slash
from roofline.show import pages
from roofline.show.why import WHY_MIME
from roofline.show.why import parts as why_parts

BOTH_TERMS = True
RANDOM_TERM = True   # and a random term, and issue 36's: a sentence only some terms write has its records

# ---------------------------------------------------------------- the evaluator (tests/notation.py, the tests' one)


def test_the_evaluator_is_right():
    assert evaluate("2·4·4,096³/32 + 4·4,096²") == 2 * 4 * 4096**3 // 32 + 4 * 4096**2
    assert evaluate("max(1/(3·4), 2 − 1)") == 1
    assert evaluate("⌊64/⌈300/32⌉⌋ + ⌈7/2⌉·2") == 64 // 10 + 8
    assert evaluate("(2,048/3) / (16/3)") == 128
    assert evaluate("⌈4,096/(4·128)⌉ + ⌊7/2⌋") == 11
    assert evaluate("max(6.5 ms, 1,234.25 ms)") == Fraction("1234.25")
    assert evaluate("137,438,953,472 / (989.4 × 10¹²)") == Fraction(137438953472) / (Fraction("989.4") * 10**12)
    assert evaluate("2·10⁻³") == Fraction(2, 1000)


# ---------------------------------------------------------------- the records of every page, for this term and the next

def glued_records(stem: str, course) -> list[tuple[str, dict]]:
    """(glue name, record) of every glued text and table cell of chapter `stem` that carries its derivation."""
    from conftest import term_glued

    found = []
    for name, bundle in term_glued(stem, _path_of(course)).items():
        record = bundle.get(WHY_MIME)
        if record is None:
            continue
        found += [(name, c) for c in ([p for cell in record["cells"] for p in why_parts(cell)] if "cells" in record else
                                      why_parts(record["block"]) if "block" in record else why_parts(record))]
    return found


def _path_of(course):
    """The term's parameter file as term_glued takes it (None: the live one): the file the course fixture read
    (`Course.path`; finding the term by loading every term's file again took a third of this module's time)."""
    path = Path(course.path)
    return None if path.resolve() == LIVE_TOML.resolve() else path


def _file(course) -> dict:
    path = _path_of(course) or LIVE_TOML
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _shown_number(shown: str) -> Fraction:
    m = re.match(r"[−-]?[\d,]+(?:\.\d+)?(?:/\d+)?", shown.strip())
    assert m, shown
    return Fraction(m.group(0).replace(",", "").replace("−", "-"))


def _rounded(x: Fraction, digits: int) -> Fraction:
    scale = 10**digits
    magnitude = (abs(x) * scale + Fraction(1, 2)).__floor__()
    return Fraction(magnitude if x >= 0 else -magnitude, scale)


def check_records(recs: dict, where) -> int:
    """Every record of `recs` (id → record): its formula with the values put in evaluates to its exact value, and
    an input that links a record has that record's value. Returns how many were evaluated."""
    checked = 0
    for key, r in recs.items():
        if r.get("root") or r.get("list"):   # √x: not evaluable (its input x is); a list: checked against the file
            continue
        exact = Fraction(r["exact"].replace(",", ""))
        assert evaluate(r["numbers"]) == exact, f"{where} {key}: {r['numbers']} ≠ {r['exact']}"
        for x in r["inputs"]:
            if x["origin"].startswith("derived:"):
                assert recs[x["origin"].removeprefix("derived:")]["exact"] == x["value"], (where, key, x)
        checked += 1
    return checked


def check_shown(entry: dict, recs: dict, where) -> None:
    """The shown text of a number is its record's exact value, scaled and rounded as the entry says."""
    top = recs[entry["of"]]
    if top.get("list"):
        return
    if top.get("root"):   # a root rounded to `digits`: the shown value squared brackets x
        x, half = _shown_number(entry["shown"]), Fraction(1, 2 * 10 ** entry["digits"])
        inner = Fraction(top["inputs"][0]["value"].replace(",", ""))
        assert (x - half) ** 2 <= inner < (x + half) ** 2, f"{where}: √{inner} shown {entry['shown']!r}"
        return
    scaled = Fraction(top["exact"].replace(",", "")) * Fraction(entry["scale"].replace(",", ""))
    want = scaled if entry["digits"] is None else _rounded(scaled, entry["digits"])
    assert _shown_number(entry["shown"]) == want, f"{where}: shown {entry['shown']!r}, exact {top['exact']}"


def check_toml_inputs(recs: dict, file: dict, where) -> None:
    """Every input whose origin is a course.toml key equals that key's value in `file`."""
    for r in recs.values():
        items = [(x["origin"], x["value"], x["symbol"]) for x in r["inputs"]]
        items += [(r["origin"], r["exact"], r["symbol"])] if "origin" in r else []
        for origin, value, symbol in items:
            if not origin.startswith("toml:"):
                continue
            raw = site_why.toml_value(file, origin.removeprefix("toml:"))
            if r.get("list"):
                assert [Fraction(v.replace(",", "")) for v in value.split(", ")] == [Fraction(str(v)) for v in raw]
                continue
            value = Fraction(value.replace(",", ""))
            if symbol == "len(tiles)":
                assert len(raw) == value, (where, origin, value, raw)
            elif isinstance(raw, list):   # a list (or a list of pairs: the blocks [B_r, B_c])
                flat = [x for v in raw for x in (v if isinstance(v, list) else [v])]
                assert value in [Fraction(str(v)) for v in flat], (where, origin, value, raw)
            else:
                assert Fraction(str(raw)) == value, (where, origin, value, raw)


@pytest.mark.parametrize("stem", pages.names())
def test_every_derivation_evaluates_to_the_shown_value(stem, course):
    checked = 0
    for name, record in glued_records(stem, course):
        checked += check_records(record["records"], f"{stem} {name}")
        check_shown(record, record["records"], f"{stem} {name}")
    print(f"{stem}: {checked} derivations re-evaluated")


@pytest.mark.parametrize("stem", pages.names())
def test_course_toml_inputs_equal_the_file(stem, course):
    file = _file(course)
    for name, record in glued_records(stem, course):
        check_toml_inputs(record["records"], file, f"{stem} {name}")


# ---------------------------------------------------------------- explorers' states and the live mode's results

def explorers(stem: str, course) -> list[dict]:
    """The data of every explorer chapter `stem` glues (run in-process), its states' records in `why`."""
    from conftest import term_glued
    from coursebook.assets import explorer_data

    html = "".join(b.get("text/html", "") for b in term_glued(stem, _path_of(course)).values())
    return explorer_data(html)


EXPLORER_PAGES = ["w4_2_roofline", "w4_4_tile_size", "w4_5_matmul", "week3_vector_add"]


@pytest.mark.parametrize("stem", EXPLORER_PAGES)
def test_every_number_of_an_explorers_states_has_its_derivation(stem, course):
    """Every state an explorer's controls reach: each field and table cell a reader reads as a number names an
    entry of the explorer's records (the gate's rule, `derivations.explorer_numbers`); the entries' shown texts are
    their records' values as rounded; every record re-evaluates; a course.toml input equals the file (so a value a
    control changed is never called the file's); the records only name origins the page can show."""
    from coursebook.assets import _script_json

    found = explorers(stem, course)
    assert found, f"{stem} glues no explorer"
    file = _file(course)
    body = "".join(f'<div class="rl-explorer" id="x"><script type="application/json" class="rl-data">{_script_json(d)}'
                   "</script></div>" for d in found)
    counts, missing, _ = site_why.explorer_numbers(body, site_why.preset_names(file))
    assert not missing, missing[:10]
    checked = 0
    for data in found:
        pool = data.get("why", {"g": {}, "r": {}})
        checked += check_records(pool["r"], stem)
        for key, entry in pool["g"].items():
            check_shown(entry, pool["r"], f"{stem} {key}")
        check_toml_inputs(pool["r"], file, stem)
        kinds = {o.partition(":")[0] for r in pool["r"].values()
                 for o in [x["origin"] for x in r["inputs"]] + ([r["origin"]] if "origin" in r else [])}
        assert kinds <= {"toml", "derived", "control", "cite"}, kinds
    print(f"{stem}: {counts['with']} of {counts['numbers']} explorer numbers with a derivation, {checked} records re-evaluated")
    assert counts["numbers"] > 0


@pytest.mark.parametrize("stem", EXPLORER_PAGES)
def test_the_live_modes_panel_shows_the_typed_values(stem, course):
    """The live mode's result (engine.live, what the page's Python returns) carries the records of its numbers:
    they re-evaluate, and a value the reader typed is named as typed, with the typed value put in."""
    import json

    from roofline.show import engine

    for data in explorers(stem, course):
        if "live" not in data:
            continue
        form = data["live"]
        values = {name: value for name, _, value in form["fields"]}
        for name in ("N", "L"):   # the reader types another size: twice the chapter's
            if name in values:
                values[name] = str(2 * int(values[name].replace("_", "")))
                break
        result = json.loads(engine.live(form["page"], json.dumps(values), course))
        assert "state" in result, result
        pool = result["why"]
        assert pool["g"] and check_records(pool["r"], form["page"])
        for entry in pool["g"].values():
            check_shown(entry, pool["r"], form["page"])
        def entries(found):   # an entry's id, or a sentence's [[at, length, id], …]
            return [x[2] for x in found] if isinstance(found, list) else [found] if found else []

        ids = {i for found in result["state"]["why"].get("fields", {}).values() for i in entries(found)}
        ids |= {i for table in result["state"]["why"].get("tables", {}).values() for row in table for c in row
                for i in entries(c)}
        assert ids <= set(pool["g"])
        for name in ("N", "L"):   # every input of that symbol is the typed value, named as typed
            uses = {(x["origin"], x["value"]) for r in pool["r"].values() for x in r["inputs"] if x["symbol"] == name}
            if name in values and uses:
                assert uses == {(f"typed:{name}", f"{int(values[name]):,}")}, (form["page"], uses)
        assert not any(x["origin"].startswith("cell:") for r in pool["r"].values() for x in r["inputs"])


@pytest.mark.parametrize("stem", pages.names())
def test_every_glued_number_of_a_page_has_its_derivation(stem, course):
    """The gate's one rule (`derivations.gate`, which the site's glue roles and `make refresh`'s dry run read), on the
    chapter run in-process for every term tried (this, the next, a random one): every glued number, number inside a
    glued sentence, number cell of a glued table and number in a table cell's or pasted Markdown's words is one
    `why.*` made (a derivation, or a label or a name: `why.label`, `why.name`), and every label's origin resolves by
    its kind (a name by `is_name`). Prints the numbers `why.*` made and the labels."""
    from conftest import term_glued

    glued = term_glued(stem, _path_of(course))
    source = (CHAPTERS / f"{stem}.md").read_text(encoding="utf-8")
    names = site_why.preset_names(_file(course))
    file, bib = _file(course), site_why.bib_keys(CHAPTERS.parent)
    marked, missing, labels, measured = 0, [], [], set()
    for kind, key in site_why.uses(source):
        if key not in glued:   # a cell that measures this machine is not run in-process: the build's gate checks it
            measured.add(key)
            continue
        bundle = {**glued[key], "text/plain": repr(glued[key].get("text/plain", ""))}   # as glue stores it
        count, _, _, labelled = site_why.gate(kind, bundle, names)
        marked += count
        missing += [f"{key}: {gap}" for gap in site_why.refused(kind, bundle, names)]
        labels += [(key, text, origin, site_why.carried(bundle)) for text, origin in labelled]
    bad = [(key, text, origin) for key, text, origin, recs in labels if not (
        site_why.is_name(text, origin) if origin.startswith("name:")
        else site_why.origin_resolves(origin, recs, file, site_why.cell_names(source), source, bib))]
    print(f"{stem}: {marked} numbers made by why.* (measured, left to the build: {len(measured)}); "
          f"{len(labels)} labels and names")
    assert not missing and marked > 0, missing
    assert not bad, bad


def test_the_gate_names_a_number_no_why_made():
    """The rule on made-up values: a number, a sentence's number, a table's number cell that no `why.*` made are
    named; the parts a record names are counted as made."""
    from roofline.derive import var
    from roofline.show import why

    src = {"N": "toml:week4.N"}
    n = why.integer(var("N", 4096), src)
    sentence = why.sentence("N = ", n, ", 15.5배")
    glued = {"text/plain": repr(str(sentence)), WHY_MIME: sentence.why}
    assert site_why.gate("text", glued, ()) == (1, ["문장 'N = 4,096, 15.5배'의 숫자 '15.5'"], [], [])
    assert site_why.gate("text", {"text/plain": repr("4,096")}, ()) == (0, ["'4,096'"], [], [])
    table = {"text/markdown": "| a | b |\n| -- | -- |\n| 4,096 | T = 32 |\n| 2 | x |",
             WHY_MIME: {"cells": [{"cell": "4,096", "row": 0, "column": 0, **n.why}]}}
    assert site_why.gate("md", table, ()) == (1, ["표의 칸 '2'"], ["표의 칸 'T = 32'의 숫자 '32'"], [])
    assert site_why.refused("md", table, ()) == ["표의 칸 '2'", "표의 칸 'T = 32'의 숫자 '32'"]   # both stop the build
    assert [found is not None for _, found in site_why.pieces(str(sentence), sentence.why)] == [False, True, False]


def test_a_label_and_a_name_are_made_by_why_and_checked():
    """A row's label ("T = 32": `why.label`, its origin checked, no button) and a name with digits ("GPT-2":
    `why.name`) are made by why.*, so the gate passes them; a number is never a name, and a number in a cell's words
    that neither made is refused."""
    from roofline.show import tables, why

    row = why.sentence("T\xa0=\xa0", why.label(32, "toml:week4.tiles"), ", ", why.name("GPT-2"), " 규모")
    assert str(row) == "T\xa0=\xa032, GPT-2 규모" and row.why["parts"] == []
    assert site_why.labels(str(row), row.why) == [("32", "toml:week4.tiles"), ("GPT-2", "name:GPT-2")]
    assert [found for _, found in site_why.pieces(str(row), row.why)] == [None]   # no button
    table = tables.markdown(["경우", "값"], [[row, "최대 7.6배"]])
    bundle = {"text/markdown": table.data, WHY_MIME: {"cells": table.why_cells}}
    assert site_why.gate("md", bundle, ()) == (0, [], ["표의 칸 '최대 7.6배'의 숫자 '7.6'"],
                                               [("32", "toml:week4.tiles"), ("GPT-2", "name:GPT-2")])
    assert site_why.origin_resolves("toml:week4.tiles", {}, tomllib.loads(LIVE_TOML.read_text()), set(), "", set())
    for number in ("7.6배", "2 FLOPs", "최대 225 TFLOPs/s", "32"):
        with pytest.raises(ValueError):
            why.name(number)
        assert not site_why.is_name(number, f"name:{number}")
    with pytest.raises(ValueError):
        why.label("T = 32", "toml:week4.tiles")   # a label is a number: its words go around it
    forged = {"text/plain": repr("최대 7.6배"), WHY_MIME: {"parts": [], "records": {},
                                                         "labels": [{"at": 0, "length": 8, "origin": "name:최대 7.6배"}]}}
    assert site_why.refused("text", forged, ()) == ["이름 '최대 7.6배'"]


@pytest.mark.parametrize("stem", pages.names())
def test_a_code_cell_choice_names_a_call_the_chapter_makes(stem, course):
    """A display choice shown as a number (⑤'s decimals) has the origin `code:<call>`; the gate resolves it in the
    chapter's source, and so does this test, for the term in force."""
    source = (CHAPTERS / f"{stem}.md").read_text(encoding="utf-8")
    calls = [r["origin"] for _, record in glued_records(stem, course)
             for r in record["records"].values() if r.get("origin", "").startswith("code:")]
    assert all(site_why.origin_resolves(call, {}, {}, set(), source, set()) for call in calls), calls
    if stem == "w4_5_matmul":
        assert calls, "⑤'s table decimals are a code cell's choice"


def _all_records(stem: str, course) -> dict:
    """Every record chapter `stem` shows: its glued numbers' and its explorers' states' (id → record)."""
    recs = {}
    for _, record in glued_records(stem, course):
        recs.update(record["records"])
    if stem in EXPLORER_PAGES:
        for data in explorers(stem, course):
            recs.update(data.get("why", {"r": {}})["r"])
    return recs


def _base(symbol: str) -> str:
    """The quantity a symbol names, without its case or qualifier: Q(T = 64) → Q, N_k → N, t_FP32 → t; P' stays P'."""
    return re.split(r"[(_]", symbol, maxsplit=1)[0].strip()


@pytest.mark.parametrize("stem", pages.names())
def test_an_input_links_a_record_of_its_own_quantity(stem, course):
    """A formula's input is the quantity its linked record derives (content-5 item 16, issue 54: distinct symbols for
    two cases): "t_compute = F / P" never links P to "P' = factor·P" (40 TFLOPs/s beside the page's P = 20); the
    formula writes F / P'. A case or qualifier of the same quantity is the same (Q(T = 64), N_k, t_FP32 → t_ideal)."""
    recs = _all_records(stem, course)
    wrong = [(r["symbol"], r["formula"], x["symbol"], recs[x["origin"][8:]]["symbol"]) for r in recs.values()
             for x in r["inputs"] if x["origin"].startswith("derived:")
             and _base(x["symbol"]) != _base(recs[x["origin"][8:]]["symbol"])]
    assert not wrong, wrong[:5]


# a formula's own constants: small counts (2·s, ⌈…/4⌉), FFN's 16·d², the figure's 16·T, 3,600 s in an hour
FORMULA_CONSTANTS = {16, 3600}


@pytest.mark.parametrize("stem", pages.names())
def test_a_formula_writes_no_count_the_model_found(stem, course):
    """A number inside a formula is one of the model's constants; a count the model found by trying (flashattention's
    "B_c,맞춤 = align·13": 13 align-wide pieces fit the SRAM) is an input, with its search and conditions as origin."""
    found = []
    for r in _all_records(stem, course).values():
        formula = r["formula"]
        for symbol in sorted({x["symbol"] for x in r["inputs"]} | {r["symbol"]}, key=len, reverse=True):
            formula = formula.replace(symbol, " ")
        found += [(r["symbol"], r["formula"]) for n in re.findall(r"\d[\d,]*", formula)
                  if int(n.replace(",", "")) > 8 and int(n.replace(",", "")) not in FORMULA_CONSTANTS]
    assert not found, found[:5]
    if stem == "flashattention":
        fitted = [r for r in _all_records(stem, course).values() if r["symbol"] == "B_c,맞춤"]
        assert fitted and all(x["origin"].startswith("search:") for r in fitted for x in r["inputs"]
                              if x["symbol"] == "k_align"), fitted[:1]


@pytest.mark.parametrize("stem", pages.names())
def test_no_truncated_root_is_called_exact(stem, course):
    """A value with a square root in it (measured's ρ) is shown as √ of its exact square, never as its 12-digit
    truncation under "정확한 값" (186,445,447,147/200,000,000,000)."""
    truncated = [(r["symbol"], r["exact"]) for r in _all_records(stem, course).values()
                 if not r.get("root") and not r.get("list")
                 and 10**12 % (d := Fraction(r["exact"].replace(",", "")).denominator) == 0 and d >= 10**11]
    assert not truncated, truncated[:3]
    recs = _all_records(stem, course)   # and its input ρ² shows its origin, not a link "유도 보기: ρ² = ρ²"
    assert not [x["symbol"] for r in recs.values() for x in r["inputs"]
                if x["origin"].startswith("derived:") and "origin" in recs[x["origin"][8:]]]


def test_a_code_cells_call_is_said_to_give_its_value_not_to_choose_it():
    """A rank or ρ a code cell's call computes is "이 호출로 얻은 값", never "정한 값" (which "name = value" and a
    call's chosen argument "digits=6" are)."""
    from roofline.show import why

    assert why.origin_text("code:page.ladder_section(note)", {}) == \
        "이 노트북의 코드 셀이 이 호출로 얻은 값: page.ladder_section(note)"
    assert "정한 값" in why.origin_text("code:factor = 2", {})
    assert "정한 값" in why.origin_text("code:page.time_section(w4, digits=6)", {})   # a call's chosen argument


def test_a_parameter_cell_value_is_named_as_the_cell(course):
    from roofline import kernels
    from roofline.show import why

    w4 = course.week4.with_(N=course.week4.N * 2, tiles=course.week4.tiles)
    src = why.sources(w4)
    assert src["N"] == "cell:N" and src["T"] == "toml:week4.tiles"
    record = why.decimal(kernels.matmul_no_reuse(w4.N, w4.s, w4.s).derivation("I"), 6, src).why
    inputs = {x["symbol"]: x["origin"] for r in record["records"].values() for x in r["inputs"]}
    assert inputs["N"] == "cell:N" and inputs["s"] == f"toml:dtypes.{w4.dtype}"


def test_why_in_a_notebook_prints_the_glued_numbers_derivation(course, capsys):
    """Colab, Jupyter: `why(name)` after the chapter's glue prints the record the page's panel shows."""
    from roofline.show.glue import glue
    from roofline.show.pages import w4_1_intensity as page
    from roofline.show.why import why

    value = page.four_ways(course.week4, course.week4.tiles[0])["I0"]
    glue("I0", value)
    capsys.readouterr()
    why("I0")
    printed = capsys.readouterr().out
    top = value.why["records"][value.why["of"]]
    assert top["formula"] in printed and top["numbers"] in printed and str(value) in printed
    assert all(x["value"] in printed for r in value.why["records"].values() for x in r["inputs"])
    why("no-such-name")
    assert "I0" in capsys.readouterr().out   # names what it knows


@pytest.mark.parametrize("stem", pages.names())
def test_a_ratio_symbol_is_bracketed_where_it_is_divided_or_multiplied(stem, course):
    """A formula reads as it is computed: an input whose symbol is a ratio stands in brackets beside "/" or "·"
    (week 3's I = (F/L) / (Q/L), never "F/L / Q/L", read as ((F/L)/Q)/L: a fresh read of the panels, issue 54)."""
    bare = []
    for r in _all_records(stem, course).values():
        formula = r["formula"]
        for symbol in {x["symbol"] for x in r["inputs"]} - {formula}:
            at = formula.find(symbol)
            while bare_slash(symbol) and at >= 0:   # a ratio ("F/L"; not "t·(N_큰/N)³")
                before, after = formula[:at].rstrip()[-1:], formula[at + len(symbol):].lstrip()[:1]
                if not (before == "(" and after == ")") and (before in ("/", "·") or after in ("/", "·")):
                    bare.append((r["symbol"], formula))
                at = formula.find(symbol, at + 1)
    assert not bare, bare[:5]
