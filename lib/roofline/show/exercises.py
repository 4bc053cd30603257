"""Exercises the reader answers: the week-4 guide's shared problem as a worksheet, and each chapter's last
questions (①–⑤ and the week-3 note). This module is the generic part: the units, the judge, a page's set
(`Exercises`), its HTML and Markdown, and the helpers that write worked solutions from the model; each page's
questions are in its page module (`roofline.show.pages.<page>.exercises(problem)`). Every answer is the model's exact value for the chapter's problem (the
values of its parameter cell), so the answers follow a changed parameter; nothing here is typed.

One rule judges a typed answer, here (`judge`, for `check` in Colab and Jupyter, and the answer key) and in the
page's script (_static/judge.js, which only compares with the fractions this module puts in the page; the two
share tests/show/judge_cases.json, run under Node by tests/show/test_judge_twins.py). Typed with k significant
digits, its last digit at 10^e, it is, trying in this order:

    right       equal to the answer (0.25 for 1/4), or the answer rounded or cut off at 10^e with k ≥ digits
                (DIGITS unless the reader asks for fewer); an integer answer (`Question.exact`) only when equal;
    "mistake"   exactly what one of the question's common mistakes gives (`Question.mistakes`; mistakes giving the
                same value are named together), or "unit": exactly the answer in another unit of its kind — a
                round number a mistake gives (100 KiB for 52) is that mistake, not the answer cut short;
    "digits"    the answer rounded or cut off at 10^e, with fewer digits: "적은 자리까지는 맞다" is said only then
                (30 or 1e3 for 23.19 is not 23.19 at any digit);
    "mistake"   a mistake's value by the rule of right; "unit" the answer in another unit by that rule with at
                least min(FEWER) digits; "wrong" otherwise (the message gives the formula as a hint).
    A choice: right, or a message that says what the answer rests on (the question's hint) and which mistakes
    lead to the option picked (a choice cannot tell which was made).

    "Rounded or cut off at 10^e" is |typed − answer| ≤ 10^e/2, or typed between 0 and the answer less than 10^e
    from it, where 10^e is at most the answer's first digit (a rounding that carries excepted: 10 for 9.99).
    Significant digits: leading zeros do not count; trailing zeros of a whole number without a point are read as
    the reader most plausibly meant (each reading is tried: "60" is 6·10¹ or 60 to the unit, so it is 60.235 at
    two digits; "1820" is 1,820.01 at four), after a point they count ("17.20" has 4). Accepted: 1,374 ·
    1.374e11 · 1.374×10^11 · 1.374×10¹¹, and the asked unit after the number; a separator only between groups of
    three digits before the point. A number beyond 10^±LIMIT is not read (its exponent is never made).
"""
from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from dataclasses import dataclass
from fractions import Fraction

from roofline import kernels
from roofline.cost import Cost, Timing
from roofline.errors import ParameterError
from roofline.problems import divisors
from roofline.show import fmt, ko
from roofline.show.mistakes import Mistake, kept

DIGITS = 4                 # significant digits a typed answer needs, unless the reader asks for fewer
FEWER = (3, 2)             # the fewer digits a reader may ask for
EXAMPLE = Fraction(355, 113)   # the page's example of the rule (3.14159…): not an answer of any exercise


# ---------------------------------------------------------------- units

@dataclass(frozen=True)
class Unit:
    name: str        # as written beside the field: "GB"
    size: Fraction   # in the base unit of its kind: GB → 10⁹ (Byte)
    base: str        # that base unit: "Byte"


def _powers() -> dict[Fraction, str]:
    """Each power of ten, then of two, that a unit's size can be, as written (10⁰ for 1, not 2⁰)."""
    sup = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
    found: dict[Fraction, str] = {}
    for base in (10, 2):
        for n in range(-30, 61):
            found.setdefault(Fraction(base) ** n, f"{base}{str(n).translate(sup)}")
    return found


_POWERS = _powers()


def _power(size: Fraction) -> str:
    """10⁹, 2³⁰, 10⁻³: a unit's size as the power it is."""
    return _POWERS.get(Fraction(size)) or fmt.number(size)


def _kind(base: str, *units: tuple[str, Fraction]) -> dict[str, Unit]:
    return {name: Unit(name, Fraction(size), base) for name, size in ((base, 1),) + units}


KINDS = [
    _kind("Byte", ("KB", 10**3), ("KiB", 2**10), ("MB", 10**6), ("MiB", 2**20), ("GB", 10**9), ("GiB", 2**30)),
    _kind("FLOPs", ("GFLOPs", 10**9), ("TFLOPs", 10**12)),
    _kind("FLOPs/s", ("GFLOPs/s", 10**9), ("TFLOPs/s", 10**12)),
    _kind("s", ("ms", Fraction(1, 10**3)), ("µs", Fraction(1, 10**6))),
    _kind("FLOPs/Byte"),
    # an integer dtype's work, counted in OPs (fmt.unit): its counts, rates and intensities
    _kind("OPs", ("GOPs", 10**9)),
    _kind("OPs/s", ("TOPS", 10**12)),
    _kind("OPs/Byte"),
    _kind("원소"),
    _kind("개"),
]
UNITS = {name: unit for kind in KINDS for name, unit in kind.items()}


def others(unit: Unit) -> list[Unit]:
    """The other units of the same kind (a typed value right in one of them is a unit mistake)."""
    kind = next(k for k in KINDS if unit.name in k)
    return [u for name, u in kind.items() if name != unit.name]


def unit_message(asked: Unit, used: Unit) -> str:
    means = ("기본 단위" if asked.size == 1 else f"{_power(asked.size)} {asked.base}")
    return (f"다시: 단위를 확인하자. {ko.particle(asked.name, '은/는')} {ko.particle(means, '이다/다')}. "
            f"적은 값은 {ko.particle(used.name, '으로/로')} 나타낸 값이다.")


