"""A student's variant on the built pages, in headless Chromium (issue 40, part 2 and 3).

- Every page with exercises has the "학번" field; its script (variants.js) and the page's variants file are fetched
  only when the field is first used (first visit: no request for either).
- For 200 identifiers on every such page, the page shows the variant the library draws (roofline.show.variants: the
  same hash and modulo) and its conditions.
- The answer key for a roster of 50 identifiers (coursebook.handout) is what the page accepts: 100 (student,
  exercise) pairs drawn from it, entered into the page with that student's identifier, are all right.
- A variant's common mistakes are named on the page as on the base: every mistake of every question of one
  student's variant, typed, gets the library's message for it.
- The same identifier gives the same variant after a reload; "지우기" returns to the base questions; every judged
  try is in the reader's record with the identifier.
- Nothing is requested outside the site.
"""
from __future__ import annotations

import random

import pytest

from browser_helpers import local_context
from coursebook import handout
from exercise_answers import mistake_vectors
from roofline.show import exercises
from roofline.show import variants as V

pytestmark = pytest.mark.heavy(40)

IDS = [f"2026{n:05d}" for n in range(195)] + ["김철수", "홍길동-01", "id@class", "é", "학번 9"]


@pytest.fixture(scope="module")
def pages_(live_course):
    out = {}
    for name, module in handout.varied_pages().items():
        problem = getattr(live_course, module.VARIANTS.problem)
        out[name] = (module, problem, V.variants(module, problem))
    return out


@pytest.fixture()
def tab(site_url, browser):
    blocked: list[str] = []
    ctx = local_context(browser, site_url, blocked)
    page = ctx.new_page()
    page.blocked = blocked
    yield page
    ctx.close()
    assert blocked == []


def open_page(tab, site_url, name):
    tab.goto(f"{site_url}/chapters/{name}.html")
    tab.wait_for_selector(".rl-quiz .rl-student:not([hidden])")


@pytest.fixture(scope="module", params=list(handout.varied_pages()))
def opened(request, site_url, browser):
    """One page with exercises, loaded once for all of this module's tests of it (pytest runs a module-scoped
    parameter's tests together): a first visit, in a context of its own (nothing stored), with every request it
    makes recorded (`asked`). Loading a page with its formulas is most of what a test of one identifier costs; each
    test below applies its own identifier first, which puts the questions back to that variant's, unanswered."""
    blocked: list[str] = []
    ctx = local_context(browser, site_url, blocked)
    page = ctx.new_page()
    page.asked = []
    page.on("request", lambda r: page.asked.append(r.url))
    open_page(page, site_url, request.param)
    yield request.param, page
    ctx.close()
    assert blocked == []


# Set an identifier in the field of the page's exercises as a reader does (the set button), then wait until its variant
# is placed: once the page's file is in, that is a promise, so a few microtasks; timers only while the file is on its
# way (waiting 5 ms after every identifier let the page draw itself each time). The page's script is loaded by the
# first use of the field (a focus), as a reader's first use does.
SET = """async (root, id, normal) => {
    const field = root.querySelector("[data-rl-student]");
    field.focus();
    field.value = id;
    root.querySelector("[data-rl-student-set]").click();
    for (let i = 0; i < 50 && root.dataset.student !== normal; i++) await Promise.resolve();
    for (let i = 0; i < 800 && root.dataset.student !== normal; i++) await new Promise((r) => setTimeout(r, 5));
}"""

APPLY = """async (ids) => {
    const root = document.querySelector(".rl-quiz"), set = %s;
    const out = [];
    for (const [id, normal] of ids) {
        await set(root, id, normal);
        out.push([root.dataset.variant, root.querySelector(".rl-student-now").textContent]);
    }
    return out;
}""" % SET


def apply(tab, ids):
    """Each identifier set in the field of the page's exercises: [variant index, the line that names it] for each (the
    shown identifier is the library's `normal`, which variants.js's twin gives: tests/show/test_identifiers.py)."""
    return tab.evaluate(APPLY, [[i, V.normal(i)] for i in ids])


