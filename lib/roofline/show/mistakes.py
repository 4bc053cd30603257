"""Common mistakes the course knows, by kind: what a reader's wrong number most often is.

An exercise (`roofline.show.exercises`) and an explorer's predict mode (`roofline.show.explorer`) both name a wrong
answer by its mistake when the answer equals what that mistake gives. The value a mistake gives is computed by the
page module from its own problem with the model (the same call, one input or one term changed: C's write left out,
KB for KiB, …): never typed. This module holds only the kinds (a key, the Korean name shown) and the rule that keeps
a mistake out when it gives the right answer, and the one that joins mistakes giving the same value: a reader who
typed that value made one of them, and the page cannot tell which, so it names them all (`kept`).

    Mistake("c-write", Fraction(…), "C를 쓰는 s·N² Byte를 빼먹은 값이다.")
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

# kind → the name a reader sees ("실수: C 쓰기를 빼먹었다"). A page may add its own kinds here, one line each.
KINDS = {
    "c-write": "C 쓰기를 빼먹었다",
    "c-read": "C를 읽기까지 셌다",
    "bits-bytes": "비트와 Byte를 바꿔 셌다",
    "kb-kib": "KB(10³)와 KiB(2¹⁰)를 바꿔 썼다",
    "gb-gib": "GB(10⁹)와 GiB(2³⁰)를 바꿔 썼다",
    "fma-one": "FMA(곱셈·덧셈)를 연산 하나로 셌다",
    "per-sm-block": "SM 하나의 Shared Memory와 블록 하나의 한도를 바꿔 썼다",
    "reserved": "블록마다 예약되는 1 KiB를 빼먹었다",
    "double-buffer": "이중 버퍼링을 빼먹었다",
    "tile-reuse-ignored": "타일 안의 재사용을 무시했다",
    "tile-reuse-twice": "타일 안의 재사용을 두 번 셌다",
    "ms-s": "ms와 s를 바꿔 썼다",
    "ideal-sum": "연산 시간과 메모리 시간을 더했다",
    "ideal-min": "두 시간 가운데 짧은 쪽을 골랐다",
    "no-ceiling": "연산 상한 P를 빼먹었다",
    "output-per-k": "C를 K 단계마다 쓴다고 셌다",
    "tb-tib": "TB(10¹²)를 TiB(2⁴⁰)로 읽었다",
    "acc-counted": "입력 버퍼에 중간 합까지 더했다",
    "acc-doubled": "중간 합까지 두 벌로 셌다",
    "acc-input-dtype": "중간 합을 입력의 자료형으로 셌다",
    "double-buffer-extra": "묻지 않은 이중 버퍼링을 셌다",
    "c-counted": "A·B 읽기에 C 쓰기까지 더했다",
    "dtype-other": "문제의 자료형이 아닌 원소 크기를 썼다",
    "mixed-dtype": "C도 입력의 자료형으로 셌다",
    "ridge-inverted": "분기점을 BW / P로 뒤집었다",
    "one-input": "A와 B 가운데 하나만 셌다",
    "vector-reread": "x를 행마다 다시 읽는다고 셌다",
    "c-vector": "C를 담을 자리를 빼먹었다",
    "out-write": "결과를 쓰는 이동을 빼먹었다",
    "reserved-added": "블록의 요청에 드라이버 예약분까지 더했다",
    "hbm-only": "DRAM 단계만 보고 Shared Memory 단계를 빼먹었다",
    "tile-outputs-read": "스레드 타일의 출력 수를 읽는 원소 수로 셌다",
    "one-sm": "SM 하나의 값만 셌다",
}


COUNTS = {2: "두", 3: "세", 4: "네", 5: "다섯", 6: "여섯"}


@dataclass(frozen=True)
class Mistake:
    kind: str          # a key of KINDS, or several joined by "+" (mistakes that give the same value: `joined`)
    value: Fraction    # what the mistake gives, in the base unit of the answer (Byte, FLOPs, s, …) or a choice's key
    hint: str          # one line in the problem's own terms: "C를 쓰는 s·N² Byte를 빼먹은 값이다."

    def __post_init__(self):
        unknown = [k for k in self.kind.split("+") if k not in KINDS]
        if unknown:
            raise ValueError(f"unknown mistake kind {unknown[0]!r}: add it to roofline.show.mistakes.KINDS")

    @property
    def kinds(self) -> list[str]:
        return self.kind.split("+")

    @property
    def name(self) -> str:
        """The mistake's name; of joined mistakes, that the value has several causes (the hint names each)."""
        if "+" in self.kind:
            return f"이 값은 {COUNTS.get(len(self.kinds), str(len(self.kinds)))} 실수가 똑같이 준다"
        return KINDS[self.kind]

    @property
    def names(self) -> list[str]:
        return [KINDS[k] for k in self.kinds]


def joined(mistakes) -> Mistake:
    """Mistakes that give the same value as one: its kinds joined by "+", its hint naming each in turn
    ("(1) FMA(곱셈·덧셈)를 연산 하나로 셌다. 곱셈·덧셈 한 쌍은 … (2) 문제의 자료형이 아닌 원소 크기를 썼다. …")."""
    mistakes = list(mistakes)
    if len(mistakes) == 1:
        return mistakes[0]
    hint = " ".join(f"({i}) {m.name}. {m.hint}" for i, m in enumerate(mistakes, 1))
    return Mistake("+".join(m.kind for m in mistakes), mistakes[0].value, hint)


def kept(mistakes, right) -> tuple[Mistake, ...]:
    """The mistakes to name for an answer whose right value is `right`: none that gives the right answer (for this
    term's numbers a mistake may happen to be harmless), and those giving the same value joined into one (`joined`),
    in the order of the first of each value; a kind given twice for one value is named once."""
    found: dict = {}
    for m in mistakes:
        value = m.value if isinstance(m.value, str) else Fraction(m.value)
        if value == right:
            continue
        same = found.setdefault(value, [])
        if all(m.kind != other.kind for other in same):
            same.append(m)
    return tuple(joined(same) for same in found.values())
