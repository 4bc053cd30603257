"""Helpers shared by the tests that change the course or copy the repository (student, instructor, Colab)."""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_checkout(copy: Path) -> Path:
    """The checkout's files (those git would commit, the working tree's content) copied to `copy`, mtimes kept
    (requirements.txt stays older than the venv's install stamp)."""
    from coursebook.built import checkout_files

    for name in checkout_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    return copy


def copy_caches(copy: Path) -> Path:
    """The checkout's execution cache, its kept variants draws (coursebook.handout.memo), in-process chapter runs
    (coursebook.__main__.RECOMPUTED) and the build's kept steps (coursebook.kept: compacted scripts, figures, fonts,
    CSS), copied into the copy's _build, and Python's bytecode of the library and tooling (__pycache__, which `make`
    writes in a checkout: else the copy's first command and each of its first kernels compile them again):
    all are keyed by what they are made from (a .pyc by its source's mtime and size, which copy_checkout keeps), so
    the copy runs, draws, compiles and compacts only what its own change touches."""
    for name in (".jupyter_cache", ".variants", ".recomputed", ".kept"):
        if (ROOT / "_build" / name).is_dir():
            shutil.copytree(ROOT / "_build" / name, copy / "_build" / name)
    for cache in [*(ROOT / "lib").rglob("__pycache__"), *(ROOT / "tools").rglob("__pycache__")]:
        if (copy / cache.relative_to(ROOT)).parent.is_dir():
            shutil.copytree(cache, copy / cache.relative_to(ROOT), dirs_exist_ok=True)
    return copy


def copy_editions(copy: Path) -> Path:
    """The .ipynb editions `make book` built in this checkout, copied beside the copy's chapters: they are
    git-ignored, so `copy_checkout` (a fresh clone) has none, and a checkout after `make book` has them."""
    for edition in sorted((ROOT / "chapters").glob("*.ipynb")):
        shutil.copy2(edition, copy / "chapters" / edition.name)
    return copy


def cell_of(md: Path):
    """(the parameter cell's source, its problem, {variable: value}) of chapter `md`, read as the build reads it
    (coursebook.paramcell), or None."""
    from coursebook import paramcell

    cell, problem = paramcell.find(md.read_text(encoding="utf-8"))
    if cell is None:
        return None
    return cell["body"], problem, paramcell.assignments(cell["body"])


def instructor_checkout(copy: Path) -> Path:
    """A clone of the repository with the working tree's files and the editions `make book` built, committed once
    (an instructor's checkout as the README leaves it), the source documents beside it as beside the checkout."""
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(copy)], check=True, capture_output=True)
    copy_editions(copy_checkout(copy))
    commit_all(copy, "this term")
    if (ROOT.parent / "shared").is_dir():
        (copy.parent / "shared").symlink_to(ROOT.parent / "shared")
    return copy


def commit_all(copy: Path, message: str) -> None:
    """The instructor commits everything (README step 4): once (the editions are built, git-ignored, never
    committed; each pins the library by its wheel's sha256, not by a commit)."""
    git = ["git", "-C", str(copy), "-c", "user.name=강사", "-c", "user.email=instructor@example.org"]
    subprocess.run(git + ["add", "-A"], check=True, capture_output=True)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", message], check=True, capture_output=True)


def run_coursebook(repo: Path, *args: str, timeout: int = 600, env: dict[str, str] | None = None
                   ) -> subprocess.CompletedProcess:
    """`python -m coursebook ARGS` in the copy `repo`, with this checkout's environment (env_for) and `env`'s
    variables."""
    return subprocess.run([str(Path(sys.prefix) / "bin" / "python"), "-m", "coursebook", *args], cwd=repo,
                          env={**env_for(repo), **(env or {})}, capture_output=True, text=True, timeout=timeout)


def check_copy(repo: Path) -> subprocess.CompletedProcess:
    """`make check` of the copy `repo` without drawing the figures (tests/show/test_figures.py compares them)."""
    return run_coursebook(repo, "check", "--no-figures")