# Each [identifier or null, question, answer]: the identifier set (SET) when one is given, then the answer entered as a
# reader who types it and leaves the field does (its change event, which the page judges on, as on Enter), or the
# choice whose label reads the answer clicked; [the question's verdict, its message] after each. One evaluate for
# all: the page judges in the event's handler, so each verdict is there when the handler returns. (Typing with the
# keyboard, Enter, is tests/book/test_exercises_browser.py's, and the reload test's below.)
ANSWER = r"""async (tries) => {
    const root = document.querySelector(".rl-quiz"), set = %s;
    const out = [];
    for (const [id, normal, key, answer] of tries) {
        if (id !== null) await set(root, id, normal);
        const box = root.querySelector(`[data-rl-q="${key}"]`), field = box.querySelector("input[type=text]");
        if (field) {
            field.value = answer;
            field.dispatchEvent(new Event("change"));
        } else {
            const words = (text) => text.replace(/\s+/g, " ").trim();
            const picks = [...box.querySelectorAll("label.rl-pick")].filter((l) => words(l.textContent) === words(answer));
            if (picks.length !== 1) throw new Error(`${key}: ${picks.length} choices read "${answer}"`);
            picks[0].querySelector("input").click();
        }
        out.push([box.dataset.verdict, box.querySelector("output").textContent]);
    }
    return out;
}""" % SET


def answer(tab, tries):
    """[verdict, message] for each (identifier or None, question key, answer) of `tries` (ANSWER)."""
    return tab.evaluate(ANSWER, [[i, None if i is None else V.normal(i), key, text] for i, key, text in tries])


def test_the_field_is_on_every_page_and_fetches_nothing_until_an_identifier(opened):
    name, tab = opened
    assert tab.locator(".rl-student label").inner_text() == "학번"
    assert not [u for u in tab.asked if "/_static/variants" in u], name    # neither the script nor a page's variants
    apply(tab, ["2026-1"])
    assert [u for u in tab.asked if "/_static/variants.js" in u] and [u for u in tab.asked if "/_static/variants/" in u]


def test_200_identifiers_get_the_librarys_variant_on_every_page(opened, pages_):
    name, tab = opened
    module, problem, found = pages_[name]
    shown = apply(tab, IDS)
    for student, (index, now) in zip(IDS, shown):
        v = V.draw(module, problem, student, found)
        assert int(index) == found.index(v), (name, student)
        assert v.conditions in now and V.normal(student) in now, (name, student, now)
    assert len({i for i, _ in shown}) >= min(len(found), 10)


def type_answer(tab, key, answer):
    box = tab.locator(f'.rl-quiz [data-rl-q="{key}"]')
    radios = box.locator("input[type=radio]")
    if radios.count():
        box.locator("label.rl-pick", has_text=answer).locator("input").check()
    else:
        box.locator("input[type=text]").fill(answer)     # (fill leaves the focus in the field: Enter goes there)
        tab.keyboard.press("Enter")
    return box.get_attribute("data-verdict")


@pytest.fixture(scope="module")
def answer_key(tmp_path_factory):
    """coursebook.handout's answer key for a roster of 50 students: (its rows, 100 of them drawn, by page)."""
    import csv

    folder = tmp_path_factory.mktemp("answer-key")
    roster = folder / "roster.csv"
    roster.write_text("학번,이름\n" + "".join(f"S{n:03d},학생{n}\n" for n in range(50)), encoding="utf-8")
    out = folder / "answer-key.csv"
    handout.answer_key(roster, out)
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
    by_page: dict[str, list] = {}
    for row in random.Random(40).sample(rows[1:], 100):
        by_page.setdefault(row[1], []).append(row)
    return rows, by_page


