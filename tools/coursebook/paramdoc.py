"""docs/parameters.md, generated from the parameters' own table (roofline.params): every key of course.toml and
every parameter-cell variable, what it means and the values it may take, so the page cannot drift from the rules
(tests/tooling/test_parameter_ranges.py compares the file with `page()` and sweeps every range).

    python -m coursebook.paramdoc > docs/parameters.md
"""
from __future__ import annotations

from roofline import params

HEAD = """# 매개변수와 허용 범위

`lib/roofline/course.toml`의 모든 키와 장의 매개변수 셀(`# ▶ 매개변수 셀`)의 모든 변수가 받을 수 있는 값이다. 범위는
모델과 빌드 기계가 정해진 시간과 메모리 안에 계산할 수 있는 만큼이다: 어떤 값도 `make refresh`, `make check`, 장 하나의
실행을 1분 넘게 돌리거나 2 GB 넘게 쓰게 하지 않는다. 범위 밖의 값은 키(셀에서는 변수 이름), 범위, 받은 값을 밝힌 한국어
한 줄로 거절되고, `make refresh`는 아무 파일도 바꾸지 않는다. 단위를 잘못 쓴 것이 거의 확실한 크기(대역폭 1 GB/s 미만,
최대 성능 1 GFLOP/s 미만)는 단위를 밝혀 거절한다.

이 파일은 `roofline.params`의 표에서 만든다(`python -m coursebook.paramdoc > docs/parameters.md`). 손으로 고치지 말자:
`tests/tooling/test_parameter_ranges.py`가 표와 견주고, 범위마다 안쪽 값(실행된다)과 바깥 값(거절된다)을 시험한다.
"""


def number(value) -> str:
    return params.plain_number(value)


def row(key: str, cell: str, about: str, bounds) -> str:
    if bounds is None:
        return f"| `{key}` | {cell} | {about} | `course.toml`에 있는 이름 | |"
    unit = f" {bounds.unit}" if bounds.unit else ""
    return f"| `{key}` | {cell} | {about} | {number(bounds.lo)}{unit} – {number(bounds.hi)}{unit} | {bounds.why} |"


def page() -> str:
    lines = [HEAD, "## 문제의 매개변수", "",
             "| 키 | 셀 변수 | 뜻 | 범위 | 까닭 |", "|---|---|---|---|---|"]
    for table, cls in params.PROBLEMS.items():
        for f in params.fields(cls):
            lines.append(row(f.path, f"`{f.cell}`" if f.cell else "", f.about, f.range))
    lines += ["", "## 자료형과 하드웨어 프리셋", "",
              "| 키 | 셀 변수 | 뜻 | 범위 | 까닭 |", "|---|---|---|---|---|",
              row("dtypes.NAME", "", "원소 하나의 Byte", params.DTYPE_RANGE),
              row("presets.KEY.peak.DTYPE", "", "dense 최대 연산 성능", params.PEAK_RANGE),
              row("presets.KEY.sparse.DTYPE", "", "2:4 희소 최대 연산 성능", params.PEAK_RANGE),
              row("presets.KEY.cuda.DTYPE", "", "CUDA Core(텐서 코어가 아닌)의 최대 연산 성능: 원소별 연산의 P",
                  params.PEAK_RANGE),
              row("presets.KEY.BW", "", "메모리 대역폭", params.BW_RANGE)]
    lines += [row(f"presets.KEY.{k}" if k in ("SMs", "smem_per_SM") else f"presets.KEY.sm.{k}", "", bounds.why, bounds)
              for k, bounds in params.SM_RANGES.items()]
    lines += ["", "## 함께 지켜야 하는 규칙", "",
              f"- `week4.tiles`: 서로 다르고 커지는 N의 약수 {params.MIN_TILES}–{params.MAX_TILES}개, 각 타일의 N/T ≤ "
              f"{number(params.MAX_SIMULATED_SIDE)} (③의 LRU 캐시 시뮬레이션). 셀에서도 {params.MIN_TILES}개 이상이다.",
              "- `week4.tiles`: 각 타일의 입력 버퍼 s·2T² Byte가 `week4.hardware`의 블록 하나가 쓸 수 있는 Shared Memory"
              "(`sm.smem_per_block`, 없으면 `smem_per_SM`) 이하. SM 한도가 없는 가상 하드웨어에는 제한이 없다.",
              "- `week3.dtype`: `week3.hardware`의 `cuda`에 있고 그 값이 `peak`와 같은 자료형. 벡터 덧셈 같은 원소별 연산은 "
              "텐서 코어를 쓰지 못하므로 P가 CUDA Core의 값이다.",
              "- `week4.small_T`: `week4.small_N`의 약수. `note.cache.K`: `note.cache.tile`의 배수.",
              f"- `note.measure.T`: 타일 루프의 작은 곱 (⌈naive_N/T⌉)³와 (⌈tiled_N/T⌉)³가 각각 "
              f"{number(params.MAX_TILE_STEPS)}번 이하.",
              f"- `note.flash_check.blocks`: 모든 N과 블록에 걸친 ⌈N/B_r⌉·⌈N/B_c⌉의 합이 "
              f"{number(params.MAX_FLASH_STEPS)}번 이하. 목록은 8개까지(`note.gemm.batches`는 16개까지).",
              "- 프리셋의 `name`, `memory`: 한 줄, 60자 이하, 사이트가 바꿔 쓰는 글자(" +
              " ".join(f"`{t}`" if t != "`" else "`` ` ``" for t in params.UNSAFE_TEXT) + ") 없이.",
              "- `presets.KEY.sm`: warps × warp_size = threads, registers는 register_partitions의 배수, "
              "smem_per_block + smem_reserved ≤ smem_per_SM, threads_per_block ≤ threads. "
              "`compute_capability`는 \"9.0\"처럼 주.부 번호.",
              "- 매개변수 셀은 정수, 문자열, 그 목록과 산술식(`2**12`), `list(range(…))`, 위에서 정한 이름을 읽는다. "
              "그 밖의 식은 변수 이름을 밝힌 한 줄로 거절한다. `4096.0`이나 `True`는 `course.toml`의 값과 다른 값이다.",
              ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(page(), end="")
