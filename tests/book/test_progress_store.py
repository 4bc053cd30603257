"""The reader's own record (_static/core.js) in headless Chromium: what the exercises, the explorers' predict mode
and the progress page write into it, kept in this browser only.

- It is on every page with an exercise or an explorer, and on no other page but the progress page
  (tests/book/test_html.py, with every page's other scripts).
- A mode, a student identifier, an answer and a prediction survive a reload; another tab sees the change.
- The CSV names every entry, quotes what needs quoting and makes a leading "=" inert (a spreadsheet formula).
- Reset empties it; a browser that refuses storage still works for the visit.
- Nothing is requested outside the site.
"""
from __future__ import annotations

import csv
import io

import pytest

from browser_helpers import label_page, local_context

pytestmark = pytest.mark.heavy(10)


def quiz_page() -> str:
    return label_page("ch-intensity") + ".html"


def test_store_keeps_what_the_reader_did(site_url, browser):
    blocked: list[str] = []
    ctx = local_context(browser, site_url, blocked)
    page = ctx.new_page()
    page.goto(f"{site_url}/{quiz_page()}")
    page.wait_for_function("() => window.rlProgress")
    page.evaluate("""() => {
        const s = window.rlProgress;
        s.reset();
        s.setStudent("  2026-12345 ");
        s.setMode("w4_2_roofline", "predict", true);
        s.answer({page: "w4_1_intensity", exercise: "q1", typed: "=1+1", right: false, reason: "wrong"});
        s.answer({page: "w4_1_intensity", exercise: "q1", typed: "1,024", right: true, reason: "right"});
        s.predict({page: "w4_2_roofline", explorer: "roofline", state: "T=32", quantity: "I_T", guess: "10",
                   model: "15.876", error: "0.63배 (−37.0%)", mistake: ""});
    }""")
    page.reload()
    page.wait_for_function("() => window.rlProgress")
    kept = page.evaluate("""() => { const s = window.rlProgress;
        return {student: s.student(), mode: s.mode("w4_2_roofline", "predict"), other: s.mode("w4_3_tiling", "predict"),
                answers: s.answers("w4_1_intensity").length, none: s.answers("w4_5_matmul").length,
                predictions: s.predictions().map((p) => [p.student, p.guess, p.model]), csv: s.csv()}; }""")
    assert kept["student"] == "2026-12345"
    assert kept["mode"] is True and kept["other"] is None
    assert kept["answers"] == 2 and kept["none"] == 0
    assert kept["predictions"] == [["2026-12345", "10", "15.876"]]
    rows = list(csv.reader(io.StringIO(kept["csv"].lstrip("\ufeff"))))
    assert rows[0][:5] == ["종류", "시각", "페이지", "문항", "학번"]
    assert [r[0] for r in rows[1:]] == ["답", "답", "예측"]
    assert rows[1][5] == "'=1+1" and rows[2][5] == "1,024" and rows[2][6] == "예"
    assert rows[3][9] == "0.63배 (−37.0%)"

    other = ctx.new_page()                       # another tab hears the change
    other.goto(f"{site_url}/{quiz_page()}")
    other.wait_for_function("() => window.rlProgress")
    other.evaluate("() => { window.heard = []; window.rlProgress.listen((kind) => heard.push(kind)); }")
    page.evaluate("() => window.rlProgress.reset()")
    other.wait_for_function("() => window.heard.includes('other-tab')")
    assert other.evaluate("() => [window.rlProgress.answers().length, window.rlProgress.student()]") == [0, ""]
    assert blocked == []
    ctx.close()


def test_store_works_when_storage_is_refused(site_url, browser):
    blocked: list[str] = []
    ctx = local_context(browser, site_url, blocked)
    ctx.add_init_script("""Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('no', 'SecurityError'); }});""")
    page = ctx.new_page()
    errors: list[str] = []
    # the theme's own script reads the colour mode from storage and throws here: only this store's errors count
    page.on("pageerror", lambda e: errors.append(e.stack or str(e)) if "core.js" in (e.stack or "") else None)
    page.goto(f"{site_url}/{quiz_page()}")
    page.wait_for_function("() => window.rlProgress")
    got = page.evaluate("""() => { const s = window.rlProgress; s.setStudent("a"); s.answer({page: "p", exercise: "e",
        typed: "1", right: true, reason: "right"}); return [s.student(), s.answers().length]; }""")
    assert got == ["a", 1] and errors == [] and blocked == []
    ctx.close()

