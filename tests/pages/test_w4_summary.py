"""정리 (chapters/w4_summary.md, roofline.show.pages.w4_summary): the precision steps, the limit and shift
sentences, the glued values and the wording.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import roofline as rl
from conftest import CHAPTERS, seed_page
from roofline import problems
from roofline.errors import ParameterError
from roofline.show import why
from roofline.show.pages import w4_summary as summary

SEED_SUMMARY = [  # label, I (3), ideal ms (3), limit
    ("재사용 없음", "0.250", "549.823", "HBM 대역폭"),
    ("T = 32", "7.969", "17.247", "HBM 대역폭"),
    ("T = 64", "15.876", "8.657", "HBM 대역폭"),
    ("T = 128", "31.508", "6.872", "연산 성능"),
]


def test_summary_page_values():
    g = seed_page("w4_summary")
    for label, I, t, bound in SEED_SUMMARY:
        assert f"| {label} | {I} | {t} | {bound}" in g["table-summary"]
    assert "연산 성능 (I* = 20 초과)" in g["table-summary"]
    assert (g["p-tf32"], g["p-fp32"]) == ("494.7", "66.9") and g["tf32-step"].startswith("7.4배로 ")
    assert "7.4배" in g["table-remedies"]


def test_summary_wording():
    md = (CHAPTERS / "w4_summary.md").read_text(encoding="utf-8")
    g = seed_page("w4_summary")
    assert "커널의 병목을 메모리에서 연산 쪽으로 옮긴다" in md
    for item in ("GQA/MQA", "speculative decoding", "prefill"):
        assert item in g["table-remedies"], item
    assert g["p-fp8"] == "1,979" and g["fp8-note"].startswith("FP8의 dense 최대 성능 1,979는 FP16의 2:4 구조적 희소 최대 성능과 숫자만 같다.")
    assert "쓸 수 없다" not in g["fp8-note"]          # the FP8 dense peak is usable; only the coincidence is noted
    assert "1,979 TFLOPs/s로, 한 단계 내려갈 때마다 {glue:text}`tensor-steps` 늘어난다" in md.replace("{glue:text}`p-fp8`", "1,979")
    assert g["tensor-steps"] == "2.0배씩" and "FLOP/s" not in md.replace("FLOPs/s", "")
    assert g["summary-shift"] == "T = 128에서는 제한 자원이 이미 연산 성능으로 바뀌었다."
    assert [term for term in ("산술 강도", "Roofline", "메모리 한계", "연산 한계", "점유율") if "{term}`" + term + "`" not in md] == []
    assert g["shape"] == "4,096×4,096"


def test_precision_steps_on_the_H100(seed):
    got = summary.precision_steps(seed.preset("H100_SXM"))
    assert (got["p-fp32"], got["p-tf32"], got["p-fp16"], got["p-fp8"]) == ("66.9", "494.7", "989.4", "1,979")
    assert got["tensor-steps"] == "2.0배씩"
    assert got["tf32-step"] == "7.4배로 연산 유닛 자체가 바뀌는 만큼 두 배를 훌쩍 넘는다"
    # ERRATA: 1,979 is both the FP8 dense peak and the FP16 2:4-sparse peak; the note must not call the dense peak unusable
    assert got["fp8-note"].startswith("FP8의 dense 최대 성능 1,979는 FP16의 2:4 구조적 희소 최대 성능과 숫자만 같다.")
    assert "dense GEMM이 FP8로 닿을 수 있는 상한" in got["fp8-note"] and "쓸 수 없다" not in got["fp8-note"]


def test_precision_step_words():
    assert summary._step([2, 2]) == "2.0배씩" and summary._step([2, Fraction(21, 10)]) == "각각 2.0배, 2.1배"
    assert [summary._beyond(r) for r in (Fraction(74, 10), Fraction(25, 10), 2, Fraction(3, 2))] == [
        "두 배를 훌쩍 넘는다", "두 배를 넘는다", "두 배다", "두 배에 못 미친다"]


def test_summary_limit_and_shift(seed, seed_cases):
    assert summary.limit_cell(seed_cases[-1], 20) == "연산 성능 (I* = 20 초과)"
    assert summary.limit_cell(seed_cases[0], 20) == "HBM 대역폭"
    assert summary.shift(seed_cases, why.sources(seed.week4)) == "T = 128에서는 제한 자원이 이미 연산 성능으로 바뀌었다."
    fast = problems.week4_cases(seed.week4, rl.Roofline(10**18, 10**12))
    assert summary.shift(fast, why.sources(seed.week4)).startswith("비교한 경우는 모두 아직 메모리 한계")
    assert "제한적으로 쓴다" in summary.remedies_table(seed.preset("H100_SXM")).data


def test_every_gpu_with_per_sm_limits_can_be_the_summarys(course):
    """Any preset with per-SM limits (one added to course.toml needs nothing else) as the occupancy example's `gpu`
    and first of `gpus`: the summary speaks of it, and its precision steps are on the first GPU of `gpus` that has a
    dense peak for every step."""
    w4 = course.week4
    for key in [k for k, p in course.presets.items() if p.sm]:
        name = course.presets[key].name.split(" (")[0]
        assert name in summary.summary_section(w4.with_(gpu=key))["summary-occupancy"], key
        first = w4.with_(gpus=[key, *[g for g in w4.gpus if g != key]])
        machine = summary.precision_gpu(first)
        at = first.gpus.index(machine.key)
        assert all(d in machine.peak for d in summary.PRECISIONS), key
        assert all(any(d not in course.presets[g].peak for d in summary.PRECISIONS) for g in first.gpus[:at]), key
        assert summary.precision_section(first)["gpu-name"] == machine.name


def test_precision_steps_need_a_gpu_with_every_step(seed):
    """The seed's T4 has no TF32 or FP8 and its A100 no FP8: on those alone the summary names `gpus` and what would do."""
    assert summary.precision_gpu(seed.week4.with_(gpus=["T4", "H100_SXM"])).key == "H100_SXM"
    with pytest.raises(ParameterError, match=r"^gpus: .*FP32, TF32, FP16, FP8.*받은 값: \['T4', 'A100_SXM'\].*H100_SXM"):
        summary.precision_gpu(seed.week4.with_(gpus=["T4", "A100_SXM"]))
