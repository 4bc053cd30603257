"""Attention for the FlashAttention note: memory and HBM traffic of standard attention and of
FlashAttention (counted on FA1's algorithms), and a NumPy forward pass of each.

Per head, sequence length N, head dimension d, s Byte per element, SRAM of M elements:

    score matrix S = QKᵀ:          N² s Byte
    standard attention (FA1 Alg. 0): read Q, K; write S; read S, write P; read P, V; write O
                                     = 4Nd + 4N² elements            Θ(Nd + N²)
      (+ 2N² if the scaling S/√d runs as its own kernel)
    FlashAttention (FA1 Alg. 1):   block sizes B_c = ⌈M/(4d)⌉, B_r = min(⌈M/(4d)⌉, d), T_c = ⌈N/B_c⌉;
                                   O, l, m initialised (Nd + 2N), K and V read once (2Nd),
                                   each of the T_c outer steps reads Q, O, l, m and writes O, l, m (3Nd + 4N)
                                   = 3Nd + 2N + T_c (3Nd + 4N) elements   Θ(N²d²/M)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from roofline.derive import Term, ceil_div, floor_div, named, tmin, var
from roofline.errors import ParameterError, check_positive


def _v(symbol: str, x):
    """An input as a term: a plain number becomes `var(symbol, x)`; a term (a named quantity) stays itself."""
    return x if isinstance(x, Term) else var(symbol, x)


def _int(x) -> int:
    return x.value if isinstance(x, Term) else x


def score_bytes(N: int, s: int, heads: int = 1) -> int:
    """The N×N score matrix of `heads` heads: heads · N² · s Byte."""
    check_positive(N=N, s=s, heads=heads)
    return score_bytes_term(N, s, heads if heads != 1 else None).value


def score_bytes_term(N, s, heads=None):
    """`score_bytes` as a derivation (roofline.derive): one head's Q_S = N²·s, or Q_S,헤드 = h·N²·s for `heads` heads
    (two quantities, two symbols: a page that shows both never calls 1 GiB and 32 MiB by one name)."""
    one = _v("N", N) ** 2 * _v("s", s)
    return named("Q_S", one) if heads is None else named("Q_S,헤드", _v("h", heads) * one)


def flops(N: int, d: int) -> int:
    """FLOPs of one head's attention: QKᵀ and P·V, 2N²d each, 4N²d in all."""
    check_positive(N=N, d=d)
    return flops_term(N, d).value


def flops_term(N, d, heads=None):
    """`flops` as a derivation: F = 4·N²·d (times h for `heads` heads)."""
    one = 4 * _v("N", N) ** 2 * _v("d", d)
    return named("F_attn,h", one if heads is None else _v("h", heads) * one)


def standard_traffic(N: int, d: int, separate_scale: bool = False) -> int:
    """HBM elements moved by standard attention for one head: 4Nd + 4N² (+ 2N² with a separate scaling kernel)."""
    check_positive(N=N, d=d)
    return standard_traffic_term(N, d, separate_scale=separate_scale).value


def standard_traffic_term(N, d, s=None, separate_scale: bool = False):
    """`standard_traffic` as a derivation: Q_표준 = 4·N·d + 4·N² elements (6·N² with a separate scaling kernel), or
    times s in Byte: the Nd part and the N² part below, added."""
    check_positive(N=_int(N), d=_int(d))
    elements = 4 * _v("N", N) * _v("d", d) + (6 if separate_scale else 4) * _v("N", N) ** 2
    return named("Q_표준", elements if s is None else elements * _v("s", s))


def standard_traffic_linear(N: int, d: int) -> int:
    """Only the Nd part (Q, K, V read and O written): 4Nd elements."""
    check_positive(N=N, d=d)
    return standard_traffic_linear_term(N, d).value


def standard_traffic_linear_term(N, d, s=None, heads=None):
    """The Nd part as a derivation: Q_Nd = 4·N·d elements; h·4·N·d·s Byte for `heads` heads of s Byte."""
    one = 4 * _v("N", N) * _v("d", d)
    one = one if heads is None else _v("h", heads) * one
    return named("Q_Nd", one if s is None else one * _v("s", s))


