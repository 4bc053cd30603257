"""roofline.params: the parameter file. The seed's parameter values, the presets against ERRATA's table, bad
parameter files (each refused with a Korean ParameterError naming its key), and the lookups of presets and dtypes.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import roofline as rl
from conftest import ROOT, SEED_TOML
from roofline import params
from roofline.errors import ParameterError
from roofline.show import fmt

SEED_TEXT = SEED_TOML.read_text(encoding="utf-8")


def test_seed_parameters_are_the_seeds(seed):
    w4 = seed.week4
    assert (w4.roofline.P, w4.roofline.BW) == (20 * 10**12, 10**12)
    assert (w4.N, w4.dtype, w4.s, w4.tiles) == (4096, "FP32", 4, (32, 64, 128))
    assert (w4.small_N, w4.small_T) == (4, 2)
    assert (seed.week3.L, seed.week3.s) == (10**8, 4)


def test_presets_match_the_errata_table(seed):
    h100 = seed.preset("H100_SXM")
    assert h100.P("FP32") == Fraction("66.9e12") and h100.P("FP16") == Fraction("989.4e12")
    assert h100.BW == Fraction("3.35e12") and h100.SMs == 132
    assert seed.preset("A100_SXM").BW == Fraction("2.039e12")
    assert seed.preset("T4").P("FP32") == Fraction("8.1e12")
    assert seed.preset("TPU_v5e").P("BF16") == 197 * 10**12


def test_every_live_preset_cites_an_https_source(course):
    assert course.presets
    for preset in course.presets.values():
        assert preset.source.startswith("https://"), preset.key


def write_variant(tmp_path, old, new, count=1):
    """The seed's parameter file with `old` replaced by `new` (a bad file an instructor might write)."""
    assert old in SEED_TEXT, old
    path = tmp_path / "course.toml"
    path.write_text(SEED_TEXT.replace(old, new, count), encoding="utf-8")
    return path


W4_DTYPE = 'dtype = "FP32"             # [dtypes]'
W4_HARDWARE = 'hardware = "course"        # 아래'


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("N = 4096", "N = 4100", r"^week4\.tiles: N = 4100의 약수가 아닌 값 32\. 타일 한 변은 N의 약수여야 한다$"),
        ("N = 4096", "N = -4096", r"^week4\.N: 양의 정수여야 한다\. 받은 값: -4096$"),
        ("N = 4096", "N = 4096.0", r"^week4\.N: 양의 정수여야 한다\. 받은 값: 4096\.0$"),
        ("tiles = [32, 64, 128]", "tiles = [32, 0]", r"^week4\.tiles: 양의 정수여야 한다\. 받은 값: 0$"),
        ("tiles = [32, 64, 128]", "tiles = [64, 32]",
         r"^week4\.tiles: 값이 서로 다르고 작은 것부터 커져야 한다\. 받은 값: \[64, 32\]$"),
        ("BW = 1e12", "BW = -1e12", r"^presets\.course\.BW: 0보다 커야 한다\. 받은 값: -1000000000000\.0$"),
        ("BW = 1e12", "BW = inf", r"^presets\.course\.BW: 유한한 수여야 한다 \(inf, nan은 쓸 수 없다\)\. 받은 값: inf$"),
        ("BW = 1e12", "BW = nan", r"^presets\.course\.BW: 유한한 수여야 한다 \(inf, nan은 쓸 수 없다\)\. 받은 값: nan$"),
        (W4_DTYPE, W4_DTYPE.replace("FP32", "FP33"), r"^week4\.dtype: 모르는 자료형 'FP33'\. 쓸 수 있는 값: FP32, TF32, "),
        (W4_HARDWARE, W4_HARDWARE.replace('"course"', '"H100"'),
         r"^week4\.hardware: 모르는 하드웨어 프리셋 'H100'\. 쓸 수 있는 값: course, H100_SXM, "),
        ("small_T = 2 ", "small_T = 3 ", r"^week4\.small_T: small_N = 4의 약수가 아닌 값 3\. 타일 한 변은 small_N의 약수여야 한다$"),
        ("N = 4096", "Nn = 4096", r"^\[week4\]: 모르는 키 Nn\. 쓸 수 있는 키: N, cache, dtype, "),
        ("L = 100_000_000", 'L = "1e8"', r"^week3\.L: 양의 정수여야 한다\. 받은 값: '1e8'$"),
        ('source = "https://www.nvidia.com/en-us/data-center/h100/"', 'source = "http://x"',
         r"^presets\.H100_SXM\.source: https:// 주소여야 한다\. 받은 값: 'http://x'$"),
        ("peak = { FP32 = 8.1e12,", "peak = { FP64 = 8.1e12,", r"^presets\.T4\.peak\.FP64: 모르는 자료형 'FP64'\. "),
        ("[week3]", "[week33]", r"^\[course\.toml\]: 모르는 키 week33\. 쓸 수 있는 키: "),
    ],
    ids=["N-not-a-multiple", "N-negative", "N-float", "tiles-zero", "tiles-order", "BW-negative", "BW-inf", "BW-nan",
         "dtype-unknown", "hardware-unknown", "small_T-not-a-divisor", "key-unknown", "L-string", "source-http",
         "peak-dtype-unknown", "table-unknown"],
)
def test_bad_parameter_files_name_the_key(tmp_path, old, new, message):
    with pytest.raises(ParameterError, match=message):
        params.load(write_variant(tmp_path, old, new))