def test_the_answer_key_for_50_students_is_what_the_page_accepts(opened, pages_, answer_key):
    """100 (student, exercise) pairs drawn from the key, each typed into its page with that student's identifier:
    all right (this page's share of the 100 here; every pair's page is one of the pages with exercises)."""
    name, tab = opened
    rows, by_page = answer_key
    assert rows[0] == handout.KEY_HEADER and len({r[0] for r in rows[1:]}) == 50
    assert sum(map(len, by_page.values())) == 100 and set(by_page) <= set(pages_)
    module, problem, found = pages_[name]
    chosen = by_page.get(name, [])
    for student, _, key, conditions, *_ in chosen:
        assert V.draw(module, problem, student, found).conditions == conditions, (name, student, key)
    verdicts = answer(tab, [(student, key, typed) for student, _, key, _, _, typed, _, _ in chosen])
    for (student, _, key, _, _, typed, unit, _), (verdict, _) in zip(chosen, verdicts, strict=True):
        assert verdict == "right", (name, student, key, typed, unit)


MISTAKEN = "2026-mistakes"


def test_a_variants_mistakes_are_named_on_the_page(opened, pages_):
    name, tab = opened
    module, problem, found = pages_[name]
    apply(tab, [MISTAKEN])
    v = V.draw(module, problem, MISTAKEN, found)
    tries = [(q, kind, m, dict(q.choices)[typed] if q.is_choice else typed)    # a choice is picked by its label
             for q in v.exercises.questions for (typed, kind), m in zip(mistake_vectors(q), q.mistakes)]
    shown = answer(tab, [(None, q.key, typed) for q, _, _, typed in tries])    # (one field takes one mistake after another)
    for (q, kind, m, typed), (verdict, message) in zip(tries, shown, strict=True):
        assert verdict != "right" and message == exercises.mistake_message(m, q), (name, MISTAKEN, q.key, kind, typed)
    # the pages together name at least 40 mistakes (each page's are typed in its own test)
    named = sum(len(list(zip(mistake_vectors(q), q.mistakes)))
                for module, problem, found in pages_.values()
                for q in V.draw(module, problem, MISTAKEN, found).exercises.questions)
    assert named >= 40


def test_same_variant_after_reload_clear_returns_to_the_base_and_tries_are_recorded(tab, site_url, pages_):
    name = "w4_5_matmul" if "w4_5_matmul" in pages_ else next(iter(pages_))
    module, problem, found = pages_[name]
    open_page(tab, site_url, name)
    tab.evaluate("() => window.rlProgress.reset()")
    first = tab.locator(".rl-exercises > li > p").first.inner_text()
    apply(tab, ["2026-777"])
    v = V.draw(module, problem, "2026-777", found)
    q = v.exercises.questions[0]
    assert tab.locator(".rl-exercises > li > p").first.inner_text().endswith(q.ask)
    type_answer(tab, q.key, handout.typed_answer(q))
    type_answer(tab, q.key, "1")
    tab.reload()
    tab.wait_for_function("() => document.querySelector('.rl-quiz').dataset.student === '2026-777'")
    assert tab.locator("[data-rl-student]").input_value() == "2026-777"
    assert tab.evaluate("() => document.querySelector('.rl-quiz').dataset.variant") == str(found.index(v))
    assert tab.locator(".rl-exercises > li > p").first.inner_text().endswith(q.ask)
    tries = tab.evaluate(f"() => window.rlProgress.answers({name!r}).map((a) => [a.exercise, a.student, a.right, a.reason])")
    assert tries[0] == [q.key, "2026-777", True, "right"] and tries[1][:3] == [q.key, "2026-777", False]
    tab.locator("[data-rl-student-clear]").press("Enter")     # keyboard: the button takes Enter
    tab.wait_for_function("() => document.querySelector('.rl-quiz').dataset.student === ''")
    assert tab.locator(".rl-exercises > li > p").first.inner_text() == first
    assert tab.evaluate("() => window.rlProgress.student()") == ""


# ---------------------------------------------------------------- issue 55: the worksheet states the student's problem

