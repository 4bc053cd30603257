"""A student who solves every exercise from its statement alone (issue 55): the numbers are read out of the text the
page shows (the question, the questions it refers to, the worksheet's table), never out of the library's answer, its
solution or `Question.given`, and put into the course's formulas written out here once more, as a student would.

`solve(sheet)` → question key → the answer in the asked unit (a Fraction) or the key of the choice picked; a question
whose statement lacks a number it needs raises `Missing` (a statement that does not state the student's problem).
`typed(q, value)` writes it as a student types it. `slips(sheet)` → (key, typed, expected kind) for mistakes a student
plausibly makes, the question's own named ones and unlisted ones (a wrong unit prefix, ×2 for the FMA forgotten, the
other dtype's bytes), each computed here from the statement too, for counting how the judge names them.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

from exercise_answers import sig

SIZES = {"FP32": 4, "TF32": 4, "FP16": 2, "BF16": 2, "FP8": 1, "INT8": 1}   # what the pages teach of each dtype
SUP = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
TERA, GIGA, KIB = Fraction(10**12), Fraction(10**9), Fraction(1024)


class _Slip:
    """What a student got wrong while solving (`slipped`): an FMA counted as one FLOP, the other dtype's bytes."""
    fma = 2          # FLOPs per multiply-add
    dtype = False    # every element size read as the other common dtype's (OTHER)


SLIP = _Slip()
OTHER = {4: 2, 2: 4, 1: 2}   # FP32 ↔ FP16, FP8/INT8 → FP16: the dtype a student most plausibly mixes up


class Missing(LookupError):
    """A number the question needs is not in what the page shows for it."""


def _find(pattern: str, text: str, what: str) -> re.Match:
    m = re.search(pattern, text.replace("\u00a0", " "))
    if not m:
        raise Missing(f"{what}: {text}")
    return m


def num(text: str) -> Fraction:
    return Fraction(text.replace(",", ""))


def power(text: str) -> Fraction:
    """"19.5 × 10¹²" → 19.5·10¹²."""
    m = _find(r"([\d.,]+) × 10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)", text, "a × 10ⁿ")
    return num(m[1]) * Fraction(10) ** int(m[2].translate(SUP))


def side(text: str) -> int:
    return int(num(_find(r"([\d,]+)×([\d,]+)", text, "N×N")[1]))


def dtype_bytes(text: str, nth: int = 0) -> int:
    """The element size of the nth dtype named: its stated "(원소 s Byte)", else what the pages teach of it."""
    found = re.findall(r"(FP32|TF32|FP16|BF16|FP8|INT8)(?:\(원소 (\d+) Byte\))?", text)
    if len(found) <= nth:
        raise Missing(f"dtype: {text}")
    name, s = found[nth]
    s = int(s) if s else SIZES[name]
    return OTHER[s] if SLIP.dtype else s


def rates(text: str) -> tuple[Fraction, Fraction]:
    """P and BW of "P = 20 × 10¹² FLOPs/s, BW = 1 × 10¹² Byte/s" or "P = 989.4 TFLOPs/s, … BW = 3.35 TB/s"."""
    return peak(text), bandwidth(text)


def peak(text: str) -> Fraction:
    """P of "P = 20 × 10¹² FLOPs/s" or "P = 989.4 TFLOPs/s"."""
    P = _find(r"P = ([\d.,]+(?: × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?) ?(TFLOPs/s|FLOPs/s|TOPS|OPs/s)", text, "P")
    return power(P[1]) if "×" in P[1] else num(P[1]) * (TERA if P[2].startswith("T") else 1)


def bandwidth(text: str) -> Fraction:
    """BW of "BW = 1 × 10¹² Byte/s" or "BW = 3.35 TB/s"."""
    BW = _find(r"BW = ([\d.,]+(?: × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?) ?(TB/s|Byte/s)", text, "BW")
    return power(BW[1]) if "×" in BW[1] else num(BW[1]) * (TERA if BW[2] == "TB/s" else 1)


