"""Exercises the reader answers: the week-4 guide's shared problem as a worksheet, and each chapter's last
questions (①–⑤ and the week-3 note). Every answer is the model's exact value for the chapter's problem (the
values of its parameter cell), so the answers follow a changed parameter; nothing here is typed.

One rule judges a typed answer, here (`judge`, for `check` in Colab and Jupyter) and in the page's script
(_static/exercises.js, which only compares with the fractions this module puts in the page):

    typed with k significant digits, its last digit at 10^e:
        right       when it equals the answer exactly (0.25 for 1/4), or |typed − answer| < 10^e (rounded or
                    cut off at its last digit) and k ≥ digits (DIGITS unless the reader asks for fewer);
        "digits"    when it is right to its last digit but has fewer than `digits` significant digits;
        "unit"      when it is right (to its last digit) in another unit of the same kind (GiB for GB, s for ms);
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
from roofline.cost import Timing
from roofline.errors import ParameterError
from roofline.problems import week4_cases
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


# ---------------------------------------------------------------- questions and verdicts

@dataclass(frozen=True)
class Question:
    key: str          # "⑤-1"; on the worksheet quantity-case: "Q-64", "Q-없음"
    text: str         # the question, values formatted by fmt and particles by ko
    value: Fraction   # the answer in its unit's base unit (Byte, FLOPs, s, …), exact
    unit: Unit        # the unit asked for
    hint: str         # the formula, shown after a wrong try

    @property
    def in_unit(self) -> Fraction:
        return Fraction(self.value) / self.unit.size

    @property
    def answer(self) -> str:
        space = "" if self.unit.name == "개" else " "     # 28개, 80.788955 원소
        return f"{fmt.number(self.in_unit, 6)}{space}{self.unit.name}"


@dataclass(frozen=True)
class Verdict:
    key: str
    right: bool
    reason: str       # "right", "digits", "unit", "wrong", "unreadable"
    message: str

    def __repr__(self):
        return f"{self.key} {self.message}"


RIGHT = "정답이다."


def digits_message(digits: int) -> str:
    return f"다시: 적은 자리까지는 맞다. 유효숫자 {digits}자리 이상으로 적자."


def wrong_message(q: Question) -> str:
    return f"다시. 힌트: {q.hint}"


def judge(q: Question, typed, digits: int = DIGITS) -> Verdict:
    """The rule of this module's docstring, for one typed answer (a str, int or float)."""
    text = typed_text(typed)        # a list or None is the caller's mistake: ParameterError
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
        if t.value == value or near(t, value):
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
        check("⑤-1"): the question and its unit; check("⑤-1", show=True): the answer.
        To keep trailing zeros, write the answer as text: check("⑤-1", "17.250")."""
        q = self.question(key)
        if digits not in (DIGITS,) + FEWER:
            raise ParameterError(f"digits: {', '.join(map(str, (DIGITS,) + FEWER))} 가운데 하나여야 한다. 받은 값: {digits!r}")
        if show:
            return Verdict(q.key, False, "answer", f"답: {q.answer}")
        if answer is None:
            return Verdict(q.key, False, "question", f"{q.text} (단위: {q.unit.name})")
        return judge(q, answer, digits)

    # -- what the page and the notebook show

    def data(self) -> dict:
        """What the page's script compares with: per question the answer as a fraction in each unit of its
        kind (the asked one first), and the messages of every verdict."""
        out = {}
        for q in self.questions:
            units = [q.unit] + others(q.unit)
            values = [Fraction(q.value) / u.size for u in units]
            out[q.key] = {
                "unit": q.unit.name,
                "targets": [[u.name, str(v.numerator), str(v.denominator)] for u, v in zip(units, values)],
                "right": RIGHT,
                "wrong": wrong_message(q),
                "digits": {str(d): digits_message(d) for d in (DIGITS,) + FEWER},
                "units": {u.name: unit_message(q.unit, u) for u in units[1:]},
                "answer": f"답: {q.answer}",
            }
        return {"digits": DIGITS, "unreadable": UNREADABLE, "questions": out}

    def digest(self) -> str:
        text = json.dumps([[q.key, q.text, str(q.value), q.unit.name, q.hint] for q in self.questions],
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
    digits on the site (a menu) or in a notebook (digits=3)."""
    q = Question("예", "", EXAMPLE, UNITS["개"], "")
    up = fmt.decimal(EXAMPLE, DIGITS - 1)                        # rounded to DIGITS digits (one before the point)
    cut = fmt.decimal(Fraction(int(EXAMPLE * 10 ** (DIGITS - 1)), 10 ** (DIGITS - 1)), DIGITS - 1)
    short = fmt.decimal(EXAMPLE, DIGITS - 2)
    assert judge(q, up).right and judge(q, cut).right and judge(q, short).reason == "digits"
    fewer = ("더 적은 자리로 맞춰 보려면 판정할 자릿수를 고른다." if site
             else f"더 적은 자리로 맞춰 보려면 `digits={DIGITS - 1}`을 덧붙인다.")
    return (f"적은 값이 그 마지막 자리까지 맞으면 정답이다. 반올림해도, 버려도 된다. 답이 {fmt.decimal(EXAMPLE, 6)}…이면 "
            f"{ko.particle(up, '과/와')} {ko.particle(cut, '은/는')} 맞고, {ko.particle(short, '은/는')} 자릿수가 모자라다. "
            f"유효숫자는 {DIGITS}자리 이상 적는다. {fewer} "
            f"쉼표와 지수 표기(1.374e11)도 된다. 단위는 문제에 적힌 것을 쓴다.")


