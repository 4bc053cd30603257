"""A derivation record is its content (roofline.show.why.record_id): in every pool, page and sentence no record id
names two contents, and every explorer state's chain cites only that state's own preset and dtype; every origin
resolves by its kind (derivations.origin_resolves) and every symbol has its Korean name. For this term,
the next one and a term drawn at random (its seed in the test's id and in each failure's message:
ROOFLINE_TERM_SEED=… redraws it)."""
from __future__ import annotations

import tomllib

import pytest

from conftest import CHAPTERS, LIVE_TOML, RANDOM, ROOT, TERMS, term_glued, term_path, term_seed
from coursebook import derivations as site_why
from roofline.show import pages
from roofline.show.why import WHY_MIME, record_id

TRIED = (*TERMS, RANDOM)
EXPLORER_PAGES = ["w4_2_roofline", "w4_4_tile_size", "w4_5_matmul", "week3_vector_add"]
PRESET_CONTROLS = ("hw", "gpu")   # the explorers' controls that choose a preset (②, ④); "dtype" chooses the dtype


def where(term: str) -> str:
    return f"term {term}" + (f" (ROOFLINE_TERM_SEED={term_seed()})" if term == RANDOM else "")


def glued_recs(stem: str, term: str) -> list[tuple[str, dict]]:
    """(glue name, id → record) of every glued text, sentence and table of chapter `stem` in `term`."""
    found = []
    for name, bundle in term_glued(stem, term_path(term)).items():
        record = bundle.get(WHY_MIME)
        if record is None:
            continue
        for one in record["cells"] if "cells" in record else [record["block"]] if "block" in record else [record]:
            found.append((name, one["records"]))
    return found


def explorers(stem: str, term: str) -> list[dict]:
    from coursebook.assets import explorer_data

    return explorer_data("".join(b.get("text/html", "") for b in term_glued(stem, term_path(term)).values()))


def assert_ids_are_contents(recs: dict, place: str) -> int:
    """Every id of `recs` is the digest of its record, and every derived input names a record of `recs`: an id can
    name one content only."""
    for key, r in recs.items():
        assert key == record_id(r), f"{place}: id {key} is not its content's ({r['symbol']} = {r['numbers']})"
        for x in r["inputs"]:
            if x["origin"].startswith("derived:"):
                assert x["origin"].removeprefix("derived:") in recs, f"{place}: {key} links a missing record"
    return len(recs)


@pytest.mark.parametrize("term", TRIED)
@pytest.mark.parametrize("stem", pages.names())
def test_no_record_id_names_two_contents_on_a_page(stem, term):
    """Each glued number's and sentence's records, and the page's records together (what the page's file holds)."""
    page: dict = {}
    for name, recs in glued_recs(stem, term):
        assert_ids_are_contents(recs, f"{stem} {name}, {where(term)}")
        for key, r in recs.items():
            assert page.setdefault(key, r) == r, f"{stem}: id {key} names two contents, {where(term)}"
    for data in explorers(stem, term):
        assert_ids_are_contents(data.get("why", {}).get("r", {}), f"{stem} explorer, {where(term)}")


def chain(key: str, recs: dict, found: set) -> set:
    """Every origin of record `key` and of the records it rests on (not the links themselves)."""
    r = recs[key]
    for origin in [x["origin"] for x in r["inputs"]] + ([r["origin"]] if "origin" in r else []):
        if origin.startswith("derived:"):
            chain(origin.removeprefix("derived:"), recs, found)
        else:
            found.add(origin)
    return found


def foreign(origins: set, preset: str, dtype: str) -> list[str]:
    """The origins that name a preset other than `preset` or a dtype other than `dtype` (a peak's dtype too)."""
    bad = []
    for origin in sorted(origins):
        if origin.startswith("toml:presets."):
            named = origin.split(".")
            if named[1] != preset or (len(named) == 4 and named[2] == "peak" and named[3] != dtype):
                bad.append(origin)
        elif origin.startswith("toml:dtypes.") and origin.split(".")[1] != dtype:
            bad.append(origin)
    return bad


def state_ids(state: dict) -> list[str]:
    """The entry ids a state's fields, sentences and table cells name."""
    out = []

    def add(found):
        out.extend(x[2] for x in found) if isinstance(found, list) else out.append(found) if found else None

    why = state.get("why", {})
    for found in why.get("fields", {}).values():
        add(found)
    for table in why.get("tables", {}).values():
        for row in table:
            for found in row:
                add(found)
    return out


@pytest.mark.parametrize("term", TRIED)
@pytest.mark.parametrize("stem", EXPLORER_PAGES)
def test_every_explorer_state_cites_its_own_preset_and_dtype(stem, term):
    """A state's preset is its control's ("hw" in ②, "gpu" in ④), else the chapter's; its dtype the "dtype"
    control's, else the chapter's. No number of the state has another preset's or dtype's key in its chain."""
    import roofline

    course = roofline.load(term_path(term))
    own = course.week3 if stem.startswith("week3") else course.week4   # the chapter's problem
    numbers, bad = 0, []
    for data in explorers(stem, term):
        pool = data.get("why", {"g": {}, "r": {}})
        for part in data["parts"]:
            for key, state in part["states"].items():
                chosen = dict(zip(part["on"], key.split("|"))) if part["on"] else {}
                preset = next((chosen[c] for c in PRESET_CONTROLS if c in chosen), own.hardware)
                dtype = chosen.get("dtype", own.dtype)
                for entry in state_ids(state):
                    numbers += 1
                    wrong = foreign(chain(pool["g"][entry]["of"], pool["r"], set()), preset, dtype)
                    if wrong:
                        bad.append(f"{key}: {pool['g'][entry]['shown']} ← {wrong[:2]}")
    print(f"{stem}, {where(term)}: {len(bad)} of {numbers} explorer numbers cite another preset or dtype")
    assert numbers and not bad, f"{where(term)}: {len(bad)} of {numbers}, e.g. {bad[:5]}"