def make_command(*targets: str) -> list[str]:
    """`make TARGETS` as a copy runs it: with this checkout's .venv (VENV=…), its install stamp taken as up to date
    (`-o`), so that `make` never reinstalls it."""
    venv = Path(sys.prefix)
    return ["make", f"VENV={venv}", "-o", str(venv / ".installed"), *targets]


def run_make(repo: Path, *targets: str, timeout: int = 1200, env: dict[str, str] | None = None
             ) -> subprocess.CompletedProcess:
    """`make TARGETS` (make_command) in the copy `repo`, with this checkout's environment (env_for) and `env`'s
    variables."""
    return subprocess.run(make_command(*targets), cwd=repo, env={**env_for(repo), **(env or {})}, capture_output=True,
                          text=True, timeout=timeout)


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by its path and the sha256 of its content."""
    import hashlib

    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).digest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def checkout_tree(repo: Path) -> dict[str, bytes]:
    """Every file `make refresh` may write (chapters, figures) and the built site, by content."""
    return {**{f"chapters/{k}": v for k, v in tree(repo / "chapters").items()},
            **{f"figures/{k}": v for k, v in tree(repo / "figures").items()},
            **{f"_build/html/{k}": v for k, v in tree(repo / "_build" / "html").items()}}


def js_tools() -> Path:
    from coursebook.minify import js_tools as installed

    return installed().resolve()


def env_for(repo: Path) -> dict[str, str]:
    """The environment for a command run in the copy `repo`: its own library and tooling first, none of the
    variables that point this checkout's run at its own files or mode."""
    env = {k: v for k, v in os.environ.items() if k not in {"ROOFLINE_HTML", "ROOFLINE_COURSE"}}
    env["PYTHONPATH"] = f"{repo / 'lib'}:{repo / 'tools'}"
    env.setdefault("ROOFLINE_JS_TOOLS", str(js_tools()))   # this checkout's npm tools (terser): no npm in a copy
    return env


