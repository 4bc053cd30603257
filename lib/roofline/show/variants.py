"""A variant of a page's exercises per student (issue 40): other sizes, dtypes and machines, drawn from the student's
identifier and the term, within the bounds the page module declares beside its `exercises(problem)`.

A page module with exercises declares `VARIANTS = Bounds("week4", axis, axis, …)`: which of the course's problems its
exercises take and the axes a variant may change, each a function of the term's problem giving the changes it allows
(`{"N": 2048}`, `{"hardware": "H100_SXM", "dtype": "FP16"}`: parameter-cell names, checked by `problem.with_`).
A variant is one combination of the axes: the same `exercises(problem)` of the changed problem, so it is judged,
hinted and mistake-named exactly like the base. Combinations that break a question (`ParameterError`), that change
nothing, that give the same questions as another, or whose questions break a rule the pages teach (`RULES`: a
stored type, the unit of the dtype, the peak of the units that run the kernel, a tile that fits the machine named,
the memory by its name) are left out; the first `LIMIT` of the rest are kept, in an order the term fixes. What a
variant shows as "바뀐 조건" are the conditions its questions state (`Question.given`) that differ from the base's.

The identifier → variant mapping, the same here and in the page's script (_static/variants.js):

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
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from roofline.errors import ParameterError
from roofline.show import exercises as ex
from roofline.show import fmt, ko

LIMIT = 48          # variants kept per page (a larger class shares a variant with one in LIMIT of the others)

# a question's conditions (`Question.given`) as "바뀐 조건" names them, in this order; the rest (s: the dtype says it,
# the kernel) are not conditions a student sets
LABELS = {"hardware": "하드웨어", "P": "P", "BW": "BW", "N": "N", "n": "n", "L": "L", "T": "T", "T_a": "처음 T",
          "T_b": "키운 T", "T_M": "T_M", "T_N": "T_N", "T_K": "T_K", "dtype": "자료형", "dtype_in": "입력 자료형",
          "dtype_out": "출력 자료형", "capacity": "메모리 용량", "f": "원소당 FLOPs"}


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
    """The week-3 memory capacity kept, one and a half, two, two and a half, three, four, five and six times (its
    question's only other condition, the element size, stays: a vector add's dtype is the one its CUDA cores run)."""
    c = problem.capacity
    return tuple({"capacity": k} for k in dict.fromkeys((c, c * 3 // 2, 2 * c, c * 5 // 2, 3 * c, 4 * c, 5 * c, 6 * c)))


# ---------------------------------------------------------------- the term, the draw

def term(problem) -> str:
    """A digest of the term's problem: its every parameter and the catalog it was checked against."""
    kept = _TERMS.get(id(problem))
    if kept is not None and kept[0] is problem:
        return kept[1]
    digest = hashlib.sha256(f"{problem!r}\n{problem.catalog!r}".encode("utf-8")).hexdigest()[:12]
    if len(_TERMS) >= 1024:
        _TERMS.clear()
    _TERMS[id(problem)] = (problem, digest)
    return digest


# id(problem) → (problem, its digest): a problem is frozen, and every draw asks its term's digest twice (the answer
# key and the grader, thousands of times), each a repr of every parameter and of the catalog. Kept by the object
# itself, not by equality: two equal problems may write a value differently (4 and Fraction(4)), and so digest apart.
_TERMS: dict[int, tuple[object, str]] = {}


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


def _shown(catalog, name, value, dtype: str | None = None) -> str:
    """One condition as the page writes it: "N = 2,048", "자료형 FP16(원소 2 Byte)", "P = 989.4 × 10¹² FLOPs/s" (the
    work of `dtype`, the question's: OPs/s for an integer one)."""
    label = LABELS[name]
    if name == "hardware":
        return f"{label} {catalog.presets[value].name}"
    if name.startswith("dtype"):
        return f"{label} {ex.dtype_text(value, catalog.bytes_per(value))}"
    if name == "P":
        return f"P = {ex.rate(value)} {fmt.unit('FLOPs/s', dtype or '')}"
    if name == "BW":
        return f"BW = {ex.rate(value)} Byte/s"
    if name == "capacity":
        return f"{label} {fmt.integer(value)} Byte"
    return f"{label} = {fmt.integer(value)}"


