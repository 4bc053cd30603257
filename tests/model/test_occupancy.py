"""The occupancy model (roofline.occupancy) against NVIDIA's own occupancy calculator.

NVIDIA ships its calculator as a header, cuda_occupancy.h, in the nvidia-cuda-runtime-cu12 wheel on PyPI. It
needs no GPU. The test fetches the pinned wheel with pip into _build/occupancy/ (only the header is used,
never kept in the repository), compiles tests/occupancy/harness.cpp against it with g++ and asks it, case by
case, how many blocks are resident on one SM. It fails, never skips, when g++ or the wheel is missing
(`make test` installs g++ from Debian).

Compared: every state of ④'s explorer (preset × T × buffering × threads × registers allowance) and a
hypothesis sweep per preset with per-SM limits, so per compute capability among them (threads 32–1024 in steps
of 32, registers 1–255, shared memory 0 to the opt-in maximum): 7.5 (T4), 8.0 (A100), 8.6 (RTX A6000), 8.9 (L4, RTX 4090), 9.0 (H100,
H200) and 10.0 (B200) in this term's parameters. The pinned header knows every one of them (it answers for each; an
older one answers "unknown device": 12.6.77's for 10.0).

The per-SM limits themselves: what the header knows per compute capability (resident blocks, allocation units) the
sweep compares; what it takes as given (threads, registers, shared memory per SM and per block) is checked against the
Programming Guide's rules for every capability here and, per capability, against the frozen seed's presets and every
other preset of it (test_per_sm_limits_follow_the_programming_guide). Nothing here is listed per capability: a preset
of a new one is checked by adding it to course.toml alone.

Also the seed's residency of ④ on the real presets. (The parameter file's limits: tests/model/test_params.py.)
"""
from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from conftest import ROOT
from roofline import buffers, occupancy
from roofline.errors import ParameterError
from roofline.show.pages import w4_4_tile_size


def test_residency_on_real_presets(seed):
    """Beyond the hypothetical hardware: resident blocks with every limit (roofline.occupancy), 256 threads and
    32 registers besides the partial sums; never more than the SM's cap (32 on H100, 16 on T4)."""
    h100, t4 = seed.preset("H100_SXM"), seed.preset("T4")
    assert (h100.smem_per_SM, t4.smem_per_SM) == (228 * 1024, 64 * 1024)
    got = {}
    for gpu in (h100, t4):
        for T in (32, 64, 128):
            for c in (1, 2):
                case = occupancy.tile_case(gpu, T, 4, c, 256, 32)
                got[gpu.key, T, c] = case.result.blocks if case.result else None
                assert case.result is None or case.result.blocks <= gpu.sm.blocks
    assert got == {
        ("H100_SXM", 32, 1): 6, ("H100_SXM", 32, 2): 6, ("H100_SXM", 64, 1): 5, ("H100_SXM", 64, 2): 3,
        ("H100_SXM", 128, 1): 1, ("H100_SXM", 128, 2): None,
        ("T4", 32, 1): 4, ("T4", 32, 2): 4, ("T4", 64, 1): 2, ("T4", 64, 2): 1, ("T4", 128, 1): None, ("T4", 128, 2): None,
    }


WHEEL = "nvidia-cuda-runtime-cu12"
WHEEL_VERSION = "12.9.79"                       # pinned: the calculator the course agrees with
HEADER = "nvidia/cuda_runtime/include/cuda_occupancy.h"
CACHE = ROOT / "_build" / "occupancy"
HARNESS = ROOT / "tests" / "occupancy" / "harness.cpp"
SHARED_DEFAULT = 48 * 1024                       # sharedMemPerBlock without opt-in (every compute capability here)
SEED = rl.load(ROOT / "tests" / "seed" / "course.toml")
COURSE = rl.load()


def _header() -> Path:
    folder = CACHE / WHEEL_VERSION
    header = folder / "cuda_occupancy.h"
    if header.exists():
        return header
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                           "-q", f"{WHEEL}=={WHEEL_VERSION}", "-d", str(folder)], capture_output=True, text=True)
    wheels = sorted(folder.glob("*.whl"))
    assert done.returncode == 0 and wheels, f"pip download {WHEEL}=={WHEEL_VERSION} failed:\n{done.stderr}"
    with zipfile.ZipFile(wheels[0]) as wheel:
        header.write_bytes(wheel.read(HEADER))
    return header