def standard_traffic_quadratic(N: int, separate_scale: bool = False) -> int:
    """Only the N² part (S written and read, P written and read): 4N² (6N² with a separate scaling kernel)."""
    check_positive(N=N)
    return standard_traffic_quadratic_term(N, separate_scale=separate_scale).value


def standard_traffic_quadratic_term(N, s=None, heads=None, separate_scale: bool = False):
    """The N² part as a derivation: Q_N² = 4·N² elements (6·N² with a separate scaling kernel); h·4·N²·s Byte for
    `heads` heads of s Byte."""
    one = (6 if separate_scale else 4) * _v("N", N) ** 2
    one = one if heads is None else _v("h", heads) * one
    return named("Q_N²", one if s is None else one * _v("s", s))


def sram_elements(smem_bytes: int, s: int) -> int:
    """M: how many elements of s Byte an SM's shared memory holds (FlashAttention's SRAM), ⌊smem / s⌋."""
    check_positive(smem_bytes=smem_bytes, s=s)
    return sram_term(smem_bytes, s).value


def sram_term(smem, s):
    """`sram_elements` as a derivation: M = ⌊smem/s⌋."""
    return named("M", floor_div(_v("smem", smem), _v("s", s)))


def block_count(N: int, B: int) -> int:
    """⌈N / B⌉: blocks of B rows that cover N rows (T_c = ⌈N / B_c⌉)."""
    check_positive(N=N, B=B)
    return block_count_term(N, B).value


def block_count_term(N, B_c):
    """`block_count` as a derivation: T_c = ⌈N/B_c⌉."""
    return named("T_c", ceil_div(_v("N", N), _v("B_c", B_c)))


def flash_blocks(M: int, d: int) -> tuple[int, int]:
    """FA1's block sizes for an SRAM of M elements: B_r = min(⌈M/(4d)⌉, d), B_c = ⌈M/(4d)⌉."""
    check_positive(M=M, d=d)
    B_r, B_c = flash_blocks_terms(M, d)
    return B_r.value, B_c.value


def flash_blocks_terms(M, d):
    """`flash_blocks` as derivations: B_c = ⌈M/(4·d)⌉, B_r = min(B_c, d)."""
    B_c = named("B_c", ceil_div(_v("M", M), 4 * _v("d", d)))
    return named("B_r", tmin(B_c, _v("d", d))), B_c


def flash_traffic(N: int, d: int, B_c: int) -> int:
    """HBM elements moved by FA1's Algorithm 1 for one head: 3Nd + 2N + ⌈N/B_c⌉ (3Nd + 4N)."""
    check_positive(N=N, d=d, B_c=B_c)
    return flash_traffic_term(N, d, B_c).value


def flash_traffic_term(N, d, B_c, s=None):
    """`flash_traffic` as a derivation: Q_Flash = 3·N·d + 2·N + T_c·(3·N·d + 4·N) elements (times s: Byte)."""
    N_, d_ = _v("N", N), _v("d", d)
    T_c = block_count_term(N_, B_c)
    elements = 3 * N_ * d_ + 2 * N_ + T_c * (3 * N_ * d_ + 4 * N_)
    return named("Q_Flash", elements if s is None else elements * _v("s", s))


# ----- NumPy forward passes (float64; Q, K, V are N×d) -----

def _check(Q, K, V):
    arrays = {"Q": Q, "K": K, "V": V}
    for key, X in arrays.items():
        if not isinstance(X, np.ndarray) or X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
            raise ParameterError(f"{key}: 비어 있지 않은 2차원 NumPy 배열(N×d)이어야 한다. "
                                 f"받은 값: {getattr(X, 'shape', type(X).__name__)}")
    if Q.shape[1] != K.shape[1] or K.shape[0] != V.shape[0]:
        raise ParameterError(f"Q, K, V: 모양이 맞지 않는다. Q는 N×d, K는 L×d, V는 L×d_v여야 한다. "
                             f"받은 값: Q {Q.shape}, K {K.shape}, V {V.shape}")


