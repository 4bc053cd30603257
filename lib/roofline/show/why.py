"""Why this number? A glued number carries its derivation: the quantity (symbol, Korean name), its formula in the
course's symbols, the same with the values put in, the result with its unit and rounding, and where each input comes
from (a course.toml key, a parameter-cell variable, another derivation, a measurement, a cited source).

The derivation is the model's (`roofline.derive`: the terms that computed the value wrote the formula), so it cannot
disagree with the number. A page module glues `why.decimal(cost.derivation("I"), 6, src)` instead of
`fmt.decimal(cost.I, 6)`: the same text (a `str`), with `.why`, the record. `glue` stores the record beside the text
(mime type `WHY_MIME`); the site shows it in a panel when the number is pressed, and a notebook prints it with
`why("I0")`.

Origins, as records write them (each kind checked by its rule, `coursebook.derivations.origin_resolves`):
"toml:week4.N", "cell:N", "derived:<id>", "code:<call>" or "code:<name> = <value>" (a code cell sets it),
"measured:<what (conditions)>", "simulated:<the model's simulation (its inputs)>" (a count the LRU cache simulation
gives), "search:<what the model searched for (its inputs)>" (the widest T_K that fits: found by trying, no formula),
"cite:<bibkey>, <where in it>" (a key of references.bib), "quoted:<what>" (a value repeated without a source, which
the note checks); an explorer's and the live mode's "control:<its control>" and "typed:<the field>" (`pooled`).

A record's id is the digest of its whole content (`record_id`): its inputs' origins and its derived inputs' own ids
are part of it, so two cases never share a record, and `keep` refuses an id that would name two contents.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from fractions import Fraction

from roofline.derive import Quantity, exact_text
from roofline.derive import tmax as tmax_of  # noqa: F401  (for page modules: max(N, 16T))
from roofline.show import fmt

WHY_MIME = "application/vnd.roofline.why+json"

# the course's symbols and their Korean names; the unit of each (the base unit the model computes in)
NAMES = {
    "F": ("연산량", "FLOPs"), "Q": ("DRAM과 칩 사이에 옮긴 양", "Byte"), "Q_T": ("타일 행렬곱이 옮긴 양", "Byte"),
    "I": ("산술 강도", "FLOPs/Byte"), "I_T": ("타일 행렬곱의 산술 강도", "FLOPs/Byte"),
    "I*": ("분기점", "FLOPs/Byte"), "P": ("최대 연산 성능", "FLOPs/s"), "BW": ("메모리 대역폭", "Byte/s"),
    "t_compute": ("연산 시간", "s"), "t_memory": ("메모리 시간", "s"), "t_ideal": ("이상적 시간", "s"),
    "R_roof": ("Roofline 상한", "FLOPs/s"), "N": ("정사각 행렬 한 변", ""), "T": ("출력 타일 한 변", ""),
    "L": ("벡터 길이", "원소"), "s": ("원소 하나의 크기", "Byte"), "s_in": ("입력 원소의 크기", "Byte"),
    "s_out": ("출력 원소의 크기", "Byte"),
    "Q_read/L": ("원소 하나마다 읽는 양", "Byte"), "Q_write/L": ("원소 하나마다 쓰는 양", "Byte"),
    "Q/L": ("원소 하나마다 옮기는 양", "Byte"), "N_max": ("그림의 가장 큰 N", ""), "N_k": ("그림의 N", ""), "N_min": ("그림의 가장 작은 N", ""),
    "I_max": ("가장 큰 N에서의 I", "FLOPs/Byte"), "I_min": ("가장 작은 N에서의 I", "FLOPs/Byte"),
    "I_base": ("기준 자료형의 I", "FLOPs/Byte"), "I_max/I_min": ("I가 커진 배율", ""),
    "I/I_base": ("기준 자료형 대비 I", ""),
    "경우의 수": ("비교하는 경우의 수: 재사용 없음과 타일 하나하나", ""), "F_tile": ("출력 타일 하나의 연산량", "FLOPs"), "len(tiles)": ("비교할 타일의 개수", ""),
    "P'": ("두 배로 한 최대 연산 성능", "FLOPs/s"), "BW'": ("두 배로 한 메모리 대역폭", "Byte/s"),
    "I*'": ("바꾼 하드웨어의 분기점", "FLOPs/Byte"), "uses": ("입력 원소 하나가 쓰이는 출력 수", ""),
    "K 단계 수": ("출력 타일 하나의 K 단계 수", ""), "조각의 Byte": ("T×T 조각 하나의 Byte", "Byte"),
    "단계당 읽기": ("K 단계 하나에 읽는 A·B 조각", "Byte"),
    "출력 타일 수": ("출력 타일의 수", ""), "단계당 연산량": ("K 단계 하나의 연산량", "FLOPs"),
    "tiles": ("비교할 타일 한 변들", ""), "BW·I": ("메모리 쪽 기울어진 선의 높이", "FLOPs/s"),
    "t₀": ("재사용 없음의 이상적 시간", "s"), "F/N³": ("FMA 하나의 연산 수", "FLOPs"),
    "2·s": ("단계당 읽기의 계수", "Byte"), "3·s": ("원소 하나마다 A·B·C의 Byte", "Byte"),
    "A·B·C의 Byte": ("A, B, C를 모두 담는 Byte", "Byte"), "M": ("C의 행 수", ""), "K": ("누적하는 방향의 길이", ""),
    "T_M": ("출력 타일의 행 수", ""), "T_N": ("출력 타일의 열 수", ""), "T_K": ("K 조각의 폭", ""),
    "Q_read,□": ("정사각 타일의 입력 읽기", "Byte"), "Q_read,▭": ("직사각 타일의 입력 읽기", "Byte"),
    "입력 버퍼": ("타일 하나의 A·B 입력 버퍼", "Byte"), "입력 합계": ("온칩에 보관하는 A·B 입력", "Byte"),
    "중간 합": ("온칩에 두는 중간 합", "Byte"), "논리적 총합": ("입력과 중간 합의 합", "Byte"),
    "A 버퍼": ("A 입력 버퍼", "Byte"), "T_min": ("N의 가장 작은 약수", ""), "B 버퍼": ("B 입력 버퍼", "Byte"), "t₀/t": ("재사용 없음 대비 시간 비율", ""), "T²": ("출력 타일 하나의 출력 수", ""),
    "Q_read": ("입력 읽기", "Byte"), "Q_read,T": ("타일 재사용의 입력 읽기", "Byte"),
    "Q_read,0": ("재사용 없음의 입력 읽기", "Byte"), "Q_0": ("재사용 없음의 이동량", "Byte"),
    "타일 읽기 횟수": ("타일 재사용에서 입력 원소 하나를 읽는 횟수", ""),
    "재사용 없음 읽기 횟수": ("재사용 없이 입력 원소 하나를 읽는 횟수", ""),
    "misses": ("캐시에서 놓쳐 DRAM에서 읽은 입력 타일 수", ""), "원소당 읽기 횟수": ("입력 원소 하나를 DRAM에서 읽는 평균 횟수", ""),
    "C_cache": ("캐시 용량", "Byte"), "C_tiles": ("캐시 용량 (입력 타일 개수)", ""),
    "Q_read,tile": ("출력 타일 하나의 A·B 읽기", "Byte"), "출력 개수": ("출력 원소의 수", ""),
    "T_small": ("가장 작은 타일 한 변", ""), "입력 계수": ("T² 하나마다 입력 한 벌의 Byte", "Byte"),
    "이중 계수": ("T² 하나마다 입력 두 벌의 Byte", "Byte"), "스칼라 입력": ("A·B 스칼라 두 개", "Byte"),
    "스칼라 합": ("스칼라 두 개와 중간 합 하나", "Byte"), "스레드": ("블록 하나의 스레드", ""),
    "여유분": ("중간 합 말고 스레드 하나가 더 쓰는 레지스터 (가정)", ""),
    "중간 합 레지스터": ("스레드 하나가 중간 합에 쓰는 32비트 레지스터", ""),
    "스레드당 레지스터": ("스레드 하나의 32비트 레지스터", ""), "요청 smem": ("블록이 요구하는 Shared Memory", "Byte"),
    "W": ("블록 하나의 워프", ""), "워프당 레지스터": ("워프 하나에 잡히는 레지스터", ""),
    "블록당 Shared Memory": ("블록 하나에 잡히는 Shared Memory (예약분 포함)", "Byte"),
    "워프 수 한도": ("워프 수가 허락하는 블록", ""), "레지스터 한도": ("레지스터가 허락하는 블록", ""),
    "Shared Memory 한도": ("Shared Memory가 허락하는 블록", ""), "상주 블록": ("SM 하나에 상주하는 블록", ""),
    "활성 워프": ("SM 하나의 활성 워프", ""), "분할당 레지스터": ("SM 분할 하나의 32비트 레지스터", ""),
    "분할당 워프": ("SM 분할 하나에 레지스터가 들어가는 워프", ""), "레지스터 워프": ("SM 전체에 레지스터가 들어가는 워프", ""), "점유율": ("활성 워프 / SM당 최대 워프", ""),
    "sm.warp_size": ("워프 하나의 스레드", ""), "sm.warps": ("SM당 최대 워프", ""), "sm.blocks": ("SM당 최대 상주 블록", ""),
    "sm.registers": ("SM당 32비트 레지스터", ""), "sm.register_unit": ("레지스터 할당 단위 (워프마다)", ""),
    "sm.register_partitions": ("레지스터 파일을 나눠 갖는 SM 분할", ""), "smem_per_SM": ("SM당 Shared Memory", "Byte"),
    "sm.smem_reserved": ("블록마다 예약되는 Shared Memory", "Byte"), "sm.smem_unit": ("Shared Memory 할당 단위", "Byte"),
    "sm.threads_per_block": ("블록 하나의 최대 스레드", ""), "sm.threads": ("SM당 최대 스레드", ""),
    "sm.registers_per_thread": ("스레드당 최대 레지스터", ""),
    "sm.smem_per_block": ("블록 하나의 최대 Shared Memory (opt-in)", "Byte"), "compute capability": ("Compute capability", ""),
    "스레드당 출력": ("스레드 하나가 맡는 출력", ""),
    "Q_A": ("A 읽기", "Byte"), "Q_B": ("B 읽기", "Byte"), "세 벡터의 Byte": ("A, B, C를 모두 담는 Byte", "Byte"),
    "capacity": ("메모리 용량", "Byte"), "t_memory / t_compute": ("메모리 시간 / 연산 시간", ""),
    "F/L": ("원소 하나의 연산량", "FLOPs"), "P_BF16/P_FP32": ("BF16 대 FP32 최대 연산 성능", ""),
    "SMs": ("SM 수", ""), "warp_size": ("워프 하나의 스레드", ""),
    "Q_A / 전체 Shared Memory": ("벡터 하나 / 모든 SM의 Shared Memory", ""),
    "t_ideal'": ("바꾼 하드웨어의 이상적 시간", "s"), "t_ideal,BF16": ("BF16의 이상적 시간", "s"),
    "Q_ReLU": ("ReLU 커널의 이동량", "Byte"), "F_ReLU": ("ReLU 커널의 연산량", "FLOPs"),
    "Q_합침": ("합친 커널의 이동량", "Byte"), "F_합침": ("합친 커널의 연산량", "FLOPs"),
    "t_덧셈": ("덧셈 커널의 이상적 시간", "s"), "t_ReLU": ("ReLU 커널의 이상적 시간", "s"),
    "t_따로": ("두 커널의 이상적 시간의 합", "s"), "t_합침": ("합친 커널의 이상적 시간", "s"),
    "t_따로 / t_합침": ("합쳐서 빨라진 배율", ""), "Q/L 따로": ("두 커널이 원소마다 옮기는 양", "Byte"),
    "Q/L 합침": ("합친 커널이 원소마다 옮기는 양", "Byte"), "n": ("측정 배열의 원소 수", ""),
    "repeats": ("잰 횟수", ""), "cores": ("논리 코어 수", ""), "BW_meas": ("달성 대역폭", "Byte/s"),
    "배열 하나의 Byte": ("측정 배열 하나의 Byte", "Byte"), "Q_wa": ("쓰기 할당까지 센 이동량", "Byte"),
    "배열 하나의 Byte / Q_wa": ("쓰기 할당에서 배열 하나의 몫", ""), "t_best": ("가장 빠른 한 번의 시간", "s"),
    "t_L": ("잰 대역폭으로 본 L 덧셈의 시간", "s"), "F / t_best": ("달성 연산 속도", "FLOPs/s"), "출력 타일 하나의 입력": ("출력 타일 하나가 읽는 A·B", "Byte"), "Q_write": ("C 쓰기", "Byte"), "R_roof'": ("바꾼 하드웨어의 Roofline 상한", "FLOPs/s"),
    "t_ms": ("잰 시간", "ms"), "R_meas": ("측정 처리율", "FLOPs/s"), "R_meas/R_roof": ("성능 상한 대비 측정 처리율", ""),
}

REGISTRY: dict[str, dict] = {}   # glue name → record, filled by `glue` in this kernel (for `why(name)`)


WORK = ("work", "dtype")   # a `src` key: the dtype whose work the page's quantities count (their units: `fmt.unit`)


def work(src: dict | None) -> str:
    """The dtype whose work `src`'s page counts (`WORK`; "" when it names none: floating point, FLOPs)."""
    return (src or {}).get(WORK, "")


