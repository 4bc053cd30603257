"""The week-4 guide (chapters/week4_guide.md, roofline.show.pages.week4_guide): its links to every chapter, its glued
values for the seed and the live parameters, its worksheet, its sentences for other machines.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import roofline as rl
from conftest import CHAPTERS, live_glued, seed_glued
from roofline.show import fmt, ko, why
from roofline.show.figures import FIGURES
from roofline.show.pages import week4_guide

pytestmark = pytest.mark.heavy(5)   # rough seconds, for the order of the run (tests/conftest.py)
BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)


def test_guide_links_every_chapter():
    md = (CHAPTERS / "week4_guide.md").read_text(encoding="utf-8")
    for label in ("ch-intensity", "ch-roofline", "ch-tiling", "ch-tile-size", "ch-matmul"):
        assert f"<{label}>`" in md, label


def shown(glued: dict[str, dict]) -> dict[str, str]:
    """name → what the page shows: the table (Markdown), the equation (LaTeX) or the text."""
    return {name: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle)
            for name, bundle in glued.items()}


def test_guide_values_for_the_seed():
    glued = shown(seed_glued("week4_guide"))
    assert glued["ridge"] == "20"
    assert glued["reach"] == "T = 128만 연산 상한에 닿는다"
    assert glued["tiles-compared"] == "32·64·128로"
    assert (glued["step-before"], glued["step-after"], glued["step-Q"], glued["step-t"]) == ("T = 64", "T = 128로", "0.50배", "0.79배")
    assert "| 분기점 I* = P/BW | 20 FLOPs/Byte |" in glued["problem-table"]
    assert "출처" not in glued["problem-table"]          # the hypothetical machine is the course's own
    assert glued["tiles"] == "32·64·128"
    assert glued["shape"] == "4,096×4,096"
    assert (glued["small-shape"], glued["small-tile"]) == ("4×4", "2×2")
    assert (glued["T-max"], glued["T-max-outputs"]) == ("128×128", "16,384")


def test_guide_follows_the_live_parameters(course):
    """Run with the live parameters, the guide states the live problem and draws the library's figure of it."""
    from roofline.show.glue import figure_digest

    w4 = course.week4
    glued = shown(live_glued("week4_guide"))
    assert glued["shape"] == f"{w4.N:,}×{w4.N:,}"
    assert glued["tiles"] == "·".join(str(T) for T in w4.tiles)
    assert glued["T-max"] == f"{max(w4.tiles)}×{max(w4.tiles)}"
    assert glued["ridge"] == fmt.number(w4.roofline.ridge, 3)
    assert figure_digest(FIGURES["week4-roofline"](w4)) in glued["roofline-figure"]


def test_reach_and_points_for_other_machines(course, seed):
    """On a real GPU the guide cites the maker's page; the sentences follow whichever cases reach the ceiling."""
    from roofline.show.pages import w4_2_roofline as bounds
    from roofline.show.pages import week4_guide as guide

    w4 = course.week4.with_(hardware="H100_SXM", dtype="FP32")
    cases = rl.problems.week4_cases(w4)
    assert f"({w4.preset.source})" in guide.problem_table(w4)["problem-table"].data
    top = [c for c in cases if c.T is not None and not c.timing.memory_bound]
    reach = guide.reach(cases, why.sources(w4))["reach"]
    tiled = [c for c in cases if c.T is not None]
    if not top:
        assert reach == "어느 타일도 연산 상한에 닿지 못한다"
    elif len(top) == len(tiled):
        assert reach == "모든 타일이 연산 상한에 닿는다"
    else:
        assert all(ko.case(c) in reach for c in top) and not any(ko.case(c) in reach for c in tiled if c not in top)
    seed_cases = rl.problems.week4_cases(seed.week4)
    seed_src = why.sources(seed.week4)
    assert guide.reach(seed_cases[:3], seed_src)["reach"] == "어느 타일도 연산 상한에 닿지 못한다"   # only T = 32, 64
    assert guide.reach(seed_cases[2:], seed_src)["reach"] == "T = 128만 연산 상한에 닿는다"
    sentence = bounds.points(cases, w4.roofline, {**why.sources(w4), "len(tiles)": w4.origin("tiles")})["points"]
    for c in cases:
        assert ko.case(c) in sentence


def test_the_worksheet_has_every_quantity_of_the_shared_problem_for_every_case(course):
    w4 = course.week4
    sheet = week4_guide.exercises(w4)
    N, s, hw = w4.N, w4.s, w4.roofline
    cases = [None, *w4.tiles]
    assert len(sheet.questions) == 9 * len(cases)
    for T in cases:
        name = "없음" if T is None else str(T)
        Q = 2 * s * N**3 // (1 if T is None else T) + s * N**2
        F = 2 * N**3
        want = {"F": F, "Q": Q, "I": Fraction(F, Q), "R_roof": min(hw.P, hw.BW * Fraction(F, Q)),
                "t_compute": F / hw.P, "t_memory": Q / hw.BW, "t_ideal": max(F / hw.P, Q / hw.BW),
                "inputs": 2 * s * (1 if T is None else T * T), "acc": s * (1 if T is None else T * T)}
        for row, value in want.items():
            assert sheet.question(f"{row}-{name}").value == value, (row, T)


def test_the_guide_shows_its_roofline_figure_only_after_the_worksheet_and_folded():
    """Figure 1's legend gives every case's I and R_roof: it sits below the worksheet, inside a fold."""
    from browser_helpers import html_dir, label_page, page_file

    page = (html_dir() / page_file(label_page("ch-guide"))).read_text(encoding="utf-8")
    sheet, figure = page.index('data-rl-quiz="guide"'), page.index('id="fig-guide-roofline"')
    assert sheet < figure
    opened = page.rfind('class="dropdown admonition', 0, figure)
    assert opened > sheet and "계산표를 채운 뒤" in page[opened:figure]
