"""Exercises the reader answers: the week-4 guide's shared problem as a worksheet, and each chapter's last
questions (①–⑤ and the week-3 note). Every answer is the model's exact value for the chapter's problem (the
values of its parameter cell), so the answers follow a changed parameter; nothing here is typed.

One rule judges a typed answer, here (`judge`, for `check` in Colab and Jupyter) and in the page's script
(_static/exercises.js, which only compares with the fractions this module puts in the page):

    typed with k significant digits, its last digit at 10^e:
        right       when it equals the answer exactly (0.25 for 1/4), or |typed − answer| < 10^e (rounded or
                    cut off at its last digit) and k ≥ digits (DIGITS unless the reader asks for fewer);
        "digits"    when it is right to its last digit but has fewer than `digits` significant digits;
        "unit"      when it is exactly, or with at least min(FEWER) significant digits to its last digit, right in
                    another unit of the same kind (GiB for GB, s for ms): a one-digit guess is no unit mistake;
        "wrong"     otherwise; the message then gives the formula as a hint.

    Significant digits: leading zeros do not count; trailing zeros of a whole number without a point do not
    count ("137400000000" has 4), after a point they do ("17.20" has 4). Accepted: 1,374 · 1.374e11 ·
    1.374×10^11 · 1.374×10¹¹, and the asked unit after the number.
"""
from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from dataclasses import dataclass
from fractions import Fraction

from roofline import buffers, kernels
from roofline.cost import Cost, Timing
from roofline.errors import ParameterError
from roofline.problems import divisors, week4_cases
from roofline.show import fmt, ko

DIGITS = 4                 # significant digits a typed answer needs, unless the reader asks for fewer
FEWER = (3, 2)             # the fewer digits a reader may ask for
EXAMPLE = Fraction(355, 113)   # the page's example of the rule (3.14159…): not an answer of any exercise


# ---------------------------------------------------------------- units

@dataclass(frozen=True)
class Unit:
    name: str        # as written beside the field: "GB"
    size: Fraction   # in the base unit of its kind: GB → 10⁹ (Byte)
    base: str        # that base unit: "Byte"


def _power(size: Fraction) -> str:
    """10⁹, 2³⁰, 10⁻³: a unit's size as the power it is."""
    sup = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
    for base in (10, 2):
        for n in range(-30, 61):
            if Fraction(base) ** n == size:
                return f"{base}{str(n).translate(sup)}"
    return fmt.number(size)


def _kind(base: str, *units: tuple[str, Fraction]) -> dict[str, Unit]:
    return {name: Unit(name, Fraction(size), base) for name, size in ((base, 1),) + units}