# ---------------------------------------------------------------- HTML (the site) and Markdown (notebooks)

def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _dom_id(ex: Exercises, q: Question) -> str:
    raw = _plain_key(q.key)
    return "rl-q-" + hashlib.sha1(f"{ex.key}/{raw}".encode("utf-8")).hexdigest()[:10]


def _field(ex: Exercises, q: Question, label: str, compact: bool = False) -> str:
    """An answer field, its unit (a worksheet names it in the row), the answer button and the live feedback."""
    uid = _dom_id(ex, q)
    unit = "" if compact else f'<span class="rl-unit">{_e(q.unit.name)}</span>'
    button = "답" if compact else "답 보기"
    return (f'<div class="rl-answer" data-rl-q="{_e(q.key)}">'
            f'<input type="text" id="{uid}" autocomplete="off" spellcheck="false" enterkeyhint="done" '
            f'aria-label="{_e(label)}" aria-describedby="{uid}-fb">{unit}'
            f'<button type="button" class="rl-show" aria-controls="{uid}-fb" aria-label="답 보기: {_e(label)}">'
            f'{button}</button>'
            f'<output id="{uid}-fb" class="rl-feedback" aria-live="polite" for="{uid}"></output></div>')


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
                f'<tbody>{"".join(rows)}</tbody></table></div>')
    else:
        items = "".join(f'<li><p><strong>{_e(q.key)}</strong> {_e(q.text)}</p>'
                        f'{_field(ex, q, f"{q.key} 답 ({q.unit.name})")}</li>' for q in ex.questions)
        body = f'<ol class="rl-exercises">{items}</ol>'
    # a line break between elements: the search index strips the tags and would run their words together
    shown = re.sub(r">(?=<[^/])", ">\n", head + body)   # not inside an empty element (the feedback)
    return (f'<section class="rl-quiz" data-rl-quiz="{_e(ex.key)}" aria-label="스스로 확인하는 문제">\n'
            f'<script type="application/json" class="rl-quiz-data">{data}</script>\n{shown}\n</section>')