@pytest.mark.parametrize("term", TRIED)
@pytest.mark.parametrize("stem", pages.names())
def test_every_origin_resolves_by_its_kind_and_every_symbol_is_named(stem, term):
    """A course.toml key is in the term's file, a parameter-cell variable in the chapter's cell, a code origin a call
    the chapter writes or a name a code cell sets, a measurement, simulation or search says its conditions, a
    citation names a key of references.bib and a place in it; each record and input has a name."""
    source = (CHAPTERS / f"{stem}.md").read_text(encoding="utf-8")
    file = tomllib.loads((term_path(term) or LIVE_TOML).read_text(encoding="utf-8"))
    cells, bib = site_why.cell_names(source), site_why.bib_keys(ROOT)
    every = [(name, recs) for name, recs in glued_recs(stem, term)]
    every += [("explorer", data.get("why", {}).get("r", {})) for data in explorers(stem, term)]
    kinds = set()
    for name, recs in every:
        bad = site_why.unresolved(recs, file, cells, source, bib)
        assert not bad, f"{stem} {name}, {where(term)}: {bad[:5]}"
        for r in recs.values():
            assert r["name"].strip() and all(x["name"].strip() for x in r["inputs"]), (stem, name, r["symbol"])
            kinds |= {o.partition(":")[0] for o in [x["origin"] for x in r["inputs"]] + [r.get("origin", "toml:")]}
    print(f"{stem}, {where(term)}: origin kinds {sorted(kinds)}")


def test_the_origin_kinds_refuse_what_they_cannot_resolve():
    """The rules themselves: a citation without a key of the bibliography or without a locator, free text as a
    citation, a measurement without its conditions, a code origin naming nothing the chapter writes."""
    source = "```{code-cell} ipython3\nn = 2**24\nglue_page(page.f(x))\n```\n"
    bib = {"dao2022flashattention"}
    ok = ["cite:dao2022flashattention, §2.1", "code:n = 16,777,216", "code:page.f(x)", "measured:달성 대역폭 (np.add)",
          "simulated:cachesim.simulate (N = 4)", "search:가장 큰 T_K (N = 4,096)", "quoted:흔히 인용되는 주장",
          "control:T", "derived:q-1"]
    bad = ["cite:cuda-guide, §1", "cite:dao2022flashattention", "cite:흔히 인용되는 주장 (H100)", "measured:잰 횟수",
           "code:m = 3", "code:page.g(x)", "search:가장 큰 T_K", "derived:q-2", "toml:week4.N", "cell:N", "guess:3"]
    assert all(site_why.origin_resolves(o, {"q-1": {}}, {}, set(), source, bib) for o in ok)
    assert not any(site_why.origin_resolves(o, {"q-1": {}}, {}, set(), source, bib) for o in bad)


@pytest.mark.parametrize("term", TRIED)
@pytest.mark.parametrize("stem", pages.names())
def test_a_formula_never_uses_one_symbol_for_two_values(stem, term):
    """A formula that reads x/x or max(x, x) (content-5 item 16): two inputs under one symbol with two values or two
    origins. Two cases of a quantity get two symbols (Q_Flash(2d)/Q_Flash(d))."""
    every = [(name, recs) for name, recs in glued_recs(stem, term)]
    every += [("explorer", data.get("why", {}).get("r", {})) for data in explorers(stem, term)]
    for name, recs in every:
        for r in recs.values():
            seen: dict = {}
            for x in r["inputs"]:
                seen.setdefault(x["symbol"], set()).add((x["value"], x["origin"]))
            twice = {k: v for k, v in seen.items() if len(v) > 1}
            assert not twice, f"{stem} {name}, {where(term)}: {r['symbol']} = {r['formula']} uses {twice}"


def test_the_precision_steps_mark_each_number_when_the_steps_differ():
    """A term whose GPU has unequal Tensor Core steps ("각각 0.3배, 15.5배", a preset added in FP16 stopped
    `make refresh` on it): each number of the sentence is a number with its record, as when the steps are equal."""
    from dataclasses import replace
    from fractions import Fraction

    import roofline
    from roofline.show.pages import w4_summary

    h100 = roofline.load().preset("H100_SXM")
    for fp8 in (h100.P("FP16") * 2, h100.P("FP16") * 31 // 2):   # steps 2.0배씩, then 2.0배 and 15.5배
        machine = replace(h100, peak={**h100.peak, "FP8": Fraction(fp8)})
        for key, text in w4_summary.precision_steps(machine).items():
            record = getattr(text, "why", None)   # the gate's rule (derivations.uncovered): each number is a part
            bare = [str(text)[a:b] for a, b in site_why.uncovered(str(text), record)]
            assert not bare, f"{key}: {bare} in {str(text)!r} have no derivation"