# ---------------------------------------------------------------- reading a typed answer

@dataclass(frozen=True)
class Typed:
    value: Fraction
    digits: int      # significant digits, a whole number's trailing zeros not counted ("1820" has 3)
    last: int        # the exponent of its last significant digit, so counted ("1820": 1)
    zeros: int = 0   # a whole number's trailing zeros, each of which the reader may have meant ("1820": 1)

    @property
    def readings(self) -> list[tuple[int, int]]:
        """(significant digits, exponent of the last digit) for each way its trailing zeros may be meant: "1820" is
        (3, 1) or (4, 0); "60" is (1, 1) or (2, 0); "17.20" only (4, −2)."""
        return [(self.digits + z, self.last - z) for z in range(self.zeros + 1)]


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
# white space as JavaScript's trim() knows it (a BOM too, a control character not), the same in the page's script
_WS = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
# a separator only between groups of three digits before the point, the same one throughout (4,096 · 1,820.01)
_NUMBER = re.compile(r"([+-]?)([0-9]{1,3}(?:([,_ \u00a0\u2009\u202f])[0-9]{3})(?:\3[0-9]{3})*|[0-9]*)"
                     r"(?:\.([0-9]*))?(?:e([+-]?[0-9]+))?")
LIMIT = 30                 # a typed number must lie within 10^±LIMIT (far beyond any answer): else it is not read
UNREADABLE = "다시: 숫자로 적자. 쉼표(4,096), 1.374e11 같은 지수 표기, 칸 옆의 단위는 써도 된다."
TOO_FAR = (f"다시: {_power(Fraction(10) ** -LIMIT)}보다 작거나 {_power(Fraction(10) ** LIMIT)}보다 큰 수는 읽지 않는다. "
           "지수를 확인하자.")


class TooFar(ValueError):
    """A number whose exponent lies far beyond any answer (1e-100000000): not read, at once."""


def read(text: str, unit: Unit | None = None) -> Typed:
    """A typed answer as its exact value, significant digits and last digit; ValueError if it is no number,
    TooFar if it lies beyond 10^±LIMIT (its exponent is compared before any power of ten is made)."""
    t = re.sub(f"^{_WS}+|{_WS}+$", "", str(text))
    if unit is not None and unit.name and t.endswith(unit.name):
        t = re.sub(f"{_WS}+$", "", t[: -len(unit.name)])
    t = re.sub(f"{_WS}*([×xX*^]){_WS}*", r"\1", t.replace("−", "-"))
    t = re.sub(r"(?:[×xX*]10(?:\^|\*\*))([+-]?[0-9]+)$", r"e\1", t)
    t = re.sub(r"[×xX*]10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)$", lambda m: "e" + m[1].translate(_SUPERSCRIPT), t)
    m = _NUMBER.fullmatch(t.replace("E", "e"))
    if not m or not (m[2] or m[4]):
        raise ValueError(text)
    if m[5] and len(m[5].lstrip("+-0")) > 6:   # an exponent of seven digits or more: far beyond, and not made
        raise TooFar(text)
    sign, whole, part, exp = m[1], re.sub("[^0-9]", "", m[2] or ""), m[4], int(m[5] or 0)
    digits = (whole + (part or "")).lstrip("0")
    last = exp - len(part or "")
    zeros = 0
    if part is None:                       # a whole number: its trailing zeros may or may not be meant
        stripped = digits.rstrip("0")
        zeros = len(digits) - len(stripped)
        last += zeros
        digits = stripped
    lead = last + len(digits) - 1          # the exponent of its first digit
    if abs(last) > 2 * LIMIT or (digits and abs(lead) > LIMIT):
        raise TooFar(text)
    mantissa = int(digits or "0")
    value = Fraction(-mantissa if sign == "-" else mantissa) * Fraction(10) ** last
    return Typed(value, max(1, len(digits)), last, zeros)