@pytest.fixture(scope="session")
def calculator():
    """A function: list of (preset, threads, registers, smem) → list of NVIDIA's resident blocks (None: an error)."""
    gxx = shutil.which("g++")
    assert gxx, "g++ is missing: `make test` installs it (Debian package g++); NVIDIA's calculator is C++"
    header = _header()
    binary = header.parent / "harness"
    if not binary.exists() or binary.stat().st_mtime < HARNESS.stat().st_mtime:
        built = subprocess.run([gxx, "-O1", "-std=c++17", f"-I{header.parent}", "-o", str(binary), str(HARNESS)],
                               capture_output=True, text=True)
        assert built.returncode == 0, f"g++ could not build the harness:\n{built.stderr}"

    def ask(cases):
        lines = []
        for preset, threads, registers, smem in cases:
            sm = preset.sm
            major, minor = sm.compute_capability.split(".")
            lines.append(" ".join(map(str, (
                major, minor, sm.warp_size, sm.threads_per_block, sm.threads, sm.registers_per_block, sm.registers,
                SHARED_DEFAULT, sm.smem, sm.smem_per_block, sm.smem_reserved, preset.SMs, threads, registers, smem))))
        out = subprocess.run([str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
        answers = out.stdout.split("\n")[:len(cases)]
        assert len(answers) == len(cases)
        return [None if a.startswith("error") else tuple(int(x) for x in a.split()) for a in answers]

    return ask


def gpus(course=COURSE):
    return [p for p in course.presets.values() if p.sm]


# Threads per block and registers allowances a reader may type in ④'s live mode (with the problem's own): the
# static explorer offers the problem's values only, the live mode any.
THREADS = (64, 128, 256, 512, 1024)
EXTRA_REGISTERS = (16, 32, 64)


def explorer_cases(course=COURSE):
    """(preset, threads, registers, smem) of every state of ④'s explorer (every GPU, T and buffering it offers),
    with each of THREADS and EXTRA_REGISTERS, that the model computes, and those whose block is over a per-block
    or per-thread cap (the model raises; the explorer says why)."""
    w4 = course.week4
    o = w4_4_tile_size.tile_options(w4)
    cases, impossible = [], []
    for key, T, copies, threads, extra in itertools.product(o.gpus, o.Ts, (1, 2), sorted({*THREADS, w4.threads}),
                                                            sorted({*EXTRA_REGISTERS, w4.extra_registers})):
        case = occupancy.tile_case(course.presets[key], T, w4.s, copies, threads, extra)
        item = (course.presets[case.preset], case.threads, case.registers, case.smem)
        (impossible if case.over else cases).append(item)
    return cases, impossible


def test_explorer_states_agree_with_nvidia(calculator):
    w4 = COURSE.week4
    cases, impossible = explorer_cases()
    offered = w4_4_tile_size.tile_options(w4)
    choices = len({*THREADS, w4.threads}) * len({*EXTRA_REGISTERS, w4.extra_registers})
    assert cases and len(cases) + len(impossible) == offered.count * choices
    assert set(offered.gpus) == {p.key for p in gpus()}
    nvidia = calculator(cases)
    mismatches = [(p.key, t, r, m, occupancy.occupancy(p, t, r, m).blocks, n)
                  for (p, t, r, m), n in zip(cases, nvidia) if n is None or occupancy.occupancy(p, t, r, m).blocks != n[0]]
    assert not mismatches, f"{len(mismatches)} of {len(cases)} explorer states disagree: {mismatches[:5]}"
    print(f"\nexplorer states agreeing with NVIDIA's calculator: {len(cases)} of {len(cases)} "
          f"(+ {len(impossible)} over a per-block or per-thread cap)")


def test_impossible_explorer_states_cannot_launch(calculator):
    """A state the model refuses (shared memory over the per-block maximum, registers over the per-thread cap):
    NVIDIA's calculator launches no block either (shared memory) or the model names the cap the compiler
    would enforce by spilling (registers above 255)."""
    _, impossible = explorer_cases()
    for preset, threads, registers, smem in impossible:
        with pytest.raises(ParameterError):
            occupancy.occupancy(preset, threads, registers, smem)
    over_smem = [(p, t, min(r, p.sm.registers_per_thread), m) for p, t, r, m in impossible if m > p.sm.smem_per_block]
    assert all(n is not None and n[0] == 0 for n in calculator(over_smem))


def test_the_pinned_header_knows_every_architecture(calculator):
    """Every compute capability among the presets (this term's and the seed's) is one the pinned header knows: it
    answers, where a header that predates the capability answers "error 2" (CUDA_OCC_ERROR_UNKNOWN_DEVICE). A preset
    of an architecture the header does not know needs a newer pin (WHEEL_VERSION), never a skipped sweep."""
    presets = {p.sm.compute_capability: p for p in [*gpus(SEED), *gpus()]}
    answers = calculator([(p, 128, 32, 0) for p in presets.values()])
    unknown = sorted(cc for cc, a in zip(presets, answers) if a is None)
    assert not unknown, f"compute capability {unknown}: {WHEEL}=={WHEEL_VERSION} does not know it; pin a newer wheel"


@pytest.mark.parametrize("key", [p.key for p in gpus()])
def test_sweep_agrees_with_nvidia(calculator, key):
    """Every preset with per-SM limits (so every compute capability among them)."""
    preset = COURSE.presets[key]
    sm = preset.sm
    cc = sm.compute_capability
    drawn = []

    @settings(max_examples=1000, deadline=None, derandomize=True, database=None)
    @given(threads=st.integers(1, sm.threads_per_block // 32).map(lambda k: 32 * k),
           registers=st.integers(1, sm.registers_per_thread),
           smem=st.integers(0, sm.smem_per_block))
    def draw(threads, registers, smem):
        drawn.append((preset, threads, registers, smem))

    draw()
    # the edges too: each unit boundary of shared memory and every register count at 256 threads
    drawn += [(preset, 256, r, 0) for r in range(1, sm.registers_per_thread + 1)]
    drawn += [(preset, 32 * k, 32, 0) for k in range(1, sm.threads_per_block // 32 + 1)]
    drawn += [(preset, 128, 32, m) for m in range(0, sm.smem_per_block + 1, sm.smem_unit)]
    drawn += [(preset, 128, 32, m) for m in (1, sm.smem_per_block - 1, sm.smem_per_block)]
    nvidia = calculator(drawn)
    bad = []
    for (p, t, r, m), n in zip(drawn, nvidia):
        mine = occupancy.occupancy(p, t, r, m)
        limits = tuple(-1 if mine.limits[k] is None else mine.limits[k] for k in ("warps", "registers", "smem", "blocks"))
        if n is None or (mine.blocks,) + limits != n:
            bad.append(((t, r, m), mine.blocks, limits, n))
    assert not bad, f"compute capability {cc}: {len(bad)} of {len(drawn)} cases disagree: {bad[:5]}"
    print(f"\ncompute capability {cc} ({preset.key}): {len(drawn)} of {len(drawn)} cases agree with NVIDIA's calculator")


# The CUDA C++ Programming Guide's "Technical Specifications per Compute Capability" (the source every preset's sm
# table cites) for every capability from 7.5 on, as rules: the calculator takes a device's threads, registers and shared
# memory as given, so a typo there would agree with it. What varies by capability (threads, shared memory per SM and per
# block) is checked against the seed's frozen presets and the other presets of that capability; shared memory per SM
# also by the header, which knows each capability's carveouts (the sweep: a size that is not one disagrees).
GUIDE = {"warp_size": 32, "threads_per_block": 1024, "registers": 65_536, "registers_per_block": 65_536,
         "registers_per_thread": 255}
PER_CAPABILITY = ("threads", "warps", "blocks", "registers", "registers_per_thread", "smem", "smem_per_block",
                  "smem_reserved", "smem_unit", "register_unit", "register_partitions")


def test_per_sm_limits_follow_the_programming_guide():
    presets = [*gpus(SEED), *gpus()]
    for preset in presets:
        sm = preset.sm
        assert {k: getattr(sm, k) for k in GUIDE} == GUIDE, preset.key
        assert sm.threads == sm.warps * sm.warp_size and sm.threads % 512 == 0 and 1024 <= sm.threads <= 2048, preset.key
        assert sm.smem_per_block <= sm.smem - sm.smem_reserved and sm.smem_reserved in (0, 1024), preset.key
        assert sm.smem % 1024 == 0 and preset.smem_per_SM == sm.smem, preset.key
    # one compute capability, one set of limits: the seed's (frozen, checked against the guide when it was written)
    # and every preset's of that capability agree
    by_cc: dict[str, dict] = {}
    for preset in presets:
        limits = {k: getattr(preset.sm, k) for k in PER_CAPABILITY}
        first = by_cc.setdefault(preset.sm.compute_capability, {"key": preset.key, **limits})
        assert {k: first[k] for k in PER_CAPABILITY} == limits, \
            f"{preset.key} and {first['key']} are both compute capability {preset.sm.compute_capability}"


def test_h100_256_threads_is_warp_bound():
    """The issue's example: H100, 256-thread blocks of T = 8 FP32 single buffer: 8 blocks (64 warps / 8 per block)."""
    h100 = SEED.preset("H100_SXM")
    b = buffers.tile_buffers(8, 8, 8, 4, 4, 1)
    o = occupancy.occupancy(h100, 256, 32, b.inputs)
    assert (o.blocks, o.warps, o.occupancy, o.binding) == (8, 64, Fraction(1), ("warps", "registers"))   # a tie
    assert o.limits["smem"] == 152 and o.smem_per_block == 512 + 1024       # the driver's 1 KiB per block
    assert o.limits["blocks"] == 32
    # one register more per thread: 33 × 32 = 1,056 → 1,280 per warp, 12 warps per processing block, 48 per SM
    o = occupancy.occupancy(h100, 256, occupancy.partial_sum_registers(8, 8, 4, 256) + 32, b.inputs)
    assert (o.registers_per_warp, o.limits["registers"], o.blocks, o.binding) == (1280, 6, 6, ("registers",))


def test_seed_limits():
    h100, a100, t4 = (SEED.preset(k).sm for k in ("H100_SXM", "A100_SXM", "T4"))
    assert (h100.compute_capability, h100.warps, h100.blocks, h100.smem, h100.smem_per_block) == ("9.0", 64, 32, 233472, 232448)
    assert (a100.compute_capability, a100.warps, a100.blocks, a100.smem, a100.smem_per_block) == ("8.0", 64, 32, 167936, 166912)
    assert (t4.compute_capability, t4.warps, t4.blocks, t4.smem, t4.smem_per_block, t4.smem_reserved) == ("7.5", 32, 16, 65536, 65536, 0)
    assert SEED.preset("TPU_v5e").sm is None and SEED.preset("course").sm is None


def test_exact_results():
    h100 = SEED.preset("H100_SXM")
    o = occupancy.occupancy(h100, 256, 96, 64 * 1024)      # 64 KiB (T = 64 double buffered), 96 registers
    assert o.limits == {"warps": 8, "registers": 2, "smem": 3, "blocks": 32}
    assert (o.blocks, o.warps, o.occupancy, o.binding) == (2, 16, Fraction(1, 4), ("registers",))
    assert (o.registers_per_warp, o.registers_per_block, o.smem_per_block) == (3072, 24576, 66560)
    t4 = SEED.preset("T4")
    o = occupancy.occupancy(t4, 256, 33, 0)
    assert o.limits["smem"] is None and o.blocks == 4 and o.binding == ("warps",)
    assert occupancy.occupancy(t4, 1024, 255, 0).blocks == 0                    # 32 warps × 8,192 registers


@pytest.mark.parametrize("call, message", [
    (lambda: occupancy.occupancy(SEED.preset("TPU_v5e"), 256, 32, 0), r"^gpu: 프리셋 'TPU_v5e'"),
    (lambda: occupancy.occupancy(SEED.preset("course"), 256, 32, 0), r"^gpu: 프리셋 'course'"),
    (lambda: occupancy.occupancy(SEED.preset("H100_SXM"), 1056, 32, 0), r"^threads: .*최대 1024개"),
    (lambda: occupancy.occupancy(SEED.preset("H100_SXM"), 256, 256, 0), r"^registers: .*최대 255개"),
    (lambda: occupancy.occupancy(SEED.preset("H100_SXM"), 256, 32, 232449), r"^smem: .*최대 232448 Byte"),
    (lambda: occupancy.occupancy(SEED.preset("H100_SXM"), 0, 32, 0), r"^threads: 양의 정수"),
    (lambda: occupancy.occupancy(SEED.preset("H100_SXM"), 256, 0, 0), r"^registers: 양의 정수"),
    (lambda: occupancy.occupancy(SEED.preset("H100_SXM"), 256, 32, -1), r"^smem: 0 이상"),
])
def test_bad_inputs(call, message):
    with pytest.raises(ParameterError, match=message):
        call()