THREE = ["2026123456", "20261001", "\ufeff 2026123456 "]   # the audit's two, and one pasted with a BOM and spaces


READ_PROBLEM = """() => {
    const own = document.querySelector(".rl-problem-own");
    const base = document.querySelector("[data-rl-problem]");
    return {baseHidden: base.hidden, own: own ? own.querySelector("p").textContent : null,
            rows: own ? [...own.querySelectorAll("tbody tr")].map((r) => [...r.cells].map((c) => c.textContent)) : []};
}"""


@pytest.fixture(params=["live", "next_term"])
def sheet_term(request, tab, pages_):
    """The worksheet for this term (the built page) or the next (tests/course_copies.next_term). For the next term,
    in this browser only, the built page's worksheet section is answered with the one the library writes for the
    next term's problem (`exercises.page_html`, which the build glues in verbatim, naming its variants file as
    coursebook.handout does) and its variants file with the next term's (`handout.page_body`): what `make refresh`
    would publish for that section, so that the page's own scripts place and judge the next term's problems without
    building a second site (the rest of the page stays this term's, and is not read)."""
    import re

    import roofline
    from conftest import term_path
    from roofline.show.pages import week4_guide

    if request.param == "live":
        return pages_["week4_guide"]
    course = roofline.load(term_path(request.param))
    body = handout.page_body(week4_guide, course)
    name = f"week4_guide.{handout.digest_of(body)}.json"
    section = exercises.page_html(week4_guide.exercises(course.week4)).replace(
        'data-rl-quiz="guide"', f'data-rl-quiz="guide" data-rl-variants="../_static/variants/{name}"', 1)

    def page(route):
        text = route.fetch().text()
        text, n = re.subn(r'<section class="rl-quiz".*?</section>', lambda _: section, text, count=1, flags=re.S)
        assert n == 1
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=text)

    tab.route("**/chapters/week4_guide.html", page)
    tab.route(f"**/_static/variants/{name}",
              lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    return week4_guide, course.week4, V.variants(week4_guide, course.week4)


def test_the_worksheet_states_each_students_problem_and_a_solve_from_it_is_right(tab, site_url, sheet_term):
    """For three identifiers (one with a BOM and spaces pasted around it), this term and the next: the guide's
    problem (sentence and table) is the student's, as the library states it, in place of the page's; every cell of
    the sheet solved from that table alone (its N, element size, P, BW, tiles: tests/student_solver.py), written
    with 6 significant digits, is judged right; clearing the 학번 shows the page's own problem again."""
    from student_solver import solve_worksheet, typed

    module, problem, found = sheet_term
    open_page(tab, site_url, "week4_guide")
    right = 0
    for student in THREE:
        ((index, _),) = apply(tab, [student])
        v = V.draw(module, problem, student, found)
        assert int(index) == found.index(v), student      # the identifier rule is one (a BOM and spaces dropped)
        applied = tab.evaluate("() => document.querySelector('.rl-quiz').dataset.student")
        assert applied == V.normal(student)
        shown = tab.evaluate(READ_PROBLEM)
        sentence, rows = v.exercises.statement
        assert shown["baseHidden"] and shown["own"] == f"학번 {applied}의 문제다. {sentence}"
        assert [tuple(r) for r in shown["rows"]] == [tuple(r) for r in rows]
        answers = solve_worksheet(dict(shown["rows"]))
        assert set(answers) == {q.key for q in v.exercises.questions}
        tries = [(None, key, typed(v.exercises.question(key), value)) for key, value in answers.items()]
        for (_, key, text), (verdict, _) in zip(tries, answer(tab, tries), strict=True):
            assert verdict == "right", (student, key, text, v.conditions)
            right += 1
    assert right == 3 * len(module.exercises(problem).questions)
    tab.locator("[data-rl-student-clear]").click()
    tab.wait_for_function("() => document.querySelector('.rl-quiz').dataset.student === ''")
    shown = tab.evaluate(READ_PROBLEM)
    assert not shown["baseHidden"] and shown["own"] is None