def conditions(problem, sheet: ex.Exercises, base: ex.Exercises) -> str:
    """"하드웨어 NVIDIA H100 SXM · N = 2,048 · 자료형 FP16(원소 2 Byte)": the conditions the variant's questions state
    (`Question.given`) that are not the base question's, each once, in LABELS' order; a condition with another value
    in another question names its questions ("L = 300,000,000 (3주-1)")."""
    used: dict[str, dict] = {}
    for q in sheet.questions:
        was = base.question(q.key).params
        for name, value in q.given:
            if name in LABELS and was.get(name) != value:
                used.setdefault(name, {}).setdefault(value, []).append(q.key)
    out = []
    for name in LABELS:
        values = used.get(name, {})
        for value, keys in values.items():
            out.append(_shown(problem.catalog, name, value, work_dtype(sheet.question(keys[0])))
                       + (f" ({'·'.join(keys)})" if len(values) > 1 else ""))
    return " · ".join(out)


# ---------------------------------------------------------------- the rules a variant keeps (the pages' own physics)

def _machine(given: dict):
    """The preset a question runs on: `hardware` when its text names the machine (a condition "바뀐 조건" lists),
    `machine` when it states only its numbers (P, BW) or the page names it in another question."""
    return given.get("hardware", given.get("machine"))


STORED_AS = {"TF32": "FP32"}   # a Tensor Core's input format, stored in memory as this type (NVIDIA A100 whitepaper)


def _dtypes(q):
    return [(k, v) for k, v in q.given if k.startswith("dtype")]


def stored_types(problem, q) -> str | None:
    """A dtype a question stores is a storage type (C is FP32, not TF32), and mixed precision takes narrow inputs
    to a wider (or as wide) output: FP16 in, FP32 out, never FP32 in, FP8 out."""
    for _, d in _dtypes(q):
        if d in STORED_AS:
            return f"{d}는 저장 형식이 아니다 ({STORED_AS[d]}로 저장한다)"
    p = q.params
    if "dtype_in" in p and "dtype_out" in p:
        cat = problem.catalog
        if cat.bytes_per(p["dtype_in"]) > cat.bytes_per(p["dtype_out"]):
            return f"입력 {p['dtype_in']}보다 좁은 출력 {p['dtype_out']}"
    return None


def work_dtype(q) -> str | None:
    """The dtype whose operations a question counts: its `dtype`, else its inputs' `dtype_in` (None: it counts none)."""
    p = q.params
    return p.get("dtype", p.get("dtype_in"))


def question_texts(q) -> list[str]:
    """Everything a question says: its statement as asked, its unit, hint, worked solution, its mistakes' hints and a
    choice's labels."""
    return [q.ask, q.unit.name, q.hint, *q.solution, *(m.hint for m in q.mistakes), *(label for _, label in q.choices)]


def work_units(problem, q) -> str | None:
    """The unit of work is the one the pages teach for the question's dtype (`fmt.unit`): FLOPs, FLOPs/s, TFLOPs/s,
    FLOPs/Byte for a floating-point one, OPs, OPs/s, TOPS, OPs/Byte for an integer one — in the statement, the unit,
    the solution and the hints (a quantity tagged with another dtype, "FP32 256 FLOPs", by that dtype's)."""
    d = work_dtype(q)
    if d is None:
        return None
    stray = sorted({u for text in question_texts(q) for u in fmt.stray_units(text, d, tuple(problem.catalog.dtypes))})
    return f"{d}의 연산을 {', '.join(stray)}로 적었다" if stray else None


def element_wise_peak(problem, q) -> str | None:
    """An element-wise kernel (a question with `units="CUDA Core"`: the vector add) runs on the CUDA cores, never on a
    Tensor Core: its P is the preset's `cuda` peak of its dtype (course.toml)."""
    p = q.params
    if p.get("units") != "CUDA Core" or "P" not in p:
        return None
    peak = problem.catalog.presets[_machine(p)].cuda.get(p["dtype"])
    return None if peak == p["P"] else f"원소별 연산의 P는 CUDA Core의 값이어야 한다 ({p['dtype']})"