def sources(problem, *, T_from: str = "tiles", also: tuple[str, ...] = ()) -> dict:
    """symbol (or (symbol, value)) → origin of the inputs a week-4 or week-3 problem gives: N, T, L from the
    problem's fields (the file's key, or the parameter cell's variable that changed it), s from the dtype table
    (the problem's dtype, and by size the dtypes `also` names), P and BW from the preset; and under WORK the
    problem's dtype, whose units of work the records name (OPs for INT8)."""
    found = {WORK: problem.dtype}
    fields = {"N": "N", "T": T_from, "L": "L"}
    for symbol, key in fields.items():
        if hasattr(problem, key):
            found[symbol] = problem.origin(key)
    dtype = problem.dtype
    for d in (*also, dtype):   # the problem's own dtype last: it wins for its size
        for symbol in ("s", "s_in", "s_out"):
            found[(symbol, problem.catalog.bytes_per(d))] = f"toml:dtypes.{d}"
    for symbol in ("s", "s_in", "s_out"):
        found[symbol] = f"toml:dtypes.{dtype}"
    hw = problem.hardware
    if dtype in problem.preset.peak:
        found["P"] = f"toml:presets.{hw}.peak.{dtype}"
    found["BW"] = f"toml:presets.{hw}.BW"
    return found


