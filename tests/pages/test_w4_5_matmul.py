"""⑤ the worked matmul (chapters/w4_5_matmul.md, roofline.show.pages.w4_5_matmul): the page's stories, tables and
equations, its glued values for the seed and the live parameters, its wording, its two figures, the plain-Python hand
calculation against the glued tables, and the explorer's states in Python.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
from fractions import Fraction

import pytest

import roofline as rl
from conftest import CHAPTERS, SEED_COST, SEED_TIME, live_glued, seed_glued, seed_page
from roofline import kernels, problems
from roofline.cost import Timing
from roofline.show import engine, fmt, ko, why
from roofline.show.figures import FIGURES
from roofline.show.pages import w4_5_matmul as matmul


def crossing_lines(ax) -> list[float]:
    return [line.get_xdata()[0] for line in ax.get_lines()
            if len(line.get_xdata()) == 2 and line.get_xdata()[0] == line.get_xdata()[1]]


def test_sweep_figure_marks_the_seeds_crossing(seed, recwarn):
    fig = FIGURES["week4-tile-sweep"](seed.week4)
    left, right = fig.axes[:2]
    assert left.get_xscale() == right.get_xscale() == left.get_yscale() == "log"
    T_star = float(Fraction(80 * 4096, 4096 - 40))
    for ax in (left, right):
        assert crossing_lines(ax) == [T_star]
    labels = [t.get_text() for t in left.texts]
    assert any("80.789" in text for text in labels)
    fig.savefig(__import__("io").BytesIO(), format="png")
    assert not [w for w in recwarn if "Glyph" in str(w.message)]
    assert "4,096×4,096" in fig._suptitle.get_text()


def test_sweep_figure_marks_the_live_crossing(course):
    """The vertical line stands at T* = the library's threshold for the live N and machine, if a tile reaches it."""
    w4 = course.week4
    fig = FIGURES["week4-tile-sweep"](w4)
    T_star = kernels.tile_threshold(w4.N, w4.roofline.ridge, w4.s, w4.s)
    expected = [float(T_star)] if T_star is not None and T_star <= w4.N else []
    for ax in fig.axes[:2]:
        assert crossing_lines(ax) == expected
    assert f"{w4.N:,}×{w4.N:,}" in fig._suptitle.get_text()


def test_matmul_page_values():
    g = seed_page("w4_5_matmul")
    for row in SEED_COST:
        assert "| " + " | ".join(row) + " |" in g["table-cost"]
    for row in SEED_TIME:
        assert "| " + " | ".join(row) + " |" in g["table-time"]
    assert "196,608 (192 KiB)" in g["table-buffers"] and "| 재사용 없음 | 원소 하나, 4 B | 원소 하나, 4 B | 8 | 4 | 12 |" in g["table-buffers"]
    assert "137{,}438{,}953{,}472" in g["common"] and "0.0068719476736" in g["common"] and "6.8719476736" in g["common"]
    assert "549{,}822{,}922{,}752" in g["no-reuse"] and "0.249969486" in g["no-reuse"] and r"\frac{N}{4N+2}" in g["no-reuse"]
    assert "8{,}657{,}043{,}456" in g["mid-Q"] and (g["T-mid"], g["mid-tiles"], g["mid-per-step"]) == ("64", "4,096", "32,768")
    assert r"\frac{80N}{N - 40}" in g["threshold-math"] and "80.789" in g["threshold-math"]
    assert g["threshold-tiles"].endswith("128뿐이다.")
    assert g["gain-story"] == "T를 64에서 128로 키우면 이상적 시간은 8.657 ms에서 6.872 ms로 약 1.785 ms(20.6%) 줄어든다."
    assert (g["store-bytes"], g["store-mib"], g["I-ideal-formula"], g["I-ideal"]) == ("201,326,592", "192 MiB", "N/6", "682.667")
    assert (g["ridge-again"], g["T-mid-example"]) == ("20을", "T = 64면")
    assert (g["T-over-s-compared"], g["T-over-s-approx"], g["acc-dtype"]) == ("T/4와", "T/4는", "FP32로")
    assert (g["q-sq-shape"], g["q-rect-shape"], g["q-read-ratio"], g["q-rect-in"]) == ("64×64를", "128×32로", "1.25배", "40 KiB로")
    assert "약 137.439 GFLOPs" in g["headline"] and "약 549.823 GB에서 T = 128의 4.362 GB로" in g["headline"]