def on_chip_fits(problem, q) -> str | None:
    """A tile the question holds on chip (`on_chip`: its input buffers in Byte) fits the Shared Memory one block may
    take on the machine it names (a machine without SM limits holds any); a question about fitting states none."""
    p = q.params
    if "on_chip" not in p:
        return None
    preset = problem.catalog.presets[_machine(p)]
    limit = preset.block_smem
    return None if limit is None or p["on_chip"] <= limit else f"{preset.name}의 블록 하나에 들어가지 않는 타일"


def memory_named(problem, q) -> str | None:
    """The memory is called by its name (course.toml's `memory`): "HBM" only on a machine whose memory is HBM."""
    p = q.params
    if _machine(p) is None:
        return None
    memory = problem.catalog.presets[_machine(p)].memory
    return None if ko.memory_name(memory) == "HBM" or "HBM" not in q.text else f"{memory} 메모리를 HBM이라 불렀다"


RULES = (stored_types, work_units, element_wise_peak, on_chip_fits, memory_named)


def broken(problem, sheet: ex.Exercises) -> list[str]:
    """What the variant's questions say that the pages call invalid (empty when it keeps every rule)."""
    found = [f"{q.key}: {why}" for q in sheet.questions for rule in RULES if (why := rule(problem, q))]
    found += [f"{q.key}: {why}" for q in sheet.questions if (why := stated_peak(sheet, q))]
    return found + [f"계산표: {why}" for why in _sheet_rules(problem, sheet)]


_STATED_P = re.compile(r"(?:P(?: =|:)|최대) ([0-9][0-9,]*(?:\.[0-9]+)?)(?: × 10([⁰¹²³⁴⁵⁶⁷⁸⁹]+))? ?(T?)")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def stated_peak(sheet: ex.Exercises, q) -> str | None:
    """A question judged with a peak P (`Question.given`) states it — "P = 121 × 10¹² FLOPs/s", "P = 989.4 TFLOPs/s",
    "FP16 최대 989.4 TFLOPs/s" — in its text, in a question it names by key ("②-1의 행렬곱") or in the worksheet's
    problem: a second dtype's question is never judged with a P it does not say (issue 55)."""
    P = q.params.get("P")
    if P is None:
        return None
    cited = [other.text for other in sheet.questions if other.key != q.key and other.key in q.text]
    for m in _STATED_P.finditer(" ".join([q.text, *cited, sheet.statement_text])):
        value = Fraction(m[1].replace(",", "")) * 10 ** int((m[2] or "0").translate(_DIGITS))
        if value * (10**12 if m[3] else 1) == Fraction(P):
            return None
    return f"채점하는 P = {ex.rate(P)}를 문제가 말하지 않는다"


def _sheet_rules(problem, sheet: ex.Exercises) -> list[str]:
    """A worksheet's row labels and its problem's statement name the memory too (the first question's machine)."""
    if not sheet.questions:
        return []
    first = sheet.questions[0].params
    if "hardware" not in first:
        return []
    memory = problem.catalog.presets[first["hardware"]].memory
    texts = [label for _, label in sheet.sheet] + [sheet.statement_text]
    return [] if ko.memory_name(memory) == "HBM" or not any("HBM" in x for x in texts) else [f"{memory}를 HBM이라 불렀다"]


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
        if mark in seen or not _all_new(sheet, base_sheet) or broken(problem, sheet):
            continue
        seen.add(mark)
        found.append(Variant(tuple(changes.items()), conditions(problem, sheet, base_sheet), sheet))
    return tuple(found)


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
        entry = {"conditions": v.conditions, "questions": data["questions"], "mistakes": data["mistakes"]}
        if v.exercises.statement:   # the worksheet's problem as the student's conditions state it (the page shows it)
            entry["problem"] = v.exercises.statement_data()
        out.append(entry)
    return {"term": term(problem), "variants": out}
