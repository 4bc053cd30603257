"""The page "내 진도" (chapters/progress.md, _static/progress-page.js) in headless Chromium (issue 40, part 4).

- It lists, in reading order, every chapter with exercises and each exercise's key (from the library at build time).
- What a reader answered on two pages (the base questions, and a student's variant) is shown per chapter: answered
  right with the identifier, tries; the explorers' predictions are counted and listed; all survive a reload.
- With the keyboard only: "CSV로 내보내기" downloads the record (file name with the identifier, the store's CSV in
  Korean: chapter titles, verdict words, local time with its zone);
  "기록 지우기" asks first, keeps everything when the reader says no, and empties the record when yes.
- A malformed stored record (fuzz-2 F-9) leaves the page working, is said in Korean, and answers are recorded; a
  full storage keeps the stored record and is said.
- axe-core finds no violation (any impact) with a record on the page, light and dark; nothing leaves the site;
  once visited, the page opens offline (the site's service worker).
"""
from __future__ import annotations

import csv
import io
import re

import pytest

from browser_helpers import axe_violations, local_context
from coursebook import handout
from roofline.show import variants as V

pytestmark = pytest.mark.heavy(20)


@pytest.fixture()
def ctx(request, site_url, browser):
    """A reader's browser context, reaching only the site; its service worker runs where a test asks ("allow")."""
    blocked: list[str] = []
    context = local_context(browser, site_url, blocked, service_workers=getattr(request, "param", "block"))
    context.blocked = blocked
    yield context
    context.close()
    assert blocked == []


@pytest.fixture(scope="module")
def stored_tab(site_url, browser):
    """One tab for the tests of a malformed stored record, kept on the site between them: each test stores its record
    from the page it finds (the store's key is the page's `rlProgress.key`), then opens the page it reads, which
    then starts with that record, as a reader's next visit does (no page of the site writes the record when left)."""
    blocked: list[str] = []
    context = local_context(browser, site_url, blocked)
    page = context.new_page()
    progress(page, site_url)
    yield page
    context.close()
    assert blocked == []


def store_record(page, stored: str) -> list[str]:
    """`stored` as the reader's record (from the site page the tab is on); the page errors from now on."""
    errors: list[str] = []
    page.remove_listener("pageerror", getattr(page, "errors_to", lambda e: None))
    page.errors_to = lambda e: errors.append(str(e))
    page.on("pageerror", page.errors_to)
    page.evaluate("(v) => localStorage.setItem(window.rlProgress.key, v)", stored)
    return errors


def progress(page, site_url):
    page.goto(f"{site_url}/chapters/progress.html")
    page.wait_for_selector(".rl-progress-list section")


def data_of(page):
    return page.evaluate("() => JSON.parse(document.querySelector('script.rl-progress-data').textContent)")


@pytest.mark.parametrize("stored", ['{"v":1,"answers":null}', '{"v":1,"student":12345}', "not json"])
def test_a_malformed_record_leaves_the_pages_working_and_says_so(stored_tab, site_url, stored):
    """fuzz-2 F-9: the stored record is read what can be, the rest set aside and said on 내 진도; answers recorded."""
    page = stored_tab
    errors = store_record(page, stored)
    progress(page, site_url)
    assert page.locator(".rl-progress-chapter").count() == len(handout.varied_pages()) + 1
    if stored != '{"v":1,"student":12345}':
        assert "따로 두었다" in page.locator(".rl-progress-problem").inner_text()
    else:
        assert page.locator(".rl-progress-who").inner_text() == "지금 학번: 12345"
    page.evaluate("""() => window.rlProgress.answer({page: "w4_1_intensity", exercise: "①-1", typed: "4", right: true,
        reason: "right"})""")
    page.reload()
    page.wait_for_selector(".rl-progress-list section")
    assert page.evaluate("() => window.rlProgress.answers().map((a) => a.typed)")[-1:] == ["4"]
    assert errors == []