def test_matmul_page_follows_the_live_parameters(course, cases):
    """Run with the live parameters, ⑤'s cost table has the library's row for every live case."""
    g = {key: next(b[m] for m in ("text/markdown", "text/latex", "text/plain") if m in b).replace("\u00a0", " ")
         for key, b in live_glued("w4_5_matmul").items()}
    for c in cases:
        row = (ko.case(c), fmt.integer(c.cost.F), fmt.integer(c.cost.Q_read), fmt.integer(c.cost.Q_write),
               fmt.integer(c.cost.Q), fmt.giga(c.cost.Q), fmt.decimal(c.cost.I, 6))
        assert "| " + " | ".join(row) + " |" in g["table-cost"], row
    assert g["shape"] == f"{course.week4.N:,}×{course.week4.N:,}"
    assert g["tile-list"] == "·".join(str(T) for T in course.week4.tiles)


def test_matmul_wording():
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    g = seed_page("w4_5_matmul")
    assert "FLOPs 둘로" not in md and "{glue:text}`fma-flops` {glue:text}`unit-work`로" in md and g["fma-flops"] == "2"
    assert g["unit-work"] == "FLOPs"   # (seed: FP32; OPs for an integer dtype)
    assert "threshold-text" not in md and "≈ 80.789이다" not in g["threshold-tiles"]
    assert g["regimes"] == "메모리 한계인 경우는 재사용 없음·T = 32·T = 64이고, 연산 한계인 경우는 T = 128이다"
    assert r"\mathbb{R}^{4096 \times 4096}" in g["problem"]
    for key in ("common", "no-reuse", "mid-Q", "tiled-formula", "threshold-math"):   # broken over lines for phones
        assert r"\begin{aligned}" in g[key] and g[key].count(r"\\") >= 2, key
    for term in ("산술 강도", "Roofline", "메모리 한계", "연산 한계", "점유율"):     # the course's terms, marked
        assert "{term}`" + term + "`" in md, term
    assert g["shape"] == "4,096×4,096"


def test_matmul_times_figure(seed):
    fig = FIGURES["week4-matmul-times"](seed.week4)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    widths = [round(bar.get_width(), 6) for bar in ax.patches]
    assert widths == [549.822923, 17.246978, 8.657043, 4.362076]       # Q/BW in ms, one bar per case
    assert [t.get_text() for t in ax.get_yticklabels()] == ["재사용 없음", "T = 32", "T = 64", "T = 128"]
    texts = [t.get_text() for t in ax.texts]
    assert texts[:4] == ["549.823 ms", "17.247 ms", "8.657 ms", "6.872 ms"]  # t_ideal = max(F/P, Q/BW)
    assert any("6.872" in t and "F/P" in t for t in texts)
    colours = [bar.get_facecolor() for bar in ax.patches]
    from matplotlib.colors import to_rgba

    from roofline.show import style
    assert colours == [to_rgba(style.case_color(i)) for i in range(4)]


def test_sweep_figure_uses_the_case_colours(course):
    from matplotlib.colors import to_hex

    from roofline.show import style
    fig = FIGURES["week4-tile-sweep"](course.week4)
    top = fig.axes[0]
    marked = {int(line.get_xdata()[0]): to_hex(line.get_color()) for line in top.get_lines()
              if len(line.get_xdata()) == 1}
    assert marked == {T: style.case_color(k) for k, T in enumerate(course.week4.tiles, start=1)}


def test_matmul_times_figure_shows_the_live_cases(course, cases):
    """One bar per live case, Q/BW long (ms), labelled with the case and with t_ideal at its end."""
    ax = FIGURES["week4-matmul-times"](course.week4).axes[0]
    assert [bar.get_width() for bar in ax.patches] == pytest.approx([float(c.timing.t_memory) * 1000 for c in cases])
    assert [t.get_text() for t in ax.get_yticklabels()] == [ko.case(c) for c in cases]
    assert [t.get_text() for t in ax.texts][:len(cases)] == [f"{fmt.ms(c.timing.t_ideal, 3)} ms" for c in cases]


