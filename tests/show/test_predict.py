"""Predict first (issue 39), the library side: every explorer state's predict part, for this term and the next.

- Each precomputed state's questions, answers, why sentences and mistakes are what the engine (the live mode's
  entry point) gives for the same values.
- The answers are the model's (computed here through kernels, Timing, buffers and occupancy) and the why sentences
  say what the model says (the limiting resource, the numbers they name).
- A mistake never gives the right answer; a guess equal to a mistake's value is named as it.
- The error of a guess (`error_text`) follows its rule: the factor with 3 significant digits, the signed percentage
  with 1 decimal (predict.js writes it the same way; tests/book/test_predict_browser.py compares the two).
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from coursebook.assets import explorer_data
from roofline import buffers, kernels, occupancy
from roofline.cost import Cost, Timing
from roofline.show import engine, fmt
from roofline.show import predict as pr
from roofline.show.pages import w4_2_roofline, w4_4_tile_size, w4_5_matmul, week3_vector_add

BOTH_TERMS = True    # every test that takes `course` runs for the live term and the next one (tests/conftest.py)


def states(e, index=0) -> dict:
    return explorer_data(e.html)[0]["parts"][index]["states"]


def by_id(part) -> dict:
    return {q["id"]: q for q in part["questions"]}


def check_common(part):
    if part is None:          # nothing to ask: every value of the state is on the page
        return
    for q in part["questions"]:
        right = q["answer"] if q["kind"] == "choice" else pr.exact(q["answer"])
        for m in q["mistakes"]:
            value = m["value"] if q["kind"] == "choice" else pr.exact(m["value"])
            assert value != right, (q["id"], m)
            if q["kind"] == "number":
                assert not pr.right(value, right), (q["id"], m)   # a guess near it counts as right
            if q["kind"] == "number":
                assert pr.named(value, q) is m or pr.exact(pr.named(value, q)["value"]) == value
        assert q["why"] and q["ask"]


def check_roofline_questions(part, cost, hw, dtype=""):
    t = Timing(cost, hw)
    q = by_id(part)
    assert q["bound"]["answer"] == ("memory" if t.memory_bound else "compute")
    assert ("메모리 대역폭이 제한한다" in q["bound"]["why"]) == (cost.I < hw.ridge)
    assert f"I* = P/BW = {fmt.number(hw.ridge, 3)} {fmt.unit('FLOPs/Byte', dtype)}" in q["bound"]["why"]   # OPs: INT
    if "t" not in q:          # the time that moved, asked where the other is the page's own (the week-3 note)
        (qid, value), = [(k, getattr(t, k)) for k in ("t_compute", "t_memory") if k in q]
        assert pr.exact(q[qid]["answer"]) == value
        check_common(part)
        return
    assert pr.exact(q["t"]["answer"]) == t.t_ideal
    assert f"F/P = {fmt.ms(t.t_compute, 6)} ms" in q["t"]["why"] and f"Q/BW = {fmt.ms(t.t_memory, 6)} ms" in q["t"]["why"]
    assert q["t"]["inputs"] and all(text.endswith(" ms") for text in q["t"]["inputs"])   # t_compute and t_memory
    shorter = {m["kind"]: pr.exact(m["value"]) for m in q["t"]["mistakes"]}
    if min(t.t_compute, t.t_memory) != t.t_ideal and not pr.right(min(t.t_compute, t.t_memory), t.t_ideal):
        assert any(k.split("+")[0] == "ideal-min" or "ideal-min" in k.split("+") for k in shorter)   # item 22
    if "I" in q:
        assert pr.exact(q["I"]["answer"]) == cost.I
        assert f"{fmt.integer(cost.F)} FLOPs / {fmt.integer(cost.Q)} Byte" in q["I"]["why"]
    kinds = {m["kind"]: pr.exact(m["value"]) for m in q["t"]["mistakes"] if m["kind"] != "ms-s"}
    if "c-write" in kinds:
        assert kinds["c-write"] == Timing(Cost(cost.F, cost.Q_read, 0), hw).t_ideal
    if "fma-one" in kinds:
        assert kinds["fma-one"] == Timing(Cost(cost.F // 2, cost.Q_read, cost.Q_write), hw).t_ideal
    check_common(part)


def test_roofline_states(course):
    w4 = course.week4
    for key, state in states(w4_2_roofline.roofline_explorer(w4)).items():
        hardware, dtype = key.split("|")
        assert "I" not in by_id(state["predict"])    # I does not depend on the machine: the page's table shows it
        live = engine.live_state("roofline", course, {"hardware": hardware, "dtype": dtype, "N": str(w4.N),
                                                      "tiles": str(list(w4.tiles))})
        assert state["predict"] == live["predict"], key
        s = course.dtypes[dtype]
        T = w4.tiles[len(w4.tiles) // 2]
        check_roofline_questions(state["predict"], kernels.matmul_tiled(w4.N, T, s, s), course.catalog.roofline(hardware, dtype),
                                 dtype)


def test_matmul_states(course):
    w4 = course.week4
    T0 = w4.tiles[1]
    for key, state in states(w4_5_matmul.matmul_explorer(w4, T0)).items():
        N, T = (int(v) for v in key.split("|"))
        if N == w4.N:
            live = engine.live_state("matmul", course, {"hardware": w4.hardware, "dtype": w4.dtype, "N": str(N),
                                                        "tiles": str(list(w4.tiles)), "T": str(T)})
            assert state["predict"] == live["predict"], key
        cost = kernels.matmul_tiled(N, T, w4.s, w4.s)
        check_roofline_questions(state["predict"], cost, w4.roofline)
        why = by_id(state["predict"])["I"]["why"]
        if T % 2 == 0 and N % (T // 2) == 0:   # the change from the tile half as wide
            half = kernels.matmul_tiled(N, T // 2, w4.s, w4.s)
            assert f"T = {T // 2}에서 T를 두 배로 하면 I는 {fmt.ratio(cost.I / half.I)}가 되고" in why
            assert f"{fmt.ms(Timing(half, w4.roofline).t_memory, 6)} ms에서 {fmt.ms(Timing(cost, w4.roofline).t_memory, 6)} ms로" in why


def test_vector_states(course):
    w3 = course.week3
    for key, state in states(week3_vector_add.vector_explorer(w3)).items():
        kP, kBW = (Fraction(v) for v in key.split("|"))
        live = engine.live_state("vector-add", course, {"hardware": w3.hardware, "dtype": w3.dtype, "L": str(w3.L),
                                                         "capacity": str(w3.capacity), "kP": str(kP), "kBW": str(kBW),
                                                         "kcap": "1"})
        assert state["predict"] == live["predict"], key
        hw = w3.roofline.with_(P=kP * w3.roofline.P, BW=kBW * w3.roofline.BW)
        check_roofline_questions(state["predict"], kernels.vector_add(w3.L, w3.s), hw)
        q = by_id(state["predict"])
        asked = "t" if kP != 1 and kBW != 1 or kP == kBW == 1 else "t_compute" if kP != 1 else "t_memory"
        assert asked in q, key                       # the other time is the page's own: the one that moved is asked
        why = q[asked]["why"]
        assert ("메모리 시간도 그대로다" in why) == (kBW == 1)
        if kBW != 1:
            assert f"메모리 시간은 {fmt.fraction(1 / kBW)}배" in why


def test_tile_states(course):
    w4 = course.week4
    T0 = w4_4_tile_size.tile_options(w4).Ts[-1]
    for key, state in states(w4_4_tile_size.tile_explorer(w4, T0), 1).items():
        T, copies, gpu = key.split("|")
        T, copies = int(T), int(copies)
        live = engine.live_state("tile-size", course, {"dtype": w4.dtype, "N": str(w4.N), "tiles": str(list(w4.tiles)),
                                                       "threads": str(w4.threads), "gpu": gpu,
                                                       "extra_registers": str(w4.extra_registers), "T": str(T),
                                                       "copies": str(copies)})
        assert state.get("predict") == live.get("predict"), key
        r = occupancy.tile_case(course.presets[gpu], T, w4.s, copies, w4.threads, w4.extra_registers).result
        if T in w4.tiles and (gpu in w4.gpus or r is None):   # every value of it is in the page's tables: none asked
            assert "predict" not in state and "predict" not in live, key
            continue
        q = by_id(state["predict"])
        smem = buffers.tile_buffers(T, T, T, w4.s, w4.s, copies).inputs
        if T in w4.tiles:
            assert "smem" not in q, key
            continue
        assert pr.exact(q["smem"]["answer"]) == smem and fmt.kib(smem) in q["smem"]["why"]
        kinds = {m["kind"]: pr.exact(m["value"]) for m in q["smem"]["mistakes"]}
        assert kinds["kb-kib"] == Fraction(smem * 1024, 1000)
        if r is None:
            assert set(q) == {"smem"}
        else:
            assert pr.exact(q["blocks"]["answer"]) == r.blocks
            for name, n in r.limits.items():
                assert f"{w4_4_tile_size.LIMIT_NAMES[name]} {w4_4_tile_size.limit_text(n)}" in q["blocks"]["why"]
            if r.binding:
                assert {q["binding"]["answer"], *q["binding"]["also"]} == set(r.binding)
        check_common(state["predict"])


def test_kernel_live_state(course):
    w4 = course.week4
    for kind, sizes in (("matmul", {"N": str(w4.N), "T": str(w4.tiles[0])}), ("vector_add", {"L": str(course.week3.L)}),
                        ("custom", {"F": "1000", "Q": "10"})):
        state = engine.live_state("kernel", course, {"hardware": w4.hardware, "dtype": w4.dtype, "kernel": kind,
                                                     "t_ms": "", **sizes})
        cost = w4_2_roofline.kernel_cost(kind, {k: int(v) for k, v in sizes.items()}, w4.s)
        check_roofline_questions(state["predict"], cost, w4.roofline)
        q = by_id(state["predict"])
        assert "I" not in q          # F and Q stay on the page: I = F/Q is not asked (content review 5, item 21)
        kinds = {k for m in q["t"]["mistakes"] for k in m["kind"].split("+")}
        fma = Timing(Cost(cost.F // 2, cost.Q_read, cost.Q_write), w4.roofline).t_ideal
        assert ("fma-one" in kinds) == (kind == "matmul" and not pr.right(fma, Timing(cost, w4.roofline).t_ideal))


def test_error_text_rule():
    a = Fraction(7, 3)
    assert pr.error_text(a, a) == "1.00배 (0.0%)"
    assert pr.error_text(2 * a, a) == "2.00배 (+100.0%)"
    assert pr.error_text(a / 4, a) == "0.250배 (−75.0%)"
    assert pr.error_text(1000 * a, a) == "1,000배 (+99900.0%)"
    assert pr.error_text(a * Fraction(9995, 10000), a) == "1.00배 (−0.1%)"   # 0.9995 → 1.00 (half away from zero)
    assert pr.error_text(0, a) == "0배 (−100.0%)"
    assert pr.error_text(-a, a) == "부호가 반대 (−200.0%)"
    assert pr.right(a * Fraction(101, 100), a) and not pr.right(a * Fraction(102, 100), a)


@pytest.mark.parametrize("kind", ["c-write", "kb-kib"])
def test_a_mistake_is_named_near_its_value(kind):
    from roofline.show.mistakes import Mistake
    q = pr.number("x", "x?", 100, "Byte", "100 Byte", "…", [Mistake(kind, 80, "…")])
    assert pr.named(Fraction(80), q)["kind"] == kind
    assert pr.named(Fraction(81), q)["kind"] == kind                 # within 2 %
    assert pr.named(Fraction(90), q) is None