def record_id(record: dict) -> str:
    """A record's id: a digest of everything it shows (symbol, name, formula, numbers, unit, its inputs with their
    origins, and a derived input's own record id, so the whole chain below it). Two records share an id only when they
    say the same: equal-looking records of two cases (another preset's input, another dtype's s) stay two."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "q-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def keep(into: dict, key: str, record: dict) -> None:
    """Put `record` into `into` (id → record) under `key`; a key already holding another content is an error (a
    pool, a page or a sentence keeps every distinct record, none silently replaces another)."""
    old = into.setdefault(key, record)
    if old is not record and old != record:
        raise ValueError(f"why: the record id {key} names two contents: {old} and {record}")


def merge(into: dict, recs: dict) -> dict:
    """`keep` each record of `recs` (id → record) into `into`; returns `into`."""
    for key, record in recs.items():
        keep(into, key, record)
    return into


def _name(symbol: str) -> tuple[str, str]:
    """The course's Korean name and unit of `symbol` (`_named` without a page's own names)."""
    return _named(symbol, {})


_CASE = re.compile(r"(.+?)\s?\(([^()]+)\)")   # Q(T = 64), Q_Flash(2d): a quantity in one case


def _named(symbol: str, src: dict) -> tuple[str, str]:
    """The Korean name and unit of `symbol`: the page's own (`("name", symbol)` in `src`), else the course's
    (`NAMES`), else made from the names of its parts: a ratio "A / B" ("A 대 B의 비"), a case "Q(T = 64)", "Q 비",
    a dtype's peak "P_FP16", a qualified symbol "BW_GPU" ("메모리 대역폭 (GPU)"). Two cases of one quantity in one
    formula have two symbols (Q_Flash(2d)/Q_Flash(d), never Q_Flash / Q_Flash). A symbol with no name is an error:
    every symbol that reaches a panel is named (a page gives its own in `src`)."""
    work = src.get(WORK, "")   # the page's dtype: a unit of work as it counts it (OPs/s for INT8, `fmt.unit`)
    if ("name", symbol) in src:   # (name, unit), or (name, unit, dtype): a quantity of that dtype's work, not the page's
        name, unit, *of = src[("name", symbol)]
        return name, fmt.unit(unit, of[0] if of else work)
    if symbol in NAMES:
        name, unit = NAMES[symbol]
        return name, fmt.unit(unit, work)
    if symbol.startswith("P_") and "/" not in symbol:   # P_FP16: a dtype's peak, in the unit it counts (OPs/s: INT8)
        return f"{symbol[2:]} 최대 연산 성능", fmt.unit("FLOPs/s", symbol[2:])
    for slash in (" / ", "/"):   # a ratio of two named quantities
        if slash in symbol:
            top, bottom = (_named(side.strip(), src)[0] for side in symbol.split(slash, 1))
            return f"{top} 대 {bottom}의 비", ""
    if (case := _CASE.fullmatch(symbol)) is not None:
        name, unit = _named(case.group(1), src)
        return f"{case.group(2)}일 때의 {name}", unit
    if symbol.endswith(" 비"):
        return f"{_named(symbol.removesuffix(' 비'), src)[0]}의 비", ""
    base, _, qualifier = symbol.partition("_")
    if qualifier and base in NAMES:   # I*_INT8: a dtype's quantity, in the unit that dtype counts
        name, unit = NAMES[base]
        return f"{name} ({qualifier})", fmt.unit(unit, qualifier)
    raise ValueError(f"why: 기호 {symbol!r}에 한국어 이름이 없다 (why.NAMES에 넣거나, 쪽의 src에 ('name', 기호)로 준다)")


def _origin(x: Quantity, src: dict):
    """The origin of input `x`: a string, or the named quantity that computes it (then linked as derived); an input
    that is another input under a new name (T_K = T) has that input's origin."""
    origin = src.get((x.symbol, x.value)) or src.get(x.symbol)
    if isinstance(origin, Quantity) and not origin.derived and origin is not x:
        return _origin(origin, src)
    if origin is None:
        raise KeyError(f"why: no origin for input {x.symbol!r} = {x.numbers} (give it in `src`)")
    return origin


TIME_UNITS = {"ms": 1000, "µs": 10**6, "ns": 10**9}   # a time put in a shown unit: its seconds times this


@functools.lru_cache(maxsize=4096)
def readable(value, unit: str, time_unit: str = "ms") -> str:
    """The value as a reader reads it beside its exact form: a time in `time_unit` (the unit its page shows it in:
    ms, µs for the note's kernel times; µs, ns below 0.001 of it), a fraction to 6 decimals with separators
    ("1,365.333333"), a large one as a × 10ⁿ ("1.8 × 10⁹ Hz"), a tiny one as a × 10⁻ⁿ; "약" when that is rounded. ""
    when the exact form is plain already (a whole number that is not a time). Kept per (value, unit, time unit): a
    page's records say the same few inputs thousands of times (a chapter's run spent a seventh of its time here), and
    equal values (4 and Fraction(4)) read alike."""
    x = Fraction(value)
    if unit == "s":
        x, unit = x * TIME_UNITS[time_unit], time_unit
        for smaller in [u for u in TIME_UNITS if TIME_UNITS[u] > TIME_UNITS[time_unit]]:   # 0.000543 ms → 0.542628 µs
            if x == 0 or abs(x) >= Fraction(1, 1000):
                break
            x, unit = x * 1000, smaller
    elif x.denominator == 1:
        return ""
    if x <= 0:
        return "" if x == 0 or x.denominator == 1 else f"약 {fmt.decimal(x, 6, grouping=True)} {unit}".rstrip()
    if x >= 10**6 or x < Fraction(1, 1000):   # a clock in Hz, a rate in FLOPs/s; a tiny share: a × 10ⁿ
        exponent = 0
        while x >= 1000 * Fraction(10) ** exponent:
            exponent += 3
        while x < Fraction(10) ** exponent:
            exponent -= 1
        mantissa = x / Fraction(10) ** exponent
        close = "" if (mantissa * 1000).denominator == 1 else "약 "
        sup = str(exponent).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
        return f"{close}{fmt.number(mantissa, 3)} × 10{sup} {unit}".rstrip()
    close = "" if (x * 10**6).denominator == 1 else "약 "
    text = fmt.decimal(x, 6, grouping=True).rstrip("0").rstrip(".") if x.denominator != 1 else fmt.integer(x)
    return f"{close}{text} {unit}".rstrip()


def _readable(item: dict, value, time_unit: str = "ms") -> dict:
    """`item` (a record, an input) with `approx`, its readable value, when it has one."""
    approx = readable(value, item["unit"], time_unit)
    return {**item, "approx": approx} if approx else item