def test_matmul_times_figure_holds_its_bars_on_every_machine(course):
    """Of every preset in each of its dtypes, the two whose times are the shortest and the longest: each bar and the
    compute line fall inside the time axis (a fast GPU's times are far under 1 ms), laid out without a warning."""
    import warnings

    def times(w4) -> list[float]:
        cases = problems.week4_cases(w4)
        return [float(c.timing.t_memory) for c in cases] + [float(cases[0].timing.t_compute)]

    runs = [course.week4.with_(hardware=key, dtype=dtype) for key, preset in course.presets.items()
            for dtype in preset.peak]
    for w4 in (min(runs, key=lambda w: min(times(w))), max(runs, key=lambda w: max(times(w)))):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fig = FIGURES["week4-matmul-times"](w4)
            fig.draw_without_rendering()
        ax = fig.axes[0]
        low, high = ax.get_xlim()
        drawn = [bar.get_width() for bar in ax.patches] + crossing_lines(ax)
        assert all(low < x < high for x in drawn), (w4.hardware, w4.dtype, (low, high), drawn)


def test_matmul_headline_keeps_the_compute_limit():
    """Seed ⑤: "…6.872 ms로 줄지만, 128 타일에서는 연산 성능이 한계다" — the top answer says where time stops following Q."""
    g = seed_page("w4_5_matmul")
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    assert md.split("\n```", 1)[0].rstrip().endswith("**한 줄 답.** {glue:text}`headline`")
    assert g["headline"].endswith("6.872 ms로 줄지만, T = 128에서는 연산 성능이 한계다.")
    assert "재사용 없음의 약 549.823 GB" in g["headline"]


def text(bundle: dict) -> str:
    return next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle).replace("\u00a0", " ")


def test_headline_keeps_the_compute_caveat(seed, seed_cases):
    """The seed's one-line answer ends "…6.872 ms로 줄지만, 128 타일에서는 연산 성능이 한계다"."""
    assert matmul.headline(seed_cases, why.sources(seed.week4)) == (
        "계산량은 어느 방식이나 약 137.439 GFLOPs로 같다. HBM 이동량은 재사용 없음의 약 549.823 GB에서 T = 128의 "
        "4.362 GB로 줄고, 이상적 시간도 549.823 ms에서 6.872 ms로 줄지만, T = 128에서는 연산 성능이 한계다.")


def test_headline_follows_the_machine(seed):
    w4 = seed.week4
    src = why.sources(w4)
    fast = problems.week4_cases(w4, rl.Roofline(10**18, 10**12))        # ridge 10⁶: every case on the slope
    # (a machine that is no preset has DRAM, the generic word; a preset's is its own: GDDR6)
    assert matmul.headline(fast, src).endswith("줄며, 비교한 경우는 모두 아직 DRAM 대역폭이 한계다.")
    gddr = problems.week4_cases(w4, rl.Roofline(10**18, 10**12, memory="GDDR6"))
    assert matmul.headline(gddr, src).startswith("계산량은 어느 방식이나 약 137.439 GFLOPs로 같다. GDDR6 이동량은")
    assert matmul.headline(gddr, src).endswith("줄며, 비교한 경우는 모두 아직 GDDR6 대역폭이 한계다.")
    slow = problems.week4_cases(w4, rl.Roofline(10**12, 10**12))        # ridge 1: every tile on the roof
    assert matmul.headline(slow, src).endswith("줄지만, T = 32·T = 64·T = 128에서는 연산 성능이 한계다.")
    assert matmul.regimes(slow, src) == "메모리 한계인 경우는 재사용 없음이고, 연산 한계인 경우는 T = 32·T = 64·T = 128이다"
    assert matmul.regimes(fast, src) == "메모리 한계인 경우는 재사용 없음·T = 32·T = 64·T = 128이다"
    # each tile side of the sentence is a part with its record: T from the tiles
    parts = matmul.regimes(fast, src).why["parts"]
    assert [p["shown"] for p in parts] == ["32", "64", "128"]
    assert all(p["records"][p["of"]]["origin"] == "toml:week4.tiles" for p in why.parts(matmul.regimes(fast, src).why))


def test_regimes_on_the_live_problem(course):
    cases = problems.week4_cases(course.week4)
    words = matmul.regimes(cases, why.sources(course.week4))
    for c in cases:
        group = "연산 한계인 경우는" if c.timing.t_compute >= c.timing.t_memory else "메모리 한계인 경우는"
        assert ko.case(c) in words.split(group, 1)[1].split("이고,")[0], (c, words)