def notebook_markdown(ex: Exercises) -> str:
    first = ex.questions[0]
    how = (f'답을 확인하려면 코드 셀에 `check("{first.key}", 답)`처럼 적고 실행한다. '
           f'`check("{first.key}")`{ko.particle(first.key, "으로/로")[len(first.key):]} 문제와 단위를, '
           f'`check("{first.key}", show=True)`로 답을 본다. '
           f"{rule_text(site=False)}")
    if ex.sheet:
        head = "| 값 | 단위 | " + " | ".join(label for _, label in ex.cases) + " |"
        sep = "| :-- | :-- |" + " :-: |" * len(ex.cases)
        rows = [f"| {label} | {ex.question(f'{row}-{ex.cases[0][0]}').unit.name} | "
                + " | ".join(f"`{row}-{case}`" for case, _ in ex.cases) + " |" for row, label in ex.sheet]
        return "\n".join(["**계산표.** 칸마다 적힌 이름으로 답을 확인한다.", "", head, sep, *rows, "", how])
    items = [f"{i}. **{q.key}** {q.text} (단위: {q.unit.name})" for i, q in enumerate(ex.questions, 1)]
    return "\n".join(items + ["", how])


# ---------------------------------------------------------------- the course's exercises

def _next_tile(w4) -> int:
    """The smallest divisor of N above the compared tiles (the largest compared tile when none is)."""
    return next((T for T in range(max(w4.tiles) + 1, w4.N + 1) if w4.N % T == 0), max(w4.tiles))


def _nice_below(x) -> Fraction:
    """The largest of …, 1, 2, 5, 10, 20, … not above x / 2 (an I well below the ridge)."""
    x, best, k = Fraction(x) / 2, None, -6
    while True:
        for m in (1, 2, 5):
            v = m * Fraction(10) ** k
            if v > x:
                return best if best is not None else v
            best = v
        k += 1


def guide(w4) -> Exercises:
    """The week-4 guide's shared problem: for every case F, Q, I, R_roof, the two times, t_ideal, the input
    buffers and the partial sums."""
    cases = week4_cases(w4)
    s = w4.s
    rows = [("F", "F (연산량)"), ("Q", "Q (HBM 이동량)"), ("I", "I (산술 강도)"), ("R_roof", "R_roof (성능 상한)"),
            ("t_compute", "연산 시간 F/P"), ("t_memory", "메모리 시간 Q/BW"), ("t_ideal", "이상적 시간"),
            ("inputs", "입력 버퍼"), ("acc", "중간 합")]
    questions, cols = [], []
    for c in cases:
        case = "없음" if c.T is None else str(c.T)
        label = ko.case(c)
        cols.append((case, label))
        b = buffers.tile_buffers(c.T, c.T, c.T, s, s) if c.T else buffers.TileBuffers(s, s, s)
        tm = c.timing
        Q_hint = "Q = 2·s·N³ + s·N²" if c.T is None else "Q = 2·s·N³/T + s·N²"
        values = {
            "F": (c.cost.F, "FLOPs", "F = 2N³"),
            "Q": (c.cost.Q, "GB", f"{Q_hint}, GB = 10⁹ Byte"),
            "I": (c.cost.I, "FLOPs/Byte", "I = F / Q"),
            "R_roof": (tm.R_roof, "TFLOPs/s", "R_roof = min(P, BW × I)"),
            "t_compute": (tm.t_compute, "ms", "연산 시간 = F / P"),
            "t_memory": (tm.t_memory, "ms", "메모리 시간 = Q / BW"),
            "t_ideal": (tm.t_ideal, "ms", "이상적 시간 = max(F/P, Q/BW)"),
            "inputs": (b.inputs, "Byte", "A·B 원소 하나씩 = 2·s" if c.T is None else "A·B 조각 = 2·s·T²"),
            "acc": (b.acc, "Byte", "출력 원소 하나 = s" if c.T is None else "출력 타일 = s·T²"),
        }
        for row, name in rows:
            value, unit, hint = values[row]
            questions.append(Question(f"{row}-{case}", f"{label}: {name}", Fraction(value), UNITS[unit], hint))
    return Exercises("guide", tuple(questions), tuple(rows), tuple(cols))