def said_numbers(numbers: str, inputs: list[dict], time_unit: str = "ms") -> str:
    """The numbers line as a reader reads it: each time put in (an input in s, an exact fraction of a second) as its
    value in `time_unit`, "max(약 6.871948 ms, 약 549.822923 ms)" for "max(8,388,608/1,220,703,125,
    134,234,112/244,140,625)". The panel shows this line; the record keeps the exact `numbers` (the check evaluates
    them)."""
    def in_ms(exact: str) -> str:   # every time of one line in one unit, so that they compare at a glance
        x = Fraction(exact.replace(",", "")) * TIME_UNITS[time_unit]
        return (f"{'' if (x * 10**6).denominator == 1 else '약 '}"
                f"{fmt.decimal(x, 6, grouping=True).rstrip('0').rstrip('.')} {time_unit}")

    times = sorted({x["value"] for x in inputs if x["unit"] == "s" and "/" in x["value"]}, key=lambda v: -len(v))
    for exact in times:
        numbers = numbers.replace(exact, in_ms(exact))
    return numbers


def rounded_to(digits: int) -> str:
    """How `digits` decimals are said: "정수로 반올림", "소수 2자리로 반올림"."""
    return "정수로 반올림" if digits == 0 else f"소수 {digits}자리로 반올림"


def records(q: Quantity, src: dict[str, str], into: dict | None = None, _made: dict | None = None,
            time_unit: str = "ms") -> tuple[str, dict]:
    """The record of named quantity `q` and of every derived quantity it rests on: (its id, id → record). Each
    record's id is the digest of its content (`record_id`), its derived inputs' ids in it. Its times and its inputs'
    are read in `time_unit` (the unit the page shows `q` in), down to the leaves."""
    into = {} if into is None else into
    made = {} if _made is None else _made   # id(Quantity) → its record's id, within this call (src is one)
    if id(q) in made:
        return made[id(q)], into
    if not q.derived:   # an input shown itself: its origin is its derivation
        name, unit = _named(q.symbol, src)
        origin = _origin(q, src)
        if isinstance(origin, Quantity):   # an input that is itself computed (L = N²): its record
            key, _ = records(origin, src, into, made, time_unit)
            made[id(q)] = key
            return key, into
        record = _readable({"symbol": q.symbol, "name": name, "formula": q.symbol, "numbers": q.numbers,
                            "exact": exact_text(q.value), "unit": unit, "inputs": [], "origin": origin}, q.value,
                           time_unit)
    else:
        inputs = []
        for x in q.term.inputs:
            if x.derived:
                origin = "derived:" + records(x, src, into, made, time_unit)[0]
            else:
                origin = _origin(x, src)
                if isinstance(origin, Quantity):
                    origin = "derived:" + records(origin, src, into, made, time_unit)[0]
            name, unit = _named(x.symbol, src)
            inputs.append(_readable({"symbol": x.symbol, "name": name, "value": exact_text(x.value), "unit": unit,
                                     "origin": origin}, x.value, time_unit))
        name, unit = _named(q.symbol, src)
        record = _readable({"symbol": q.symbol, "name": name, "formula": q.term.formula, "numbers": q.term.numbers,
                            "exact": exact_text(q.value), "unit": unit, "inputs": inputs}, q.value, time_unit)
        said = said_numbers(q.term.numbers, inputs, time_unit)
        if said != q.term.numbers:
            record["said"] = said
    key = record_id(record)
    keep(into, key, record)
    made[id(q)] = key
    return key, into


class Shown(str):
    """A glued text that carries its record (`why`): a str everywhere else (formats, joins, Markdown)."""

    why: dict

    def __new__(cls, text: str, why: dict):
        made = super().__new__(cls, text)
        made.why = why
        return made


def shown(q: Quantity, text: str, src: dict[str, str], *, digits: int | None, scale=1, unit: str | None = None,
          rounding: str | None = None) -> Shown:
    """`text`, the value of `q` as `fmt` wrote it (times `scale`, to `digits` decimals, or exact when None), with its
    record. `unit`: the shown unit when it is not the quantity's own (ms for s, TFLOPs/s …); a time shown in µs is
    read in µs in its panel too."""
    of, recs = records(q, src, time_unit=unit if unit in TIME_UNITS else "ms")
    base_unit = recs[of]["unit"]
    said = str(text)
    if unit and (said.endswith(unit) or re.search(rf"(?<![\w/]){re.escape(unit)}(?![\w/])", said)):   # "63.51배", "3.35 TB/s (HBM3)",
        unit = ""                                                                 # "64 MiB(…)": the text has it
    elif unit in TIGHT:   # "80%", "20.3배": the panel writes them without a space
        said, unit = said + unit, ""
    if rounding is None:
        rounding = "" if digits is None else rounded_to(digits)   # (an exact value says nothing)
    if digits is not None and (Fraction(q.value) * Fraction(scale) * 10**digits).denominator == 1:
        rounding = ""   # 64.5, "4 KiB", "204.800": nothing was rounded, so the panel says the exact value, not a rule
    return Shown(text, {"of": of, "shown": said, "unit": unit if unit is not None else base_unit,
                        "rounding": rounding, "scale": exact_text(Fraction(scale)),
                        "digits": digits, "records": recs})


# ---------------------------------------------------------------- an explorer's states, the live mode's result

ENTRY = ("of", "shown", "unit", "rounding", "scale", "digits")   # what a number's panel needs beside the records
TIGHT = ("%", "배")   # units written without a space


def entry_id(value: Shown) -> str:
    """The id of a shown number's entry (its record's id and how it is shown): the same number shown the same way in
    two states is one entry."""
    text = json.dumps([value.why[k] for k in ENTRY], ensure_ascii=False)
    return "e-" + hashlib.sha256(text.encode()).hexdigest()[:10]


def pooled(state: dict, pool: dict, origins: dict | None = None, renames: dict | None = None) -> dict:
    """An explorer's state (`roofline.show.engine`) whose texts may carry their records, as plain data: the same state
    with plain texts and `"why": {"fields": {name: entry id}, "tables": {name: [[entry id or 0, …], …]}}` (a sentence's
    id: `[[at, length, entry id], …]`, one for each of its numbers), its entries
    and records put into `pool` (`{"g": {id: entry}, "r": {id: record}}`, shared by every state of an explorer, a file
    the page fetches when a panel first opens; `keep`: an id never names two contents). `origins`: an origin's new
    name ("cell:N" → "typed:N" in the live mode, whose inputs are what the reader typed): the renamed records are new
    records, with new ids; `renames` (if given) gets each entry's id before → after, for the buttons the page's HTML
    wrote before the renaming (`explorer.wrap`)."""
    entries, records = pool.setdefault("g", {}), pool.setdefault("r", {})

    def put(record: dict) -> str:
        of = renamed(record["of"], record["records"], origins or {}, records, {})
        entry = {**{k: record[k] for k in ENTRY}, "of": of}
        key = entry_id(Shown("", entry))
        keep(entries, key, entry)
        if renames is not None:
            renames[entry_id(Shown("", record))] = key
        return key

    def plain(value):
        """(text, its entry's id | [[at, length, id], …] for a sentence's numbers | 0)."""
        if not isinstance(value, Shown):
            return value, 0
        if "parts" in value.why:
            found = [[p["at"], p["length"], put({**p, "records": value.why["records"]})] for p in value.why["parts"]]
            return str(value), found or 0
        return str(value), put(value.why)

    out = dict(state)
    why = {}
    if "fields" in state:
        fields, ids = {}, {}
        for name, value in state["fields"].items():
            fields[name], key = plain(value)
            if key:
                ids[name] = key
        out["fields"] = fields
        if ids:
            why["fields"] = ids
    if "tables" in state:
        tables, ids = {}, {}
        for name, table in state["tables"].items():
            rows = [[plain(c) for c in row] for row in table["rows"]]
            tables[name] = {**table, "rows": [[text for text, _ in row] for row in rows]}
            if any(key for row in rows for _, key in row):
                ids[name] = [[key for _, key in row] for row in rows]
        out["tables"] = tables
        if ids:
            why["tables"] = ids
    if why:
        out["why"] = why
    return out