def test_gain_story(seed, seed_cases):
    src = why.sources(seed.week4)
    assert matmul.gain_story(seed_cases[2], seed_cases[3], src) == (
        "T를 64에서 128로 키우면 이상적 시간은 8.657 ms에서 6.872 ms로 약 1.785 ms(20.6%) 줄어든다.")
    slow = problems.week4_cases(seed.week4, rl.Roofline(10**12, 10**12))
    assert matmul.gain_story(slow[2], slow[3], src) == (
        "T = 64와 T = 128의 이상적 시간은 137.439 ms로 같다. 두 경우 모두 이미 연산 한계이기 때문이다.")
    assert slow[2].timing.t_ideal == slow[3].timing.t_ideal == Fraction(2 * 4096**3, 10**12)


def test_last_story_and_verdicts(seed, seed_cases):
    src = why.sources(seed.week4)
    assert matmul.last_story(seed_cases[-1], src).startswith("T = 128에서 메모리는 약 4.362 ms 안에")
    assert matmul.no_reuse_verdict(seed_cases[0].timing).endswith("이 경우는 메모리 한계다")
    fast = problems.week4_cases(seed.week4, rl.Roofline(10**18, 10**12))
    assert matmul.last_story(fast[-1], src).startswith("T = 128에서도 메모리 시간 약 4.362 ms가")
    slow = problems.week4_cases(seed.week4, rl.Roofline(10**9, 10**12))   # ridge 1/1000: even no reuse on the roof
    assert matmul.no_reuse_verdict(slow[0].timing).endswith("이 경우는 연산 한계다")


def test_bw_check_and_about_ms():
    src = {"BW": "toml:presets.course.BW"}
    assert matmul.bw_check(rl.Roofline(20 * 10**12, 10**12), src).startswith("BW = 1 TB/s이므로 Q를 GB로 적은 숫자가 곧")
    assert matmul.bw_check(rl.Roofline(20 * 10**12, 2 * 10**12), src) == (
        "BW = 2 TB/s이므로 메모리 시간(ms)은 Q(GB)를 2로 나눈 값이다.")
    assert matmul.about_ms(Fraction("0.549822922752")) == "549.822922752"
    assert matmul.about_ms(Fraction(1, 3)) == "약 333.333333"


def test_threshold(seed):
    math, words = matmul.threshold(seed.week4)
    assert r"\frac{80N}{N - 40}" in math.data and "80.789" in math.data
    assert words == "비교한 타일 32, 64, 128 가운데 이를 넘는 것은 128뿐이다."


def test_threshold_when_no_tile_reaches(seed):
    """2N ≤ s·I*: the denominator is not positive, no tile reaches the ridge."""
    w4 = seed.week4.with_(N=8, tiles=[2, 4], hardware="H100_SXM")
    ridge = w4.roofline.ridge
    assert kernels.tile_threshold(8, ridge, 4, 4) is None        # H100's FP32 ridge ≈ 20 > 2·8/4
    _, words = matmul.threshold(w4)
    assert words.startswith("분모가 0 이하이므로 어떤 T도") and words.endswith("비교한 타일은 모두 메모리 한계다.")


def test_tables_and_equations(seed, seed_cases):
    w4 = seed.week4
    assert "| 크기 | 4,096 (M = N = K," in matmul.assumptions(w4).data
    assert "20 × 10¹² FLOPs/s" in matmul.assumptions(w4).data
    assert "| T = 64 | 137,438,953,472 | 8,589,934,592 | 67,108,864 | 8,657,043,456 | 8.657043 | 15.875969 |" in \
        matmul.cost_table(seed_cases).data.replace("\u00a0", " ")
    assert "| T = 128 | 31.507692 | 20.000000 | 6.871948 | 4.362076 | 6.871948 | 연산 성능 | 80.01배 |" in \
        matmul.time_table(seed_cases).data.replace("\u00a0", " ")
    assert matmul.tile_walk(4096, 64, 4) == (4096, 64, 32_768)
    tiles_, steps, per_step = matmul.tile_walk(4096, 64, 4)
    assert tiles_ * steps * per_step + 4 * 4096**2 == kernels.matmul_tiled(4096, 64).Q
    assert "8{,}657{,}043{,}456" in matmul.tile_walk_math(4096, 64, 4).data
    assert r"\frac{NT}{4N+2T}" in matmul.tiled_formula(4).data
    assert r"\frac{N}{4N+2}" in matmul.no_reuse(w4, seed_cases[0]).data
    assert "0.0068719476736" in matmul.common(w4, seed_cases[0]).data
    buf = matmul.buffer_table(4, seed_cases).data.replace("\u00a0", " ")
    assert "| 재사용 없음 | 원소 하나, 4 B | 원소 하나, 4 B | 8 | 4 | 12 |" in buf and "196,608 (192 KiB)" in buf