def intensity(w4) -> Exercises:
    """① Arithmetic intensity of a larger tile, of vector add, of the ideal matmul."""
    N, s, T = w4.N, w4.s, _next_tile(w4)
    shape = f"{fmt.integer(N)}×{fmt.integer(N)}"
    return Exercises("①", (
        Question("①-1", f"{shape} {w4.dtype} 행렬곱에서 출력 타일 한 변을 T = {ko.particle(fmt.integer(T), '으로/로')} "
                 f"키우면 산술 강도 I_T는 얼마인가?", kernels.matmul_tiled(N, T, s, s).I, UNITS["FLOPs/Byte"],
                 "I_T = F / Q_T, Q_T = 2·s·N³/T + s·N²"),
        Question("①-2", f"같은 자료형으로 길이 {fmt.integer(N * N)}인 두 벡터를 더하는 Vector Add의 산술 강도 I는?",
                 kernels.vector_add(N * N, s).I, UNITS["FLOPs/Byte"], "I = F / Q, F = L, Q = 3·s·L"),
        Question("①-3", f"A와 B를 HBM에서 한 번씩만 읽고 C를 한 번 쓴다면 {shape} 행렬곱의 I는?",
                 kernels.matmul_ideal(N, s, s).I, UNITS["FLOPs/Byte"], "I = 2N³ / (3·s·N²)"),
    ))


def roofline(w4) -> Exercises:
    """② A memory-bound kernel's roof, and the same with P doubled or with BW doubled (only the limit helps)."""
    hw = w4.hardware
    I = _nice_below(hw.ridge)
    I_text = fmt.number(I)
    return Exercises("②", (
        Question("②-1", f"{hw.name}에서 산술 강도가 I = {I_text} FLOPs/Byte인 커널의 성능 상한 R_roof는?",
                 hw.R_roof(I), UNITS["TFLOPs/s"], "R_roof = min(P, BW × I)"),
        Question("②-2", "BW는 그대로 두고 P만 두 배로 올리면 같은 커널의 R_roof는?",
                 hw.with_(P=2 * hw.P).R_roof(I), UNITS["TFLOPs/s"], "R_roof = min(2P, BW × I)"),
        Question("②-3", "P는 그대로 두고 BW만 두 배로 올리면 같은 커널의 R_roof는?",
                 hw.with_(BW=2 * hw.BW).R_roof(I), UNITS["TFLOPs/s"], "R_roof = min(P, 2BW × I)"),
    ))


def tiling(w4) -> Exercises:
    """③ The small example's A·B reads without and with tiles, and the large problem's Q for a larger tile."""
    n, t, s, N, T = w4.small_N, w4.small_T, w4.s, w4.N, _next_tile(w4)
    small = f"{n}×{n}"
    return Exercises("③", (
        Question("③-1", f"{small} {w4.dtype} 행렬곱을 재사용 없이 계산하면 A·B에서 읽는 양은 몇 Byte인가?",
                 kernels.matmul_no_reuse(n, s, s).Q_read, UNITS["Byte"], "A·B 읽기 = 2·s·N³"),
        Question("③-2", f"같은 행렬곱을 {t}×{t} 출력 타일로 나누면 A·B에서 읽는 양은?",
                 kernels.matmul_tiled(n, t, s, s).Q_read, UNITS["Byte"], "A·B 읽기 = 2·s·N³/T"),
        Question("③-3", f"{fmt.integer(N)}×{fmt.integer(N)} 행렬곱에서 T = {ko.particle(fmt.integer(T), '이면/면')} "
                 "HBM 이동량 Q는?", kernels.matmul_tiled(N, T, s, s).Q, UNITS["GB"],
                 "Q = 2·s·N³/T + s·N², GB = 10⁹ Byte"),
    ))


