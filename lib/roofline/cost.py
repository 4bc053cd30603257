"""The cost model of ① and ②: a kernel's F and Q on a Roofline(P, BW).

    I = F / Q                      t_compute = F / P      t_memory = Q / BW
    t_ideal = max(t_compute, t_memory)                    R_roof = min(P, BW × I) = F / t_ideal

All values are exact (int / Fraction); rounding happens only in `fmt`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from roofline.derive import Quantity, named, tmax, tmin, var
from roofline.errors import ParameterError
from roofline.hardware import Roofline

MEMORY = "memory"     # Timing.bound: the limiting resource (its Korean name: roofline.show.ko.BOUND)
COMPUTE = "compute"


@dataclass(frozen=True)
class Cost:
    """F FLOPs, Q_read + Q_write Byte moved across the counted memory boundary (HBM ↔ chip)."""

    F: int
    Q_read: int
    Q_write: int
    # how F, Q and I were computed (roofline.derive quantities "F", "Q", "I"), from the kernel that made this cost
    how: dict | None = field(default=None, compare=False, repr=False, hash=False)

    def derivation(self, name: str) -> Quantity:
        """F, Q or I with its formula: the kernel's own terms, or bare values for a Cost given by its numbers."""
        if self.how is not None:
            return self.how[name]
        F, Q = var("F", self.F), var("Q", self.Q)
        return {"F": F, "Q": Q, "I": named("I", F / Q), "Q_read": var("Q_read", self.Q_read),
                "Q_write": var("Q_write", self.Q_write)}[name]

    def __post_init__(self):
        for key in ("F", "Q_read", "Q_write"):
            if getattr(self, key) < 0:
                raise ParameterError(f"{key}: 음수일 수 없다. 받은 값: {getattr(self, key)}")
        if self.Q == 0:
            raise ParameterError("Q: 0보다 커야 한다 (데이터를 옮기지 않는 커널에는 산술 강도가 없다)")

    @property
    def Q(self) -> int:
        return self.Q_read + self.Q_write

    @property
    def I(self) -> Fraction:
        """I = F / Q (FLOPs/Byte)."""
        return Fraction(self.F, self.Q)


@dataclass(frozen=True)
class Timing:
    """A Cost on a Roofline: the two times, the ideal time, the bound and the limiting resource."""

    cost: Cost
    hw: Roofline

    @property
    def t_compute(self) -> Fraction:
        """F / P (s)."""
        return self.cost.F / self.hw.P

    @property
    def t_memory(self) -> Fraction:
        """Q / BW (s)."""
        return self.cost.Q / self.hw.BW

    @property
    def t_ideal(self) -> Fraction:
        """max(F/P, Q/BW) (s): the model's lower bound on run time."""
        return max(self.t_compute, self.t_memory)

    @property
    def R_roof(self) -> Fraction:
        """min(P, BW × I) (FLOPs/s)."""
        return self.hw.R_roof(self.cost.I)

    @property
    def memory_rate(self) -> Fraction:
        """BW × I (FLOPs/s), the slanted line at this I."""
        return self.hw.BW * self.cost.I

    @property
    def bound(self) -> str:
        """The limiting resource: MEMORY when Q/BW > F/P, else COMPUTE (a tie counts as compute)."""
        return MEMORY if self.t_memory > self.t_compute else COMPUTE

    def derivation(self, name: str) -> Quantity:
        """t_compute, t_memory, t_ideal, R_roof (or F, Q, I, P, BW) with the formula that computes it."""
        F, Q, I = (self.cost.derivation(k) for k in ("F", "Q", "I"))
        P, BW = var("P", self.hw.P), var("BW", self.hw.BW)
        t_compute, t_memory = named("t_compute", F / P), named("t_memory", Q / BW)
        found = {"F": F, "Q": Q, "I": I, "P": P, "BW": BW, "t_compute": t_compute, "t_memory": t_memory,
                 "t_ideal": named("t_ideal", tmax(t_compute, t_memory)), "R_roof": named("R_roof", tmin(P, BW * I)),
                 "BW·I": named("BW·I", BW * I)}
        return found[name]

    @property
    def memory_bound(self) -> bool:
        return self.bound == MEMORY
