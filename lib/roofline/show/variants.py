"""A variant of a page's exercises per student (issue 40): other sizes, dtypes and machines, drawn from the student's
identifier and the term, within the bounds the page module declares beside its `exercises(problem)`.

A page module with exercises declares `VARIANTS = Bounds("week4", axis, axis, …)`: which of the course's problems its
exercises take and the axes a variant may change, each a function of the term's problem giving the changes it allows
(`{"N": 2048}`, `{"hardware": "H100_SXM", "dtype": "FP16"}`: parameter-cell names, checked by `problem.with_`).
A variant is one combination of the axes: the same `exercises(problem)` of the changed problem, so it is judged,
hinted and mistake-named exactly like the base. Combinations that break a question (`ParameterError`), that change
nothing, or that give the same questions as another are left out; the first `LIMIT` of the rest are kept, in an
order the term fixes.

The identifier → variant mapping, the same here and in the page's script (_static/exercises.js):

    index = FNV-1a 32 over the UTF-8 bytes of (term + "\\n" + normal(identifier))  mod  len(variants)

with `normal` the one identifier rule (here, in the page's script, in the answer key and the grader): every BOM,
space and invisible separator dropped wherever it stands, full-width ASCII made ASCII, then NFC
(tests/show/identifiers.json holds the cases both languages are checked against).

where the term is a digest of the problem the page was built from (every parameter of the course file it reads,
and the catalog of dtypes and machines), so a new term draws new variants. A hash of an identifier is no model
quantity; the variants' questions and answers are all the library's (`Exercises.data()`), written at build time
into one JSON file per page (`page_file`, written by tools/coursebook/assets.py) that the page fetches only when a
student identifier is entered.
"""
from __future__ import annotations

import hashlib
import itertools
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from roofline.errors import ParameterError
from roofline.show import exercises as ex
from roofline.show import fmt

LIMIT = 48          # variants kept per page (a larger class shares a variant with one in LIMIT of the others)

LABELS = {"N": "N", "dtype": "자료형", "hardware": "하드웨어", "gpus": "비교할 GPU", "L": "벡터 길이 L",
          "capacity": "메모리 용량", "tiles": "타일 T", "small_N": "작은 예의 N"}


@dataclass(frozen=True)
class Bounds:
    problem: str                 # "week4" or "week3": the course's problem the page's exercises take
    axes: tuple = ()             # functions problem → tuple of change dicts

    def __init__(self, problem: str, *axes):
        object.__setattr__(self, "problem", problem)
        object.__setattr__(self, "axes", tuple(axes))

    def combinations(self, problem) -> list[dict]:
        out = []
        for parts in itertools.product(*(axis(problem) for axis in self.axes)):
            merged = {}
            for part in parts:
                merged.update(part)
            out.append(merged)
        return out


# ---------------------------------------------------------------- the axes pages use