def tile_size(w4) -> Exercises:
    """④ A larger tile's input buffers, with double buffering, and how many blocks one SM holds."""
    s, T = w4.s, _next_tile(w4)
    gpu = w4.catalog.presets[w4.gpus[0]]
    T_small = min(w4.tiles)
    one = buffers.tile_buffers(T, T, T, s, s)
    two = buffers.tile_buffers(T, T, T, s, s, copies=2)
    small = buffers.tile_buffers(T_small, T_small, T_small, s, s)
    return Exercises("④", (
        Question("④-1", f"{w4.dtype} T = {fmt.integer(T)} 정사각 타일이 붙잡는 A·B 입력 버퍼(한 벌)는?",
                 one.inputs, UNITS["KiB"], "입력 버퍼 = s·(T_M·T_K + T_K·T_N), KiB = 2¹⁰ Byte"),
        Question("④-2", "같은 타일에 이중 버퍼링을 쓰면 입력 버퍼는?", two.inputs, UNITS["KiB"],
                 "이중 버퍼링 입력 = 2·s·(T_M·T_K + T_K·T_N)"),
        Question("④-3", f"{gpu.name}의 SM 하나(Shared Memory {fmt.kib(gpu.smem_per_SM)})에 "
                 f"T = {fmt.integer(T_small)} 타일의 입력 버퍼(한 벌)만 놓는다면 블록이 최대 몇 개 상주하는가?",
                 buffers.resident_blocks(gpu.smem_per_SM, small.inputs), UNITS["개"],
                 "상주 블록 = ⌊SM당 Shared Memory / 블록당 입력 버퍼⌋"),
    ))


def matmul(w4) -> Exercises:
    """⑤ A larger tile's ideal time, the no-reuse memory time at 2N, and the smallest T that reaches the ridge."""
    hw, s, N, T = w4.hardware, w4.s, w4.N, _next_tile(w4)
    tiled = Timing(kernels.matmul_tiled(N, T, s, s), hw)
    doubled = Timing(kernels.matmul_no_reuse(2 * N, s, s), hw)
    questions = [
        Question("⑤-1", f"T = {ko.particle(fmt.integer(T), '이면/면')} 이상적 시간 t_ideal은?", tiled.t_ideal,
                 UNITS["ms"], "t_ideal = max(F/P, Q/BW), Q = 2·s·N³/T + s·N²"),
        Question("⑤-2", f"N을 두 배({fmt.integer(2 * N)})로 키우면 재사용 없음의 메모리 시간 Q/BW는?",
                 doubled.t_memory, UNITS["ms"], "Q = 2·s·N³ + s·N², 메모리 시간 = Q / BW"),
    ]
    threshold = kernels.tile_threshold(N, hw.ridge, s, s)
    if threshold is not None:
        questions.append(Question("⑤-3", "I_T가 분기점 I*에 닿는 T의 최솟값(실수)은?", threshold, UNITS["원소"],
                                  "I_T = 2N³ / (2·s·N³/T + s·N²) = I*를 T에 대해 푼다"))
    else:
        plain = Timing(kernels.matmul_no_reuse(N, s, s), hw)    # no tile reaches the ridge on this machine
        questions.append(Question("⑤-3", "재사용 없음의 연산 시간 F/P는?", plain.t_compute, UNITS["ms"],
                                  "연산 시간 = F / P, F = 2N³"))
    return Exercises("⑤", tuple(questions))


def vector_add(w3) -> Exercises:
    """The week-3 note: memory time at 2L, the ideal time with P doubled, the longest L that fits."""
    hw, s, L = w3.hardware, w3.s, w3.L
    longer = Timing(kernels.vector_add(2 * L, s), hw)
    faster = Timing(kernels.vector_add(L, s), hw.with_(P=2 * hw.P))
    return Exercises("3주", (
        Question("3주-1", f"길이를 두 배(L = {fmt.integer(2 * L)})로 늘리면 Vector Add의 메모리 시간 Q/BW는?",
                 longer.t_memory, UNITS["ms"], "Q = 3·s·L, 메모리 시간 = Q / BW"),
        Question("3주-2", f"L = {fmt.integer(L)}에서 P만 두 배가 되면 이상적 시간은?", faster.t_ideal, UNITS["ms"],
                 "이상적 시간 = max(F/(2P), Q/BW)"),
        Question("3주-3", f"메모리 {fmt.integer(w3.capacity)} Byte에 A, B, C 세 벡터가 모두 들어가는 가장 긴 L은?",
                 w3.capacity // (3 * s), UNITS["원소"], "L ≤ 용량 / (3·s)"),
    ))
