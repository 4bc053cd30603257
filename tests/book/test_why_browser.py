"""Why this number? in headless Chromium, on the built pages: on every page with marked numbers, three panels opened by
keyboard (Enter) and three by click, each showing its record as the library wrote it (the page's records file); one
input walked to its own panel; Esc closes and gives focus back; a second press closes; axe-core finds nothing with a
panel open; no layout shift when a panel opens; no sideways scroll at 390 px; no request leaves 127.0.0.1."""
from __future__ import annotations

import json

import pytest

from browser_helpers import _axe_script, html_dir, offline, page_file
from site_pages import toc_pages

pytestmark = pytest.mark.heavy(20)


def marked_pages() -> list[str]:
    root = html_dir()
    return [d for d in toc_pages() if 'class="rl-why"' in (root / page_file(d)).read_text(encoding="utf-8")]


def records(docname: str) -> dict:
    html = (html_dir() / page_file(docname)).read_text(encoding="utf-8")
    address = html.split('data-rl-why="', 1)[1].split('"', 1)[0]
    return json.loads((html_dir() / page_file(docname)).parent.joinpath(address).resolve().read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tab(site_url, browser):
    def open_(docname: str, width: int = 1280):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        blocked: list[str] = []
        offline(ctx, site_url, blocked)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(site_url + page_file(docname), wait_until="load")
        opened.append(ctx)
        return page, errors, blocked

    opened: list = []
    yield open_
    for ctx in opened:
        ctx.close()


def wait_panel(page, record: dict, index: int) -> str:
    g = record["g"][index]
    page.wait_for_selector("#rl-why-panel .rl-why-result")
    text = page.inner_text("#rl-why-panel")
    r = record["r"][g["of"]]
    assert "이 값은 어떻게 나왔나" in text and g["shown"] in text and r["numbers"] in text, text
    return text


VISIBLE = "[...document.querySelectorAll('button.rl-why')].filter(b => b.checkVisibility({visibilityProperty: true})).map(b => +b.dataset.why)"


def expanded(page, index: int) -> str:
    return page.get_attribute(f'button.rl-why[data-why="{index}"]', "aria-expanded")


@pytest.mark.parametrize("docname", marked_pages())
def test_panels_by_keyboard_and_click(docname, tab):
    data = records(docname)
    page, errors, blocked = tab(docname)
    n = page.locator("button.rl-why").count()
    assert n == len(data["g"]) and n >= 3
    shown = page.evaluate(VISIBLE)   # (a number inside a closed answer is pressed once the answer is open)
    picks = sorted({shown[0], shown[len(shown) // 2], shown[-1]})
    for i in picks:   # keyboard: Enter opens (focus into the panel), Esc closes (focus back), a second Enter closes
        button = page.locator(f'button.rl-why[data-why="{i}"]')
        button.focus()
        page.keyboard.press("Enter")
        wait_panel(page, data, i)
        assert expanded(page, i) == "true" and button.get_attribute("aria-controls") == "rl-why-panel"
        assert page.evaluate("document.getElementById('rl-why-panel').contains(document.activeElement)")
        page.keyboard.press("Escape")
        assert page.locator("#rl-why-panel").count() == 0 and expanded(page, i) == "false"
        assert page.evaluate("document.activeElement.dataset.why") == str(i)
        page.keyboard.press("Enter")
        wait_panel(page, data, i)
        page.keyboard.press("Shift+Tab")   # out of the panel: back to its number
        assert page.evaluate("document.activeElement.dataset.why") == str(i)
        page.keyboard.press("Enter")
        assert page.locator("#rl-why-panel").count() == 0 and expanded(page, i) == "false"
    for i in picks:                                            # click: one panel at a time
        page.locator(f'button.rl-why[data-why="{i}"]').click()
        wait_panel(page, data, i)
        assert page.locator("#rl-why-panel").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("#rl-why-panel").count() == 0
    assert page.evaluate("document.activeElement.dataset.why") == str(picks[-1])   # focus came back
    assert not errors and not blocked, (errors, blocked)


@pytest.mark.parametrize("docname", marked_pages())
def test_walk_an_input_to_its_own_panel_then_escape(docname, tab):
    data = records(docname)
    page, errors, blocked = tab(docname)
    shown = page.evaluate(VISIBLE)
    index = next(i for i, g in enumerate(data["g"]) if i in shown
                 and any(x["origin"].startswith("derived:") for x in data["r"][g["of"]]["inputs"]))
    g = data["g"][index]
    first = next(x for x in data["r"][g["of"]]["inputs"] if x["origin"].startswith("derived:"))
    button = page.locator(f'button.rl-why[data-why="{index}"]')
    button.focus()
    around = ("(b) => { const box = b.closest('p, td, li, div'), next = box.nextElementSibling; return [box.offsetHeight, "
              "b.getBoundingClientRect().left, next ? next.getBoundingClientRect().top - b.getBoundingClientRect().top : 0] }")
    before = button.evaluate(around)
    page.keyboard.press("Enter")
    wait_panel(page, data, index)
    assert button.evaluate(around) == before   # no layout shift: the panel floats beside its number
    page.keyboard.press("Tab")   # into the panel: its close button, then its links in order
    assert page.evaluate("document.activeElement.className") == "rl-why-close"
    link = page.locator("#rl-why-panel a", has_text="유도 보기").first
    link.focus()
    page.keyboard.press("Enter")
    own = data["r"][first["origin"].removeprefix("derived:")]
    page.wait_for_function("(f) => document.querySelector('#rl-why-panel').innerText.includes(f)", arg=own["formula"])
    text = page.inner_text("#rl-why-panel")
    assert own["symbol"] in text and own["numbers"] in text and "처음 값" in text
    # axe-core with the panel open
    page.evaluate(_axe_script())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    assert [(v["id"], [n["target"] for n in v["nodes"]][:4], v["nodes"][0].get("failureSummary", "")[:300]) for v in result["violations"]] == []
    page.keyboard.press("Escape")
    assert page.locator("#rl-why-panel").count() == 0
    assert page.evaluate("document.activeElement.dataset.why") == str(index)
    assert not errors and not blocked, (errors, blocked)


@pytest.mark.parametrize("docname", marked_pages())
def test_phone_width(docname, tab):
    data = records(docname)
    page, errors, blocked = tab(docname, width=390)
    shown = page.evaluate(VISIBLE)
    for i in (shown[0], shown[-1]):
        page.locator(f'button.rl-why[data-why="{i}"]').click()
        wait_panel(page, data, i)
        box = page.locator("#rl-why-panel").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert not errors and not blocked, (errors, blocked)