def renamed(key: str, recs: dict, origins: dict, into: dict, memo: dict) -> str:
    """The chain of record `key` (in `recs`) with each origin of a kind in `origins` renamed ("cell" → "control"),
    kept into `into` under the new records' own ids; returns the new id of `key` (the same id if nothing changed)."""
    if key in memo:
        return memo[key]
    r = recs[key]

    def one(origin: str) -> str:
        kind, _, what = origin.partition(":")
        if kind == "derived":
            return "derived:" + renamed(what, recs, origins, into, memo)
        return f"{origins[kind]}:{what}" if kind in origins else origin

    new = {**r, "inputs": [{**x, "origin": one(x["origin"])} for x in r["inputs"]]}
    if "origin" in r:
        new["origin"] = one(r["origin"])
    memo[key] = new_key = key if new == r else record_id(new)
    keep(into, new_key, new)
    return new_key


# the fmt functions, each with the record of the number it writes
def decimal(q: Quantity, digits: int, src: dict) -> Shown:
    """`fmt.decimal` with separators, as every number a reader reads (1,365.333333 FLOPs/Byte in a table's I column)."""
    return shown(q, fmt.decimal(q.value, digits, grouping=True), src, digits=digits)


def integer(q: Quantity, src: dict) -> Shown:
    return shown(q, fmt.integer(q.value), src, digits=None)


def number(q: Quantity, digits: int, src: dict, scale=1, unit: str | None = None) -> Shown:
    """`fmt.number` of the value times `scale` (P in TFLOPs/s: scale 10⁻¹², unit "TFLOPs/s")."""
    value = Fraction(q.value) * Fraction(scale)
    whole = value.denominator == 1
    return shown(q, fmt.number(value, digits), src, digits=None if whole else digits, scale=scale, unit=unit,
                 rounding=None if whole else f"{rounded_to(digits)}, 끝의 0은 생략")


def fraction(q: Quantity, src: dict) -> Shown:
    return shown(q, fmt.fraction(q.value), src, digits=None, rounding="정확한 분수")


def ms(q: Quantity, digits: int, src: dict) -> Shown:
    return shown(q, fmt.ms(q.value, digits), src, digits=digits, scale=1000, unit="ms")


def tera(q: Quantity, digits: int, src: dict) -> Shown:
    unit = fmt.TERA_UNITS.get(_named(q.symbol, src)[1], "× 10¹²")
    return shown(q, fmt.tera(q.value, digits), src, digits=digits, scale=Fraction(1, 10**12), unit=unit)


def giga(q: Quantity, digits: int, src: dict) -> Shown:
    unit = {"FLOPs": "GFLOPs", "OPs": "GOPs", "Byte": "GB"}.get(_named(q.symbol, src)[1], "× 10⁹")
    return shown(q, fmt.giga(q.value, digits), src, digits=digits, scale=Fraction(1, 10**9), unit=unit)


# ---------------------------------------------------------------- in a notebook

ORIGINS = {"toml": "course.toml의 키", "cell": "매개변수 셀의 변수", "derived": "앞의 유도", "simulated": "모델의 시뮬레이션:",
           "measured": "이 기계에서 잰 값", "cite": "참고문헌", "code": "이 노트북의 코드 셀이 정한 값:",
           "control": "조건 탐색기에서 고른 값", "typed": "직접 계산하기에 적은 값", "search": "모델이 찾은 값:", "quoted": "출처 없이 흔히 인용되는 값:"}


def origin_text(origin: str, recs: dict) -> str:
    kind, _, what = origin.partition(":")
    if kind == "derived":
        r = recs[what]
        return f"{ORIGINS[kind]}: {r['symbol']} = {r['formula']}"
    if kind == "code" and "=" not in what:   # a call computes what it gives (a rank, ρ); "n = 2", "digits=6" are chosen
        return f"이 노트북의 코드 셀이 이 호출로 얻은 값: {what}"
    return f"{ORIGINS.get(kind, kind)} {what}"


def text(record: dict) -> str:
    """A glued number's derivation as lines of text (what `why` prints, what the page's panel shows)."""
    recs = record["records"]
    lines = []

    def one(key: str, result: str, depth: int = 0):
        r = recs[key]
        pad = "  " * depth
        lines.append(f"{pad}{r['symbol']} ({r['name']}) = {r['formula']}")
        if r["numbers"] != r["formula"]:
            lines.append(f"{pad}  = {r.get('said', r['numbers'])}")
        lines.append(f"{pad}  = {result}")
        if "origin" in r:
            lines.append(f"{pad}  ← {origin_text(r['origin'], recs)}")
        for x in r["inputs"]:
            lines.append(f"{pad}  · {x['symbol']} = {value_text(x, x['value'])} ← {origin_text(x['origin'], recs)}")
        for x in r["inputs"]:
            if x["origin"].startswith("derived:"):
                sub = recs[x["origin"].removeprefix("derived:")]
                one(x["origin"].removeprefix("derived:"), value_text(sub, sub["exact"]), depth + 1)

    one(record["of"], result_text(record, recs[record["of"]]))
    return "\n".join(lines)


def value_text(item: dict, exact: str) -> str:
    """An input's or a linked record's value: "6.871948 ms (정확한 값 8,388,608/1,220,703,125 s)", "4,096"
    (why.js writes the same)."""
    unit = f" {item['unit']}" if item["unit"] else ""
    return f"{item['approx']} (정확한 값 {exact}{unit})" if item.get("approx") else f"{exact}{unit}"


def result_text(entry: dict, top: dict) -> str:
    """The shown number, how it was rounded, and the exact value when the shown text does not say it: "12.5% — 백분율로,
    소수 1자리로 반올림 (정확한 값 1/8)", "16 GB (= 16,000,000,000 Byte)", "4,096", "64 MiB(67,108,864 Byte)" (not
    "… (= 67,108,864 Byte)" again; why-panel.js writes the same)."""
    bare = re.match(r"[−-]?[\d,./]+", entry["shown"])   # the shown number without the words around it ("1배")
    exact = top["exact"] + (f" {top['unit']}" if top["unit"] else "")
    same = entry["shown"] == top["exact"] or (
        bare is not None and bare.group(0).replace(",", "") == top["exact"].replace(",", "")) or (
        bool(top["unit"]) and exact in entry["shown"])   # "64 MiB(67,108,864 Byte)" says its exact value already
    said = f"{entry['shown']} {entry['unit']}".rstrip() + (f" — {entry['rounding']}" if entry["rounding"] else "")
    return said if same else said + (f" (정확한 값 {exact})" if entry["rounding"] else f" (= {exact})")


