"""Predict first: the part of an explorer's state that asks the reader's guess before the model's answer is shown.

A page module builds, beside a state's fields, its `predict` part with the functions here: the headline questions of
that state (the limiting resource, I or I_T, the ideal time, ④'s resident blocks and binding limit), each with the
model's answer as an exact fraction (or a choice's key), the text the page shows for it, one sentence of why written
from the same state, and the common mistakes the page module computed with the model (the same call, one input or
term changed; `roofline.show.mistakes`). The part also names what the page must not show before the guess (`hide`).
explorer.js places a state whose part is pending with those fields blanked (replaced, not hidden by CSS), and
_static/predict.js reads the guess with the exercises' reader (`read` of _static/judge.js), compares it exactly with the
fraction written here and shows the error as `error_text` writes it (predict.js follows the same rule with BigInt;
tests/show/test_predict.py and the browser test hold the two together).

    {"questions": [{"id": "t", "ask": "T = 32의 Roofline 예상 시간은?", "kind": "number", "unit": "ms",
                    "units": [["ms", 1, 1000], ["s", 1, 1], …],       # the unit choices: name and size in the base unit
                    "answer": ["p", "q"],                               # in the base unit (s, Byte, FLOPs/Byte, 개)
                    "shown": "6.871948 ms", "why": "…",
                    "mistakes": [{"kind": "c-write", "name": …, "value": [p, q], "hint": …}]},
                   {"id": "bound", "ask": …, "kind": "choice", "choices": [[key, label], …], "answer": key,
                    "also": [key, …], …}],                             # also: keys right too (a tie)
     "hide": {"fields": [name, …], "tables": {name: [column, …]}, "plots": [name, …], "widths": […], "flags": […]},
     "tolerance": ["1", "100"], "near": ["1", "50"],                  # right within, a mistake named within
     "words": {"right": "1% 안으로 맞았다.", "unreadable": …}}          # the verdict words (from TOLERANCE)
"""
from __future__ import annotations

from fractions import Fraction

from roofline.cost import Cost, Timing
from roofline.show import fmt, ko
from roofline.show import mistakes as mk
from roofline.show.exercises import UNITS, UNREADABLE, others, read
from roofline.show.mistakes import Mistake

TOLERANCE = Fraction(1, 100)   # a guess within 1 % of the model's value counts as right ("맞았다")
NEAR = Fraction(2, 100)        # a guess within 2 % of what a mistake gives is named as that mistake
MEMORY, COMPUTE = "memory", "compute"
BOUND_CHOICES = [[MEMORY, "메모리 대역폭"], [COMPUTE, "연산 성능"]]   # HBM or GDDR: the machine's memory


def pq(x) -> list[str]:
    """An exact value as the page's data holds it: numerator and denominator as decimal strings (JSON numbers lose
    digits past 2⁵³; predict.js reads them with BigInt)."""
    x = Fraction(x)
    return [str(x.numerator), str(x.denominator)]


def exact(p_q) -> Fraction:
    """The value `pq` wrote."""
    return Fraction(int(p_q[0]), int(p_q[1]))


def unit_choices(unit: str) -> list[list]:
    """The unit a guess is typed in: the asked one first, then the others of its kind, each with its size."""
    asked = UNITS[unit]
    return [[u.name, *pq(u.size)] for u in [asked, *others(asked)]]


def mistake_list(items, right) -> list[dict]:
    """Mistakes (`roofline.show.mistakes.Mistake`) as the page names them, with the line it shows (`text`): none
    that gives the right answer, and for a number none within the tolerance of it (such a guess counts as right);
    those giving the same value joined (`mistakes.kept`). A choice cannot tell which mistake was made: its line
    names the mistakes that lead to the option picked (the why sentence says what the answer rests on)."""
    out = []
    for m in mk.kept(items, right):
        if isinstance(right, str):
            name = ", ".join(m.names)
            out.append({"kind": m.kind, "name": name, "value": m.value, "hint": m.hint,
                        "text": f"이 보기로 이끄는 흔한 실수: {name}."})
            continue
        if abs(Fraction(m.value) - right) <= TOLERANCE * abs(right):
            continue
        out.append({"kind": m.kind, "name": m.name, "value": pq(m.value), "hint": m.hint,
                    "text": f"실수: {m.name}. {m.hint}"})
    return out


