"""Hardware: the two numbers of a roofline (P, BW) and the named presets.

A preset holds dense peaks per dtype (FLOPs/s), optional 2:4-sparse peaks, the peaks of its general cores
(CUDA cores: what an element-wise kernel such as a vector add runs on, which cannot use a Tensor Core),
memory bandwidth BW (Byte/s) and, for real GPUs, SMs, shared memory per SM and, for NVIDIA GPUs, the
per-SM limits (`SMLimits`) that decide how many blocks are resident on an SM (`roofline.occupancy`).
`Preset.roofline(dtype)` gives the `Roofline(P, BW)` that the cost model uses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from roofline.errors import ParameterError, positive_number


@dataclass(frozen=True)
class Roofline:
    """P (FLOPs/s) and BW (Byte/s) for one dtype on one machine (②); `memory` is the machine's off-chip memory, the
    preset's (HBM3, GDDR6), or "DRAM" (the generic word) for a machine that is no preset."""

    P: Fraction
    BW: Fraction
    name: str = ""
    memory: str = "DRAM"

    def __post_init__(self):
        for key in ("P", "BW"):
            object.__setattr__(self, key, positive_number(getattr(self, key), key))

    @property
    def ridge(self) -> Fraction:
        """I* = P / BW (FLOPs/Byte): where the memory slope meets the compute ceiling."""
        return self.P / self.BW

    def derivation(self, name: str = "I*"):
        """I* = P / BW (or P, BW) with its formula (roofline.derive)."""
        from roofline.derive import named, var

        P, BW = var("P", self.P), var("BW", self.BW)
        return {"P": P, "BW": BW, "I*": named("I*", P / BW)}[name]

    def R_roof(self, I) -> Fraction:
        """R_roof = min(P, BW × I) (FLOPs/s)."""
        return min(self.P, self.BW * Fraction(I))

    def with_(self, *, P=None, BW=None) -> "Roofline":
        """The same machine with P and/or BW replaced (for "double one resource")."""
        return Roofline(self.P if P is None else P, self.BW if BW is None else BW, self.name, self.memory)


@dataclass(frozen=True)
class SMLimits:
    """What one SM of an NVIDIA GPU holds at most, by compute capability (CUDA C++ Programming Guide,
    "Technical Specifications per Compute Capability"; the architecture's tuning guide). Counts, Byte."""

    compute_capability: str      # "9.0"
    warp_size: int               # threads of one warp
    threads_per_block: int       # threads one block may have
    threads: int                 # resident threads per SM
    warps: int                   # resident warps per SM (= threads / warp_size)
    blocks: int                  # resident blocks per SM
    registers: int               # 32-bit registers per SM
    registers_per_block: int     # 32-bit registers one block may take
    registers_per_thread: int    # 32-bit registers one thread may take
    register_unit: int           # a warp's registers are allocated in multiples of this many
    register_partitions: int     # the SM's processing blocks; each has registers / register_partitions
    smem: int                    # shared memory per SM (Byte)
    smem_per_block: int          # shared memory one block may take, opt-in maximum (Byte)
    smem_reserved: int           # shared memory the driver reserves for each block (Byte)
    smem_unit: int               # a block's shared memory is allocated in multiples of this (Byte)
    source: str                  # the Programming Guide's table
    architecture: str            # the architecture's own page (tuning guide)


@dataclass(frozen=True)
class Preset:
    """A named machine: dense (and sparse) peaks per dtype, BW, SMs, shared memory per SM."""

    key: str
    name: str
    peak: dict[str, Fraction]
    BW: Fraction
    memory: str
    source: str
    sparse: dict[str, Fraction] = field(default_factory=dict)
    SMs: int | None = None
    smem_per_SM: int | None = None
    sm: SMLimits | None = None          # NVIDIA GPUs: the per-SM limits of occupancy
    cuda: dict[str, Fraction] = field(default_factory=dict)   # peaks of the CUDA cores (no Tensor Core): element-wise work
    smem_per_clock: int | None = None   # shared memory Byte one SM delivers per clock (32 banks × 4 Byte)
    fp32_per_clock: int | None = None   # FP32 FLOPs one SM does per clock (CUDA Cores × 2, an FMA)

    def P(self, dtype: str) -> Fraction:
        """Dense peak for `dtype`; a clear error if this machine has none."""
        if dtype not in self.peak:
            raise ParameterError(f"dtype: 하드웨어 {self.key!r}에는 {dtype} 최대 성능이 없다. "
                                 f"쓸 수 있는 자료형: {', '.join(self.peak)}")
        return self.peak[dtype]

    def roofline(self, dtype: str) -> Roofline:
        return Roofline(self.P(dtype), self.BW, self.name, self.memory)

    @property
    def block_smem(self) -> int | None:
        """The Shared Memory (Byte) one block may take: the per-SM limits' smem_per_block (opt-in), else the SM's
        smem_per_SM; None on a machine without SMs (a hypothetical one holds any tile)."""
        return self.sm.smem_per_block if self.sm else self.smem_per_SM