def standard_forward(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    """O = softmax(QKᵀ/√d) V with the whole N×N matrix in memory (row max subtracted for stability)."""
    _check(Q, K, V)
    S = Q @ K.T / math.sqrt(Q.shape[1])
    P = np.exp(S - S.max(axis=1, keepdims=True))
    return (P / P.sum(axis=1, keepdims=True)) @ V


@dataclass
class Traffic:
    """Elements loaded from and stored to "HBM" by `flash_forward`."""

    read: int = 0
    write: int = 0
    log: list = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.read + self.write


def flash_forward(Q, K, V, B_r: int, B_c: int,
                  traffic: Traffic | None = None) -> np.ndarray:
    """FlashAttention forward (FA1 Algorithm 1): K, V in blocks of B_c rows
    (outer loop), Q in blocks of B_r rows (inner loop); the N×N matrix never
    exists. Per query row it keeps the running max m and the running sum l
    of the exponentials, and rescales O when m grows:

        m_new = max(m, m̃)
        l_new = e^(m − m_new) l + e^(m̃ − m_new) l̃
        O ← (e^(m − m_new) l O + e^(m̃ − m_new) P̃ V_j) / l_new
    """
    _check(Q, K, V)
    check_positive(B_r=B_r, B_c=B_c)
    t = traffic if traffic is not None else Traffic()
    N, d = Q.shape
    L = K.shape[0]
    scale = 1 / math.sqrt(d)
    O = np.zeros((N, V.shape[1]))       # in "HBM"
    l = np.zeros(N)
    m = np.full(N, -np.inf)
    t.write += O.size + l.size + m.size
    for j in range(0, L, B_c):          # outer: one K, V block in "SRAM"
        K_j, V_j = K[j:j + B_c], V[j:j + B_c]
        t.read += K_j.size + V_j.size
        for i in range(0, N, B_r):      # inner: one Q block, its state
            rows = slice(i, i + B_r)
            Q_i, O_i, l_i, m_i = Q[rows], O[rows], l[rows], m[rows]
            t.read += Q_i.size + O_i.size + l_i.size + m_i.size
            S_ij = Q_i @ K_j.T * scale  # B_r × B_c, only in "SRAM"
            m_tilde = S_ij.max(axis=1)
            P_tilde = np.exp(S_ij - m_tilde[:, None])
            l_tilde = P_tilde.sum(axis=1)
            m_new = np.maximum(m_i, m_tilde)
            old, new = np.exp(m_i - m_new), np.exp(m_tilde - m_new)
            l_new = old * l_i + new * l_tilde
            kept = (old * l_i)[:, None] * O_i
            added = new[:, None] * (P_tilde @ V_j)
            O[rows] = (kept + added) / l_new[:, None]
            l[rows], m[rows] = l_new, m_new
            t.write += O_i.size + l_i.size + m_i.size
    return O


def online_softmax(x: np.ndarray, block: int) -> np.ndarray:
    """softmax(x) of a 1-D array read in blocks: one pass keeps (m, l), a second divides."""
    if not isinstance(x, np.ndarray) or x.ndim != 1 or x.size == 0:
        raise ParameterError(f"x: 비어 있지 않은 1차원 NumPy 배열이어야 한다. 받은 값: {getattr(x, 'shape', type(x).__name__)}")
    check_positive(block=block)
    m, l = -np.inf, 0.0
    for start in range(0, x.size, block):
        part = x[start:start + block]
        m_new = max(m, float(part.max()))
        l = math.exp(m - m_new) * l + float(np.exp(part - m_new).sum())
        m = m_new
    return np.exp(x - m) / l


# ----- what the tests and the chapter accept as "equal", and the papers' own headline results -----

TOLERANCE = 1e-10          # max |O_flash − O_standard| allowed in float64
TOLERANCE_TEXT = "10⁻¹⁰"   # the same, as the chapter shows it


# Quoted, not computed: FA1's on-chip SRAM figures for the A100 (Byte/s, Byte), often repeated as an
# H100's; and what FA1 reached on an A100 as a share of the peak, as the FA2 paper reports it.
FA1_A100_SRAM = (19 * 10**12, 20 * 10**6)
FA1_SHARE_OF_PEAK = (Fraction(25, 100), Fraction(40, 100))