def inline(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    if isinstance(value, str):   # a TOML basic string: JSON's escapes (\" \\ \n \uXXXX) are TOML's too
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def set_value(text: str, table: str, key: str, value) -> str:
    """course.toml with `key` of [table] set to `value` (the line's comment kept)."""
    lines, current = text.split("\n"), None
    for number, line in enumerate(lines):
        header = re.match(r"^\[([^\]]+)\]", line)
        if header:
            current = header[1]
        elif current == table and re.match(rf"^{re.escape(key)}\s*=", line):
            comment = re.search(r"\s+#[^\"']*$", line)
            lines[number] = f"{key} = {inline(value)}" + (comment.group(0) if comment else "")
            return "\n".join(lines)
    raise KeyError(f"no {key} in [{table}] of course.toml")


def set_key(text: str, dotted: str, value) -> str:
    """course.toml with key `dotted` ("week4.N", "week4.cache.capacities", "note.attention.seq") set to `value`."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):   # the longest [table] prefix that is a table header of the file
        table, rest = ".".join(parts[:cut]), parts[cut:]
        if re.search(rf"^\[{re.escape(table)}\]", text, re.M):
            break
    else:
        raise KeyError(f"no table for {dotted} in course.toml")
    if len(rest) == 1:
        return set_value(text, table, rest[0], value)
    inline = tomllib.loads(text)
    for part in parts[:cut + 1]:
        inline = inline[part]
    return set_value(text, table, rest[0], {**inline, rest[1]: value})


def fresh_key(presets, stem: str = "GPU_NEXT") -> str:
    """A preset key that the file does not have yet: GPU_NEXT, GPU_NEXT_2, … (never a name a real preset may take)."""
    return next(key for key in (stem, *(f"{stem}_{n}" for n in range(2, 1000))) if key not in presets)


def preset_table(key: str, name: str) -> str:
    """A GPU preset with per-SM limits (an Ada-class card, compute capability 8.9), under `key`."""
    return f"""
[presets.{key}]
name = "{name}"
peak = {{ FP32 = 30.3e12, TF32 = 60e12, FP16 = 121e12, BF16 = 121e12, FP8 = 242.5e12, INT8 = 242.5e12 }}
cuda = {{ FP32 = 30.3e12 }}
sparse = {{ TF32 = 120e12, FP16 = 242e12, BF16 = 242e12, FP8 = 485e12, INT8 = 485e12 }}
BW = 300e9
memory = "GDDR6"
SMs = 58
smem_per_SM = 102_400      # 100 KiB
source = "https://www.nvidia.com/en-us/data-center/l4/"

[presets.{key}.sm]   # compute capability 8.9
compute_capability = "8.9"
warp_size = 32
threads_per_block = 1024
threads = 1536
warps = 48
blocks = 24
registers = 65_536
registers_per_block = 65_536
registers_per_thread = 255
register_unit = 256
register_partitions = 4
smem_per_block = 101_376   # 99 KiB (opt-in)
smem_reserved = 1_024
smem_unit = 128
source = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#features-and-technical-specifications-technical-specifications-per-compute-capability"
architecture = "https://docs.nvidia.com/cuda/ada-tuning-guide/index.html"
"""


def set_peak(text: str, key: str, dtype: str, value) -> str:
    """course.toml with preset `key`'s peak of `dtype` set to `value`, and its CUDA cores' too when they ran that dtype
    at the peak (`cuda` = `peak`: a vector add's P, which week 3 requires to equal the peak, params.dtype_of_cuda_cores)
    — as an instructor who changes a machine's P changes both."""
    preset = tomllib.loads(text)["presets"][key]
    text = set_value(text, f"presets.{key}", "peak", {**preset["peak"], dtype: value})
    cuda = preset.get("cuda", {})
    if dtype in cuda and cuda[dtype] == preset["peak"].get(dtype):
        text = set_value(text, f"presets.{key}", "cuda", {**cuda, dtype: value})
    return text


def block_side(preset: dict, s: int) -> int | None:
    """The largest tile side T whose input buffers (s·2T² Byte) fit one block of `preset` (a course.toml table), as
    params.tiles_on_chip requires of week4.tiles; None: a machine without per-SM limits holds any."""
    from roofline.params import max_side

    limit = preset.get("sm", {}).get("smem_per_block", preset.get("smem_per_SM"))
    return None if limit is None else max_side(limit, s)


def _intensity(N: int, T: int, s: int) -> Fraction:
    """I_T of the tiled N×N matmul (the course's formula, from the library)."""
    from roofline import kernels

    return kernels.matmul_tiled(N, T, s, s).I


def _round2(x: Fraction) -> float:
    """x to two significant digits, as an instructor would write it (30e12, 2.4e12)."""
    digits = len(str(int(x))) - 2
    return float(round(x / 10**digits) * 10**digits) if digits > 0 else float(round(x, 1))


def next_term(text: str) -> str:
    """The term after the one in `text`, derived from it: another N (half, or four times when that gets small),
    three other tiles dividing it, another small example and L; the week-4 machine's P and BW changed so that
    another number of tiles is memory-bound; a GPU preset under a key the file does not have yet, compared in ④
    and the summary, and the note on it with another sequence length. Term after term (`next_term` of its own
    result) never comes back to a term it left."""
    raw = tomllib.loads(text)
    presets, w4 = raw["presets"], raw["week4"]
    key = fresh_key(presets)
    number = sum(k.startswith("GPU_NEXT") for k in presets) + 1
    text = text.rstrip("\n") + "\n" + preset_table(key, f"다음 학기 GPU {number}")
    N, tiles, s = w4["N"], tuple(w4["tiles"]), raw["dtypes"][w4["dtype"]]
    N2 = N // 2 if N // 2 >= 1024 else N * 4
    # (at most 256: ④'s rectangular tile of the largest T must fit one block's shared memory on its real GPUs)
    powers = [T for T in (2**k for k in range(3, 12)) if N2 % T == 0 and T <= min(N2 // 8, 256)]
    tiles2 = next(t for t in (tuple(powers[i:i + 3]) for i in range(len(powers) - 3, -1, -1)) if t != tiles)
    # the machine: its ridge between two tiles' I, so that another number of them than now is memory-bound
    hw = presets[w4["hardware"]]
    ridge = Fraction(hw["peak"][w4["dtype"]]) / Fraction(hw["BW"])
    bound_now = sum(_intensity(N, T, s) < ridge for T in tiles)
    bound_next = 1 if bound_now != 1 else 2
    I = [_intensity(N2, T, s) for T in tiles2]
    BW2 = _round2(Fraction(hw["BW"]) * (Fraction(12, 5) if hw["BW"] < 4e12 else Fraction(5, 12)))
    P2 = _round2(Fraction(math.sqrt(I[bound_next - 1] * I[bound_next])) * Fraction(BW2))
    assert sum(i < Fraction(P2) / Fraction(BW2) for i in I) == bound_next, (P2, BW2, I)
    text = set_peak(text, w4["hardware"], w4["dtype"], P2)
    text = set_value(text, f"presets.{w4['hardware']}", "BW", BW2)
    text = set_value(text, "week4", "N", N2)
    text = set_value(text, "week4", "tiles", list(tiles2))
    small_N = w4["small_N"] + 2
    small_T = max(d for d in range(2, small_N) if small_N % d == 0 and d != w4["small_T"])
    text = set_value(text, "week4", "small_N", small_N)
    text = set_value(text, "week4", "small_T", small_T)
    text = set_value(text, "week3", "L", raw["week3"]["L"] // 2)
    text = set_value(text, "week4", "gpus", [w4["gpus"][0], key])
    if "note" in raw:
        seq = raw["note"]["attention"]["seq"]
        text = set_value(text, "note", "hardware", key)
        text = set_value(text, "note", "attention", {**raw["note"]["attention"], "seq": seq // 2 if seq >= 2048 else seq * 4})
    return text


TERM_SEED = 1    # the random term's default seed (ROOFLINE_TERM_SEED=… draws another)


def random_term(text: str, seed: int) -> str:
    """A term drawn at random from the valid range, reproducibly from `seed`: the week-4 machine and dtype among the
    presets (the hypothetical one with other P and BW), N with 2 or 3 as its odd part, three tiles dividing it
    that fit one block of that machine, a small example, ④'s GPUs among those with per-SM limits; week 3 on any preset and dtype its CUDA cores run at the
    peak, another L and capacity."""
    import random

    rng = random.Random(seed)
    raw = tomllib.loads(text)
    presets = raw["presets"]
    course_key = raw["week4"]["hardware"] if "SMs" not in presets[raw["week4"]["hardware"]] else None

    def rate(lo: float, hi: float) -> float:      # two significant digits, log-uniform in [lo, hi]
        return _round2(Fraction(math.exp(rng.uniform(math.log(lo), math.log(hi)))))

    hardware = rng.choice(sorted(presets))
    dtype = rng.choice(sorted(presets[hardware]["peak"]))
    if course_key and hardware == course_key:
        text = set_peak(text, course_key, dtype, rate(5e12, 500e12))
        text = set_value(text, f"presets.{course_key}", "BW", rate(2e11, 8e12))
    N = rng.choice([1024, 2048, 4096, 8192, 16384, 1536, 3072, 6144, 12288])
    largest = block_side(presets[hardware], raw["dtypes"][dtype]) or N   # tiles that fit one block of the machine
    tiles = sorted(rng.sample([T for T in range(8, min(512, N // 4, largest) + 1) if N % T == 0], 3))
    small_N = rng.randint(3, 8)
    small_T = rng.choice([d for d in range(1, small_N + 1) if small_N % d == 0])
    sm = sorted(k for k, p in presets.items() if "sm" in p)
    text = set_value(text, "week4", "hardware", hardware)
    text = set_value(text, "week4", "dtype", dtype)
    text = set_value(text, "week4", "N", N)
    text = set_value(text, "week4", "tiles", tiles)
    text = set_value(text, "week4", "small_N", small_N)
    text = set_value(text, "week4", "small_T", small_T)
    text = set_value(text, "week4", "gpus", rng.sample(sm, rng.randint(1, len(sm))))
    text = set_value(text, "week4", "gpu", rng.choice(sm))
    runs = {k: sorted(d for d, P in p.get("cuda", {}).items() if p["peak"].get(d) == P)   # a vector add's dtypes:
            for k, p in tomllib.loads(text)["presets"].items()}                         # its CUDA cores' at the peak
    hardware3 = rng.choice(sorted(k for k in runs if runs[k]))
    text = set_value(text, "week3", "hardware", hardware3)
    text = set_value(text, "week3", "dtype", rng.choice(runs[hardware3]))
    text = set_value(text, "week3", "L", int(rate(1e6, 1e9)))
    text = set_value(text, "week3", "capacity", int(rate(1e9, 2e11)))
    return text


def integer_term(text: str, dtype: str = "INT8") -> str:
    """The next term (`next_term`) with an integer base dtype (issue 55): week 4 on its new GPU preset (which has a
    peak for `dtype`) in `dtype`; week 3 in `dtype` on the hypothetical machine, which does every operation at one P
    (its `peak` and `cuda` get `dtype` at its FP32 value: a real GPU's CUDA cores have no `dtype` peak, and a vector add
    cannot use a Tensor Core, params.dtype_of_cuda_cores); the note in `dtype` on its own machine. Every quantity of
    work the pages and exercises count in that dtype is then in OPs."""
    text = next_term(text)
    raw = tomllib.loads(text)
    key = raw["week4"]["gpus"][-1]          # next_term's new preset, with per-SM limits and an INT8 peak
    if dtype not in raw["presets"][key]["peak"] or dtype not in raw["dtypes"]:
        raise KeyError(f"no {dtype} peak on {key}")
    text = set_value(text, "week4", "hardware", key)
    text = set_value(text, "week4", "dtype", dtype)
    largest = block_side(raw["presets"][key], raw["dtypes"][dtype])   # the compared tiles fit one of its blocks
    N = raw["week4"]["N"]
    text = set_value(text, "week4", "tiles", [T for T in (2**k for k in range(3, 12)) if N % T == 0 and T <= largest][-3:])
    course = raw["presets"][raw["week3"]["hardware"]]    # next_term's week 3: the hypothetical machine
    text = set_peak(text, raw["week3"]["hardware"], dtype, course["peak"]["FP32"])
    text = set_value(text, f"presets.{raw['week3']['hardware']}", "cuda", {**course["cuda"], dtype: course["peak"]["FP32"]})
    text = set_value(text, "week3", "dtype", dtype)
    if "note" in raw:
        text = set_value(text, "note", "dtype", dtype)
    return text


def issue_36_term(text: str) -> str:
    """The term issue 36 found failing (kept as a regression case): a new preset with per-SM limits (under a fresh
    key) for week 4 and ④'s comparison, FP16, N = 8192, tiles 32/64/128 (the instructor's 64/128/256 is refused since
    issue 55: T = 256 in FP16 holds 256 KiB of inputs, past the preset's 99 KiB block); week 3 on the A100, the note
    on the H200."""
    raw = tomllib.loads(text)
    presets = raw["presets"]
    key = fresh_key(presets, "GPU_ISSUE")
    text = text.rstrip("\n") + "\n" + preset_table(key, "가상 GPU (issue 36)")
    a100 = next(k for k in sorted(presets) if k.startswith("A100"))
    h200 = next(k for k in sorted(presets) if k.startswith("H200"))
    text = set_value(text, "week4", "hardware", key)
    text = set_value(text, "week4", "dtype", "FP16")
    text = set_value(text, "week4", "N", 8192)
    text = set_value(text, "week4", "tiles", [32, 64, 128])
    text = set_value(text, "week4", "gpus", [raw["week4"]["gpus"][0], key])
    text = set_value(text, "week3", "hardware", a100)
    if "note" in raw:
        text = set_value(text, "note", "hardware", h200)
    return text