def why(name) -> None:
    """Print how a glued number was computed: `why("I0")` (its glue name), or `why(value)` for a value that
    carries its record."""
    record = getattr(name, "why", None) or REGISTRY.get(name)
    if record is None:
        known = ", ".join(sorted(REGISTRY)) or "(아직 없음: 셀을 먼저 실행하자)"
        print(f"why: {name!r}의 유도가 없다. 유도가 있는 이름: {known}")
        return
    print("\n\n".join(text(one) for one in parts(record)))   # a sentence: each of its numbers


def sentence(*pieces) -> Shown:
    """A glued text of words and shown numbers, joined: each number (a piece that carries its record) keeps it, as a
    part of the text (`{"parts": [{"at", "length", entry…}], "records"}`; a sentence among the pieces brings its
    parts, and its `labels`: `label` and `name`). The page marks each part as its own button; a notebook's
    `why(name)` prints each."""
    text, parts, labels, records = "", [], [], {}
    for piece in pieces:
        record = getattr(piece, "why", None)
        if record is not None and "parts" in record:
            parts += [{**part, "at": part["at"] + len(text)} for part in record["parts"]]
            labels += [{**one, "at": one["at"] + len(text)} for one in record.get("labels", [])]
            merge(records, record["records"])
        elif record is not None:
            parts.append({"at": len(text), "length": len(piece), **{k: record[k] for k in ENTRY}})
            merge(records, record["records"])
        text += str(piece)
    return Shown(text, {"parts": parts, "records": records, **({"labels": labels} if labels else {})})


def label(value, origin: str, text: str | None = None) -> Shown:
    """A number that labels a row, a column or a case ("T = 32"'s 32, "P = 20, BW = 1" of a row's name, "원소당
    4 Byte" of a problem's statement): no button (a label is not a result the reader asks about), but made here, with
    the origin of its value ("toml:week4.tiles", "cell:N", "code:<call>", "cite:<key>, <where>"), which the build's
    gate checks by its kind like an input's (`coursebook.derivations.origin_resolves`). `text`: how it is written
    (`str(value)` if not given). Put it in a `sentence` to write words around it."""
    said = str(value) if text is None else text
    if not re.fullmatch(r"[−-]?[\d,]+(?:\.\d+)?", said):
        raise ValueError(f"why.label: {said!r} is not a number (words go around it in a why.sentence)")
    return Shown(said, {"parts": [], "records": {}, "labels": [{"at": 0, "length": len(said), "origin": origin}]})


def label_of(symbol: str, x, src: dict, text: str | None = None) -> Shown:
    """`label` of input `symbol` = `x`, its origin the input's in `src` (as `var` would name it): "T = 32"'s 32."""
    origin = src.get((symbol, x)) or src.get(symbol)
    if not isinstance(origin, str):
        raise KeyError(f"why: no origin for label {symbol!r} = {x} (give it in `src`)")
    return label(x, origin, text)


def labelled(q: Quantity, text: str, src: dict) -> Shown:
    """`label` of quantity `q` written as `text` ("P = 40"'s 40 in a row's name): an input's origin is its own
    (`label_of`), a derived one's is its record ("derived:<id>"), which the label carries for the gate to check."""
    if not q.derived:
        return label_of(q.symbol, q.value, src, text)
    of, recs = records(q, src)
    made = label(text, "derived:" + of)
    made.why["records"] = recs
    return made


def case_label(c, src: dict, nbsp: bool = False) -> str:
    """`ko.case` as a row's label, no button: "T = 128" (128 a `label` with the tile side's origin), "재사용 없음";
    `nbsp`: with no-break spaces (`ko.nbsp`, which a sentence's record would not survive)."""
    from roofline.show import ko

    if c.T is None:
        return ko.case(c)
    return sentence("T\u00a0=\u00a0" if nbsp else "T = ", label_of("T", c.T, src))


def names_in(text: str, names) -> str:
    """`text` with each of `names` in it marked as a name (`name`): "표준 어텐션 (GPT-2 medium)" with "GPT-2"."""
    pieces, rest = [], text
    while rest:
        at, found = min(((rest.find(n), n) for n in names if n in rest), default=(len(rest), ""))
        pieces += [rest[:at]] * bool(at) + ([name(found)] if found else [])
        rest = rest[at + len(found):]
    return sentence(*pieces) if any(n in text for n in names) else text


NAME_WORD = re.compile(r"[A-Za-z][\w.+-]*")   # a word of a name: it begins with a letter ("GPT-2", "Level-1", "v1.1")


def name(text: str) -> Shown:
    """A name whose digits are the name's, not a number ("GPT-2", "Level-1", "FlashAttention-3", "MLPerf v1.1"):
    marked so that the gate reads its digits as a name's. Every word of a name begins with a letter (`NAME_WORD`),
    so a number ("7.6배", "2 FLOPs") is never a name; the gate checks the same rule."""
    if not text or not all(NAME_WORD.fullmatch(word) for word in text.split()):
        raise ValueError(f"why.name: {text!r} is not a name (each word begins with a letter)")
    return Shown(text, {"parts": [], "records": {}, "labels": [{"at": 0, "length": len(text), "origin": f"name:{text}"}]})


def rstripped(value: str) -> str:
    """`value` without trailing white space, a sentence keeping its parts (they are numbers, never white space)."""
    record = getattr(value, "why", None)
    return str(value).rstrip() if record is None else Shown(str(value).rstrip(), record)


def side(symbol: str, x: int, src: dict) -> Shown:
    """An input written as the course writes a tile side or a matrix shape, digits only ("T = 1024", "8×8"), with
    its record (`var` writes "1,024")."""
    from roofline.derive import var as input_

    return shown(input_(symbol, x), str(x), src, digits=None)


def case(c, src: dict) -> str:
    """`ko.case` with the tile side's record: "T = 128" (128 a part), "재사용 없음" (no number)."""
    from roofline.show import ko

    return ko.case(c) if c.T is None else sentence("T = ", side("T", c.T, src))


def cases(cs, src: dict) -> str:
    """`ko.cases`, "재사용 없음·T = 32·T = 64", each tile side with its record."""
    pieces = []
    for i, c in enumerate(cs):
        pieces += ["·"] * bool(i) + [case(c, src)]
    return sentence(*pieces)


def parts(record: dict) -> list[dict]:
    """The numbers a record shows, each as a record of its own: a sentence's parts, or the record itself."""
    if "parts" not in record:
        return [record]
    return [{**{k: part[k] for k in ENTRY}, "records": record["records"]} for part in record["parts"]]


def particle(value: Shown, pair: str) -> Shown:
    """`ko.particle` that keeps the number's record: "4,096" → "4,096으로", the particle outside the number's
    button (a sentence of the number and its particle; a sentence keeps its parts where they are: the particle
    follows them)."""
    from roofline.show import ko

    record = getattr(value, "why", None)   # (a plain text: the particle alone)
    if record is None:
        return ko.particle(value, pair)
    said = ko.particle(value, pair)
    return Shown(said, record) if "parts" in record else sentence(value, said[len(value):])   # (not in the button)


