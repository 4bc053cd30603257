"""The off-chip memory is called by its name (issues 54 and 55), on every page and in every explorer state and
variant, this term, the next and a random one.

The rule: where the page speaks of one GPU preset, the memory beside that preset's numbers is the preset's own
(`course.toml`'s `memory`, as `roofline.show.exercises.memory_name` says it: "HBM" for every HBM generation, GDDR6,
GDDR6X); where it speaks of GPUs in general, the word is DRAM (the glossary's, and Nsight Compute's). So a text that
shows a preset's numbers names no memory but its presets' and DRAM: never "HBM" beside an RTX A6000 or an L4.

What a text is about is read from the text itself: the presets whose keys its numbers come from (a record's origin
`toml:presets.KEY.…`), and for a variant's question the machine it states. Words are read from what the reader sees
(the glued text, table, explorer state, a panel's names and formulas; tests/golden_values.py's `readable`), with the
origins themselves left out (a cited locator quotes its source: the FlashAttention paper's "HBM R/W").
"""
from __future__ import annotations

import json
import re

import pytest

from conftest import live_glued
from golden_values import DATA, readable, resolved
from roofline.show import exercises as ex
from roofline.show import pages

BOTH_TERMS = True
RANDOM_TERM = True

MEMORY = re.compile(r"(?<![A-Za-z])(HBM(?:\d[a-z]?)?|GDDR\d*X?)(?![A-Za-z0-9])")   # a kind of memory named (DRAM, the generic word, always fits)
PRESET = re.compile(r"toml:presets\.(\w+)\.")
ORIGIN = re.compile(r"←[^\n]*")                           # a record's origin: where a value comes from, not what it says


def wrong_names(text: str, catalog) -> list[str]:
    """The memory words in `text` (origins left out) that are not the memory of a preset its numbers come from."""
    keys = set(PRESET.findall(text)) & set(catalog.presets)
    if not keys:
        return []                                           # not about a preset: nothing to hold it to
    allowed = {name for k in keys for name in (ex.memory_name(catalog.presets[k]), catalog.presets[k].memory)}
    wrong = {w for w in MEMORY.findall(ORIGIN.sub("", text)) if w not in allowed}
    return [f"{w} (presets {', '.join(sorted(keys))}: {', '.join(sorted(allowed))})" for w in sorted(wrong)]


def dump(value) -> str:
    """`value` as text, one key or scalar a line, a string's line breaks kept (what ORIGIN cuts ends with its line):
    JSON, not YAML, which took half this module's time (YAML writes a shared object once, as an alias, and a string
    with a line break as one escaped line: this text holds every word YAML's did, and a few more)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=0).replace("\\n", "\n")


def shown_texts(bundle: dict):
    """(where, text) for one glued value: the value as the reader sees it, and each state of an explorer in it on its
    own (its fields, prediction and derivations), since each state is of one preset."""
    shown = readable(bundle)
    shown.pop("explorer", None)
    yield "", dump(shown)
    for kind, data in DATA.findall(bundle.get("text/html", "")):
        if kind != "rl-data":
            continue
        data = json.loads(data)
        pool = data.get("why", {})
        for part in data["parts"]:
            for key, state in part["states"].items():
                yield f" state {key}", dump(resolved(state, pool, set()))


@pytest.mark.parametrize("stem", pages.names())
def test_every_text_that_shows_a_presets_numbers_names_its_memory(course, stem):
    glued = live_glued(stem)   # (the term of this test's `course`: conftest.glued_term)
    found: dict[str, list[str]] = {}   # what is wrong → where (a key, or a key's explorer states)
    for key, bundle in sorted(glued.items()):
        for where, text in shown_texts(bundle):
            for wrong in wrong_names(text, course.catalog):
                found.setdefault(f"{stem}:{key}: {wrong}", []).append(where)
    assert not found, "\n".join(f"{what}{' in' + places[0] if places[0] else ''}"
                                 f"{f' and {len(places) - 1} more' if len(places) > 1 else ''}"
                                 for what, places in found.items())


def test_every_variants_questions_name_their_machines_memory(course):
    """Each question of every variant of every page: the text a student reads (the question, its choices, its
    solution steps and hints) names no memory but that of the machine it states."""
    import importlib

    from exercise_answers import PAGES, PROBLEM
    from roofline.show import variants as V

    found = []
    for label in PAGES:
        module = importlib.import_module(PAGES[label].__defaults__[0].__module__)
        problem = getattr(course, PROBLEM[label])
        for v in V.variants(module, problem):
            for q in v.exercises.questions:
                machine = dict(q.given).get("hardware") or q.params.get("hardware") or q.params.get("machine")
                if machine not in course.catalog.presets:
                    continue
                memory = ex.memory_name(course.catalog.presets[machine])
                text = " ".join([q.text, *(label for _, label in q.choices), *(s.text for s in q.steps), q.hint,
                                 *(m.hint for m in q.mistakes)])
                found += [f"{label} {q.key} ({machine}, {memory}): {w}" for w in set(MEMORY.findall(text))
                          if w not in (memory, course.catalog.presets[machine].memory)]
    assert not found, "\n".join(sorted(found)[:30])