def Q_tiled(N, s, T=None, s_out=None) -> Fraction:
    """Q = 2·s·N³/T + s_out·N² (T None: no reuse)."""
    return Fraction(2 * s * N**3, T or 1) + (s if s_out is None else s_out) * N**2


def I_tiled(N, s, T=None) -> Fraction:
    return Fraction(SLIP.fma * N**3) / Q_tiled(N, s, T)


def _context(sheet, key: str) -> str:
    """The question's text and, when it refers to others ("같은 하드웨어", "②-1의 행렬곱"), those before it."""
    keys = [q.key for q in sheet.questions]
    before = keys[: keys.index(key) + 1]
    return " ".join(sheet.question(k).text for k in reversed(before))


def _T(text: str) -> int:
    return int(num(_find(r"T = ([\d,]+) 출력", text, "T")[1]))


def _bound(slow_memory: bool) -> str:
    return "memory" if slow_memory else "compute"


def solve_question(sheet, key: str):
    q = sheet.question(key)
    own, ctx = q.text, _context(sheet, key)
    k = key.split("-")[0]
    if k == "①":
        n = int(key[-1])
        if n == 1:
            N, s, T = side(own), dtype_bytes(own), _T(own)
            return I_tiled(N, s, T)
        if n == 2:
            n_ = side(own)
            s = dtype_bytes(own)
            return Fraction(SLIP.fma * n_**2, s * (n_**2 + 2 * n_))
        if n == 3:
            N, s_in, s_out = side(own), dtype_bytes(own, 0), dtype_bytes(own, 1)
            return Fraction(SLIP.fma * N**3, 2 * s_in * N**2 + s_out * N**2)
        P, BW = rates(own)
        N, s, T = side(own), dtype_bytes(own), _T(own)
        return _bound(Q_tiled(N, s, T) / BW > SLIP.fma * N**3 / P)
    if k == "②":
        first = sheet.question("②-1").text
        P, BW = rates(first)
        N, s, T = side(first), dtype_bytes(first), _T(first)
        R = min(P, BW * I_tiled(N, s, T))
        if key == "②-1":
            return R / TERA
        if key == "②-2":
            return SLIP.fma * N**3 / R * 1000
        return _bound(BW * I_tiled(N, s, T) < P)
    if k == "③":
        if key == "③-1":
            n = side(own)
            t = int(_find(r"(\d+)×\1 출력", own, "t")[1])
            return Fraction(2 * dtype_bytes(own) * n**3, t) + dtype_bytes(own) * n**2
        if key == "③-2":
            return Fraction(2 * dtype_bytes(own) * side(own) ** 3, _T(own)) / GIGA
        m = _find(r"T를 ([\d,]+)에서 ([\d,]+)(?:으로|로)", own, "T")
        N, s = side(own), dtype_bytes(own)
        ratio = Q_tiled(N, s, int(num(m[2]))) / Q_tiled(N, s, int(num(m[1])))
        return "exact" if ratio == Fraction(1, 2) else ("less" if ratio > Fraction(1, 2) else "more")
    if k == "④":
        m = re.search(r"T_M×T_N×T_K = (\d+)×(\d+)×(\d+)", ctx)
        if key in ("④-1", "④-2"):
            TM, TN, TK = map(int, m.groups())
            s = dtype_bytes(sheet.question("④-1").text)
            inputs = s * (TM * TK + TK * TN)
            if key == "④-1":
                return Fraction(inputs) / KIB
            acc = int(_find(r"FP32\((\d+) Byte\)로 누산", own, "acc")[1])
            return Fraction(2 * inputs + acc * TM * TN) / KIB
        if key == "④-3":
            TM, TN, TK = map(int, m.groups())
            limit = num(_find(r"최대 ([\d.,]+) KiB", own, "limit")[1]) * KIB
            return "fits" if 2 * dtype_bytes(own) * (TM * TK + TK * TN) <= limit else "no"
        N, s = side(own), dtype_bytes(own)
        a = int(_find(r"출력 타일을 (\d+)×\1", own, "tile")[1])
        return Fraction(2 * s * N**3, a) / GIGA
    if k == "⑤":
        P, BW = rates(sheet.question("⑤-1").text)
        N, s = side(own), dtype_bytes(own)
        if key == "⑤-1":
            T = _T(own)
            return max(SLIP.fma * N**3 / P, Q_tiled(N, s, T) / BW) * 1000
        if key == "⑤-2":
            return Q_tiled(N, s) / BW * 1000
        P, BW = rates(own)   # ⑤-3, ⑤-4: the other dtype's own peak, as they state it
        R = P / BW
        if key == "⑤-3":
            return 2 * s * N * R / (2 * N - R * s)
        return _bound(I_tiled(N, s, _T(own)) < R)
    if k == "3주":
        BW = bandwidth(sheet.question("3주-1").text)
        if key == "3주-3":
            C = num(_find(r"메모리 ([\d,]+) Byte", own, "capacity")[1])
            return Fraction(math.floor(C / (3 * dtype_bytes(own))))
        L = num(_find(r"L = ([\d,]+)", own, "L")[1])
        s = dtype_bytes(own)
        if key == "3주-1":
            return 3 * s * L / BW * 1000
        P = peak(own)   # 3주-2, 3주-4 state the week's dtype's P (BW: 3주-1's, "같은 하드웨어")
        if key == "3주-2":
            return max(2 * L / P, 4 * s * L / BW) * 1000
        f = num(_find(r"원소마다 ([\d,]+) (?:FL)?OPs", own, "f")[1])
        return _bound(3 * s * L / BW > f * L / P)
    if k == "실측":
        s = dtype_bytes(own)
        TM, TN = map(int, _find(r"TM×TN = (\d+)×(\d+)", sheet.question("실측-1").text, "TM×TN").groups())
        if key == "실측-1":
            return Fraction(s * (TM + TN))
        N = side(own)
        BM, BN = map(int, _find(r"블록 타일 (\d+)×(\d+)×\d+", own, "BM×BN").groups())
        F = SLIP.fma * N**3
        loads = s * (N**3 // BN + N**3 // BM)
        if key == "실측-2":
            m = _find(r"SM (\d+)개는 저마다 클럭마다 Shared Memory에서 (\d+) Byte를 내주고 FP32 (\d+) FLOPs", own, "SM")
            SMs, per_clock, fp32 = map(int, m.groups())
            P32 = num(_find(r"FP32 최대 ([\d.,]+) TFLOPs/s", own, "P_FP32")[1]) * TERA
            P = num(_find(r"[A-Z0-9]+ 최대 ([\d.,]+) (?:TFLOPs/s|TOPS)\)", own, "P")[1]) * TERA
            BW_smem = per_clock * P32 / (SMs * fp32) * SMs
            Q_smem = Fraction(s * N**3 * (TM + TN), TM * TN) + loads
            return min(P, BW_smem * F / Q_smem) / TERA
        tm, tn = map(int, _find(r"스레드 타일 (\d+)×(\d+)", own, "thread tile").groups())
        P, BW = rates(own)
        BW_smem = num(_find(r"Shared Memory 대역폭 ([\d.]+) TB/s", own, "BW_smem")[1]) * TERA
        R_hbm = min(P, BW * F / (loads + s * N**2))
        R_smem = min(P, BW_smem * F / (Fraction(s * N**3 * (tm + tn), tm * tn) + loads))
        if min(R_hbm, R_smem) == P:
            return "연산"
        return "DRAM" if R_hbm <= R_smem else "Shared Memory"
    raise Missing(f"no solver for {key}")


# ---------------------------------------------------------------- the worksheet, from its table

def solve_worksheet(rows: dict) -> dict:
    """The worksheet from the problem's table as the page shows it (item → value): F = 2N³, Q = 2·s·N³(/T) + s·N²,
    I = F/Q, R = min(P, BW·I), the two times and their max, the buffers; in the units of the sheet's rows."""
    N = int(num(_find(r"N\s*=\s*([\d,]+)", rows["행렬 크기"], "N")[1]))
    s = int(_find(r"원소당 (\d+) Byte", rows["자료형"], "s")[1])
    s = OTHER[s] if SLIP.dtype else s
    P = power(rows["최대 연산 성능 P"])
    BW = power(next(v for k, v in rows.items() if k.endswith("대역폭 BW")))
    tiles = [int(t) for t in rows["타일 한 변 T"].replace(",", " ").split()]
    out = {}
    for T in [None, *tiles]:
        case = "없음" if T is None else str(T)
        F, Q = Fraction(SLIP.fma * N**3), Q_tiled(N, s, T)
        I, tc, tm = F / Q, F / P, Q / BW
        values = {"F": F, "Q": Q / GIGA, "I": I, "R_roof": min(P, BW * I) / TERA, "t_compute": tc * 1000,
                  "t_memory": tm * 1000, "t_ideal": max(tc, tm) * 1000,
                  "inputs": Fraction(2 * s * (T or 1) ** 2), "acc": Fraction(s * (T or 1) ** 2)}
        out.update({f"{row}-{case}": v for row, v in values.items()})
    return out


def solve(sheet) -> dict:
    """Every question of `sheet` (a page's Exercises, base or a variant) solved from what the page shows."""
    if sheet.statement:
        _, rows = sheet.statement
        return solve_worksheet(dict(rows))
    return {q.key: solve_question(sheet, q.key) for q in sheet.questions}


def typed(q, value) -> str:
    """As a student types it: a choice's key, an integer answer in full, else 6 significant digits."""
    if q.is_choice:
        return value
    if q.exact:
        return str(int(value))
    return sig(value, 6)


# ---------------------------------------------------------------- mistakes a student plausibly makes

PREFIX = {"GB": "GiB", "KiB": "KB", "ms": "s", "TFLOPs/s": "GFLOPs/s", "Byte": "KiB", "FLOPs": "GFLOPs", "TOPS": "OPs/s",
          "OPs": "GOPs"}


def slipped(sheet, fma: int = 2, dtype: bool = False) -> dict:
    """`solve` with a slip: FMA counted as `fma` FLOPs, or every element size the other dtype's."""
    SLIP.fma, SLIP.dtype = fma, dtype
    try:
        return solve(sheet)
    finally:
        SLIP.fma, SLIP.dtype = 2, False


def slips(sheet) -> list[tuple[str, str, set[str]]]:
    """(question key, typed, the names that would be right for it) for every mistake tried on `sheet`: each named
    mistake of each question at its value (the library's, as a student who made it types it), then three unlisted
    ones computed here from the statement: ×2 for the FMA forgotten ("fma-one"), the other dtype's bytes
    ("dtype-other"), the answer in another unit prefix of its kind ("unit"). A slip that leaves the answer as it is
    is not tried. The names: a mistake's kind, or "unit"."""
    from exercise_answers import mistake_vectors
    from roofline.show import exercises as ex

    right = solve(sheet)
    out = []
    for q in sheet.questions:
        for (value, kind), m in zip(mistake_vectors(q), q.mistakes):
            out.append((q.key, dict(q.choices)[value] if q.is_choice else value, set(m.kinds)))
    for slip, kind in ((slipped(sheet, fma=1), "fma-one"), (slipped(sheet, dtype=True), "dtype-other")):
        for q in sheet.questions:
            mixed = kind == "dtype-other" and len(re.findall(r"원소 \d+ Byte", q.text)) > 1   # mixed precision
            if slip[q.key] != right[q.key] and not q.is_choice and not mixed:
                out.append((q.key, typed(q, slip[q.key]), {kind}))
    for q in sheet.questions:
        if not q.is_choice and q.unit.name in PREFIX:
            other = ex.UNITS[PREFIX[q.unit.name]]
            out.append((q.key, sig(right[q.key] * q.unit.size / other.size, 6), {"unit"}))
    return out