def sides(problem) -> tuple[dict, ...]:
    """N halved, kept, one and a half times, doubled, three times (the tiles must divide it: `with_` checks)."""
    N = problem.N
    return tuple({"N": n} for n in dict.fromkeys((N // 2, N, 3 * N // 2, 2 * N, 3 * N)) if n >= 2)


def machines(problem) -> tuple[dict, ...]:
    """Every machine of the catalog with every dtype it has a peak for."""
    return tuple({"hardware": key, "dtype": d} for key, preset in problem.catalog.presets.items() for d in preset.peak)


def dtypes(problem) -> tuple[dict, ...]:
    """Every dtype of the catalog (the machine kept: for pages whose questions take no peak of it)."""
    return tuple({"dtype": d} for d in problem.catalog.dtypes)


def tile_sets(problem) -> tuple[dict, ...]:
    """The compared tiles, kept, a quarter, halved, doubled and four times as wide (each whole and at least 8;
    `with_` checks that they divide N)."""
    T = tuple(problem.tiles)
    scaled = (tuple(Fraction(x) * k for x in T) for k in (1, Fraction(1, 4), Fraction(1, 2), 2, 4))
    return tuple({"tiles": tuple(int(x) for x in t)} for t in dict.fromkeys(scaled)
                 if all(x.denominator == 1 and x >= 8 for x in t))


def small_examples(problem) -> tuple[dict, ...]:
    """③'s small example: its side kept, one to four tiles longer (its tile kept)."""
    n, t = problem.small_N, problem.small_T
    return tuple({"small_N": n + k * t} for k in range(5))


def gpus(problem) -> tuple[dict, ...]:
    """The compared real GPUs led by each GPU with SM limits (the others kept after it)."""
    with_sm = [k for k, p in problem.catalog.presets.items() if p.sm]
    return tuple({"gpus": (k, *[g for g in problem.gpus if g != k])} for k in with_sm)


def lengths(problem) -> tuple[dict, ...]:
    """The week-3 vector's length halved, kept, doubled, five times."""
    return tuple({"L": n} for n in (problem.L // 2, problem.L, 2 * problem.L, 5 * problem.L) if n >= 1)


def capacities(problem) -> tuple[dict, ...]:
    """The week-3 memory capacity kept, one and a half, two, two and a half, three and four times."""
    c = problem.capacity
    return tuple({"capacity": k} for k in dict.fromkeys((c, c * 3 // 2, 2 * c, c * 5 // 2, 3 * c, 4 * c)))


# ---------------------------------------------------------------- the term, the draw

def term(problem) -> str:
    """A digest of the term's problem: its every parameter and the catalog it was checked against."""
    return hashlib.sha256(f"{problem!r}\n{problem.catalog!r}".encode("utf-8")).hexdigest()[:12]


# what an identifier loses wherever it stands: spaces of every kind, the separators a spreadsheet or a paste leaves
# (U+001C–U+001F, NEL, line and paragraph separators), zero-width characters and the BOM (U+FEFF). Spelled out, not
# str.isspace() or JavaScript's \s: the two languages' classes differ (U+001C–U+001F, U+FEFF, U+180E).
DROPPED = ("\t\n\v\f\r \x1c\x1d\x1e\x1f\x85\xa0\u1680\u180e" + "".join(map(chr, range(0x2000, 0x200E)))
           + "\u2028\u2029\u202f\u205f\u2060\u3000\ufeff")
_RULE = {**{ord(c): None for c in DROPPED}, **{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}}


def normal(identifier) -> str:
    """The identifier a student means: DROPPED removed, full-width ASCII (U+FF01–U+FF5E: "２０２６") made ASCII,
    then NFC. The same as `normal` in _static/variants.js (tests/show/test_identifiers.py runs both)."""
    text = "" if identifier is None else str(identifier)
    return unicodedata.normalize("NFC", text.translate(_RULE))


def fnv1a(text: str) -> int:
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def index(term_digest: str, identifier, count: int) -> int:
    """The variant of `identifier` among `count` (term_digest is hexadecimal: the text hashed is already NFC)."""
    return fnv1a(term_digest + "\n" + normal(identifier)) % count


@dataclass(frozen=True)
class Variant:
    changes: tuple            # (cell name, value) pairs
    conditions: str           # the changes as the page shows them
    exercises: ex.Exercises


def _shown(problem, name, value) -> str:
    cat = problem.catalog
    if name == "hardware":
        return cat.presets[value].name
    if name == "gpus":
        return cat.presets[value[0]].name
    if name == "dtype":
        return ex.dtype_text(value, cat.bytes_per(value))
    if name == "capacity":
        return f"{fmt.integer(value)} Byte"
    if isinstance(value, (tuple, list)):
        return ", ".join(fmt.integer(v) for v in value)
    return fmt.integer(value) if isinstance(value, int) else str(value)


def conditions_text(problem, changes: dict) -> str:
    """"N = 2,048 · 자료형 FP16(원소 2 Byte) · 하드웨어 NVIDIA H100 SXM": the variant's conditions."""
    return " · ".join(f"{LABELS.get(name, name)} {'= ' if name in ('N', 'L') else ''}{_shown(problem, name, value)}"
                      for name, value in changes.items())


def _fingerprint(sheet: ex.Exercises) -> tuple:
    return tuple((q.key, q.text, str(q.value)) for q in sheet.questions)


def _all_new(sheet: ex.Exercises, base: ex.Exercises) -> bool:
    """Every numeric answer differs from the base one (a choice has few answers: it may repeat)."""
    return all(q.is_choice or Fraction(q.value) != Fraction(base.question(q.key).value) for q in sheet.questions)


_FOUND: dict[tuple[str, str], tuple] = {}   # (page module, term) → its variants: a pure function of the two


def variants(module, problem) -> tuple[Variant, ...]:
    """The page's variants for the term's `problem` (the page module's `VARIANTS`, its `exercises`): the first LIMIT
    valid combinations — each changes the questions, none gives the same questions as another — in an order the term
    fixes (`_order`: a shuffle by the term's digest, so that the variants spread over every axis and a new term
    draws others). Computed once per page and term in a process (the build writes the page's file, the answer key
    draws every student)."""
    key = (module.__name__, term(problem))
    if key not in _FOUND:
        _FOUND[key] = _variants(module, problem)
    return _FOUND[key]


def _order(problem, combinations: list[dict]) -> list[dict]:
    """The combinations shuffled by the term: sorted by the sha-256 of the term's digest and the combination."""
    digest = term(problem)

    def rank(changes: dict) -> bytes:
        return hashlib.sha256(f"{digest}\n{sorted(changes.items())!r}".encode()).digest()

    return sorted(combinations, key=rank)


def _variants(module, problem) -> tuple[Variant, ...]:
    bounds: Bounds = module.VARIANTS
    base_sheet = module.exercises(problem)
    base = _fingerprint(base_sheet)
    seen, found = {base}, []
    for changes in _order(problem, bounds.combinations(problem)):
        if len(found) == LIMIT:
            break
        try:
            sheet = module.exercises(problem.with_(**changes))
        except (ParameterError, ValueError, ZeroDivisionError, StopIteration, KeyError):
            continue
        mark = _fingerprint(sheet)
        if mark in seen or not _all_new(sheet, base_sheet):
            continue
        seen.add(mark)
        shown = {k: v for k, v in changes.items() if getattr_cell(problem, k) != v}
        found.append(Variant(tuple(changes.items()), conditions_text(problem, shown), sheet))
    return tuple(found)


def getattr_cell(problem, name):
    from roofline.params import cell_fields
    return cell_fields(problem.TABLE)[name].of(problem)


def draw(module, problem, identifier, found=None) -> Variant:
    found = variants(module, problem) if found is None else found
    return found[index(term(problem), identifier, len(found))]


def page_file(module, problem) -> dict:
    """What the page fetches when a student identifier is entered: the term, and per variant its conditions, its
    questions as the page's script judges them (`Exercises.data()`), with each question's text, and the messages of
    its mistakes (the questions name them by index: a variant keeps, and so numbers, its own); a choice question also
    has its choices' labels, which can name the variant's numbers ("정확히 1/3이 된다")."""
    out = []
    for v in variants(module, problem):
        data = v.exercises.data()
        for q in v.exercises.questions:
            data["questions"][q.key]["ask"] = q.ask
            if q.is_choice:
                data["questions"][q.key]["choices"] = [list(c) for c in q.choices]
        out.append({"conditions": v.conditions, "questions": data["questions"], "mistakes": data["mistakes"]})
    return {"term": term(problem), "variants": out}