def number(qid: str, ask: str, value, unit: str, shown: str, why: str, mistakes=(), inputs=()) -> dict:
    """A number to guess: `value` in the base unit of `unit`'s kind, `shown` as the page writes the model's value;
    `inputs` as the page writes the values it is computed from in one step (F and Q of I = F/Q): while the guess
    waits, predict.js masks those and the value wherever else the page shows them (issue 55)."""
    value = Fraction(value)
    return {"id": qid, "ask": ask, "kind": "number", "unit": unit, "units": unit_choices(unit), "answer": pq(value),
            "shown": shown, "why": why, "mistakes": mistake_list(mistakes, value), "inputs": list(inputs)}


def choice(qid: str, ask: str, choices, answer: str, why: str, mistakes=(), also=()) -> dict:
    """A choice to guess: `answer` a key of `choices`; `also` the keys that are right too (limits that tie)."""
    labels = dict(choices)
    right = {answer, *also}
    shown = "·".join(labels[k] for k, _ in choices if k in right)
    return {"id": qid, "ask": ask, "kind": "choice", "choices": [list(c) for c in choices], "answer": answer,
            "also": [k for k, _ in choices if k in right and k != answer], "shown": shown, "why": why,
            "mistakes": [m for m in mistake_list(mistakes, answer) if m["value"] not in right and m["value"]]}


def part(questions, fields=(), tables=None, plots=(), widths=(), flags=()) -> dict | None:
    """A state's predict part: its questions and what stays hidden until the guess (fields, table columns, plots
    and bars left out, flags off); None when there is nothing to ask (every value of the state is on the page)."""
    if not questions:
        return None
    return {"questions": list(questions),
            "hide": {"fields": list(fields), "tables": {k: list(v) for k, v in (tables or {}).items()},
                     "plots": list(plots), "widths": list(widths), "flags": list(flags)},
            "tolerance": pq(TOLERANCE), "near": pq(NEAR),
            "words": {"right": f"{fmt.percent(TOLERANCE, 0)} 안으로 맞았다.", "unreadable": UNREADABLE}}


def bound_key(timing) -> str:
    return MEMORY if timing.memory_bound else COMPUTE


# ---------------------------------------------------------------- the roofline's questions (②, ⑤, the week-3 note, "내 커널")

def bound_why(label: str, I, hw, dtype: str) -> str:
    """Why `label` (a case, "T = 32") is memory- or compute-bound: its I against the ridge point I* = P/BW (in the
    unit `dtype` counts: `fmt.unit`)."""
    per_byte = fmt.unit("FLOPs/Byte", dtype)
    star = f"분기점 I* = P/BW = {fmt.number(hw.ridge, 3)} {per_byte}"
    head = f"{label}의 I = {fmt.number(I, 3)} {per_byte}"
    if I == hw.ridge:
        return f"{ko.particle(head, '이/가')} {ko.particle(star, '과/와')} 같아 두 상한이 만난다: 메모리와 연산이 함께 제한한다."
    if I < hw.ridge:
        return (f"{ko.particle(head, '이/가')} {star}보다 작으므로 메모리 대역폭이 제한한다: "
                "Byte 하나에 하는 일이 적어 데이터를 나르는 시간이 더 길다.")
    return (f"{ko.particle(head, '이/가')} {star}보다 크므로 연산 성능이 제한한다: "
            "데이터를 나르는 시간보다 계산하는 시간이 더 길다.")


def time_why(timing) -> str:
    """Why the ideal time is what it is: the longer of F/P and Q/BW."""
    a, b = fmt.ms(timing.t_compute, 6), fmt.ms(timing.t_memory, 6)
    longer = "메모리 시간" if timing.memory_bound else "연산 시간"
    return (f"예상 시간은 t = max(F/P, Q/BW)다. 연산 시간 F/P = {a} ms, 메모리 시간 Q/BW = {b} ms이므로 "
            f"더 긴 {longer}이 예상 시간이다.")