@pytest.mark.parametrize("stored", ['{"v":1,"answers":null}', '{"v":1,"student":{"a":1}}', '{"v":9,"answers":7}'])
def test_an_exercise_page_with_a_malformed_record_records_the_answer(stored_tab, site_url, live_course, stored):
    page = stored_tab
    errors = store_record(page, stored)
    page.goto(f"{site_url}/chapters/w4_5_matmul.html")
    page.wait_for_selector(".rl-quiz .rl-student:not([hidden])")
    module = handout.varied_pages()["w4_5_matmul"]
    q = next(q for q in module.exercises(getattr(live_course, module.VARIANTS.problem)).questions if not q.is_choice)
    answer(page, q.key, handout.typed_answer(q))
    page.wait_for_function("(k) => window.rlProgress.answers().some((a) => a.exercise === k && a.right)", arg=q.key)
    kept = page.evaluate("(k) => JSON.parse(localStorage.getItem(window.rlProgress.key))", q.key)
    assert kept["v"] == 2 and any(a["exercise"] == q.key for a in kept["answers"])
    assert any(a["value"] in stored for a in kept["aside"])       # the record, or the part unread, as written
    assert errors == []


def test_a_full_storage_keeps_the_record_and_says_so(ctx, site_url):
    page = ctx.new_page()
    progress(page, site_url)
    page.evaluate("""() => { const s = window.rlProgress; s.reset(); s.setStudent("2026-7");
        const real = Storage.prototype.setItem;
        Storage.prototype.setItem = function () { throw new DOMException("full", "QuotaExceededError"); };
        s.answer({page: "w4_1_intensity", exercise: "①-1", typed: "4", right: true, reason: "right"});
        Storage.prototype.setItem = real; }""")
    assert "저장 공간이 가득 차" in page.locator(".rl-progress-problem").inner_text()
    stored = page.evaluate("() => JSON.parse(localStorage.getItem(window.rlProgress.key))")
    assert stored["student"] == "2026-7" and stored["answers"] == []          # the stored record as it was


def answer(page, key, text):
    field = page.locator(f'.rl-quiz [data-rl-q="{key}"] input[type=text]')
    field.fill(text)
    field.press("Enter")