def hand_cell() -> str:
    """The visible plain-Python cell of ⑤ (no tags) that recounts the tables."""
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    cells = re.findall(r"```\{code-cell\} ipython3\n(.*?)```", md, re.S)
    hand = [c for c in cells if c.startswith("# 손계산")]
    assert len(hand) == 1, "⑤ has one visible hand-calculation cell"
    return hand[0]


def run_hand_cell(w4) -> dict[int, tuple[str, str, str, str]]:
    """T → (Q_T, I_T, ideal ms, limit) as the cell prints them, run on the parameter cell's names."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(hand_cell(), {"N": w4.N, "s": w4.s, "hw": w4.roofline, "tiles": list(w4.tiles)})
    rows = {}
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 * (1 + len(w4.tiles)), lines
    for first, second in zip(lines[::2], lines[1::2]):
        m = re.fullmatch(r"T = (\d+): Q_T = ([\d,]+) Byte, I_T = ([\d.]+) FLOPs/Byte", first)
        n = re.fullmatch(r" +이상적 시간 = ([\d.]+) ms \((메모리 한계|연산 한계)\)", second)
        assert m and n, (first, second)
        rows[int(m[1])] = (m[2], m[3], n[1], n[2])
    return rows


def test_hand_cell_is_plain_visible_python():
    src = hand_cell()
    assert "import" not in src and "roofline" not in src and "glue" not in src
    for name in ("F = 2 * N**3", "Q_T =", "I_T = F / Q_T", "max(F / P, Q_T / BW)"):
        assert name in src, name
    for start in ("P =", "BW =", "F =", "for T", "    Q_T =", "    I_T =", "    t ="):    # each with a Korean comment
        line = next(line for line in src.splitlines() if line.startswith(start))
        assert re.search(r"#.*[가-힣]", line), line


@pytest.mark.parametrize("glued, w4", [(seed_glued, "seed"), (live_glued, "course")])
def test_hand_cell_agrees_with_the_glued_tables(glued, w4, request):
    w4 = request.getfixturevalue(w4).week4
    g = {k: text(b) for k, b in glued("w4_5_matmul").items()}
    rows = run_hand_cell(w4)
    assert sorted(rows) == [1, *sorted(w4.tiles)]
    cost = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ") for line in g["table-cost"].splitlines()[2:]}
    time = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ") for line in g["table-time"].splitlines()[2:]}
    for T, (Q, I, t, limit) in rows.items():
        label = "재사용 없음" if T == 1 else f"T = {T}"
        assert (Q, I) == (cost[label][4], cost[label][6]), label       # 총 Q (Byte), I
        assert t == time[label][5], label                              # 이상적 시간 (ms)
        assert limit == ("메모리 한계" if time[label][6] == "HBM 대역폭" else "연산 한계"), label


def live(page, **values):
    return json.loads(engine.live(page, json.dumps({k: str(v) for k, v in values.items()})))


def test_matmul_state_is_the_model(course):
    out = live("matmul", hardware="course", dtype="FP32", N=3000, tiles=[40, 75], T=75)["state"]
    hw, s = course.catalog.roofline("course", "FP32"), 4
    base, chosen = Timing(kernels.matmul_no_reuse(3000, s, s), hw), Timing(kernels.matmul_tiled(3000, 75, s, s), hw)
    f = out["fields"]
    assert [f[f"r1-{j}"] for j in (1, 2, 3, 7)] == [fmt.integer(chosen.cost.F), fmt.integer(chosen.cost.Q),
                                                     fmt.decimal(chosen.cost.I, 6), fmt.ms(chosen.t_ideal, 6)]
    assert f["r1-9"] == fmt.ratio(base.t_ideal / chosen.t_ideal)
    assert f["r0-7"] == fmt.ms(base.t_ideal, 6)
    # the curve runs over the powers of two dividing 3000 (8) and the tiles
    assert out["plots"]["intensity"]["x"] == [8.0, 40.0, 75.0]