def roofline_questions(subject: str, label: str, cost, hw, intensity_why: str | None = None, no_reuse=None,
                       fma: bool = True, bound_extra: str = "", time_extra: str = "", ms_text=None,
                       time: str = "t", *, dtype: str) -> list[dict]:
    """Which resource limits `cost` on `hw`, its I (when `intensity_why` says why) and its ideal time, for the
    subject `subject` ("4,096×4,096 행렬곱, T = 64") named `label` ("T = 64"). The mistakes are the model's own
    calls with one thing changed: C's write left out (when the kernel writes), an FMA counted as one FLOP (`fma`:
    a kernel of multiply-adds), no reuse (`no_reuse`: its cost), ms and s swapped. `ms_text`: how the page writes
    the time (seconds → "8.657043 ms"), fmt.ms with 6 decimals unless given. `time`: the time asked — "t" the ideal
    time, or "t_compute" / "t_memory" when the page already shows the other one unchanged (then t would be read off
    the page: the week-3 note with only P or only BW moved). `dtype`: the kernel's, whose work the questions, whys
    and hints count (`fmt.unit`: FLOPs, or OPs for an integer dtype)."""
    t = Timing(cost, hw)
    other = {}
    if cost.Q_write and cost.Q_read:
        other["c-write"] = Cost(F=cost.F, Q_read=cost.Q_read, Q_write=0)
    if fma and cost.F >= 2:
        other["fma-one"] = Cost(F=cost.F // 2, Q_read=cost.Q_read, Q_write=cost.Q_write)
    if no_reuse is not None:
        other["tile-reuse-ignored"] = no_reuse
    op = fmt.unit("FLOP", dtype)
    hints = {"c-write": "C를 쓰는 Byte를 빼먹은 Q로 센 값이다.", "fma-one": f"곱셈과 덧셈을 {op} 하나로 세어 F가 반이 된 값이다.",
             "tile-reuse-ignored": "타일 안의 재사용 없이 센 값(재사용 없음)이다."}
    choice_hints = {"c-write": "C를 쓰는 Byte를 빼면 Q가 작아져 I가 커지고, 그러면 제한 자원이 바뀐다.",
                    "fma-one": f"FMA를 {op} 하나로 세면 F와 I가 반이 되고, 그러면 제한 자원이 바뀐다.",
                    "tile-reuse-ignored": "재사용 없이 세면 I가 훨씬 작아지고, 그러면 제한 자원이 바뀐다."}
    shorter = COMPUTE if t.memory_bound else MEMORY     # the resource of the shorter time
    bound = choice("bound", f"{subject}: 무엇이 제한할까?", BOUND_CHOICES, bound_key(t),
                   bound_why(label, cost.I, hw, dtype) + bound_extra,
                   [Mistake("ideal-min", shorter, "긴 쪽의 자원이 한계 자원이다: 느린 쪽이 시간을 정한다.")]
                   + [Mistake(k, bound_key(Timing(c, hw)), choice_hints[k]) for k, c in other.items()])
    out = [bound]
    if intensity_why is not None:
        per_byte = fmt.unit("FLOPs/Byte", dtype)   # (OPs/Byte for an integer dtype, as the page writes it)
        out.append(number("I", f"{label}의 산술 강도 I는?", cost.I, per_byte, f"{fmt.decimal(cost.I, 6, grouping=True)} {per_byte}",
                          intensity_why, [Mistake(k, c.I, hints[k]) for k, c in other.items()],
                          inputs=[f"{fmt.integer(cost.F)} {fmt.unit('FLOPs', dtype)}", f"{fmt.integer(cost.Q)} Byte"]))
    text = ms_text or (lambda x: f"{fmt.ms(x, 6)} ms")
    if time != "t":
        value, formula = (t.t_compute, "F/P") if time == "t_compute" else (t.t_memory, "Q/BW")
        name = "연산 시간" if time == "t_compute" else "메모리 시간"
        out.append(number(time, f"{label}의 {name} {formula}는?", value, "ms", text(value),
                          f"{name} {formula} = {fmt.ms(value, 6)} ms다." + time_extra,
                          [Mistake("ms-s", value * 1000, "ms로 잰 값을 s 칸에 적었다."),
                           Mistake("ms-s", value / 1000, "s로 잰 값을 ms 칸에 적었다.")]))
        return out
    out.append(number("t", f"{label}의 Roofline 예상 시간은?", t.t_ideal, "ms", text(t.t_ideal),
                      time_why(t) + time_extra,
                      [Mistake(k, Timing(c, hw).t_ideal, hints[k]) for k, c in other.items()]
                      + [Mistake("ideal-min", min(t.t_compute, t.t_memory), "느린 쪽이 시간을 정한다: t = max(F/P, Q/BW)다."),
                         Mistake("ideal-sum", t.t_compute + t.t_memory, "두 일은 겹친다: t = max(F/P, Q/BW)다.")]
                      + [Mistake("ms-s", t.t_ideal * 1000, "ms로 잰 값을 s 칸에 적었다."),
                         Mistake("ms-s", t.t_ideal / 1000, "s로 잰 값을 ms 칸에 적었다.")],
                      inputs=[text(t.t_compute), text(t.t_memory)]))
    return out


# ---------------------------------------------------------------- the error of a guess (predict.js follows this rule)

def _significant(x: Fraction, digits: int) -> str:
    """x > 0 with `digits` significant digits (half away from zero), as fixed decimals: 0.0123, 1.23, 123, 12300."""
    e = 0
    while x * Fraction(10) ** e < 10 ** (digits - 1):
        e += 1
    while x * Fraction(10) ** e >= 10**digits:
        e -= 1
    r = fmt.rounded(x * Fraction(10) ** e, 0)
    if r >= 10**digits:         # 9.995 → 10.0
        e -= 1
        r = fmt.rounded(x * Fraction(10) ** e, 0)
    value = r / Fraction(10) ** e
    return fmt.decimal(value, max(0, e), grouping=True)


def error_text(guess, model) -> str:
    """The error of a guess against the model's value: its factor (3 significant digits) and the signed percentage
    (1 decimal): "0.630배 (−37.0%)", "1.00배 (0.0%)", "2.50배 (+150.0%)". A guess of 0 or of the wrong sign has no
    factor: "0배 (−100.0%)", "부호가 반대 (−250.0%)"."""
    guess, model = Fraction(guess), Fraction(model)
    factor = guess / model
    pct = fmt.rounded((factor - 1) * 100, 1)
    sign = "+" if pct > 0 else ("−" if pct < 0 else "")
    pct_text = sign + fmt.decimal(abs(pct), 1) + "%"
    if factor == 0:
        return f"0배 ({pct_text})"
    if factor < 0:
        return f"부호가 반대 ({pct_text})"
    return f"{_significant(factor, 3)}배 ({pct_text})"


def right(guess, model) -> bool:
    guess, model = Fraction(guess), Fraction(model)
    return abs(guess - model) <= TOLERANCE * abs(model)


def named(guess, question: dict) -> dict | None:
    """The mistake a number guess matches (within NEAR of what it gives), None if none."""
    guess = Fraction(guess)
    for m in question["mistakes"]:
        value = exact(m["value"])
        if abs(guess - value) <= NEAR * abs(value):
            return m
    return None


def guess(question: dict, text: str, unit: str = "") -> dict:
    """A typed guess (or a choice's key) judged as predict.js judges it (`judgeGuess`; the shared table
    tests/show/judge_cases.json holds them together): {"right", "mistake" (its kind or ""), "error"} and for a
    number "off" (|%|, one decimal); {"unreadable": True} when the exercises' reader cannot read it."""
    if question["kind"] == "choice":
        ok = text == question["answer"] or text in question["also"]
        m = None if ok else next((m for m in question["mistakes"] if m["value"] == text), None)
        return {"right": ok, "mistake": m["kind"] if m else "", "error": "맞음" if ok else "틀림"}
    name, p, q = next((u for u in question["units"] if u[0] == unit), question["units"][0])
    try:
        typed = read(text, UNITS[name])
    except ValueError:
        return {"unreadable": True}
    value, model = typed.value * exact([p, q]), exact(question["answer"])
    ok = right(value, model)
    m = None if ok else named(value, question)
    pct = fmt.rounded((value / model - 1) * 100, 1)
    return {"right": ok, "mistake": m["kind"] if m else "", "error": error_text(value, model), "off": float(abs(pct))}
