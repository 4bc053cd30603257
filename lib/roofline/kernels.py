"""F and Q of the course's kernels (① derives them, ③ counts them, ⑤ applies them).

Sizes s, s_in, s_out are Byte per element. FMA = 2 FLOPs. Partial sums stay on chip;
only the final C is written; C is never read.
"""
from __future__ import annotations

from fractions import Fraction

from roofline.cost import Cost
from roofline.derive import named, var
from roofline.errors import check_divides, check_positive


def _sizes(s_in: int, s_out: int):
    """The element sizes as a formula writes them: one `s` when inputs and output agree, else s_in and s_out."""
    if s_in == s_out:
        s = var("s", s_in)
        return s, s
    return var("s_in", s_in), var("s_out", s_out)


def _cost(F, Q_read, Q_write, I: str = "I", Q: str = "Q") -> Cost:
    """A Cost from the terms that compute it, keeping how: F, Q (read + write) and I = F / Q as named quantities."""
    F = named("F", F)
    Q_ = named(Q, Q_read + Q_write)
    return Cost(F=F.value, Q_read=Q_read.value, Q_write=Q_write.value,
                how={"F": F, "Q": Q_, "I": named(I, F / Q_), "Q_read": named("Q_read", Q_read),
                     "Q_write": named("Q_write", Q_write)})


def vector_add(L: int, s: int = 4) -> Cost:
    """C[i] = A[i] + B[i]: F = L, Q = 2sL read + sL written (I = 1/(3s), 1/12 in FP32)."""
    return elementwise(L, s, reads=2)


def elementwise(L: int, s: int, reads: int, writes: int = 1, flops: int = 1) -> Cost:
    """An element-wise kernel on length-L vectors (week 3's exercises): `flops` FLOPs per element, `reads` input
    vectors read and `writes` written: F = f·L, Q = r·s·L + w·s·L."""
    check_positive(L=L, s=s, reads=reads, writes=writes, flops=flops)
    L, s = var("L", L), var("s", s)
    def times(k, x):
        return x if k == 1 else k * x
    return _cost(times(flops, L), times(reads, s * L), times(writes, s * L))


def matmul_no_reuse(N: int, s_in: int = 4, s_out: int = 4) -> Cost:
    """Every multiply reads its A and B element from HBM: Q = 2 s_in N³ + s_out N²."""
    check_positive(N=N, s_in=s_in, s_out=s_out)
    (s_in, s_out), N = _sizes(s_in, s_out), var("N", N)
    return _cost(2 * N**3, 2 * s_in * N**3, s_out * N**2)


def matmul_tiled(N: int, T: int, s_in: int = 4, s_out: int = 4) -> Cost:
    """T×T output tiles, K step T, no reuse across tiles: Q = 2 s_in N³/T + s_out N²."""
    check_positive(N=N, T=T, s_in=s_in, s_out=s_out)
    check_divides("T", T, "N", N)
    (s_in, s_out), N, T = _sizes(s_in, s_out), var("N", N), var("T", T)
    return _cost(2 * N**3, 2 * s_in * N**3 / T, s_out * N**2, I="I_T", Q="Q_T")


def matmul_tiles(M: int, N: int, K: int, T_M: int, T_N: int, T_K: int, s_in: int = 4, s_out: int = 4) -> Cost:
    """T_M×T_N output tiles, K in steps of T_K (④):

    Q_read = (M/T_M)(N/T_N)(K/T_K) · s_in (T_M T_K + T_K T_N) = s_in K (M N/T_N + M N/T_M),
    Q_write = s_out M N, F = 2 M N K.
    """
    check_positive(M=M, N=N, K=K, T_M=T_M, T_N=T_N, T_K=T_K, s_in=s_in, s_out=s_out)
    check_divides("T_M", T_M, "M", M)
    check_divides("T_N", T_N, "N", N)
    check_divides("T_K", T_K, "K", K)
    (s_in, s_out) = _sizes(s_in, s_out)
    M, N, K, T_M, T_N, T_K = (var(k, v) for k, v in (("M", M), ("N", N), ("K", K), ("T_M", T_M), ("T_N", T_N), ("T_K", T_K)))
    tiles, steps = (M / T_M) * (N / T_N), K / T_K
    return _cost(2 * M * N * K, tiles * steps * s_in * (T_M * T_K + T_K * T_N), s_out * M * N)


def matmul_ideal(N: int, s_in: int = 4, s_out: int = 4) -> Cost:
    """A and B read once, C written once: Q = 2 s_in N² + s_out N² (I = N/6 in FP32)."""
    check_positive(N=N, s_in=s_in, s_out=s_out)
    (s_in, s_out), N = _sizes(s_in, s_out), var("N", N)
    return _cost(2 * N**3, 2 * s_in * N**2, s_out * N**2)


def tile_threshold(N: int, ridge, s_in: int = 4, s_out: int = 4):
    """Smallest real T with I_T ≥ I*: T ≥ 2 s_in N I* / (2N − s_out I*) (80N/(N−40) in FP32 at I* = 20).

    None when no tile reaches the ridge (2N ≤ s_out I*).
    """
    check_positive(N=N, s_in=s_in, s_out=s_out)
    T = tile_threshold_term(N, ridge, s_in, s_out)
    return None if T is None else Fraction(T.value)


def tile_threshold_term(N: int, ridge, s_in: int = 4, s_out: int = 4):
    """`tile_threshold` as a derivation: T* = 2·s_in·N·I*/(2·N − s_out·I*) (`ridge` a number or the named I*)."""
    from roofline.derive import Term

    ridge = ridge if isinstance(ridge, Term) else var("I*", Fraction(ridge))
    (s_in, s_out), N = _sizes(s_in, s_out), var("N", N)
    denominator = 2 * N - s_out * ridge
    if denominator.value <= 0:
        return None
    return named("T*", 2 * s_in * N * ridge / denominator)