KINDS = [
    _kind("Byte", ("KB", 10**3), ("KiB", 2**10), ("MB", 10**6), ("MiB", 2**20), ("GB", 10**9), ("GiB", 2**30)),
    _kind("FLOPs", ("GFLOPs", 10**9), ("TFLOPs", 10**12)),
    _kind("FLOPs/s", ("GFLOPs/s", 10**9), ("TFLOPs/s", 10**12)),
    _kind("s", ("ms", Fraction(1, 10**3)), ("µs", Fraction(1, 10**6))),
    _kind("FLOPs/Byte"),
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
    digits: int      # significant digits
    last: int        # the exponent of its last significant digit


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_NUMBER = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?")
UNREADABLE = "다시: 숫자로 적자. 쉼표, 1.374e11 같은 지수 표기, 칸 옆의 단위는 써도 된다."


def read(text: str, unit: Unit | None = None) -> Typed:
    """A typed answer as its exact value, significant digits and last digit; ValueError if it is no number."""
    t = str(text).strip()
    if unit is not None and t.endswith(unit.name):
        t = t[: -len(unit.name)]
    t = re.sub(r"[\s,_\u00a0\u2009\u202f]", "", t).replace("−", "-")
    t = re.sub(r"(?:[×xX*]10(?:\^|\*\*))([+-]?\d+)$", r"e\1", t)
    t = re.sub(r"[×xX*]10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)$", lambda m: "e" + m[1].translate(_SUPERSCRIPT), t)
    m = _NUMBER.fullmatch(t.replace("E", "e"))
    if not m or not (m[2] or m[3]):
        raise ValueError(text)
    sign, whole, part, exp = m[1], m[2] or "", m[3], int(m[4] or 0)
    digits = (whole + (part or "")).lstrip("0")
    last = exp - len(part or "")
    if part is None:                       # a whole number: its trailing zeros are not significant
        stripped = digits.rstrip("0")
        last += len(digits) - len(stripped)
        digits = stripped
    mantissa = int(digits or "0")
    value = Fraction(-mantissa if sign == "-" else mantissa) * Fraction(10) ** last
    return Typed(value, max(1, len(digits)), last)


def typed_text(value) -> str:
    """What the reader wrote, as text: a str as it is, an int in full, a float by its shortest repr (17.0 → "17")."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ParameterError(f"답: 숫자(17.25) 또는 문자열(\"17.250\")로 적자. 받은 값: {value!r}")
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def near(typed: Typed, target: Fraction) -> bool:
    """|typed − target| < 10^e: right to the typed value's last digit (rounded or cut off)."""
    return abs(typed.value - target) < Fraction(10) ** typed.last


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


def _unit_text(value, unit: str) -> str:
    """A result as a solution writes it: "285,212,672 Byte", "0.858993 ms", "2,666,666,666 원소"."""
    u = UNITS[unit]
    return f"{fmt.number(Fraction(value) / u.size, 6)} {unit}"


def _eq(name: str, formula: str, numbers: str, value, unit: str, also: str | None = None, scale=1) -> Step:
    """A solution line: the formula, the question's numbers put in, and the model's value (also in `also`)."""
    shown = _unit_text(value, unit) + (f" = {_unit_text(value, also)}" if also else "")
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
        return f"{fmt.number(self.in_unit, 6)}{space}{self.unit.name}"

    @property
    def ask(self) -> str:
        """The question with what the judge expects: its unit and precision, or that it is a choice."""
        if self.is_choice:
            return f"{self.text} (하나를 고른다.)"
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
    reason: str       # "right", "digits", "unit", "wrong", "unreadable", "question", "solution"
    message: str

    def __repr__(self):
        return f"{self.key} {self.message}"


RIGHT = "정답이다."


def digits_message(digits: int) -> str:
    return f"다시: 적은 자리까지는 맞다. 유효숫자 {digits}자리 이상으로 적자."


def wrong_message(q: Question) -> str:
    return f"다시. 힌트: {q.hint}"


def choice_unreadable(q: Question) -> str:
    return "다시: 다음 가운데 하나로 답하자. " + ", ".join(f"{label}(\"{key}\")" for key, label in q.choices)


def judge(q: Question, typed, digits: int = DIGITS) -> Verdict:
    """The rule of this module's docstring, for one typed answer (a str, int or float); a choice is right when it
    names the answer's key or label, and nothing else."""
    text = typed_text(typed)        # a list or None is the caller's mistake: ParameterError
    if q.is_choice:
        picked = next((key for key, label in q.choices if text.strip() in (key, label)), None)
        if picked is None:
            return Verdict(q.key, False, "unreadable", choice_unreadable(q))
        return (Verdict(q.key, True, "right", RIGHT) if picked == q.value
                else Verdict(q.key, False, "wrong", wrong_message(q)))
    try:
        t = read(text, q.unit)
    except ValueError:
        return Verdict(q.key, False, "unreadable", UNREADABLE)
    target = q.in_unit
    if t.value == target or (near(t, target) and t.digits >= digits):
        return Verdict(q.key, True, "right", RIGHT)
    if near(t, target):
        return Verdict(q.key, False, "digits", digits_message(digits))
    for other in others(q.unit):
        value = Fraction(q.value) / other.size
        if t.value == value or (near(t, value) and t.digits >= min(FEWER)):
            return Verdict(q.key, False, "unit", unit_message(q.unit, other))
    return Verdict(q.key, False, "wrong", wrong_message(q))


# ---------------------------------------------------------------- a chapter's set

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
        kind (the asked one first) or a choice's key, the messages of every verdict, the worked solution."""
        out = {}
        for q in self.questions:
            item = {"right": RIGHT, "wrong": wrong_message(q), "steps": [s.text for s in q.steps],
                    "answer": f"답: {q.answer}"}
            if q.is_choice:
                item.update({"choice": q.value, "unreadable": choice_unreadable(q)})
            else:
                units = [q.unit] + others(q.unit)
                values = [Fraction(q.value) / u.size for u in units]
                item.update({
                    "unit": q.unit.name,
                    "targets": [[u.name, str(v.numerator), str(v.denominator)] for u, v in zip(units, values)],
                    "digits": {str(d): digits_message(d) for d in (DIGITS,) + FEWER},
                    "units": {u.name: unit_message(q.unit, u) for u in units[1:]},
                })
            out[q.key] = item
        return {"digits": DIGITS, "unitDigits": min(FEWER), "unreadable": UNREADABLE, "questions": out}

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
    """The judging rule as the page states it, with an example the rule itself decides; how to ask for fewer
    digits on the site (a menu) or in a notebook (digits=3); how to see the worked solution."""
    q = Question("예", "", EXAMPLE, UNITS["개"], "")
    up = fmt.decimal(EXAMPLE, DIGITS - 1)                        # rounded to DIGITS digits (one before the point)
    cut = fmt.decimal(Fraction(int(EXAMPLE * 10 ** (DIGITS - 1)), 10 ** (DIGITS - 1)), DIGITS - 1)
    short = fmt.decimal(EXAMPLE, DIGITS - 2)
    assert judge(q, up).right and judge(q, cut).right and judge(q, short).reason == "digits"
    fewer = ("더 적은 자리로 맞춰 보려면 판정할 자릿수를 고른다." if site
             else f"더 적은 자리로 맞춰 보려면 `digits={DIGITS - 1}`을 덧붙인다.")
    solution = ("풀이 단추를 누르면 식, 문제의 숫자를 넣은 식, 중간값, 답이 차례로 나온다." if site
                else "`show=True`는 식, 문제의 숫자를 넣은 식, 중간값, 답을 차례로 보인다.")
    return (f"적은 값이 그 마지막 자리까지 맞으면 정답이다. 반올림해도, 버려도 된다. 답이 {fmt.decimal(EXAMPLE, 6)}…이면 "
            f"{ko.particle(up, '과/와')} {ko.particle(cut, '은/는')} 맞고, {ko.particle(short, '은/는')} 자릿수가 모자라다. "
            f"유효숫자는 {DIGITS}자리 이상 적는다. 답이 정확히 맞으면 자릿수가 적어도 된다. {fewer} "
            f"쉼표와 지수 표기(1.374e11)도 된다. 단위는 문제에 적힌 것을 쓴다. 고르는 문제는 고른 답이 맞아야 정답이다. "
            f"틀리면 쓸 식을 알려 준다. {solution}")


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
    shown = re.sub(r">(?=<[^/])", ">\n", head + body)   # not inside an empty element (the feedback)
    return (f'<section class="rl-quiz" data-rl-quiz="{_e(ex.key)}" aria-label="스스로 확인하는 문제">\n'
            f'<script type="application/json" class="rl-quiz-data">{data}</script>\n{shown}\n</section>')


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

def _v(x) -> str:
    """A number put into a formula: an integer with separators, else 6 decimals without trailing zeros."""
    return fmt.number(x, 6)


def _ms(seconds) -> str:
    """A time put into a formula or a comparison, in ms."""
    return f"{fmt.number(Fraction(seconds) * 1000, 6)} ms"


def _tera(x) -> str:
    """A rate in units of 10¹² (TFLOPs/s, TB/s) put into a formula: 989.4, 3.35."""
    return fmt.number(Fraction(x) / 10**12, 6)


def _rate(x) -> str:
    """A rate (FLOPs/s, Byte/s) put into a formula as a × 10ⁿ."""
    return fmt.power10(x)


def _matmul_steps(N: int, T: int | None, s_in: int, s_out: int | None = None, q_unit: str = "Byte"):
    """F, Q and I of a square N×N matmul (no reuse when T is None, else T×T output tiles), as solution lines."""
    s_out = s_in if s_out is None else s_out
    cost = kernels.matmul_no_reuse(N, s_in, s_out) if T is None else kernels.matmul_tiled(N, T, s_in, s_out)
    sub = "" if T is None else "_T"
    per = "" if T is None else "/T"
    if s_in == s_out:
        formula, numbers = f"2·s·N³{per} + s·N²", f"2·{s_in}·{_v(N)}³{'' if T is None else '/' + _v(T)} + {s_out}·{_v(N)}²"
    else:
        formula = f"2·s_in·N³{per} + s_out·N²"
        numbers = f"2·{s_in}·{_v(N)}³{'' if T is None else '/' + _v(T)} + {s_out}·{_v(N)}²"
    steps = [
        _eq("F", "2N³", f"2·{_v(N)}³", cost.F, "FLOPs"),
        _eq(f"Q{sub}", formula, numbers, cost.Q, "Byte", None if q_unit == "Byte" else q_unit),
        _eq(f"I{sub}", f"F / Q{sub}", f"{_v(cost.F)} / {_v(cost.Q)}", cost.I, "FLOPs/Byte"),
    ]
    return cost, steps


def _time_steps(cost, hw, names=("F", "Q")) -> tuple[Timing, list[Step]]:
    """t_compute = F/P, t_memory = Q/BW and t_ideal = max(…), in ms."""
    t = Timing(cost, hw)
    F, Q = names
    tc = _eq("t_compute", f"{F} / P", f"{_v(cost.F)} / ({_rate(hw.P)})", t.t_compute, "ms")
    tm = _eq("t_memory", f"{Q} / BW", f"{_v(cost.Q)} / ({_rate(hw.BW)})", t.t_memory, "ms")
    ti = _eq("t_ideal", "max(t_compute, t_memory)", f"max({_ms(t.t_compute)}, {_ms(t.t_memory)})",
             t.t_ideal, "ms", scale=Fraction(1, 1000))
    return t, [tc, tm, ti]


BOUND_CHOICES = (("memory", "메모리 한계"), ("compute", "연산 한계"))


def _bound_by_times(t: Timing) -> Step:
    label = dict(BOUND_CHOICES)[t.bound]
    relation = ">" if t.t_memory > t.t_compute else "≤"
    return Step(f"t_memory = {_ms(t.t_memory)} {relation} t_compute = {_ms(t.t_compute)}이므로 "
                f"{ko.particle(label, '이다/다')}", t.bound, "bound")


def _bound_by_ridge(I, hw) -> tuple[str, list[Step]]:
    key = "memory" if I < hw.ridge else "compute"
    label = dict(BOUND_CHOICES)[key]
    ridge = _eq("I*", "P / BW", f"({_rate(hw.P)}) / ({_rate(hw.BW)})", hw.ridge, "FLOPs/Byte")
    relation = "<" if I < hw.ridge else "≥"
    verdict = Step(f"I = {fmt.number(I, 6)} {relation} I* = {fmt.number(hw.ridge, 6)}이므로 {ko.particle(label, '이다/다')}",
                   key, "bound")
    return key, [ridge, verdict]


def _given(**values) -> tuple:
    return tuple(values.items())


# ---------------------------------------------------------------- conditions the pages do not compute

def _other_dtype(catalog, dtype: str) -> str:
    """A data type of another element size than `dtype` (FP16 for FP32, FP32 for FP16): a new condition."""
    s = catalog.bytes_per(dtype)
    for name in ("FP16", "BF16", "FP32", *catalog.dtypes):
        if name in catalog.dtypes and catalog.dtypes[name] != s:
            return name
    return dtype


def _half(N: int) -> int:
    """Another matrix side: N/2 (2N when N is odd or tiny)."""
    return N // 2 if N % 2 == 0 and N >= 4 else 2 * N


def _divisor_near(N: int, target, avoid=()) -> int:
    """The divisor of N (not 1, not N, not in `avoid`) nearest `target`, the larger on a tie."""
    found = [d for d in divisors(N) if 1 < d < N and d not in avoid] or [N]
    return min(found, key=lambda d: (abs(d - target), -d))


def _shape(N: int) -> str:
    return f"{fmt.integer(N)}×{fmt.integer(N)}"


def _dtype_text(dtype: str, s: int) -> str:
    return f"{dtype}(원소 {s} Byte)"


# ---------------------------------------------------------------- the course's exercises

def guide(w4) -> Exercises:
    """The week-4 guide's shared problem: for every case F, Q, I, R_roof, the two times, t_ideal, the input
    buffers and the partial sums, each with its worked solution."""
    cases = week4_cases(w4)
    s, N, hw = w4.s, w4.N, w4.hardware
    rows = [("F", "F 연산량"), ("Q", "Q HBM 이동량"), ("I", "I 산술 강도"), ("R_roof", "R_roof 성능 상한"),
            ("t_compute", "연산 시간 F/P"), ("t_memory", "메모리 시간 Q/BW"), ("t_ideal", "이상적 시간"),
            ("inputs", "입력 버퍼"), ("acc", "중간 합")]
    questions, cols = [], []
    for c in cases:
        case = "없음" if c.T is None else str(c.T)
        label = ko.case(c)
        cols.append((case, label))
        b = buffers.tile_buffers(c.T, c.T, c.T, s, s) if c.T else buffers.TileBuffers(s, s, s)
        cost, (F, Q, I) = _matmul_steps(N, c.T, s, q_unit="GB")
        assert cost == c.cost
        t, (tc, tm, ti) = _time_steps(cost, hw)
        R = _eq("R_roof", "min(P, BW × I)", f"min({_tera(hw.P)}, {_tera(hw.BW)} × {fmt.number(cost.I, 6)})",
                t.R_roof, "TFLOPs/s", scale=10**12)
        if c.T is None:
            inputs = _eq("입력 버퍼", "2·s (A와 B의 원소 하나씩)", f"2·{s}", b.inputs, "Byte")
            acc = _eq("중간 합", "s (출력 원소 하나)", str(s), b.acc, "Byte")
        else:
            inputs = _eq("입력 버퍼", "2·s·T²", f"2·{s}·{_v(c.T)}²", b.inputs, "Byte")
            acc = _eq("중간 합", "s·T²", f"{s}·{_v(c.T)}²", b.acc, "Byte")
        Q_hint = "Q = 2·s·N³ + s·N²" if c.T is None else "Q = 2·s·N³/T + s·N²"
        values = {
            "F": (c.cost.F, "FLOPs", "F = 2N³", [F]),
            "Q": (c.cost.Q, "GB", f"{Q_hint}, GB = 10⁹ Byte", [Q]),
            "I": (c.cost.I, "FLOPs/Byte", "I = F / Q", [F, Q, I]),
            "R_roof": (c.timing.R_roof, "TFLOPs/s", "R_roof = min(P, BW × I)", [F, Q, I, R]),
            "t_compute": (c.timing.t_compute, "ms", "연산 시간 = F / P", [F, tc]),
            "t_memory": (c.timing.t_memory, "ms", "메모리 시간 = Q / BW", [Q, tm]),
            "t_ideal": (c.timing.t_ideal, "ms", "이상적 시간 = max(F/P, Q/BW)", [F, Q, tc, tm, ti]),
            "inputs": (b.inputs, "Byte", "A·B 원소 하나씩 = 2·s" if c.T is None else "A·B 조각 = 2·s·T²", [inputs]),
            "acc": (b.acc, "Byte", "출력 원소 하나 = s" if c.T is None else "출력 타일 = s·T²", [acc]),
        }
        for row, name in rows:
            value, unit, hint, steps = values[row]
            assert steps[-1].value == value
            questions.append(Question(f"{row}-{case}", f"{label}: {name}", Fraction(value), UNITS[unit], hint,
                                      tuple(steps), given=_given(N=N, T=c.T, s=s, P=hw.P, BW=hw.BW)))
    return Exercises("guide", tuple(questions), tuple(rows), tuple(cols))


def intensity(w4) -> Exercises:
    """① I of a tiled matmul at another N and T, of another kernel (AXPY) in another dtype, of the read-once
    matmul with mixed precision, and whether a tiled matmul is memory- or compute-bound."""
    N, s, dtype, cat = w4.N, w4.s, w4.dtype, w4.catalog
    # ①-4 states P and BW: the week's machine at the chapter's dtype, or at a dtype it has (① sets no hardware,
    # so a reader may choose a dtype the machine has no peak for)
    preset = cat.presets[w4.hardware_key]
    hw = preset.roofline(dtype if dtype in preset.peak else next(iter(preset.peak)))
    N1 = _half(N)
    T1 = _divisor_near(N1, 2 * max(w4.tiles), w4.tiles)
    d2 = _other_dtype(cat, dtype)
    s2 = cat.bytes_per(d2)
    T_small = min(w4.tiles) if N1 % min(w4.tiles) == 0 else _divisor_near(N1, min(w4.tiles))

    cost1, steps1 = _matmul_steps(N1, T1, s)
    axpy = Fraction(2, 3 * s2)
    steps2 = (Step("F = 2L (원소마다 곱셈 한 번, 덧셈 한 번)", Fraction(2), "F/L"),
              Step(f"Q = 3·s·L (x 읽기, y 읽기, y 쓰기) = 3·{s2}·L = {3 * s2}L Byte", Fraction(3 * s2), "Q/L"),
              Step(f"I = F / Q = 2L / {3 * s2}L = {_unit_text(axpy, 'FLOPs/Byte')}", axpy, "I"))
    ideal = kernels.matmul_ideal(N1, s2, s)
    steps3 = [_eq("F", "2N³", f"2·{_v(N1)}³", ideal.F, "FLOPs"),
              _eq("Q", "2·s_in·N² + s_out·N²", f"2·{s2}·{_v(N1)}² + {s}·{_v(N1)}²", ideal.Q, "Byte"),
              _eq("I", "F / Q", f"{_v(ideal.F)} / {_v(ideal.Q)}", ideal.I, "FLOPs/Byte")]
    cost4, (F4, Q4, _) = _matmul_steps(N1, T_small, s)
    t4, (tc4, tm4, _) = _time_steps(cost4, hw)
    machine = f"P = {_rate(hw.P)} FLOPs/s, BW = {_rate(hw.BW)} Byte/s인 하드웨어"
    return Exercises("①", (
        Question("①-1", f"{_shape(N1)} {_dtype_text(dtype, s)} 행렬곱을 T = {_v(T1)} 출력 타일로 나눈다. 재사용은 타일 "
                 "안에서만 일어나고 C는 한 번 쓴다. 산술 강도 I_T는?", cost1.I, UNITS["FLOPs/Byte"],
                 "I_T = F / Q_T, F = 2N³, Q_T = 2·s·N³/T + s·N²", tuple(steps1), given=_given(N=N1, T=T1, s=s)),
        Question("①-2", f"AXPY y[i] ← a·x[i] + y[i]는 원소마다 곱셈 한 번과 덧셈 한 번을 하고, x와 y를 읽어 y에 쓴다. "
                 f"{_dtype_text(d2, s2)} 벡터에서 AXPY의 산술 강도 I는?", axpy, UNITS["FLOPs/Byte"],
                 "원소 하나마다 F와 Q를 센다: I = F / Q", steps2, given=_given(kernel="AXPY", s=s2)),
        Question("①-3", f"입력 A·B는 {_dtype_text(d2, s2)}, 출력 C는 {_dtype_text(dtype, s)}인 {_shape(N1)} 행렬곱에서 "
                 "A와 B를 HBM에서 한 번씩만 읽고 C를 한 번 쓴다면 I는?", ideal.I, UNITS["FLOPs/Byte"],
                 "I = 2N³ / (2·s_in·N² + s_out·N²)", tuple(steps3), given=_given(N=N1, s_in=s2, s_out=s)),
        Question("①-4", f"{machine}에서 {_shape(N1)} {_dtype_text(dtype, s)} 행렬곱을 T = {_v(T_small)} 출력 타일로 "
                 "계산한다. 두 시간을 견주면 이 커널은 메모리 한계인가, 연산 한계인가?", t4.bound, CHOICE,
                 "F/P와 Q_T/BW를 구해 긴 쪽을 본다", (F4, Q4, tc4, tm4, _bound_by_times(t4)), BOUND_CHOICES,
                 given=_given(N=N1, T=T_small, s=s, P=hw.P, BW=hw.BW)),
    ))


def _gpu_roofline(w4):
    """A real GPU of the week (its first example GPU) and a dtype it has, other than the chapter's when it can."""
    gpu = w4.catalog.presets[w4.gpus[0]]
    d2 = _other_dtype(w4.catalog, w4.dtype)
    dtype = d2 if d2 in gpu.peak else (w4.dtype if w4.dtype in gpu.peak else next(iter(gpu.peak)))
    return gpu, dtype, gpu.roofline(dtype), w4.catalog.bytes_per(dtype)


def roofline(w4) -> Exercises:
    """② On a real GPU in another dtype: the roof of a tiled matmul at another N and T, its time, and whether it
    is memory- or compute-bound."""
    gpu, dtype, hw, s = _gpu_roofline(w4)
    N1 = _half(w4.N)
    T1 = _divisor_near(N1, 2 * max(w4.tiles), w4.tiles)
    cost, steps = _matmul_steps(N1, T1, s)
    t = Timing(cost, hw)
    P_T, BW_T = _tera(hw.P), _tera(hw.BW)
    R = _eq("R_roof", "min(P, BW × I_T)", f"min({P_T}, {BW_T} × {fmt.number(cost.I, 6)})", t.R_roof, "TFLOPs/s",
            scale=10**12)
    time = _eq("t", "F / R_roof", f"{_v(cost.F)} / ({fmt.tera(t.R_roof, 6)} × 10¹²)", cost.F / t.R_roof, "ms")
    key, judged = _bound_by_ridge(cost.I, hw)
    setting = (f"{gpu.name}의 {dtype} 최대 성능은 P = {P_T} TFLOPs/s, HBM 대역폭은 BW = {BW_T} TB/s다. "
               f"이 GPU에서 {_shape(N1)} {_dtype_text(dtype, s)} 행렬곱을 T = {_v(T1)} 출력 타일로 계산한다"
               "(재사용은 타일 안에서만, C는 한 번 쓴다).")
    given = _given(N=N1, T=T1, s=s, P=hw.P, BW=hw.BW)
    return Exercises("②", (
        Question("②-1", f"{setting} 성능 상한 R_roof는?", t.R_roof, UNITS["TFLOPs/s"],
                 "R_roof = min(P, BW × I_T), I_T = 2N³ / (2·s·N³/T + s·N²)", tuple(steps) + (R,), given=given),
        Question("②-2", f"②-1의 행렬곱이 그 상한으로 돈다면 걸리는 시간은?", cost.F / t.R_roof, UNITS["ms"],
                 "t = F / R_roof", (steps[0], R, time), given=given),
        Question("②-3", f"②-1의 행렬곱은 이 GPU에서 메모리 한계인가, 연산 한계인가?", key, CHOICE,
                 "I_T와 분기점 I* = P / BW를 견준다", tuple(steps) + tuple(judged), BOUND_CHOICES, given=given),
    ))


def tiling(w4) -> Exercises:
    """③ The small example's count at another size and dtype, A·B reads of a larger problem, and what doubling T
    does to Q (less than halving it: the C writes stay)."""
    d2 = _other_dtype(w4.catalog, w4.dtype)
    s2 = w4.catalog.bytes_per(d2)
    n, t = 2 * w4.small_N, w4.small_T
    small = kernels.matmul_tiled(n, t, s2, s2)
    steps1 = (_eq("A·B 읽기", "2·s·N³/T", f"2·{s2}·{n}³/{t}", small.Q_read, "Byte"),
              _eq("C 쓰기", "s·N²", f"{s2}·{n}²", small.Q_write, "Byte"),
              _eq("Q_T", "A·B 읽기 + C 쓰기", f"{_v(small.Q_read)} + {_v(small.Q_write)}", small.Q, "Byte"))
    N1 = _half(w4.N)
    T1 = _divisor_near(N1, 2 * max(w4.tiles), w4.tiles)
    big = kernels.matmul_tiled(N1, T1, s2, s2)
    steps2 = (_eq("A·B 읽기", "2·s·N³/T", f"2·{s2}·{_v(N1)}³/{_v(T1)}", big.Q_read, "Byte", "GB"),)
    k = next((k for k in range(2, N1 + 1) if N1 % (k * T1) == 0), None)
    T_a = T1 if k else _divisor_near(N1, T1 // 2)
    k = k or next(k for k in range(2, N1 + 1) if N1 % (k * T_a) == 0)
    T_b = k * T_a
    Qa, Qb = kernels.matmul_tiled(N1, T_a, s2, s2).Q, kernels.matmul_tiled(N1, T_b, s2, s2).Q
    ratio = Fraction(Qb, Qa)
    choices = (("exact", f"정확히 1/{k}이 된다"), ("less", f"1/{k}보다 덜 준다"), ("more", f"1/{k}보다 더 준다"))
    key = "exact" if ratio == Fraction(1, k) else "less" if ratio > Fraction(1, k) else "more"
    steps3 = (_eq(f"Q (T = {_v(T_a)})", "2·s·N³/T + s·N²", f"2·{s2}·{_v(N1)}³/{_v(T_a)} + {s2}·{_v(N1)}²", Qa, "Byte"),
              _eq(f"Q (T = {_v(T_b)})", "2·s·N³/T + s·N²", f"2·{s2}·{_v(N1)}³/{_v(T_b)} + {s2}·{_v(N1)}²", Qb, "Byte"),
              Step(f"두 Q의 비 = {_v(Qb)} / {_v(Qa)} = {fmt.number(ratio, 6)}, 1/{k} = {fmt.number(Fraction(1, k), 6)}: "
                   f"A·B 읽기만 1/{k}이 되고 C 쓰기는 그대로이므로 {dict(choices)[key]}", key, "bound"))
    return Exercises("③", (
        Question("③-1", f"{n}×{n} {_dtype_text(d2, s2)} 행렬곱을 {t}×{t} 출력 타일로 나누어 계산한다. 재사용은 타일 "
                 "안에서만 일어난다. HBM과 오간 Q는 몇 Byte인가?", small.Q, UNITS["Byte"],
                 "Q_T = 2·s·N³/T + s·N²", steps1, given=_given(N=n, T=t, s=s2)),
        Question("③-2", f"{_shape(N1)} {_dtype_text(d2, s2)} 행렬곱을 T = {_v(T1)} 출력 타일로 나누면 A·B에서 읽는 양은?",
                 big.Q_read, UNITS["GB"], "A·B 읽기 = 2·s·N³/T, GB = 10⁹ Byte", steps2, given=_given(N=N1, T=T1, s=s2)),
        Question("③-3", f"같은 {_shape(N1)} {d2} 행렬곱에서 T를 {_v(T_a)}에서 {ko.particle(_v(T_b), '으로/로')} {k}배 키우면 총 Q는 어떻게 되나?",
                 key, CHOICE, "Q_T = 2·s·N³/T + s·N²에서 T와 상관없는 항을 본다", steps3, choices,
                 given=_given(N=N1, s=s2, T_a=T_a, T_b=T_b)),
    ))


def tile_size(w4) -> Exercises:
    """④ A rectangular tile's input buffers in another dtype, its double-buffered storage with an FP32 partial sum,
    whether a larger tile's double-buffered inputs fit one SM's Shared Memory, and the A·B reads for a T_K."""
    cat = w4.catalog
    d2 = _other_dtype(cat, w4.dtype)
    s2, s_acc = cat.bytes_per(d2), cat.bytes_per("FP32")
    tiles = sorted(w4.tiles)
    T_s, T_m, T_b = tiles[0], tiles[len(tiles) // 2], tiles[-1]
    TM, TN, TK = 2 * T_b, T_s, T_m
    one = buffers.tile_buffers(TM, TN, TK, s2, s_acc)
    two = buffers.tile_buffers(TM, TN, TK, s2, s_acc, copies=2)
    tile = f"T_M×T_N×T_K = {TM}×{TN}×{TK}"
    steps1 = (_eq("A 조각", "s·T_M·T_K", f"{s2}·{TM}·{TK}", one.A, "Byte"),
              _eq("B 조각", "s·T_K·T_N", f"{s2}·{TK}·{TN}", one.B, "Byte"),
              _eq("입력 버퍼", "A 조각 + B 조각", f"{_v(one.A)} + {_v(one.B)}", one.inputs, "Byte", "KiB"))
    steps2 = (_eq("입력 버퍼 (두 벌)", "2·s·(T_M·T_K + T_K·T_N)", f"2·{s2}·({TM}·{TK} + {TK}·{TN})", two.inputs, "Byte"),
              _eq("중간 합", "s_acc·T_M·T_N", f"{s_acc}·{TM}·{TN}", two.acc, "Byte"),
              _eq("합", "입력 버퍼 + 중간 합", f"{_v(two.inputs)} + {_v(two.acc)}", two.total, "Byte", "KiB"))
    gpu = cat.presets[w4.gpus[0]]
    FM, FN, FK = 2 * T_b, T_b, T_b
    fit = buffers.tile_buffers(FM, FN, FK, s2, s_acc, copies=2)
    key = "fits" if fit.inputs <= gpu.smem_per_SM else "no"
    choices = (("fits", "들어간다"), ("no", "들어가지 않는다"))
    steps3 = (_eq("입력 버퍼 (두 벌)", "2·s·(T_M·T_K + T_K·T_N)", f"2·{s2}·({FM}·{FK} + {FK}·{FN})", fit.inputs, "Byte",
                  "KiB"),
              Step(f"{fmt.kib(fit.inputs)} {'≤' if key == 'fits' else '>'} Shared Memory {fmt.kib(gpu.smem_per_SM)}이므로 "
                   f"{dict(choices)[key]}", key, "fits"))
    N1 = _half(w4.N)
    T_mm = T_m if N1 % T_m == 0 else _divisor_near(N1, T_m)
    T_K = T_s if N1 % T_s == 0 else _divisor_near(N1, T_s)
    reads = kernels.matmul_tiles(N1, N1, N1, T_mm, T_mm, T_K, s2, s2)
    steps4 = (Step(f"출력 타일 (N/T_M)·(N/T_N) = {_v(N1 // T_mm)}·{_v(N1 // T_mm)}개, 타일마다 K 단계 N/T_K = "
                   f"{_v(N1 // T_K)}번, 단계마다 s·(T_M·T_K + T_K·T_N) = {_v(s2 * (2 * T_mm * T_K))} Byte",
                   Fraction(s2 * 2 * T_mm * T_K), "per step"),
              _eq("A·B 읽기", "(N/T_M)·(N/T_N)·(N/T_K)·s·(T_M·T_K + T_K·T_N)",
                  f"{_v(N1 // T_mm)}·{_v(N1 // T_mm)}·{_v(N1 // T_K)}·{s2}·({T_mm}·{T_K} + {T_K}·{T_mm})",
                  reads.Q_read, "Byte", "GB"))
    return Exercises("④", (
        Question("④-1", f"{_dtype_text(d2, s2)} 행렬곱의 직사각 타일 {ko.particle(tile, '이/가')} 붙잡는 A·B 입력 버퍼(한 벌)는?",
                 one.inputs, UNITS["KiB"], "입력 버퍼 = s·(T_M·T_K + T_K·T_N), KiB = 2¹⁰ Byte", steps1,
                 given=_given(T_M=TM, T_N=TN, T_K=TK, s=s2)),
        Question("④-2", f"같은 타일에 이중 버퍼링을 쓰고 중간 합은 FP32({s_acc} Byte)로 누산한다. 입력 버퍼와 중간 합을 "
                 "합친 공간은?", two.total, UNITS["KiB"], "2·s·(T_M·T_K + T_K·T_N) + s_acc·T_M·T_N", steps2,
                 given=_given(T_M=TM, T_N=TN, T_K=TK, s=s2, s_acc=s_acc)),
        Question("④-3", f"{d2} 타일 T_M×T_N×T_K = {FM}×{FN}×{FK}의 입력 버퍼를 이중 버퍼링으로 Shared Memory에 둔다. "
                 f"{gpu.name}의 SM 하나(Shared Memory {fmt.kib(gpu.smem_per_SM)})에 들어가는가?", key, CHOICE,
                 "이중 버퍼링 입력 = 2·s·(T_M·T_K + T_K·T_N)를 Shared Memory와 견준다", steps3, choices,
                 given=_given(T_M=FM, T_N=FN, T_K=FK, s=s2)),
        Question("④-4", f"{_shape(N1)} {_dtype_text(d2, s2)} 행렬곱에서 출력 타일을 {ko.particle(f'{T_mm}×{T_mm}', '으로/로')} "
                 f"두고 K 조각 폭을 T_K = {ko.particle(str(T_K), '으로/로')} 잡는다. 타일 사이의 재사용이 없을 때 HBM에서 읽는 A·B의 양은?", reads.Q_read, UNITS["GB"],
                 "A·B 읽기 = (N/T_M)·(N/T_N)·(N/T_K)·s·(T_M·T_K + T_K·T_N): T_K는 약분된다", steps4,
                 given=_given(N=N1, T_M=T_mm, T_N=T_mm, T_K=T_K, s=s2)),
    ))


def matmul(w4) -> Exercises:
    """⑤ At another N and T: the ideal time, the no-reuse memory time in another dtype, the smallest T that
    reaches the ridge in that dtype, and whether a small tile is memory- or compute-bound there."""
    hw, s, N, cat = w4.hardware, w4.s, w4.N, w4.catalog
    N5 = 3 * N // 2 if N % 2 == 0 else 3 * N
    T5 = _divisor_near(N5, 3 * min(w4.tiles), w4.tiles)
    d2 = _other_dtype(cat, w4.dtype)
    s2 = cat.bytes_per(d2)
    machine = f"P = {_rate(hw.P)} FLOPs/s, BW = {_rate(hw.BW)} Byte/s"
    cost1, (F1, Q1, _) = _matmul_steps(N5, T5, s)
    t1, times1 = _time_steps(cost1, hw)
    plain = kernels.matmul_no_reuse(N5, s2, s2)
    t2 = Timing(plain, hw)
    steps2 = (_matmul_steps(N5, None, s2)[1][1],
              _eq("t_memory", "Q / BW", f"{_v(plain.Q)} / ({_rate(hw.BW)})", t2.t_memory, "ms"))
    questions = [
        Question("⑤-1", f"{machine}인 하드웨어에서 {_shape(N5)} {_dtype_text(w4.dtype, s)} 행렬곱을 T = {_v(T5)} "
                 "출력 타일로 계산한다. 이상적 시간 t_ideal은?", t1.t_ideal, UNITS["ms"],
                 "t_ideal = max(F/P, Q_T/BW), Q_T = 2·s·N³/T + s·N²", (F1, Q1, *times1),
                 given=_given(N=N5, T=T5, s=s, P=hw.P, BW=hw.BW)),
        Question("⑤-2", f"같은 하드웨어(P와 BW 그대로)에서 {_shape(N5)} {_dtype_text(d2, s2)} 행렬곱을 재사용 없이 "
                 "계산하면 메모리 시간 Q/BW는?", t2.t_memory, UNITS["ms"], "Q = 2·s·N³ + s·N², 메모리 시간 = Q / BW",
                 steps2, given=_given(N=N5, s=s2, BW=hw.BW)),
    ]
    threshold = kernels.tile_threshold(N5, hw.ridge, s2, s2)
    ridge = _eq("I*", "P / BW", f"({_rate(hw.P)}) / ({_rate(hw.BW)})", hw.ridge, "FLOPs/Byte")
    if threshold is not None:
        steps3 = (ridge, _eq("T*", "2·s·N·I* / (2N − s·I*)",
                             f"2·{s2}·{_v(N5)}·{_v(hw.ridge)} / (2·{_v(N5)} − {s2}·{_v(hw.ridge)})", threshold, "원소"))
        questions.append(Question("⑤-3", f"같은 {_shape(N5)} {d2} 행렬곱에서 I_T가 분기점 I*에 닿는 T의 최솟값 T*(실수)는?",
                                  threshold, UNITS["원소"], "I_T = 2N³ / (2·s·N³/T + s·N²) = I*를 T에 대해 푼다",
                                  steps3, given=_given(N=N5, s=s2, P=hw.P, BW=hw.BW)))
    else:   # no tile reaches the ridge on this machine: the compute time instead
        t3 = Timing(plain, hw)
        steps3 = (_eq("F", "2N³", f"2·{_v(N5)}³", plain.F, "FLOPs"),
                  _eq("t_compute", "F / P", f"{_v(plain.F)} / ({_rate(hw.P)})", t3.t_compute, "ms"))
        questions.append(Question("⑤-3", f"같은 {_shape(N5)} {d2} 행렬곱의 연산 시간 F/P는?", t3.t_compute, UNITS["ms"],
                                  "연산 시간 = F / P, F = 2N³", steps3, given=_given(N=N5, s=s2, P=hw.P)))
    T_small = min(w4.tiles) if N5 % min(w4.tiles) == 0 else _divisor_near(N5, min(w4.tiles))
    cost4, steps4 = _matmul_steps(N5, T_small, s2)
    key, judged = _bound_by_ridge(cost4.I, hw)
    questions.append(Question("⑤-4", f"같은 하드웨어에서 {_shape(N5)} {d2} 행렬곱을 T = {_v(T_small)} 출력 타일로 계산하면 "
                              "메모리 한계인가, 연산 한계인가?", key, CHOICE, "I_T와 분기점 I* = P / BW를 견준다",
                              tuple(steps4) + tuple(judged), BOUND_CHOICES,
                              given=_given(N=N5, T=T_small, s=s2, P=hw.P, BW=hw.BW)))
    return Exercises("⑤", tuple(questions))


def vector_add(w3) -> Exercises:
    """The week-3 note: the memory time of a longer vector in another dtype, a three-input kernel's ideal time,
    the longest vectors that fit in another dtype, and whether a heavier element-wise kernel is memory-bound."""
    hw, s, L, cat = w3.hardware, w3.s, w3.L, w3.catalog
    d2 = _other_dtype(cat, w3.dtype)
    s2 = cat.bytes_per(d2)
    L1 = 3 * L
    longer = kernels.vector_add(L1, s2)
    t1 = Timing(longer, hw)
    steps1 = (_eq("Q", "3·s·L", f"3·{s2}·{_v(L1)}", longer.Q, "Byte"),
              _eq("t_memory", "Q / BW", f"{_v(longer.Q)} / ({_rate(hw.BW)})", t1.t_memory, "ms"))
    three = Cost(F=2 * L, Q_read=3 * s * L, Q_write=s * L)
    t2 = Timing(three, hw)
    steps2 = (_eq("F", "2L", f"2·{_v(L)}", three.F, "FLOPs"),
              _eq("Q", "4·s·L", f"4·{s}·{_v(L)}", three.Q, "Byte"),
              *_time_steps(three, hw)[1])
    longest = w3.capacity // (3 * s2)
    steps3 = (_eq("3·s", "A, B, C 원소 하나씩", f"3·{s2}", 3 * s2, "Byte"),
              _eq("L", "⌊용량 / (3·s)⌋", f"⌊{_v(w3.capacity)} / {3 * s2}⌋", longest, "원소"))
    f = max(1, int(3 * s * hw.ridge / 2))
    heavy = Cost(F=f * L, Q_read=2 * s * L, Q_write=s * L)
    t4, (tc4, tm4, _) = _time_steps(heavy, hw)
    steps4 = (_eq("F", f"{f}·L", f"{f}·{_v(L)}", heavy.F, "FLOPs"), _eq("Q", "3·s·L", f"3·{s}·{_v(L)}", heavy.Q, "Byte"),
              tc4, tm4, _bound_by_times(t4))
    machine = f"P = {_rate(hw.P)} FLOPs/s, BW = {_rate(hw.BW)} Byte/s"
    return Exercises("3주", (
        Question("3주-1", f"{machine}인 하드웨어에서 길이 L = {_v(L1)}인 {_dtype_text(d2, s2)} 벡터로 Vector Add를 하면 "
                 "메모리 시간 Q/BW는?", t1.t_memory, UNITS["ms"], "Q = 3·s·L, 메모리 시간 = Q / BW", steps1,
                 given=_given(L=L1, s=s2, BW=hw.BW)),
        Question("3주-2", f"같은 하드웨어에서 D[i] = A[i] + B[i] + C[i]를 길이 L = {_v(L)}인 {_dtype_text(w3.dtype, s)} "
                 "벡터로 계산한다. 원소마다 덧셈 두 번, 읽기 셋, 쓰기 하나다. 이상적 시간은?", t2.t_ideal, UNITS["ms"],
                 "F = 2L, Q = 4·s·L, 이상적 시간 = max(F/P, Q/BW)", steps2,
                 given=_given(kernel="D = A + B + C", L=L, s=s, P=hw.P, BW=hw.BW)),
        Question("3주-3", f"메모리 {_v(w3.capacity)} Byte에 {_dtype_text(d2, s2)} 벡터 A, B, C가 모두 들어가는 가장 긴 "
                 "길이 L은? L은 원소 개수라 정수다.", Fraction(longest), UNITS["원소"],
                 "3·s·L ≤ 용량, L은 정수이므로 L = ⌊용량 / (3·s)⌋", steps3, given=_given(capacity=w3.capacity, s=s2)),
        Question("3주-4", f"같은 하드웨어에서 C[i] = g(A[i], B[i])가 원소마다 {f} FLOPs를 계산한다. 길이 L = {_v(L)}인 "
                 f"{w3.dtype} 벡터라면 이 커널은 메모리 한계인가, 연산 한계인가?", t4.bound, CHOICE,
                 "F/P와 Q/BW를 구해 긴 쪽을 본다", steps4, BOUND_CHOICES, given=_given(L=L, s=s, f=f, P=hw.P, BW=hw.BW)),
    ))
