"""On-chip storage of one output tile's work (④, ⑤): input buffers, the partial sums, residency.

    A buffer = s_in T_M T_K,  B buffer = s_in T_K T_N,  acc = s_acc T_M T_N    (Byte)
    double buffering doubles the inputs only.
Resident blocks on a real GPU (all four limits, allocation units, the driver's reserve) are roofline.occupancy's.
"""
from __future__ import annotations

from dataclasses import dataclass

from roofline.errors import check_positive


@dataclass(frozen=True)
class TileBuffers:
    A: int
    B: int
    acc: int

    @property
    def inputs(self) -> int:
        return self.A + self.B

    @property
    def total(self) -> int:
        """The logical total; the inputs (shared memory) and acc (registers) usually live in different resources."""
        return self.inputs + self.acc


def tile_buffers(T_M: int, T_N: int, T_K: int, s_in: int = 4, s_acc: int = 4, copies: int = 1) -> TileBuffers:
    """Bytes held for one output tile; `copies` = 2 is double buffering of A and B."""
    made = derivation(T_M, T_N, T_K, s_in, s_acc, copies)
    return TileBuffers(A=made["A"].value, B=made["B"].value, acc=made["acc"].value)


def resident_blocks(per_SM: int, per_block: int) -> int:
    """The bare floor ⌊per_SM / per_block⌋ of one resource, without allocation units, reserve or the SM's other
    limits: not the resident blocks of a real GPU (those are roofline.occupancy.occupancy's)."""
    check_positive(per_SM=per_SM, per_block=per_block)
    return per_SM // per_block


def derivation(T_M: int, T_N: int, T_K: int, s_in: int = 4, s_acc: int = 4, copies: int = 1) -> dict:
    """`tile_buffers`' A, B, inputs, acc and total as named quantities (`roofline.derive`), the one computation of
    them, written in the course's symbols (s for both element sizes when they are equal)."""
    from roofline.derive import named, var

    check_positive(T_M=T_M, T_N=T_N, T_K=T_K, s_in=s_in, s_acc=s_acc, copies=copies)
    TM, TN, TK = var("T_M", T_M), var("T_N", T_N), var("T_K", T_K)
    s = var("s", s_in)
    sa = s if s_acc == s_in else var("s_acc", s_acc)
    k = copies if copies != 1 else None
    A = named("A 버퍼", k * s * TM * TK if k else s * TM * TK)
    B = named("B 버퍼", k * s * TK * TN if k else s * TK * TN)
    inputs = named("입력 합계", A + B)
    acc = named("중간 합", sa * TM * TN)
    total = named("논리적 총합", inputs + acc)
    return {"A": A, "B": B, "inputs": inputs, "acc": acc, "total": total}
