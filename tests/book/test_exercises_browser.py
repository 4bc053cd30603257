"""The exercises in headless Chromium, on the built pages.

- Every field of every exercise page judges the shared vectors as `exercises.judge` does: one page.evaluate per
  page fills each field with each vector (the library's value, rounded to DIGITS and DIGITS − 1 significant
  digits, 1 % off, the value in a confused unit, words, each common mistake's value, which the page must name as
  the library does) or picks each choice, fires the field's change event and reads the message; nothing is
  computed in the browser but the verdict.
- Typed for real into a few fields (keyboard, Enter), the reader's choice of fewer digits, a radio clicked.
- The worked solution and the answer are absent until asked; the solution button shows the library's lines.
- Phone width and dark mode.
(The judge's response time is a figure of `make bench`, not a test.)
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from browser_helpers import label_page, local_context, page_file
from exercise_answers import CONFUSED, PAGES, mistake_vectors, sig
from roofline.show import exercises

pytestmark = pytest.mark.heavy(30)   # rough seconds, for the order of the run (tests/conftest.py)


class Tabs:
    """One tab per window (size, colour scheme) for the whole file, each page loaded into it in turn: a new tab starts
    a renderer process, about as much work as loading the page. `open` gives the page loaded, and the console errors
    and requests out (aborted) from that load on."""

    def __init__(self, browser, base: str):
        self.browser, self.base = browser, base
        self.tabs: dict[str, tuple] = {}

    def open(self, label: str, **context):
        key = repr(sorted(context.items()))
        if key not in self.tabs:
            blocked: list[str] = []
            ctx = local_context(self.browser, self.base, blocked, **{"viewport": {"width": 1280, "height": 900}, **context})
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            self.tabs[key] = ctx, page, errors, blocked
        ctx, page, errors, blocked = self.tabs[key]
        errors.clear()
        blocked.clear()
        page.goto(self.base + page_file(label_page(label)))
        page.wait_for_selector(".rl-quiz.rl-live")
        return page, errors, blocked

    def close(self):
        for ctx, *_ in self.tabs.values():
            ctx.close()


@pytest.fixture(scope="module")
def site(site_url, browser):
    """The session's server and Chromium (tests/browser_helpers.py), a tab per window."""
    tabs = Tabs(browser, site_url)
    yield tabs
    tabs.close()


def vectors(q) -> list[str]:
    """What the test types into a question's field (or picks): each is judged by the library for the expectation."""
    if q.is_choice:
        return [key for key, _ in q.choices]
    value = q.in_unit
    tries = [sig(value, 12), sig(value, exercises.DIGITS), sig(value, exercises.DIGITS - 1),
             sig(value * Fraction(101, 100), 8) if value else "1", "열일곱"]
    if q.unit.name in CONFUSED:
        tries.append(sig(Fraction(q.value) / exercises.UNITS[CONFUSED[q.unit.name]].size, 8))
    return tries + [typed for typed, _ in mistake_vectors(q)]   # each common mistake, named as the library names it


JUDGE_ALL = """(cases) => cases.map(([key, tries]) => {
  const box = document.querySelector(`.rl-quiz [data-rl-q="${key}"]`);
  const out = box.querySelector('output');
  const solution = box.querySelector('.rl-solution') || box.closest('.rl-quiz').querySelector('.rl-sheet-solution');
  const before = {out: out.textContent, solution: solution.hidden,
                  text: box.innerText};
  const got = tries.map((t) => {
    const field = box.querySelector('input[type=text]');
    if (field) {
      field.value = t;
      field.dispatchEvent(new Event('change'));
    } else {
      const radio = box.querySelector(`input[type=radio][value="${t}"]`);
      radio.checked = true;
      radio.dispatchEvent(new Event('change'));
    }
    return out.textContent;
  });
  return {key, before, got};
})"""


@pytest.mark.parametrize("label", list(PAGES))
def test_every_field_judges_the_shared_vectors_as_the_library_does(site, course, label):
    ex = PAGES[label](course)
    page, errors, blocked = site.open(label)
    assert page.locator(".rl-quiz [data-rl-q]").count() == len(ex.questions)
    cases = [[q.key, vectors(q)] for q in ex.questions]
    results = page.evaluate(JUDGE_ALL, cases)
    for q, result in zip(ex.questions, results):
        before = result["before"]
        assert before["out"] == "" and before["solution"], (q.key, "feedback or solution shown before asked")
        assert "답:" not in before["text"], (q.key, "the answer shows before it is asked")
        want = [exercises.judge(q, t).message for t in vectors(q)]
        assert result["got"] == want, (q.key, list(zip(vectors(q), result["got"], want)))
    assert "답: " not in page.locator(".rl-quiz").first.inner_text()
    assert errors == [] and blocked == [], (errors, blocked)


