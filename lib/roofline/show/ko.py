"""Korean particles after a value whose last sound the prose cannot know in advance (the one rule).

    particle("4,096", "은/는") → "4,096은"      particle("FP16", "으로/로") → "FP16으로"
    particle("T4", "이/가")    → "T4가"        particle("가상 하드웨어", "으로/로") → "가상 하드웨어로"

The last sound is read as a Korean reader says it: a Hangul syllable by its final consonant; a digit by its
Korean name (영 일 이 삼 사 오 육 칠 팔 구: 0 1 3 6 7 8 end in a consonant, 1 7 8 in ㄹ); a Latin letter by its
English name (L M N R: 엘 엠 엔 알 end in a consonant, L and R in ㄹ); closing brackets, spaces, units in
parentheses and the like are skipped. `(으)로` takes 로 after a vowel or ㄹ.
"""
from __future__ import annotations

PAIRS = {"은/는", "이/가", "을/를", "과/와", "으로/로", "이라고/라고", "이라는/라는", "이다/다", "이나/나", "이면/면"}
_RIEUL = 8   # index of ㄹ among the final consonants of a Hangul syllable


def last_sound(word: str) -> str:
    """"vowel", "rieul" (ㄹ) or "consonant": how `word` ends when read aloud in Korean."""
    text = word.rstrip(" )]}’”'\"")
    if not text:
        raise ValueError(f"no sound to read in {word!r}")
    last = text[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - 0xAC00) % 28
        return "vowel" if final == 0 else "rieul" if final == _RIEUL else "consonant"
    if last.isdigit():
        return "rieul" if last in "178" else "consonant" if last in "036" else "vowel"
    if last == "%":
        return "vowel"   # 퍼센트
    upper = last.upper()
    if upper in "LR":
        return "rieul"
    return "consonant" if upper in "MN" else "vowel"


def particle(word: str, pair: str) -> str:
    """`word` followed by the form of `pair` ("은/는", "이/가", "으로/로", …) that its last sound takes."""
    if pair not in PAIRS:
        raise ValueError(f"unknown particle pair {pair!r}; known: {', '.join(sorted(PAIRS))}")
    after_consonant, after_vowel = pair.split("/")
    sound = last_sound(word)
    if pair == "으로/로":
        return word + (after_vowel if sound in ("vowel", "rieul") else after_consonant)
    return word + (after_vowel if sound == "vowel" else after_consonant)


def nearly(ratios, target: int = 2, within=0.1) -> str:
    """"거의 두 배" when every ratio is within `within` (relative) of `target`, else "약 1.5–2.4배"."""
    from roofline.show import fmt

    names = {2: "두", 3: "세", 4: "네"}
    values = [float(r) for r in ratios]
    if all(abs(v / target - 1) <= within for v in values):
        return f"거의 {names.get(target, target)} 배"
    low, high = min(ratios), max(ratios)
    return f"약 {fmt.number(low, 1)}배" if low == high else f"약 {fmt.number(low, 1)}–{fmt.number(high, 1)}배"


# ---------------------------------------------------------------- the model's values as the pages name them

BOUND = {"compute": "연산 성능"}   # Timing.bound → the limiting resource (the memory's: `bound`)
PART = {"qkv": "QKV 투영", "out": "출력 투영", "ffn": "FFN", "attention": "어텐션 점수·AV"}   # transformer.PARTS


def memory_name(kind: str) -> str:
    """A machine's memory as the pages call it (course.toml's `memory`): "HBM" for every HBM generation (HBM3,
    HBM2e), else its own name (GDDR6, GDDR6X); "DRAM", the generic word, stays."""
    return "HBM" if kind.startswith("HBM") else kind


def bound(timing, memory: str | None = None) -> str:
    """The resource that limits `timing` ("HBM 대역폭", "GDDR6 대역폭" or "연산 성능"): the memory is the one of
    the machine `timing` is on (`Roofline.memory`), or `memory` when given."""
    if timing.bound != "memory":
        return BOUND[timing.bound]
    return f"{memory or memory_name(timing.hw.memory)} 대역폭"


def case(c) -> str:
    """A week-4 case as the tables and figures name it: "재사용 없음", "T = 32", …"""
    return "재사용 없음" if c.T is None else f"T = {c.T}"


def cases(cs) -> str:
    """"재사용 없음·T = 32·T = 64": the cases as the tables name them, joined by a middle dot ("" for none)."""
    return "·".join(case(c) for c in cs)


def nbsp(text: str) -> str:
    """A table cell that must not wrap inside ("T = 32", "32 B"): its spaces as no-break spaces."""
    return text.replace(" ", "\u00a0")


def units(dtype: str) -> dict[str, str]:
    """The units of work a chapter's prose names for its `dtype` (`fmt.unit`), as glue names: "TFLOPs/s",
    "FLOPs/Byte", "FLOPs/s", "FLOPs" and "부동소수점 연산" for a floating-point dtype; "TOPS", "OPs/Byte", "OPs/s",
    "OPs" and "정수 연산" for an integer one."""
    from roofline.show import fmt

    return {"unit-rate": fmt.unit("TFLOPs/s", dtype), "unit-I": fmt.unit("FLOPs/Byte", dtype),
            "unit-rate-base": fmt.unit("FLOPs/s", dtype), "unit-work": fmt.unit("FLOPs", dtype),
            "work-kind": "정수 연산" if fmt.integer_dtype(dtype) else "부동소수점 연산"}


def work_note(dtype: str) -> str:
    """The sentence after a chapter's definition of FLOPs and FLOPs/s: in which units that chapter counts its
    `dtype`'s work (`units`): FLOPs and FLOPs/s for a floating-point dtype, OPs and OPs/s (TOPS) for an integer one
    (chapters/flashattention.md: "정수형은 FLOP 대신 정수 연산(OP)을 센다")."""
    from roofline.show import fmt

    u = units(dtype)
    if fmt.integer_dtype(dtype):
        return (f"{particle(dtype, '은/는')} 정수 형식이라, 이 노트는 {dtype}의 일을 같은 방식으로 세되 정수 연산(OP)의 "
                f"횟수로 적는다: F는 {u['unit-work']}, P는 {u['unit-rate-base']}({u['unit-rate']})다.")
    return (f"{particle(dtype, '은/는')} 부동소수점 형식이므로, 이 노트는 {dtype}의 일을 F는 {u['unit-work']}, "
            f"P는 {u['unit-rate-base']}({u['unit-rate']})로 적는다.")