def test_a_preset_without_the_weeks_dtype_is_refused(tmp_path):
    path = write_variant(tmp_path, W4_HARDWARE, W4_HARDWARE.replace('"course"', '"TPU_v5e"'))
    with pytest.raises(ParameterError, match=r"^week4\.dtype: 하드웨어 'TPU_v5e'에는 FP32 최대 성능이 없다\. "
                                             r"쓸 수 있는 자료형: BF16, INT8$"):
        params.load(path)


def test_broken_toml_is_reported_with_the_file(tmp_path):
    path = tmp_path / "course.toml"
    path.write_text("[week4\nN = 1", encoding="utf-8")
    with pytest.raises(ParameterError, match=r"^course\.toml: TOML 문법 오류: "):
        params.load(path)


def test_unknown_preset_and_dtype_lookups(seed):
    with pytest.raises(ParameterError, match=r"^hardware: 모르는 하드웨어 프리셋 'B200'\. 쓸 수 있는 값: course, "):
        seed.preset("B200")
    with pytest.raises(ParameterError, match=r"^dtype: 모르는 자료형 'FP4'\. 쓸 수 있는 값: FP32, "):
        seed.bytes_per("FP4")
    with pytest.raises(ParameterError, match=r"^dtype: 하드웨어 'H100_SXM'에는 FP64 최대 성능이 없다\. "):
        seed.preset("H100_SXM").roofline("FP64")


TERA = 10**12


def test_shared_problem_is_the_seeds(seed):
    w4 = seed.week4
    assert (w4.N, w4.dtype, w4.s, w4.tiles) == (4096, "FP32", 4, (32, 64, 128))
    assert (w4.small_N, w4.small_T) == (4, 2)
    assert w4.roofline.P == 20 * TERA and w4.roofline.BW == 1 * TERA
    assert fmt.power10(w4.roofline.P) == "20 × 10¹²"
    assert fmt.power10(w4.roofline.BW) == "1 × 10¹²"


MiB = 2**20


def test_cache_parameters_are_validated(seed, tmp_path):
    assert (seed.week4.cache.group_size_M, seed.week4.cache.small_capacities) == (8, (2, 4))
    assert seed.week4.cache.capacities == (4 * MiB, 16 * MiB, 64 * MiB)
    text = SEED_TOML.read_text(encoding="utf-8")
    bad = tmp_path / "course.toml"
    for old, new, message in [
        ("group_size_M = 8", "group_size_M = 0", r"^week4\.cache\.group_size_M: 양의 정수여야 한다\. 받은 값: 0$"),
        ("group_size_M = 8", "group_size_M = 8\ncolour = 1", r"^\[week4\.cache\]: 모르는 키 colour\. 쓸 수 있는 키: "),
        ("small_capacities = [2, 4]", "small_capacities = [4, 2]",
         r"^week4\.cache\.small_capacities: 값이 서로 다르고 작은 것부터 커져야 한다"),
        ("capacities = [4_194_304,", "capacities = [-4_194_304,", r"^week4\.cache\.capacities: 양의 정수여야 한다"),
    ]:
        assert old in text, old
        bad.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(ParameterError, match=message):
            rl.load(bad)


def test_parameters_are_the_seeds(seed):
    w4, hw = seed.week4, seed.week4.roofline
    assert (w4.N, w4.tiles, w4.s, w4.dtype, w4.threads) == (4096, (32, 64, 128), 4, "FP32", 256)
    assert (hw.P, hw.BW, hw.ridge) == (20 * 10**12, 10**12, 20)