def around(value: Shown, text: str) -> Shown:
    """`text` (the number with words around it, e.g. "0.0625 (T = 32)") carrying `value`'s record."""
    return Shown(text, value.why)


def var(symbol: str, x, src: dict) -> Shown:
    """An input shown as it is (N, T, s): its record names where it comes from."""
    from roofline.derive import var as input_

    return integer(input_(symbol, x), src)


def _given(symbol: str, name: str, unit: str, exact: str, origin: str, text: str, **extra) -> Shown:
    """`text` carrying the record of a value that is given, not computed: its formula is its symbol, its one origin
    names where it comes from."""
    record = {"symbol": symbol, "name": name, "formula": symbol, "numbers": exact, "exact": exact, "unit": unit,
              "inputs": [], "origin": origin, **extra}
    key = record_id(record)
    return Shown(text, {"of": key, "shown": exact, "unit": unit, "rounding": "", "scale": "1", "digits": None,
                        "records": {key: record}})


def listed(symbol: str, values, origin: str, text: str, src: dict | None = None) -> Shown:
    """A list of inputs shown as one text (the tiles "32·64·128"): its record names the list's origin (and its
    symbol's name: the page's own in `src`, else the course's)."""
    shown_ = ", ".join(exact_text(v) for v in values)
    name, unit = _named(symbol, src or {})
    return _given(symbol, name, unit, shown_, origin, text, list=True)


def cited(text: str, name: str, value: int, bibkey: str) -> Shown:
    """`text`, a number that names something in a cited source ("Algorithm 1"), not a quantity: its record is the
    bibliography entry."""
    return _given(text, name, "", str(value), f"cite:{bibkey}, {text}", text)


def chosen(symbol: str, name: str, value: int, call: str) -> Shown:
    """A display choice that a code cell of the page makes (a table's decimals), shown as a number: its record names
    the call that makes it, `call` as the chapter's source writes it (the gate finds it there)."""
    return _given(symbol, name, "", str(value), f"code:{call}", str(value))


def kib(q: Quantity, src: dict) -> Shown:
    """`fmt.kib`: Byte in KiB, "12 KiB" (3 decimals, trailing zeros dropped)."""
    return shown(q, fmt.kib(q.value), src, digits=3, scale=Fraction(1, 1024), unit="KiB",
                 rounding="KiB(1,024 Byte)로, 소수 3자리로 반올림, 끝의 0은 생략")


def percent(q: Quantity, digits: int, src: dict) -> Shown:
    """`fmt.percent`: a share in %, "75.0%"."""
    exact = (Fraction(q.value) * 100 * 10**digits).denominator == 1   # 90%: nothing rounded
    return shown(q, fmt.percent(q.value, digits), src, digits=digits, scale=100, unit="%",
                 rounding="" if exact else f"백분율로, {rounded_to(digits)}")


def power10(q: Quantity, src: dict, unit: str | None = None) -> Shown:
    """`fmt.power10`: "20 × 10¹²" (the mantissa to 3 decimals, trailing zeros dropped)."""
    _, exponent = fmt.engineering(q.value)   # (the text carries "× 10ⁿ": the unit is the quantity's own)
    return shown(q, fmt.power10(q.value), src, digits=3, scale=Fraction(1, 10**exponent),
                 unit=unit or _named(q.symbol, src)[1], rounding="소수 3자리로 반올림, 끝의 0은 생략")