def focus_by_tab(page, selector, limit=400):
    """Tab until the element matching `selector` has the focus (the keyboard only)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reaches {selector}")


def test_the_page_lists_every_chapter_with_its_exercises(ctx, site_url, live_course):
    page = ctx.new_page()
    progress(page, site_url)
    modules = handout.varied_pages()
    titles = page.locator(".rl-progress-chapter h2 a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert titles == [f"{name}.html" for name in modules]
    data = page.evaluate("() => JSON.parse(document.querySelector('script.rl-progress-data').textContent)")
    for entry, (name, module) in zip(data["chapters"], modules.items()):
        sheet = module.exercises(getattr(live_course, module.VARIANTS.problem))
        assert [k for k, _ in entry["exercises"]] == [q.key for q in sheet.questions]


def test_answers_and_predictions_are_listed_survive_a_reload_export_and_reset(ctx, site_url, live_course):
    page = ctx.new_page()
    modules = handout.varied_pages()
    name = "w4_5_matmul"
    module = modules[name]
    problem = getattr(live_course, module.VARIANTS.problem)
    base = module.exercises(problem)
    page.goto(f"{site_url}/chapters/{name}.html")
    page.wait_for_selector(".rl-quiz .rl-student:not([hidden])")
    page.evaluate("() => window.rlProgress.reset()")
    numeric = [q for q in base.questions if not q.is_choice]
    answer(page, numeric[0].key, handout.typed_answer(numeric[0]))          # the base, right
    answer(page, numeric[1].key, "1")                                        # a wrong try
    field = page.locator("[data-rl-student]")
    field.fill("2026-42")
    field.press("Enter")
    page.wait_for_function("() => document.querySelector('.rl-quiz').dataset.student === '2026-42'")
    v = V.draw(module, problem, "2026-42", V.variants(module, problem))
    q = v.exercises.question(numeric[1].key)
    answer(page, q.key, handout.typed_answer(q))                             # the variant, right
    page.evaluate("""() => window.rlProgress.predict({page: "w4_2_roofline", explorer: "roofline", state: "T=64",
        quantity: "I_T", guess: "12", model: "10.5", error: "1.14배", mistake: ""})""")

    progress(page, site_url)
    for _ in range(2):                                                       # and again after a reload
        section = page.locator(".rl-progress-chapter", has=page.locator(f'a[href="{name}.html"]'))
        rows = section.locator("tbody tr")
        first = rows.nth(0).locator("td").all_inner_texts()
        second = rows.nth(1).locator("td").all_inner_texts()
        assert first == ["맞힘 (기본 문제)", "1"]
        assert second == ["맞힘 (학번 2026-42)", "2"]
        assert f"맞힌 문항 2 / {len(base.questions)}, 시도 3번" in section.inner_text()
        assert page.locator(".rl-progress-who").inner_text() == "지금 학번: 2026-42"
        predictions = page.locator("#rl-pg-predictions").locator("..")
        assert "예측 1번" in predictions.inner_text() and "10.5" in predictions.inner_text()
        page.reload()
        page.wait_for_selector(".rl-progress-list section")

    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    focus_by_tab(page, "[data-rl-export]")
    with page.expect_download() as got:
        page.keyboard.press("Enter")
    download = got.value
    assert download.suggested_filename == "내-진도-2026-42.csv"
    text = open(download.path(), encoding="utf-8").read()
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert [r[0] for r in rows[1:]] == ["답", "답", "답", "예측"]
    assert [r[4] for r in rows[1:4]] == ["", "", "2026-42"]
    title = next(c["title"] for c in data_of(page)["chapters"] if c["page"] == name)
    assert [r[2] for r in rows[1:4]] == [title] * 3 and [r[11] for r in rows[1:4]] == [name] * 3   # Korean, then file
    assert [r[7] for r in rows[1:4]] == ["정답", "오답", "정답"]                          # verdict words, not codes
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC[+-]\d\d:\d\d", rows[1][1])      # local time, zone

    said = []
    page.once("dialog", lambda d: (said.append(d.message), d.dismiss()))
    focus_by_tab(page, "[data-rl-reset]")
    page.keyboard.press("Enter")
    assert said and page.evaluate("() => window.rlProgress.answers().length") == 3
    page.once("dialog", lambda d: d.accept())
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.rlProgress.answers().length === 0")
    assert "시도 0번" in page.locator(".rl-progress-chapter").first.inner_text()
    assert page.evaluate("() => window.rlProgress.student()") == ""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_with_a_record(ctx, site_url, scheme):
    page = ctx.new_page()
    page.emulate_media(color_scheme=scheme)
    progress(page, site_url)
    page.evaluate("""() => { const s = window.rlProgress; s.reset(); s.setStudent("2026-1");
        s.answer({page: "w4_1_intensity", exercise: "①-1", typed: "3", right: false, reason: "wrong"});
        s.answer({page: "w4_1_intensity", exercise: "①-1", typed: "4", right: true, reason: "right"});
        s.predict({page: "w4_2_roofline", explorer: "roofline", state: "T=32", quantity: "I_T", guess: "1",
                   model: "2", error: "0.5배", mistake: ""}); }""")
    page.wait_for_selector(".rl-progress-table")
    assert axe_violations(page) == []


@pytest.mark.parametrize("ctx", ["allow"], indirect=True)
def test_the_page_opens_offline_once_visited(ctx, site_url):
    page = ctx.new_page()
    progress(page, site_url)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=30000)
    page.reload()                                        # the worker keeps what this visit loaded
    page.wait_for_selector(".rl-progress-list section")
    ctx.set_offline(True)
    page.reload()
    page.wait_for_selector(".rl-progress-list section")
    assert page.locator(".rl-progress-chapter").count() == len(handout.varied_pages()) + 1
    ctx.set_offline(False)
