"""The exercises in headless Chromium, through the page's fields (typed, Enter pressed; the answer button
clicked): for every worksheet cell of the week-4 guide and every exercise of ①–⑤ and the week-3 note, the
library's value is right; rounded to DIGITS significant digits it is right; to fewer it is right only after the
reader chooses fewer digits; 1 % off is wrong with the formula as hint; a value in the wrong unit gets the unit
message; the answer is absent until asked. Dark mode and 390 px. (The judge's response time is a figure of
`make bench`, not a test.)
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from browser_helpers import label_page, offline, page_file
from roofline.show import exercises
from test_exercises import CONFUSED, PAGES, sig

MEASURED: dict = {}


# ---------------------------------------------------------------- in the browser

@pytest.fixture(scope="module")
def site(site_url, browser):
    """The session's server and Chromium (tests/browser_helpers.py)."""
    return site_url, browser


FIELD = """(box) => ({out: box.querySelector('output').textContent, text: box.innerText})"""


def open_page(browser, base, label, **context):
    ctx = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **context})
    blocked: list[str] = []
    offline(ctx, base, blocked)
    ctx.route("**/_static/mathjax/**", lambda route: route.fulfill(body="", content_type="text/javascript"))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(base + page_file(label_page(label)))
    page.wait_for_selector(".rl-quiz.rl-live")
    return ctx, page, errors, blocked


def try_answer(box, typed: str) -> str:
    field = box.locator("input")
    field.fill(typed)
    field.press("Enter")
    return box.locator("output").text_content()


@pytest.mark.parametrize("label", list(PAGES))
def test_every_field_judges_as_the_rule_says(site, course, label):
    base, browser = site
    ex = PAGES[label](course)
    ctx, page, errors, blocked = open_page(browser, base, label)
    try:
        boxes = page.locator(".rl-quiz [data-rl-q]")
        assert boxes.count() == len(ex.questions)
        digits = page.locator("[data-rl-digits]")
        for q in ex.questions:
            box = page.locator(f'.rl-quiz [data-rl-q="{q.key}"]')
            value = Fraction(q.value) / q.unit.size
            seen = box.evaluate(FIELD)
            assert seen["out"] == "" and "답:" not in seen["text"], (q.key, "the answer shows before it is asked")
            assert try_answer(box, sig(value, 12)) == exercises.RIGHT, (q.key, sig(value, 12))
            assert try_answer(box, sig(value, exercises.DIGITS)) == exercises.RIGHT, q.key
            fewer = sig(value, exercises.DIGITS - 1)
            if Fraction(fewer) != value:
                assert try_answer(box, fewer) == exercises.digits_message(exercises.DIGITS), (q.key, fewer)
                digits.select_option(str(exercises.DIGITS - 1))        # the reader asks for fewer digits
                assert box.locator("output").text_content() == exercises.RIGHT, (q.key, fewer)
                digits.select_option(str(exercises.DIGITS))
            off = sig(value * Fraction(101, 100), 8) if value else "1"
            message = try_answer(box, off)
            assert message == f"다시. 힌트: {q.hint}", (q.key, off, message)
            if q.unit.name in CONFUSED:
                other = exercises.UNITS[CONFUSED[q.unit.name]]
                wrong_unit = sig(Fraction(q.value) / other.size, 8)
                message = try_answer(box, wrong_unit)
                assert message.startswith("다시: 단위를 확인하자.") and q.unit.name in message and other.name in message, \
                    (q.key, wrong_unit, message)
            assert "답:" not in box.evaluate(FIELD)["text"]
            box.locator("button.rl-show").click()
            assert box.locator("output").text_content() == f"답: {q.answer}"
            MEASURED.setdefault("fields", 0)
            MEASURED["fields"] += 1
        assert errors == [] and blocked == [], (errors, blocked)
    finally:
        ctx.close()


def test_phone_width_and_dark_mode(site, course):
    base, browser = site
    for scheme in ("light", "dark"):
        ctx, page, errors, _ = open_page(browser, base, "ch-guide", viewport={"width": 390, "height": 844},
                                          color_scheme=scheme)
        try:
            if scheme == "dark":
                page.evaluate("document.documentElement.dataset.theme = 'dark'")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            quiz = page.locator(".rl-quiz").first
            assert quiz.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), "the worksheet overflows at 390 px"
            box = page.locator(".rl-quiz [data-rl-q]").first
            box.scroll_into_view_if_needed()
            try_answer(box, "1")
            ratio = box.evaluate("""(box) => {
              const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
                v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
              let bg = null;
              for (let el = box; el && !bg; el = el.parentElement) {
                const c = getComputedStyle(el).backgroundColor;
                if (c && !/rgba\\(0, 0, 0, 0\\)|transparent/.test(c)) bg = c;
              }
              const a = lum(getComputedStyle(box.querySelector('output')).color), b = lum(bg || 'rgb(255,255,255)');
              return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
            }""")
            assert ratio >= 4.5, (scheme, ratio)
            assert errors == []
        finally:
            ctx.close()


def test_enough_fields_were_judged(site):
    """Runs last in this file (pytest keeps the file's order): the tests above typed into every field."""
    assert MEASURED.get("fields", 0) >= 9 * 2 + 2 * 6      # the worksheet (≥ 2 cases) and ≥ 2 per chapter