# the FlashAttention note's symbols (the page writes them so): its page module gives them in `src` as ("name", symbol),
# so that they name no other page's symbol (a name also stands for symbols that begin with it: t → t_ideal)
NOTE_NAMES = ({
    "d": ("모델 차원 d_model", ""), "n_ctx": ("문맥 길이", "토큰"), "n_layers": ("층 수", ""), "n_heads": ("헤드 수", ""),
    "n_vocab": ("어휘 크기", "토큰"), "F_QKV": ("QKV 투영의 토큰당 FLOPs", "FLOPs"),
    "F_out": ("출력 투영의 토큰당 FLOPs", "FLOPs"), "F_FFN": ("FFN의 토큰당 FLOPs", "FLOPs"),
    "F_attn": ("점수와 가중합의 토큰당 FLOPs", "FLOPs"), "F_층": ("층 하나의 토큰당 FLOPs", "FLOPs"),
    "F_밖": ("층 밖(임베딩, 로짓)의 토큰당 FLOPs", "FLOPs"), "F_토큰": ("토큰 하나의 순전파 FLOPs", "FLOPs"),
    "softmax 원소": ("토큰·층마다 softmax 점수 원소", "원소"),
    "h": ("헤드 수", ""), "d_head": ("헤드 차원", ""), "layers": ("층 수", ""),
    "smem": ("SM 하나의 Shared Memory", "Byte"), "B_c": ("K, V 블록의 행 수", ""), "B_r": ("Q 블록의 행 수", ""),
    "T_c": ("K, V 블록의 수", ""), "Q_표준": ("표준 어텐션의 DRAM 이동", "Byte"), "Q_Flash": ("FlashAttention의 DRAM 이동", "Byte"),
    "Q_S": ("헤드 하나의 점수 행렬 S의 Byte", "Byte"),
    "Q_S,헤드": ("모든 헤드의 점수 행렬 S의 Byte", "Byte"), "Q_N²": ("N² 항의 DRAM 이동", "Byte"), "Q_Nd": ("Nd 항의 DRAM 이동", "Byte"),
    "t_N²": ("N² 항의 이동 시간", "s"), "Σ 비율": ("층 하나의 비율 합", ""), "T_캐시²": ("타일 세 개가 캐시를 채우는 T²", ""),
    "T_캐시": ("타일 세 개가 캐시를 채우는 타일 한 변", ""), "캐시": ("캐시의 크기", "Byte"), "t/N³": ("MAC 하나에 걸린 시간", "s"),
    "t·(N_큰/N)³": ("큰 행렬로 외삽한 시간", "s"), "t·(N_큰/N)³/3600": ("큰 행렬로 외삽한 시간 (시간 단위)", "시간"),
    "t_naive/t_blas": ("단순 루프가 BLAS보다 느린 배율", ""), "2·N³/t": ("잰 성능", "FLOPs/s"), "repeats": ("잰 횟수", ""),
    "cores": ("코어 수", ""), "오차/ε": ("ε 단위의 오차", ""), "N²·s": ("행렬의 Byte", "Byte"),
    "t_열/t_행": ("열 순서가 느린 배율", ""), "줄의 원소 수": ("캐시 줄 하나의 원소 수", ""), "N·line": ("열 하나가 올리는 줄의 Byte", "Byte"),
    "단계당 MAC": ("한 단계의 곱셈-덧셈", ""), "단계당 Byte": ("한 단계에 읽는 A·B 타일", "Byte"),
    "타일의 MAC": ("출력 타일 하나의 곱셈-덧셈", ""), "MAC/Byte": ("읽은 Byte당 곱셈-덧셈", ""),
    "1/(2·s)": ("타일 없는 내적의 Byte당 곱셈-덧셈", ""), "HBM/L1": ("HBM 지연이 L1 지연의 몇 배인가", ""),
    "미스_행": ("행 순서로 읽을 때의 L1 미스", ""), "미스_열": ("열 순서로 읽을 때의 L1 미스", ""),
    "미스_열/미스_행": ("미스의 비", ""), "max(L1_CPU)": ("큰 쪽 CPU L1", "Byte"),
    "B_c,맞춤": ("SRAM에 들어가는 가장 큰 align 배수의 B_c", ""), "R_FA3/P": ("FA3 성능이 최대 성능에서 차지하는 비율", ""),
    "R_FA2/P_A100": ("FA2 성능이 A100 최대 성능에서 차지하는 비율", ""), "R_FA3": ("FA3 논문의 성능", "FLOPs/s"),
    "R_FA2": ("FA2 논문의 성능", "FLOPs/s"), "P_A100": ("A100 최대 연산 성능", "FLOPs/s"),
    "η_FA1": ("FA1이 A100 최대 성능에서 낸 비율의 하한", ""), "BW_SRAM": ("FA1 논문의 A100 SRAM 대역폭", "Byte/s"),
    "SRAM 크기": ("FA1 논문의 A100 SRAM 크기", "Byte"), "bits_FP32": ("FP32 가수 비트", ""),
    "bits_TF32": ("TF32 가수 비트", ""), "2^(bits_FP32 − bits_TF32)": ("최소 단위(ulp)의 비", ""), "b": ("배치 크기", ""), "b*": ("I(b)가 I*에 닿는 배치 크기", ""),
    "⌈b*⌉": ("I*에 닿는 가장 작은 정수 배치", ""), "T*": ("I_T가 I*에 닿는 타일 한 변", ""),
    "t": ("현실적인 효율에서의 시간", "s"), "R_roof/P": ("최대 성능 대비 상한", ""), "s·K·N": ("가중치 행렬의 Byte", "Byte"),
    "s·K·N/Q": ("이동량 가운데 가중치의 비율", ""), "F/Q_read": ("C 쓰기를 빼고 본 산술 강도", "FLOPs/Byte"),
    "F/t_주장": ("주장대로면 나오는 성능", "FLOPs/s"), "I*_희소": ("희소 최대의 분기점", "FLOPs/Byte"),
    "t_FP32": ("FP32 CUDA Core의 이상적 시간", "s"), "t_TF32": ("TF32 Tensor Core의 이상적 시간", "s"),
    "t_FP32/t_TF32": ("TF32로 빨라진 배율", ""), "P_TF32/P_FP32": ("최대 성능의 배율", ""), "MAC": ("곱셈-덧셈(FMA) 횟수", ""), "ε": ("float64의 기계 엡실론", ""),
    "m": ("MMA의 행 수", ""), "n": ("MMA의 열 수", ""), "k": ("MMA의 누적 길이", ""), "MMA의 MAC": ("MMA 한 번의 곱셈-덧셈", ""),
    "MMA의 FLOPs": ("MMA 한 번의 FLOPs", "FLOPs"), "tc_per_SM": ("SM 하나의 Tensor Core 수", ""),
    "tc_flops": ("Tensor Core 하나의 클럭당 FLOPs", "FLOPs"), "cuda_per_SM": ("SM 하나의 CUDA Core 수", ""),
    "cuda_flops": ("CUDA Core 하나의 클럭당 FLOPs", "FLOPs"), "SM 클럭당 TC FLOPs": ("SM 하나의 Tensor Core 클럭당 FLOPs", "FLOPs"),
    "SM 클럭당 CUDA FLOPs": ("SM 하나의 CUDA Core 클럭당 FLOPs", "FLOPs"), "SMs": ("SM 수", ""),
    "f": ("최대 성능이 뜻하는 클럭", "Hz"), "SRAM 원소": ("한 단계가 SRAM에 두는 원소 (Q_i, K_j, V_j, S_ij, O_i, m_i, ℓ_i)", "원소"),
    "SRAM Byte": ("한 단계가 SRAM에 두는 Byte", "Byte"), "align": ("Tensor Core가 맞추는 차원 배수", ""), "2d": ("두 배로 한 헤드 차원", ""),
    "Q_표준/Q_Flash": ("표준 대비 FlashAttention 이동의 배율", ""), "Q_Flash(2d)/Q_Flash(d)": ("d를 두 배로 할 때 FlashAttention 이동의 배율", ""),
    "Q_표준(2d)/Q_표준(d)": ("d를 두 배로 할 때 표준 어텐션 이동의 배율", ""),
    "Q_S,층": ("모든 층·헤드의 점수 행렬 Byte", "Byte"),
    "1 − F_attn/F_층": ("투영과 FFN 행렬곱의 비율", ""), "F_QKV/F_층": ("QKV 투영의 비율", ""),
    "F_out/F_층": ("출력 투영의 비율", ""), "F_FFN/F_층": ("FFN의 비율", ""), "F_attn/F_층": ("점수와 가중합의 비율", ""),
    "F_밖/F_토큰": ("층 밖 연산의 비율", ""), "softmax 원소/F_층": ("층 연산 대비 softmax 원소", ""), "F_attn,h": ("어텐션 행렬곱의 FLOPs", "FLOPs"),
})
NOTE_NAMES = {("name", symbol): name for symbol, name in NOTE_NAMES.items()}


def ratio(q: Quantity, digits: int, src: dict) -> Shown:
    """`fmt.ratio`: "80.01배"."""
    return shown(q, fmt.ratio(q.value, digits), src, digits=digits, unit="배")


def binary(q: Quantity, unit: str, src: dict) -> Shown:
    """`fmt.kib` / `mib` / `gib`: Byte in KiB, MiB, GiB (3 decimals, trailing zeros dropped)."""
    power = {"KiB": 10, "MiB": 20, "GiB": 30}[unit]
    text = {"KiB": fmt.kib, "MiB": fmt.mib, "GiB": fmt.gib}[unit](q.value)
    whole = (Fraction(q.value) / 2**power).denominator == 1
    return shown(q, text, src, digits=None if whole else 3, scale=Fraction(1, 2**power), unit=unit,
                 rounding=None if whole else "소수 3자리로 반올림, 끝의 0은 생략")


def root(q: Quantity, digits: int, src: dict, symbol: str) -> Shown:
    """`fmt.root(q, digits)`: √q rounded, the one shown value that is not exact. Its record is `symbol` = √q, with
    q's record linked (√ is not one of the evaluable operations: the check squares the shown value instead)."""
    of, recs = records(q, src)
    text = fmt.root(q.value, digits)
    name, unit = _named(symbol, src)
    given = "origin" in recs[of]   # q is an input (measured's ρ²): its origin, not a link to "ρ² = ρ²"
    record = {"symbol": symbol, "name": name, "formula": f"√{q.symbol}", "numbers": f"√({q.numbers})",
              "exact": f"√({q.numbers})", "unit": unit, "root": True,
              "inputs": [{"symbol": q.symbol, "name": recs[of]["name"], "value": exact_text(q.value),
                          "unit": recs[of]["unit"], "origin": recs[of]["origin"] if given else "derived:" + of}]}
    key = record_id(record)
    recs = {key: record} if given else {**recs, key: record}
    return Shown(text, {"of": key, "shown": text, "unit": unit, "rounding": rounded_to(digits),
                        "scale": "1", "digits": digits, "records": recs})
