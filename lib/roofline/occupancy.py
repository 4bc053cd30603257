"""Occupancy (④): how many blocks the hardware keeps resident on one SM, and what fraction of its warps that is.

For a block of `threads` threads, `registers` 32-bit registers per thread and `smem` Byte of shared memory,
on an SM with the limits `sm` (hardware.SMLimits):

    warps per block W       = ⌈threads / warp_size⌉
    registers of one warp   = ⌈registers × warp_size / register_unit⌉ × register_unit
    shared memory per block = ⌈(smem + smem_reserved) / smem_unit⌉ × smem_unit

    limit by warps     = ⌊sm.warps / W⌋
    limit by blocks    = sm.blocks
    limit by registers = ⌊(registers of one partition ÷ registers of one warp) × partitions / W⌋
                         (each of the SM's processing blocks holds its own share of the register file;
                          0 when one block needs more than sm.registers_per_block)
    limit by smem      = ⌊sm.smem / shared memory per block⌋

    resident blocks = min(the four limits);  active warps = blocks × W;  occupancy = active warps / sm.warps

All counts are int, the occupancy an exact Fraction. The shared-memory limit is None when a block is
allocated no shared memory at all (no reserve, nothing asked).

④'s tiles (`tile_case`): the A·B input buffers live in shared memory, the T×T partial sums in registers,
split evenly among the block's threads, plus an allowance per thread (addresses, loop counters, the input
values being multiplied) that the course states as an assumption: a real kernel's count is the compiler's
(`nvcc -Xptxas -v` prints "Used N registers"). These are the rules of NVIDIA's occupancy calculator
(cuda_occupancy.h); tests/model/test_occupancy.py compares every case the course shows with it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from roofline import buffers
from roofline.errors import ParameterError, positive_int
from roofline.hardware import Preset, SMLimits

LIMITS = ("warps", "registers", "smem", "blocks")   # the four limits, in NVIDIA's order


def warps_per_block(threads: int, warp_size: int) -> int:
    """W = ⌈threads / warp_size⌉: a block's threads in whole warps."""
    return -(-threads // warp_size)


def _ceil_to(x: int, unit: int) -> int:
    return -(-x // unit) * unit


@dataclass(frozen=True)
class Occupancy:
    """One launch configuration on one SM: the inputs, what is allocated, each limit, and the result."""

    preset: str
    threads: int                      # threads per block
    registers: int                    # 32-bit registers per thread
    smem: int                         # shared memory the block asks for (Byte)
    warps_per_block: int
    registers_per_warp: int           # allocated (multiple of the register unit)
    registers_per_block: int          # allocated: registers_per_warp × warps_per_block
    smem_per_block: int               # allocated: with the driver's reserve, a multiple of the unit (Byte)
    limits: dict[str, int | None]     # "warps", "registers", "smem", "blocks" → blocks that resource allows
    blocks: int                       # resident blocks per SM
    max_warps: int                    # the SM's maximum resident warps

    @property
    def warps(self) -> int:
        """Active warps per SM."""
        return self.blocks * self.warps_per_block

    @property
    def occupancy(self) -> Fraction:
        return Fraction(self.warps, self.max_warps)

    @property
    def binding(self) -> tuple[str, ...]:
        """The limit(s) equal to the result, in LIMITS order (several when they tie)."""
        return tuple(name for name in LIMITS if self.limits[name] == self.blocks)


def sm_limits(preset: Preset, where: str = "gpu") -> SMLimits:
    """The preset's per-SM limits; a Korean error naming the preset when it has none (course, TPU)."""
    if preset.sm is None:
        raise ParameterError(f"{where}: 프리셋 {preset.key!r}({preset.name})에는 SM 한도(presets.{preset.key}.sm)가 없어 "
                             "점유율을 계산할 수 없다. SM 한도가 있는 NVIDIA GPU 프리셋을 써야 한다")
    return preset.sm


def occupancy(preset: Preset, threads: int, registers: int, smem: int) -> Occupancy:
    """Resident blocks, active warps and occupancy of blocks of `threads` threads using `registers` registers per
    thread and `smem` Byte of shared memory on one SM of `preset` (exact integers; see the module's rules)."""
    sm = sm_limits(preset)
    threads = positive_int(threads, "threads")
    registers = positive_int(registers, "registers")
    if isinstance(smem, bool) or not isinstance(smem, int) or smem < 0:
        raise ParameterError(f"smem: 0 이상의 정수(Byte)여야 한다. 받은 값: {smem!r}")
    if threads > sm.threads_per_block:
        raise ParameterError(f"threads: {preset.name}의 블록 하나에는 스레드가 최대 {sm.threads_per_block}개다. "
                             f"받은 값: {threads}")
    if registers > sm.registers_per_thread:
        raise ParameterError(f"registers: {preset.name}의 스레드 하나는 레지스터를 최대 {sm.registers_per_thread}개 쓴다. "
                             f"받은 값: {registers}")
    if smem > sm.smem_per_block:
        raise ParameterError(f"smem: {preset.name}의 블록 하나가 쓸 수 있는 Shared Memory는 최대 {sm.smem_per_block} Byte다. "
                             f"받은 값: {smem}")
    W = warps_per_block(threads, sm.warp_size)
    per_warp = _ceil_to(registers * sm.warp_size, sm.register_unit)
    per_block = _ceil_to(smem + sm.smem_reserved, sm.smem_unit)
    # Registers: a block's warps are spread over the processing blocks, so it needs a whole row of them.
    if per_warp * _ceil_to(W, sm.register_partitions) > sm.registers_per_block:
        by_registers = 0
    else:
        by_registers = (sm.registers // sm.register_partitions // per_warp) * sm.register_partitions // W
    limits = {
        "warps": sm.warps // W,
        "registers": by_registers,
        "smem": sm.smem // per_block if per_block else None,
        "blocks": sm.blocks,
    }
    blocks = min(n for n in limits.values() if n is not None)
    return Occupancy(preset.key, threads, registers, smem, W, per_warp, per_warp * W, per_block, limits, blocks, sm.warps)


def partial_sum_registers(T_M: int, T_N: int, s_acc: int, threads: int, word: int = 4) -> int:
    """32-bit registers one thread needs for its share of a T_M×T_N tile's partial sums: ⌈s_acc T_M T_N / (4 threads)⌉."""
    for key, value in {"T_M": T_M, "T_N": T_N, "s_acc": s_acc, "threads": threads, "word": word}.items():
        positive_int(value, key)
    return partial_sum_derivation(T_M, T_N, s_acc, threads, word).value


@dataclass(frozen=True)
class TileCase:
    """④'s T×T×T tile in one block: what it asks for and, when a block can take that, its occupancy."""

    preset: str
    T: int
    s: int                            # Byte per element (inputs and partial sums)
    copies: int                       # 1: single buffer, 2: double buffering of A·B
    threads: int
    extra_registers: int
    smem: int                         # the input buffers (Byte), in shared memory
    partial_sums: int                 # registers per thread for the partial sums
    over: str | None                  # "threads", "smem" or "registers": the per-block/per-thread cap it exceeds
    result: Occupancy | None          # None when `over`

    @property
    def registers(self) -> int:
        return self.partial_sums + self.extra_registers


def tile_case(preset: Preset, T: int, s: int, copies: int, threads: int, extra_registers: int) -> TileCase:
    """④'s tile on `preset`: shared memory = the inputs, registers = partial sums per thread + `extra_registers`.
    A case no block can take (over a per-block or per-thread cap) has `over` set and no result; the explorer
    and the tables say so instead of showing a number (`occupancy()` itself raises for it)."""
    sm = sm_limits(preset)
    positive_int(extra_registers, "extra_registers")
    smem = buffers.tile_buffers(T, T, T, s, s, copies).inputs
    partial = partial_sum_registers(T, T, s, threads)
    over = ("threads" if threads > sm.threads_per_block else "smem" if smem > sm.smem_per_block
            else "registers" if partial + extra_registers > sm.registers_per_thread else None)
    result = None if over else occupancy(preset, threads, partial + extra_registers, smem)
    return TileCase(preset.key, T, s, copies, threads, extra_registers, smem, partial, over, result)


def derivation(preset: Preset, threads, registers, smem) -> dict:
    """`occupancy`'s steps as named quantities (`roofline.derive`): W, the allocated registers and Shared Memory, the
    four limits, the resident blocks, the active warps and the occupancy, written with the SM's limits by the names
    of their course.toml keys. `threads`, `registers`, `smem` may be derive terms (the tile's partial sums, its input
    buffers): their records link. Checked against `occupancy` (the same numbers)."""
    from roofline.derive import named, tceil, tfloor, tmin, value, var

    sm = sm_limits(preset)
    r = occupancy(preset, value(threads), value(registers), value(smem))
    threads, registers, smem = (x if hasattr(x, "formula") else var(name, x)
                                for name, x in (("스레드", threads), ("스레드당 레지스터", registers), ("요청 smem", smem)))
    f = {k: var("smem_per_SM" if k == "smem" else f"sm.{k}", getattr(sm, k))
         for k in ("warp_size", "warps", "blocks", "registers", "register_unit", "register_partitions", "smem",
                   "smem_reserved", "smem_unit")}
    W = named("W", tceil(threads / f["warp_size"]))
    per_warp = named("워프당 레지스터", tceil(registers * f["warp_size"] / f["register_unit"]) * f["register_unit"])
    per_block = named("블록당 Shared Memory", tceil((smem + f["smem_reserved"]) / f["smem_unit"]) * f["smem_unit"])
    limits = {"warps": named("워프 수 한도", tfloor(f["warps"] / W))}
    steps = {}
    if r.limits["registers"]:   # each SM partition holds ⌊its registers / a warp's⌋ warps; the SM, that × partitions
        part = named("분할당 레지스터", tfloor(f["registers"] / f["register_partitions"]))
        part_warps = named("분할당 워프", tfloor(part / per_warp))
        reg_warps = named("레지스터 워프", part_warps * f["register_partitions"])
        limits["registers"] = named("레지스터 한도", tfloor(reg_warps / W))
        steps = {"regs_per_partition": part, "warps_per_partition": part_warps, "warps_by_registers": reg_warps}
    else:   # a block's warps need more than one row of the register file: none fits
        limits["registers"] = named("레지스터 한도", 0)
    if r.limits["smem"] is not None:
        limits["smem"] = named("Shared Memory 한도", tfloor(f["smem"] / per_block))
    limits["blocks"] = f["blocks"]
    blocks = named("상주 블록", tmin(*limits.values()))
    warps = named("활성 워프", blocks * W)
    share = named("점유율", warps / f["warps"])
    how = {"W": W, "registers_per_warp": per_warp, "smem_per_block": per_block, **steps,
           **{f"lim-{k}": v for k, v in limits.items()}, "blocks": blocks, "warps": warps, "occupancy": share}
    assert (W.value, per_warp.value, per_block.value, blocks.value, warps.value, share.value) == (
        r.warps_per_block, r.registers_per_warp, r.smem_per_block, r.blocks, r.warps, r.occupancy)
    assert all(v.value == r.limits[k.removeprefix("lim-")] for k, v in how.items() if k.startswith("lim-"))
    return how


def partial_sum_derivation(T_M, T_N, s_acc, threads, word: int = 4):
    """`partial_sum_registers` as a named quantity, its one computation: ⌈s·T_M·T_N / (4·스레드)⌉ (terms or
    numbers)."""
    from roofline.derive import Term, named, tceil

    outputs = T_M**2 if T_M is T_N and isinstance(T_M, Term) else Term.of(T_M) * T_N   # T² for a square tile
    q = named("중간 합 레지스터", tceil(Term.of(s_acc) * outputs / (word * Term.of(threads))))
    return q