def test_the_seeds_problem(seed):
    w3 = seed.week3
    assert (w3.L, w3.dtype, w3.s) == (100_000_000, "FP32", 4)
    assert w3.capacity == 16_000_000_000                 # "용량이 16 GB라면 세 벡터를 담을 수 있다"
    assert 3 * w3.s * w3.L <= w3.capacity < 3 * w3.s * w3.L * 14
    assert (w3.roofline.P, w3.roofline.BW) == (20 * 10**12, 10**12)


def test_the_seeds_note_is_on_the_H100_in_FP16(note):
    assert (note.hardware, note.dtype, note.s, note.seq) == ("H100_SXM", "FP16", 2, 4096)
    assert (note.attention.heads, note.attention.d_head) == (32, 128)


NOTE_VARIANTS = [
    ("gpt3 = { d_model = 12288,", "gpt3 = { d_modle = 12288,", r"^\[note\.gpt3\]: 모르는 키 d_modle\. 쓸 수 있는 키: d_model, "),
    ('hardware = "H100_SXM"      #', 'hardware = "H300"      #', r"^note\.hardware: 모르는 하드웨어 프리셋 'H300'\. "),
    ('hardware = "H100_SXM"      #', 'hardware = "TPU_v5e"      #', r"^note\.dtype: 하드웨어 'TPU_v5e'에는 FP16 최대 성능이 없다\. "),
    ("blocks = [[16, 16],", "blocks = [[16, 16, 2],", r"^note\.flash_check\.blocks: \[B_r, B_c\] 쌍의 목록이어야 한다\. "),
    ("naive_N = 64,", "naive_N = -64,", r"^note\.measure\.naive_N: 양의 정수여야 한다\. 받은 값: -64$"),
    ('blas = { dtype = "FP32",', 'blas = { dtype = "FP31",', r"^note\.blas\.dtype: 모르는 자료형 'FP31'\. "),
    ("latency = { L1 = [33, 41],", "latency = { L0 = [33, 41],", r"^\[note\.latency\]: 모르는 키 L0\. 쓸 수 있는 키: "),
    ("tc_flops = 1024,", "tc_flops = 0,", r"^note\.tensor_core\.tc_flops: 양의 정수여야 한다\. 받은 값: 0$"),
    ("blas_N = 1024 }", "blas_N = 1024, extra = 1 }", r"^\[note\.measure\]: 모르는 키 extra\. 쓸 수 있는 키: "),
    ("seq = 4096,", "seq = 4096.0,", r"^note\.attention\.seq: 양의 정수여야 한다\. 받은 값: 4096\.0$"),
]


@pytest.mark.parametrize("old, new, message", NOTE_VARIANTS, ids=[v[1].split("=")[0].strip(" {") for v in NOTE_VARIANTS])
def test_note_table_is_strict(tmp_path, old, new, message):
    text = SEED_TOML.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "course.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ParameterError, match=message):
        params.load(path)


def test_luo_latencies_and_ratio(note):
    lat = note.latency
    assert (lat.L1, lat.shared, lat.L2, lat.HBM) == ((33, 41), 29, 263, 479)
    assert fmt.decimal(Fraction(lat.HBM, max(lat.L1)), 0) == "12"
    assert fmt.decimal(Fraction(lat.HBM, min(lat.L1)), 1) == "14.5"


SEED = rl.load(ROOT / "tests" / "seed" / "course.toml")


def _toml(tmp_path, edit):
    text = (ROOT / "tests" / "seed" / "course.toml").read_text(encoding="utf-8")
    path = tmp_path / "course.toml"
    path.write_text(edit(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('gpu = "H100_SXM"', 'gpu = "TPU_v5e"', 1), r"^week4\.gpu: 프리셋 'TPU_v5e'에는 SM 한도"),
    (lambda t: t.replace('gpu = "H100_SXM"', 'gpu = "course"', 1), r"^week4\.gpu: 프리셋 'course'에는 SM 한도"),
    (lambda t: t.replace("extra_registers = 32", "extra_registers = 0", 1), r"^week4\.extra_registers: 양의 정수"),
    (lambda t: t.replace("warps = 64", "warps = 48", 1), r"^presets\.H100_SXM\.sm\.warps: warps × warp_size = threads"),
    (lambda t: t.replace("smem_per_block = 232_448", "smem_per_block = 233_472", 1),
     r"^presets\.H100_SXM\.sm\.smem_per_block: smem_per_block \+ smem_reserved"),
    (lambda t: t.replace('compute_capability = "9.0"', 'compute_capability = "Hopper"', 1),
     r"^presets\.H100_SXM\.sm\.compute_capability"),
    (lambda t: t.replace("smem_reserved = 1_024", "smem_reserved = -1", 1), r"^presets\.H100_SXM\.sm\.smem_reserved: 0 이상"),
    (lambda t: t.replace("register_unit = 256", "", 1), r"^\[presets\.H100_SXM\.sm\]: 빠진 키 register_unit"),
])
def test_bad_limits_in_the_file(tmp_path, edit, message):
    with pytest.raises(ParameterError, match=message):
        rl.load(_toml(tmp_path, edit))