def typed_text(value) -> str:
    """What the reader wrote, as text: a str as it is, an int in full, a float by its shortest repr (17.0 → "17")."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ParameterError(f"답: 숫자(17.25) 또는 문자열(\"17.250\")로 적자. 받은 값: {value!r}")
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def in_place(value: Fraction, last: int, target: Fraction) -> bool:
    """`value` (a multiple of 10^last) is `target` rounded or cut off at 10^last: |value − target| ≤ 10^last/2, or
    value between 0 and target with |target − value| < 10^last; and 10^last no larger than target's first digit
    (100 is not 52 to one digit), unless rounding carried into it (10 is 9.99 to one digit)."""
    if value == target:
        return True
    unit, off = Fraction(10) ** last, abs(value - target)
    if unit <= abs(target):
        return 2 * off <= unit or (value * target > 0 and abs(value) <= abs(target) and off < unit)
    return abs(value) == unit and 10 * abs(target) >= unit and 20 * off <= unit


def near(typed: Typed, target: Fraction) -> bool:
    """Right to its last digit, in some reading of its trailing zeros (rounded or cut off there)."""
    return any(in_place(typed.value, last, target) for _, last in typed.readings)


# ---------------------------------------------------------------- questions, worked solutions and verdicts

@dataclass(frozen=True)
class Step:
    """One line of a worked solution in the chapter's notation: `name = formula = the question's numbers = result`.
    `value` is the model's exact value (in the base unit of its kind) or, for the last line of a choice, the key."""
    text: str
    value: Fraction | str
    name: str = ""
    numbers: str = ""            # the formula with the question's numbers put in ("" when the line has none)
    scale: Fraction = Fraction(1)   # `numbers` gives value / scale (ms: 10⁻³, TFLOPs/s: 10¹²)


def unit_text(value, unit: str) -> str:
    """A result as a solution writes it: "285,212,672 Byte", "0.858993 ms", "20,874.673521 ms"."""
    u = UNITS[unit]
    return f"{number(Fraction(value) / u.size)} {unit}"


def equation(name: str, formula: str, numbers: str, value, unit: str, also: str | None = None, scale=1) -> Step:
    """A solution line: the formula, the question's numbers put in, and the model's value (also in `also`)."""
    shown = unit_text(value, unit) + (f" = {unit_text(value, also)}" if also else "")
    parts = [name, formula, numbers] if formula != numbers else [name, formula]
    return Step(" = ".join(p for p in parts if p) + " = " + shown, Fraction(value), name, numbers, Fraction(scale))


@dataclass(frozen=True)
class Question:
    key: str          # "⑤-1"; on the worksheet quantity-case: "Q-64", "Q-없음"
    text: str         # the question, values formatted by fmt and particles by ko
    value: Fraction | str   # the answer in its unit's base unit (Byte, FLOPs, s, …), exact; a choice's key
    unit: Unit        # the unit asked for (CHOICE for a choice)
    hint: str         # the formula, shown after a wrong try
    steps: tuple[Step, ...] = ()             # the worked solution; its last value is the answer
    choices: tuple[tuple[str, str], ...] = ()   # (key, label) of a choice question
    given: tuple[tuple[str, object], ...] = ()  # the question's numbers (N, T, s, P, BW, …)
    exact: bool = False   # an integer answer (a count): judged exactly, neither rounded nor cut off
    # the common mistakes, each's value computed by the page module from this question's own numbers with the model;
    # kept here only those that do not give the right answer (for this term's numbers), equal ones joined into one, and
    # for an integer answer none whose whole number reads as the answer cut off (the judge says "digits" to it)
    mistakes: tuple[Mistake, ...] = ()

    def __post_init__(self):
        if self.exact and (self.is_choice or Fraction(self.value) / self.unit.size % 1):
            raise ParameterError(f"연습 문제 {self.key}: 정확히 판정하는 답은 정수여야 한다. 받은 값: {self.value}")
        mistakes = kept(self.mistakes, self.value)
        if self.exact:   # a whole number typed in full that reads as the answer cut off (1,200 for 1,234) is "digits"
            mistakes = tuple(m for m in mistakes if not near(read(str(Fraction(m.value) / self.unit.size)), self.in_unit))
        object.__setattr__(self, "mistakes", mistakes)

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)

    @property
    def params(self) -> dict:
        return dict(self.given)

    @property
    def in_unit(self) -> Fraction:
        return Fraction(self.value) / self.unit.size

    @property
    def answer(self) -> str:
        if self.is_choice:
            return dict(self.choices)[self.value]
        space = "" if self.unit.name == "개" else " "     # 28개, 80.788955 원소
        return f"{number(self.in_unit)}{space}{self.unit.name}"

    @property
    def ask(self) -> str:
        """The question with what the judge expects: its unit and precision, or that it is a choice."""
        if self.is_choice:
            return f"{self.text} (하나를 고른다.)"
        if self.exact:
            return f"{self.text} (단위: {self.unit.name}, 정수로 모든 자리를 정확히)"
        return f"{self.text} (단위: {self.unit.name}, 유효숫자 {DIGITS}자리 이상)"

    @property
    def solution(self) -> list[str]:
        """The worked solution's lines, then the answer."""
        return [step.text for step in self.steps] + [f"답: {self.answer}"]


CHOICE = Unit("", Fraction(1), "고르기")


@dataclass(frozen=True)
class Verdict:
    key: str
    right: bool
    reason: str       # "right", "digits", "mistake", "unit", "wrong", "unreadable", "question", "solution"
    message: str
    mistake: str = ""     # the kind of the mistake named (reason "mistake"), a key of roofline.show.mistakes.KINDS

    def __repr__(self):
        return f"{self.key} {self.message}"


RIGHT = "정답이다."


def digits_message(digits: int) -> str:
    return f"다시: 적은 자리까지는 맞다. 유효숫자 {digits}자리 이상으로 적자."


EXACT_MESSAGE = "다시: 적은 자리까지는 맞다. 답은 정수이니 반올림하지 말고 모든 자리를 적자."


def wrong_message(q: Question) -> str:
    return f"다시. 힌트: {q.hint}"


def mistake_message(m: Mistake, q: Question | None = None) -> str:
    """One line: the mistake's name, then what it left out or added ("다시: C 쓰기를 빼먹었다. C를 쓰는 …"); of
    mistakes giving the same value, each in turn (`roofline.show.mistakes.joined`). A choice cannot tell which mistake
    was made: its message says what the answer rests on (the question's hint), then the mistakes that lead to the
    option picked, without taking one for the cause."""
    if q is not None and q.is_choice:
        return f"{choice_message(q)} 이 보기로 이끄는 흔한 실수: {', '.join(m.names)}."
    return f"다시: {m.name}. {m.hint}"


def choice_message(q: Question) -> str:
    """A wrong choice: what the right one rests on."""
    return f"다시. 답을 정하는 기준: {q.hint}."


def matches(t: Typed, value: Fraction, digits: int, exact: bool) -> bool:
    """The rule that makes a typed value right, for any value: equal, or (not an integer answer) right to its last
    digit with at least `digits` significant digits, in some reading of a whole number's trailing zeros."""
    return t.value == value or (not exact and any(k >= digits and in_place(t.value, last, value)
                                                  for k, last in t.readings))


def choice_unreadable(q: Question) -> str:
    return "다시: 다음 가운데 하나로 답하자. " + ", ".join(f"{label}(\"{key}\")" for key, label in q.choices)


def judge(q: Question, typed, digits: int = DIGITS) -> Verdict:
    """The rule of this module's docstring, for one typed answer (a str, int or float); a choice is right when it
    names the answer's key or label, and nothing else. In order: right; exactly a mistake's value, or the answer in
    another unit (a round number a mistake gives is that mistake, not the answer cut short); the answer cut short
    ("digits"); a mistake's value by the rule of right; the answer in another unit to its last digit; wrong."""
    text = typed_text(typed)        # a list or None is the caller's mistake: ParameterError
    if q.is_choice:
        picked = next((key for key, label in q.choices if text.strip() in (key, label)), None)
        if picked is None:
            return Verdict(q.key, False, "unreadable", choice_unreadable(q))
        if picked == q.value:
            return Verdict(q.key, True, "right", RIGHT)
        for m in q.mistakes:
            if m.value == picked:
                return Verdict(q.key, False, "mistake", mistake_message(m, q), m.kind)
        return Verdict(q.key, False, "wrong", choice_message(q))
    try:
        t = read(text, q.unit)
    except TooFar:
        return Verdict(q.key, False, "unreadable", TOO_FAR)
    except ValueError:
        return Verdict(q.key, False, "unreadable", UNREADABLE)
    target = q.in_unit
    mistakes = [(m, Fraction(m.value) / q.unit.size) for m in q.mistakes]
    units = [(other, Fraction(q.value) / other.size) for other in others(q.unit)]
    if matches(t, target, digits, q.exact):
        return Verdict(q.key, True, "right", RIGHT)
    for m, value in mistakes:
        if t.value == value:
            return Verdict(q.key, False, "mistake", mistake_message(m), m.kind)
    for other, value in units:
        if t.value == value:
            return Verdict(q.key, False, "unit", unit_message(q.unit, other))
    if near(t, target):
        return Verdict(q.key, False, "digits", EXACT_MESSAGE if q.exact else digits_message(digits))
    for m, value in mistakes:
        if matches(t, value, digits, q.exact):
            return Verdict(q.key, False, "mistake", mistake_message(m), m.kind)
    for other, value in units:
        if matches(t, value, min(FEWER), False):
            return Verdict(q.key, False, "unit", unit_message(q.unit, other))
    return Verdict(q.key, False, "wrong", wrong_message(q))


# ---------------------------------------------------------------- a chapter's set

def _pair(value: Fraction) -> list:
    """A fraction as the page's script reads it (BigInt of each): [numerator, denominator], a number where JSON
    keeps it exact (below 2⁵³), else text."""
    return [x if abs(x) < 2**53 else str(x) for x in (value.numerator, value.denominator)]


_CIRCLED = dict(zip("①②③④⑤", "12345"))


def _plain_key(key: str) -> str:
    """"⑤-1" and "5-1" name the same question; so do "3주-1" and "w3-1", "Q-없음" and "Q-0"."""
    k = "".join(_CIRCLED.get(ch, ch) for ch in str(key)).replace(" ", "")
    if k.startswith("w3-"):
        k = "3주-" + k[3:]
    return k[:-2] + "-없음" if k.endswith("-0") else k


@dataclass(frozen=True)
class Exercises:
    """One page's questions: `check` answers them in a notebook; the site shows them as fields (HTML)."""

    key: str                      # "guide", "①", …, "3주"
    questions: tuple[Question, ...]
    sheet: tuple[tuple[str, str], ...] = ()     # a worksheet: (row key, row label); columns are cases
    cases: tuple[tuple[str, str], ...] = ()     # (case key, case label)
    # a worksheet's problem as its page states it (a sentence, then the table's (item, value) rows, as plain text):
    # the page shows a student's variant of it in place of its own (roofline.show.variants, _static/variants.js)
    statement: tuple = ()

    @property
    def statement_text(self) -> str:
        if not self.statement:
            return ""
        sentence, rows = self.statement
        return " ".join([sentence, *(f"{item}: {value}" for item, value in rows)])

    def statement_data(self) -> dict:
        sentence, rows = self.statement
        return {"text": sentence, "rows": [list(row) for row in rows]}

    @functools.cached_property
    def _by_key(self) -> dict[str, Question]:
        return {_plain_key(q.key): q for q in self.questions}

    def question(self, key) -> Question:
        """The question named `key` ("⑤-1", "5-1", "Q-64", "Q-0" …)."""
        found = self._by_key.get(_plain_key(key))
        if found is None:
            names = ", ".join(q.key for q in self.questions)
            raise ParameterError(f"문제 번호: {key!r}인 문제는 없다. 이 장의 문제: {names}")
        return found

    def check(self, key, answer=None, *, digits: int = DIGITS, show: bool = False):
        """check("⑤-1", 17.25): 정답 or 다시 with the reason (the same verdicts and messages as the page).
        check("⑤-1"): the question and its unit; check("⑤-1", show=True): the worked solution and the answer.
        To keep trailing zeros, write the answer as text: check("⑤-1", "17.250")."""
        q = self.question(key)
        if digits not in (DIGITS,) + FEWER:
            raise ParameterError(f"digits: {', '.join(map(str, (DIGITS,) + FEWER))} 가운데 하나여야 한다. 받은 값: {digits!r}")
        if show:
            lines = [f"{i}. {line}" for i, line in enumerate(q.solution[:-1], 1)] + [q.solution[-1]]
            return Verdict(q.key, False, "solution", "풀이\n" + "\n".join(lines))
        if answer is None:
            if q.is_choice:
                picks = ", ".join(f"\"{key}\"({label})" for key, label in q.choices)
                return Verdict(q.key, False, "question", f"{q.text} 고를 수 있는 답: {picks}")
            return Verdict(q.key, False, "question", q.ask)
        return judge(q, answer, digits)

    # -- what the page and the notebook show

    def data(self) -> dict:
        """What the page's script compares with: per question the answer as a fraction in each unit of its
        kind (the asked one first) or a choice's key, the messages of every verdict, the worked solution; the
        mistakes as [message index, numerator, denominator] in the asked unit (a choice's: [index, key]) in the
        order the judge tries them, their messages once each in `mistakes` ([kind, message])."""
        out, messages = {}, {}

        def message(m: Mistake, q: Question) -> int:
            return messages.setdefault((m.kind, mistake_message(m, q)), len(messages))

        for q in self.questions:
            item = {"right": RIGHT, "wrong": choice_message(q) if q.is_choice else wrong_message(q), "steps": [s.text for s in q.steps],
                    "answer": f"답: {q.answer}"}
            if q.mistakes:
                item["mistakes"] = [[message(m, q), m.value] if q.is_choice
                                    else [message(m, q), *_pair(Fraction(m.value) / q.unit.size)] for m in q.mistakes]
            if q.is_choice:
                item.update({"choice": q.value, "unreadable": choice_unreadable(q)})
            else:
                units = [q.unit] + others(q.unit)
                values = [Fraction(q.value) / u.size for u in units]
                item.update({
                    "unit": q.unit.name,
                    "targets": [[u.name, str(v.numerator), str(v.denominator)] for u, v in zip(units, values)],
                    "digits": {str(d): EXACT_MESSAGE if q.exact else digits_message(d) for d in (DIGITS,) + FEWER},
                    "exact": q.exact,
                    "units": {u.name: unit_message(q.unit, u) for u in units[1:]},
                })
            out[q.key] = item
        found = {"digits": DIGITS, "unitDigits": min(FEWER), "unreadable": UNREADABLE, "tooFar": TOO_FAR, "limit": LIMIT,
                 "questions": out}
        if messages:
            found["mistakes"] = [list(key) for key in messages]
        return found

    def digest(self) -> str:
        text = json.dumps([[q.key, q.text, str(q.value), q.unit.name, q.hint, q.solution] for q in self.questions],
                          ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    def __repr__(self):
        return f"<연습 문제 {self.key}: {len(self.questions)}문제, 자료 {self.digest()}>"

    def _repr_html_(self):
        return page_html(self)

    def _repr_markdown_(self):
        return notebook_markdown(self)


def rule_text(site: bool = True) -> str:
    """The judging rule (this module's docstring) as the page states it in one paragraph, with examples the rule
    itself decides; how to ask for fewer digits on the site (a menu) or in a notebook (digits=3); how to see the
    worked solution."""
    q = Question("예", "", EXAMPLE, UNITS["개"], "")
    up = fmt.decimal(EXAMPLE, DIGITS - 1)                        # rounded to DIGITS digits (one before the point)
    cut = fmt.decimal(Fraction(int(EXAMPLE * 10 ** (DIGITS - 1)), 10 ** (DIGITS - 1)), DIGITS - 1)
    short = fmt.decimal(EXAMPLE, DIGITS - 2)
    assert judge(q, up).right and judge(q, cut).right and judge(q, short).reason == "digits"
    whole = Question("예", "", 19 * EXAMPLE, UNITS["개"], "")   # 59.69…: "60" is it at two digits, its zero meant
    tens = str(int(fmt.rounded(whole.value / 10, 0)) * 10)
    assert judge(whole, tens, min(FEWER)).right and judge(whole, tens).reason == "digits"
    fewer = "판정할 자릿수를 고르면" if site else f"`digits={min(FEWER)}`처럼 적으면"
    solution = ("풀이 단추는 식, 숫자를 넣은 식, 중간값, 답을 차례로 보인다." if site
                else "`show=True`는 식, 숫자를 넣은 식, 중간값, 답을 차례로 보인다.")
    return (f"적은 값이 답을 그 마지막 자리에서 반올림하거나 버린 값이면 정답이다: 답이 {fmt.decimal(EXAMPLE, 6)}…이면 "
            f"{ko.particle(up, '과/와')} {ko.particle(cut, '은/는')} 맞고, {ko.particle(short, '은/는')} 자릿수가 모자라다. "
            f"유효숫자는 {DIGITS}자리 이상이고, {fewer} 더 적어도 된다. 소수점 없는 정수 끝의 0은 뜻했을 법한 대로 읽는다"
            f"(답이 {fmt.decimal(whole.value, 2)}…이고 {min(FEWER)}자리로 판정하면 {ko.particle(tens, '은/는')} 맞다). "
            f"답과 정확히 같으면 자릿수와 상관없이 맞고, 답이 정수인 문제는 모든 자리가 같아야 한다. 흔한 실수가 주는 값이면 "
            f"그 실수를(같은 값을 주는 실수가 여럿이면 모두) 짚고, 다른 단위의 값이면 단위를 짚는다. 이런 값은 자리가 모자란 "
            f"답으로 보지 않는다. 고르는 문제는 답을 정하는 기준을 알려 준다. 쉼표는 세 자리마다(4,096), 지수 표기(1.374e11)와 "
            f"문제의 단위는 써도 되고, {_power(Fraction(10) ** -LIMIT)}–{_power(Fraction(10) ** LIMIT)} 밖의 수는 읽지 "
            f"않는다. {solution}")


# ---------------------------------------------------------------- HTML (the site) and Markdown (notebooks)

def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _dom_id(ex: Exercises, q: Question) -> str:
    raw = _plain_key(q.key)
    return "rl-q-" + hashlib.sha1(f"{ex.key}/{raw}".encode("utf-8")).hexdigest()[:10]


def _field(ex: Exercises, q: Question, label: str, compact: bool = False) -> str:
    """An answer field (or the choices), its unit (a worksheet names it in the row), the solution button, the live
    feedback and the place the worked solution goes when asked."""
    uid = _dom_id(ex, q)
    button = "풀이" if compact else "풀이 보기"
    if q.is_choice:
        radios = "".join(f'<label class="rl-pick"><input type="radio" name="{uid}" value="{_e(key)}"> {_e(text)}</label>'
                         for key, text in q.choices)
        entry = (f'<fieldset class="rl-choices" aria-describedby="{uid}-fb"><legend class="rl-sr">{_e(label)}</legend>'
                 f'{radios}</fieldset>')
    else:
        unit = "" if compact else f'<span class="rl-unit">{_e(q.unit.name)}</span>'
        entry = (f'<input type="text" id="{uid}" autocomplete="off" spellcheck="false" enterkeyhint="done" '
                 f'aria-label="{_e(label)}" aria-describedby="{uid}-fb">{unit}')
    solution = _sheet_solution_id(ex) if compact else f"{uid}-sol"
    return (f'<div class="rl-answer" data-rl-q="{_e(q.key)}">{entry}'
            f'<button type="button" class="rl-show" aria-controls="{solution}" aria-label="풀이 보기: {_e(label)}">'
            f'{button}</button>'
            f'<output id="{uid}-fb" class="rl-feedback" aria-live="polite"></output>'
            + ("" if compact else f'<div id="{solution}" class="rl-solution" hidden></div>') + '</div>')


def _sheet_solution_id(ex: Exercises) -> str:
    """A worksheet shows the solution a cell asks for in one place below the table (a cell is too narrow)."""
    return "rl-sol-" + hashlib.sha1(ex.key.encode("utf-8")).hexdigest()[:10]


def page_html(ex: Exercises) -> str:
    data = json.dumps(ex.data(), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    digits = "".join(f'<option value="{d}">{d}자리</option>' for d in (DIGITS,) + FEWER)
    head = (f'<div class="rl-quiz-rule" hidden><p>칸에 답을 적고 Enter를 누르면 판정한다. '
            f'<label>판정할 유효숫자 <select data-rl-digits>{digits}</select></label></p>'
            f'<details><summary>판정 규칙</summary><p>{_e(rule_text())}</p></details></div>')
    if ex.sheet:
        cols = "".join(f'<th scope="col">{_e(ko.nbsp(label))}</th>' for _, label in ex.cases)
        rows = []
        for row, label in ex.sheet:
            unit = ex.question(f"{row}-{ex.cases[0][0]}").unit.name
            cells = "".join(
                f'<td data-label="{_e(case_label)}">'
                f'{_field(ex, ex.question(f"{row}-{case}"), f"{label}, {case_label} ({unit})", compact=True)}</td>'
                for case, case_label in ex.cases)
            rows.append(f'<tr><th scope="row">{_e(label)} <span class="rl-row-unit">({_e(unit)})</span></th>'
                        f'{cells}</tr>')
        body = (f'<div class="rl-sheet-wrap"><table class="rl-sheet"><caption>함께 계산할 문제의 계산표</caption>'
                f'<thead><tr><th scope="col">값 (단위)</th>{cols}</tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table></div>'
                f'<div id="{_sheet_solution_id(ex)}" class="rl-sheet-solution rl-solution" aria-live="polite" hidden></div>')
    else:
        items = "".join(f'<li><p><strong>{_e(q.key)}</strong> {_e(q.ask)}</p>'
                        f'{_field(ex, q, f"{q.key} 답" + ("" if q.is_choice else f" ({q.unit.name})"))}</li>'
                        for q in ex.questions)
        body = f'<ol class="rl-exercises">{items}</ol>'
    # a line break between elements: the search index strips the tags and would run their words together
    shown = re.sub(r">(?=<[^/])", ">\n", head + student_box(ex) + body)   # not inside an empty element (the feedback)
    return (f'<section class="rl-quiz" data-rl-quiz="{_e(ex.key)}" aria-label="스스로 확인하는 문제">\n'
            f'<script type="application/json" class="rl-quiz-data">{data}</script>\n{shown}\n</section>')


STUDENT_HELP = ("강사가 정한 학번(아무 식별자)을 적으면 문제의 조건(크기, 자료형, 하드웨어)이 그 학생의 것으로 바뀌고, 답도 그 "
                "조건으로 판정한다. 학번과 답한 기록은 이 브라우저에만 남는다. 지우기를 누르면 기본 문제로 돌아간다.")


def student_box(ex: Exercises) -> str:
    """The "학번" field (issue 40): a student's variant of the page's exercises (`roofline.show.variants`, fetched by
    the page's script when an identifier is entered); hidden until the script starts and the build named the page's
    variants file."""
    uid = "rl-st-" + hashlib.sha1(ex.key.encode("utf-8")).hexdigest()[:10]
    return (f'<div class="rl-student" hidden><p><label for="{uid}">학번</label> '
            f'<input type="text" id="{uid}" data-rl-student autocomplete="off" spellcheck="false" enterkeyhint="go" '
            f'aria-describedby="{uid}-help {uid}-now"> '
            f'<button type="button" data-rl-student-set>적용</button> '
            f'<button type="button" data-rl-student-clear>지우기</button></p>'
            f'<p id="{uid}-help" class="rl-student-help">{_e(STUDENT_HELP)}</p>'
            f'<p id="{uid}-now" class="rl-student-now" aria-live="polite"></p></div>')


def notebook_markdown(ex: Exercises) -> str:
    first = next((q for q in ex.questions if not q.is_choice), ex.questions[0])
    how = (f'답을 확인하려면 코드 셀에 `check("{first.key}", 답)`처럼 적고 실행한다. '
           f'`check("{first.key}")`{ko.particle(first.key, "으로/로")[len(first.key):]} 문제와 단위를, '
           f'`check("{first.key}", show=True)`로 풀이와 답을 본다. 고르는 문제는 보기의 이름으로 답한다. '
           f"{rule_text(site=False)}")
    if ex.sheet:
        head = "| 값 | 단위 | " + " | ".join(label for _, label in ex.cases) + " |"
        sep = "| :-- | :-- |" + " :-: |" * len(ex.cases)
        rows = [f"| {label} | {ex.question(f'{row}-{ex.cases[0][0]}').unit.name} | "
                + " | ".join(f"`{row}-{case}`" for case, _ in ex.cases) + " |" for row, label in ex.sheet]
        return "\n".join(["**계산표.** 칸마다 적힌 이름으로 답을 확인한다.", "", head, sep, *rows, "", how])
    items = []
    for i, q in enumerate(ex.questions, 1):
        if q.is_choice:
            picks = ", ".join(f'`"{key}"` {label}' for key, label in q.choices)
            items.append(f"{i}. **{q.key}** {q.text} (보기: {picks})")
        else:
            items.append(f"{i}. **{q.key}** {q.ask}")
    return "\n".join(items + ["", how])


# ---------------------------------------------------------------- worked solutions from the model

def number(x) -> str:
    """A number put into a formula or a solution: with thousands separators, 6 decimals without trailing zeros."""
    x = Fraction(x)
    return fmt.integer(x) if x.denominator == 1 else fmt.decimal(x, 6, grouping=True).rstrip("0").rstrip(".")


def ms(seconds) -> str:
    """A time put into a formula or a comparison, in ms."""
    return f"{number(Fraction(seconds) * 1000)} ms"


def tera(x) -> str:
    """A rate in units of 10¹² (TFLOPs/s, TB/s) put into a formula: 989.4, 3.35."""
    return number(Fraction(x) / 10**12)


def rate(x) -> str:
    """A rate (FLOPs/s, Byte/s) put into a formula as a × 10ⁿ."""
    return fmt.power10(x)


def derived(q, unit: str, also: str | None = None, name: str | None = None) -> Step:
    """A solution line from the model's own derivation (a `roofline.derive` named quantity): its symbol (or `name`),
    the formula and the numbers that computed the value, and the value, so the line cannot disagree with it."""
    return equation(name or q.symbol, q.term.formula, q.term.numbers, q.value, unit, also)


def formula(q) -> str:
    """A hint's "symbol = formula", from the model's derivation: "Q_T = 2·s·N³/T + s·N²"."""
    return f"{q.symbol} = {q.term.formula}"


def matmul_steps(N: int, T: int | None, s_in: int, s_out: int | None = None, q_unit: str = "Byte", *, dtype: str):
    """F, Q and I of a square N×N matmul (no reuse when T is None, else T×T output tiles), as solution lines: the
    kernel's own derivations (`kernels.matmul_no_reuse` / `matmul_tiled`); its work in the units of `dtype`, the
    inputs' (FLOPs, or OPs for an integer dtype: `fmt.unit`)."""
    s_out = s_in if s_out is None else s_out
    cost = kernels.matmul_no_reuse(N, s_in, s_out) if T is None else kernels.matmul_tiled(N, T, s_in, s_out)
    steps = [derived(cost.derivation("F"), fmt.unit("FLOPs", dtype)),
             derived(cost.derivation("Q"), "Byte", None if q_unit == "Byte" else q_unit),
             derived(cost.derivation("I"), fmt.unit("FLOPs/Byte", dtype))]
    return cost, steps


def time_steps(cost, hw) -> tuple[Timing, list[Step]]:
    """t_compute = F/P, t_memory = Q/BW and t_ideal = max(…) (`Timing.derivation`), in ms; the last line puts in the
    two times in ms (the unit the pages use), not their exact fractions of a second."""
    t = Timing(cost, hw)
    tc, tm, ti = (t.derivation(k) for k in ("t_compute", "t_memory", "t_ideal"))
    ideal = equation(ti.symbol, ti.term.formula, f"max({ms(t.t_compute)}, {ms(t.t_memory)})", t.t_ideal, "ms",
                     scale=Fraction(1, 1000))
    return t, [derived(tc, "ms"), derived(tm, "ms"), ideal]


BOUND_CHOICES = (("memory", "메모리 한계"), ("compute", "연산 한계"))


def bound_by_times(t: Timing) -> Step:
    label = dict(BOUND_CHOICES)[t.bound]
    relation = ">" if t.t_memory > t.t_compute else "≤"
    return Step(f"t_memory = {ms(t.t_memory)} {relation} t_compute = {ms(t.t_compute)}이므로 "
                f"{ko.particle(label, '이다/다')}", t.bound, "bound")


def shorter_time(t: Timing) -> Mistake:
    """The mistake of a judgement by the two times: the resource of the shorter time taken for the limit."""
    return Mistake("ideal-min", "compute" if t.t_memory > t.t_compute else "memory",
                   "긴 쪽의 자원이 한계 자원이다: 느린 쪽이 시간을 정한다.")


def bound_by_ridge(I, hw, dtype: str) -> tuple[str, list[Step]]:
    """I against the ridge I* = P / BW of `hw` (P of `dtype`, whose unit names the ridge's)."""
    key = "memory" if I < hw.ridge else "compute"
    label = dict(BOUND_CHOICES)[key]
    ridge = derived(hw.derivation("I*"), fmt.unit("FLOPs/Byte", dtype))
    relation = "<" if I < hw.ridge else "≥"
    verdict = Step(f"I = {fmt.number(I, 6)} {relation} I* = {fmt.number(hw.ridge, 6)}이므로 {ko.particle(label, '이다/다')}",
                   key, "bound")
    return key, [ridge, verdict]


def given(**values) -> tuple:
    return tuple(values.items())


# ---------------------------------------------------------------- common mistakes, from the model

# what a matmul's mistake left out or added, in the course's symbols (one line after the mistake's name)
MATMUL_HINTS = {
    "fma-one": "곱셈·덧셈 한 쌍은 2 FLOPs다: F = 2N³.",
    "c-write": "Q에는 C를 한 번 쓰는 s·N² Byte도 든다.",
    "c-read": "C는 읽지 않고 한 번 쓴다: s·N²을 두 번 셌다.",
    "bits-bytes": "s는 원소 하나의 Byte 수다: 비트로 세면 8배가 된다.",
    "tile-reuse-ignored": "타일 안에서 A·B 원소를 T번 쓰므로 읽기는 2·s·N³/T다.",
    "tile-reuse-twice": "재사용으로 읽기는 1/T이 된다: 2·s·N³/T이지 2·s·N³/T²이 아니다.",
    "output-per-k": "중간 합은 칩 안에 남고 C는 끝에 한 번 쓴다: s·N²이다.",
    "no-ceiling": "R_roof = min(P, BW × I): 성능은 P를 넘지 못한다.",
    "ideal-sum": "두 일은 겹친다: 이상적 시간은 max(F/P, Q/BW)다.",
    "ideal-min": "느린 쪽이 시간을 정한다: 이상적 시간은 max(F/P, Q/BW)다.",
    "tb-tib": "TB/s는 10¹² Byte/s다.",
    "dtype-other": "문제가 말한 자료형의 원소 크기 s를 쓴다.",
    "mixed-dtype": "C는 출력의 자료형으로 쓴다: s_out·N².",
    "ridge-inverted": "분기점은 I* = P / BW다.",
    "c-counted": "A·B 읽기만 묻는다: C를 쓰는 s·N²은 따로 센다.",
}


def matmul_variants(N: int, T: int | None, s_in: int, s_out: int | None = None, s_other: int | None = None) -> dict:
    """kind → the cost a common mistake computes for the square N×N matmul (T×T output tiles, or no reuse when T is
    None): the model's own cost with one term or input changed (F halved, C's write left out or counted twice, the
    element size in bits, the reuse inside a tile left out or counted twice, C written every K step; with `s_other`,
    every element the other dtype's size)."""
    s_out = s_in if s_out is None else s_out
    def model(a, b):
        return kernels.matmul_no_reuse(N, a, b) if T is None else kernels.matmul_tiled(N, T, a, b)

    cost = model(s_in, s_out)
    found = {"fma-one": Cost(cost.F // 2, cost.Q_read, cost.Q_write),
             "c-write": Cost(cost.F, cost.Q_read, 0),
             "c-read": Cost(cost.F, cost.Q_read + cost.Q_write, cost.Q_write),
             "bits-bytes": model(8 * s_in, 8 * s_out)}
    if s_other is not None:
        found["dtype-other"] = model(s_other, s_other)
    if T is not None:
        found.update({"tile-reuse-ignored": kernels.matmul_no_reuse(N, s_in, s_out),
                      "tile-reuse-twice": Cost(cost.F, cost.Q_read // T, cost.Q_write),
                      "output-per-k": Cost(cost.F, cost.Q_read, cost.Q_write * (N // T))})
    return found


def named(variants: dict, kinds, value, hints=MATMUL_HINTS, *, dtype: str) -> tuple[Mistake, ...]:
    """The mistakes of `kinds` (those `variants` has), each's value `value(variant)`: the question's own quantity
    computed from the mistaken cost (or machine); each hint's units of work those of `dtype`, the question's
    (`fmt.in_units`: "2 FLOPs", or "2 OPs" for an integer dtype)."""
    return tuple(Mistake(kind, value(variants[kind]), fmt.in_units(hints[kind], dtype)) for kind in kinds if kind in variants)


# ---------------------------------------------------------------- conditions the pages do not compute

def other_dtype(catalog, dtype: str, avoid=()) -> str:
    """A data type of another element size than `dtype` (FP16 for FP32, FP32 for FP16): a new condition; one whose
    size is not in `avoid` either when there is one (a size that would make the answer one of the page's)."""
    s = catalog.bytes_per(dtype)
    names = [n for n in ("FP16", "BF16", "FP32", *catalog.dtypes) if n in catalog.dtypes and catalog.dtypes[n] != s]
    return next((n for n in names if catalog.dtypes[n] not in avoid), names[0] if names else dtype)


def compared_dtype(preset, catalog, dtype: str) -> tuple[str, Fraction | None]:
    """The second dtype of a question that runs a matmul in another dtype on the same machine, with the peak it is
    judged with: of another element size than `dtype`, a floating-point one first (FP16, BF16, FP32; an integer one
    counts other work, OPs), a storage type (TF32 is not one), and one `preset` has a peak for — its own P, never
    `dtype`'s. (`other_dtype`, None) when the preset has a peak for no such dtype (the course's virtual hardware,
    FP32 alone): the question then states the P it takes as an assumption."""
    s = catalog.bytes_per(dtype)
    names = [n for n in dict.fromkeys(("FP16", "BF16", "FP32", *catalog.dtypes))
             if n in catalog.dtypes and catalog.dtypes[n] != s and n != "TF32"]
    names.sort(key=fmt.integer_dtype)   # (stable: the order above among floats, then integers)
    found = next((n for n in names if n in preset.peak), None)
    return (found, preset.peak[found]) if found else (other_dtype(catalog, dtype), None)


def other_size(catalog, dtype: str) -> int:
    """The element size of `other_dtype`: what a student who took the problem's dtype for the other common one uses."""
    return catalog.bytes_per(other_dtype(catalog, dtype))


def half(N: int) -> int:
    """Another matrix side: N/2 (2N when N is odd or tiny)."""
    return N // 2 if N % 2 == 0 and N >= 4 else 2 * N


def divisor_near(N: int, target, avoid=()) -> int:
    """The divisor of N (not 1, not N, not in `avoid`) nearest `target`, the larger on a tie."""
    found = [d for d in divisors(N) if 1 < d < N and d not in avoid] or [N]
    return min(found, key=lambda d: (abs(d - target), -d))


def shape(N: int) -> str:
    return f"{fmt.integer(N)}×{fmt.integer(N)}"


def memory_name(preset) -> str:
    """The machine's memory as a statement calls it: "HBM" for every HBM generation, else its own name (GDDR6)."""
    return ko.memory_name(preset.memory)


def dtype_text(dtype: str, s: int) -> str:
    return f"{dtype}(원소 {s} Byte)"