def test_typing_the_digits_menu_a_choice_and_the_worked_solution(site, course):
    # the worksheet: typed, Enter; fewer digits only after the reader asks; the cell's worked solution
    ex = PAGES["ch-guide"](course)
    page, errors, _ = site.open("ch-guide")
    q = ex.question(f"Q-{ex.cases[1][0]}")
    box = page.locator(f'.rl-quiz [data-rl-q="{q.key}"]')
    field = box.locator("input")
    fewer = sig(q.in_unit, exercises.DIGITS - 1)
    field.click()
    field.type(fewer)
    field.press("Enter")
    assert box.locator("output").text_content() == exercises.digits_message(exercises.DIGITS)
    page.locator("[data-rl-digits]").select_option(str(exercises.DIGITS - 1))
    assert box.locator("output").text_content() == exercises.RIGHT
    field.fill(sig(q.in_unit, exercises.DIGITS))
    field.press("Enter")
    assert box.locator("output").text_content() == exercises.RIGHT
    box.locator("button.rl-show").click()
    solution = page.locator(".rl-sheet-solution")      # a cell is narrow: the solution shows below the table
    assert solution.is_visible()
    assert solution.locator(".rl-solution-title").text_content() == box.locator("button.rl-show").get_attribute("aria-label")
    assert solution.locator("li").all_text_contents() == [s.text for s in q.steps]
    assert solution.locator(".rl-solution-answer").text_content() == f"답: {q.answer}"
    assert errors == []
    # a chapter: a judgement clicked, a wrong number typed, the solution asked
    ex = PAGES["ch-matmul"](course)
    page, errors, _ = site.open("ch-matmul")
    judged = next(q for q in ex.questions if q.is_choice)
    box = page.locator(f'.rl-quiz [data-rl-q="{judged.key}"]')
    key, wrong = next((key, label) for key, label in judged.choices if key != judged.value)
    box.get_by_label(wrong).check()
    # the hint, or the mistake whose answer the wrong choice is
    assert box.locator("output").text_content() == exercises.judge(judged, key).message
    box.get_by_label(judged.answer).check()
    assert box.locator("output").text_content() == exercises.RIGHT
    q = ex.questions[0]
    box = page.locator(f'.rl-quiz [data-rl-q="{q.key}"]')
    box.locator("input").fill(sig(q.in_unit * 2, 6))
    box.locator("input").press("Enter")
    assert box.locator("output").text_content() == f"다시. 힌트: {q.hint}"
    box.locator("button.rl-show").click()
    assert box.locator(".rl-solution li").all_text_contents() == [s.text for s in q.steps]
    assert errors == []


def test_phone_width_and_dark_mode(site, course):
    for label in ("ch-guide", "ch-roofline"):
        for scheme in ("light", "dark"):
            page, errors, _ = site.open(label, viewport={"width": 390, "height": 844}, color_scheme=scheme)
            if scheme == "dark":
                page.evaluate("document.documentElement.dataset.theme = 'dark'")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            quiz = page.locator(".rl-quiz").first
            assert quiz.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), f"{label} overflows at 390 px"
            box = page.locator(".rl-quiz [data-rl-q]:has(input[type=text])").first
            box.scroll_into_view_if_needed()
            box.locator("input").fill("1")
            box.locator("input").press("Enter")
            box.locator("button.rl-show").click()
            assert quiz.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), f"{label}: the solution overflows"
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
            assert ratio >= 4.5, (label, scheme, ratio)
            assert errors == []


def test_a_mistake_typed_is_named_and_its_kind_goes_with_the_verdict(site, course):
    """Typed for real (keyboard, Enter) into a worksheet cell and a chapter's field: the page names the mistake with
    the library's message, and its `rl-verdict` event carries the kind (what the reader's progress records); a
    wrong choice that is a mistake's answer is named too, where a chapter has one."""
    for label in ("ch-guide", "ch-matmul"):
        ex = PAGES[label](course)
        q = next(q for q in ex.questions if q.mistakes and not q.is_choice)
        typed, kind = mistake_vectors(q)[0]
        page, errors, _ = site.open(label)
        page.evaluate("""() => { window.__verdicts = [];
          document.querySelectorAll('.rl-quiz').forEach((quiz) => quiz.addEventListener('rl-verdict',
            (e) => window.__verdicts.push(e.detail))); }""")
        box = page.locator(f'.rl-quiz [data-rl-q="{q.key}"]')
        field = box.locator("input")
        field.click()
        field.type(typed)
        field.press("Enter")
        assert box.locator("output").text_content() == exercises.mistake_message(q.mistakes[0])
        assert box.get_attribute("data-verdict") == "again" and field.get_attribute("aria-invalid") == "true"
        detail = page.evaluate("() => window.__verdicts.at(-1)")
        assert (detail["key"], detail["reason"], detail["mistake"], detail["right"]) == (q.key, "mistake", kind, False)
        assert errors == []
    for label in PAGES:
        ex = PAGES[label](course)
        judged = next((q for q in ex.questions if q.is_choice and q.mistakes), None)
        if judged is None:
            continue
        page, errors, _ = site.open(label)
        m = judged.mistakes[0]
        box = page.locator(f'.rl-quiz [data-rl-q="{judged.key}"]')
        box.get_by_label(dict(judged.choices)[m.value]).check()
        assert box.locator("output").text_content() == exercises.mistake_message(m, judged)
        assert errors == []
        break