def test_cell_gpu_must_have_limits():
    with pytest.raises(ParameterError, match=r"^gpu: 프리셋 'TPU_v5e'에는 SM 한도"):
        SEED.week4.with_(gpu="TPU_v5e")
    with pytest.raises(ParameterError, match=r"^extra_registers: 양의 정수"):
        SEED.week4.with_(extra_registers=-3)


def test_with_cell_takes_the_parameter_cells_variables_and_nothing_else(seed):
    """A chapter's `with_cell(globals())` is `with_` of every variable of the field table the namespace holds: other
    names (imports, the problem itself, a loop's variable) are left alone, a bad value is named by its variable."""
    cell = {"N": 2048, "tiles": [32, 64], "dtype": "FP16", "rl": object(), "w4": None, "T": 7, "hw": 1}
    assert seed.week4.with_cell(cell) == seed.week4.with_(N=2048, tiles=[32, 64], dtype="FP16")
    assert seed.week4.with_cell({"T": 7}) == seed.week4
    with pytest.raises(ParameterError, match=r"^N: "):
        seed.week4.with_cell({"N": 0})


def test_the_cache_simulation_names_what_the_cell_changed(seed):
    """③ simulates every tile of the cell (N/T tiles per side at most): too many is named by the variable the reader
    typed — `tiles` when only the tiles changed, both when both did — never by the library's own argument N (F-13)."""
    from roofline.show.pages import w4_3_tiling
    for cell, named in (({"tiles": [1, 2]}, "tiles"), ({"N": 8192, "tiles": [2, 4]}, "N, tiles")):
        with pytest.raises(ParameterError, match=rf"^{named}: 캐시 시뮬레이션은 .*N/T = "):
            w4_3_tiling.cache_big(seed.week4.with_cell(cell))


W3 = 'hardware = "course"\ndtype = "FP32"\nL = '   # [week3]'s first lines in the seed


def _week3_on(machine: str, dtype: str):
    return lambda t: t.replace(W3, f'hardware = "{machine}"\ndtype = "{dtype}"\nL = ', 1)


@pytest.mark.parametrize("edit, message", [
    # a vector add cannot use a Tensor Core: week 3's dtype is one the machine's CUDA cores run at its peak (issue 55)
    (_week3_on("TPU_v5e", "BF16"), r"^week3\.hardware: 하드웨어 'TPU_v5e'에는 CUDA Core 최대 성능\(presets\.TPU_v5e\.cuda\)이 "
                                    r"없다\. .*쓸 수 있는 하드웨어: course, H100_SXM, .*RTX_A6000$"),
    (_week3_on("H100_SXM", "FP16"),
     r"^week3\.dtype: 하드웨어 'H100_SXM'에는 FP16 CUDA Core 최대 성능\(presets\.H100_SXM\.cuda\.FP16\)이 없다\. "
     r"원소별 연산은 텐서 코어를 쓰지 못해 P가 CUDA Core의 값이다\. 쓸 수 있는 자료형: FP32$"),
    (lambda t: t.replace("peak = { FP32 = 20e12 }", "peak = { FP32 = 30e12 }", 1),
     r"^week3\.dtype: presets\.course\.peak\.FP32 = 3e\+13가 presets\.course\.cuda\.FP32 = 2e\+13와 다르다\. "
     r"원소별 연산의 P는 CUDA Core의 값이므로 두 값이 같아야 한다\.$"),
    # the compared tiles fit one block of the week's machine: T = 128 in FP32 holds 128 KiB of inputs, a T4 block 64
    (lambda t: t.replace('hardware = "course"        # 아래', 'hardware = "T4"        # 아래', 1),
     r"^week4\.tiles: T = 128의 입력 버퍼 s·2T² = 131,072 Byte가 week4\.hardware = 'T4'의 블록 하나가 쓸 수 있는 "
     r"Shared Memory 65,536 Byte보다 크다\. 들어가는 타일만 적자 \(T ≤ 90\)$"),
])
def test_a_term_whose_pages_would_break_their_own_rules_is_refused(tmp_path, edit, message):
    with pytest.raises(ParameterError, match=message):
        rl.load(_toml(tmp_path, edit))

