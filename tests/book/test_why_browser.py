"""Why this number? in headless Chromium, on the built pages: on every page with marked numbers, three panels opened by
keyboard (Enter) and three by click, each showing its record as the library wrote it (the page's records file); one
input walked to its own panel; Esc closes and gives focus back; a second press closes; axe-core finds nothing with a
panel open; no layout shift when a panel opens; no sideways scroll at 390 px; no request leaves 127.0.0.1. On every explorer:
a number of the state shown opens that state's record, another state closes the panel and its number opens the new
state's record, a value waiting for a guess opens none."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_helpers import (
    DESKTOP,
    PHONE,
    TWO_FRAMES,
    axe_violations,
    html_dir,
    local_context,
    page_file,
    slide_to_other_end,
    start_explorer,
)
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
    """A page as a reader opens it (its own browser context, nothing leaving 127.0.0.1, 1280 px), loaded once per page
    for the module: each test leaves it with no panel open at 1280 px, its errors and blocked requests still counted."""
    def open_(docname: str):
        if docname in opened:
            return opened[docname][1:]
        blocked: list[str] = []
        ctx = local_context(browser, site_url, blocked, viewport=DESKTOP)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(site_url + page_file(docname), wait_until="load")
        opened[docname] = ctx, page, errors, blocked
        return page, errors, blocked

    opened: dict = {}
    yield open_
    for ctx, *_ in opened.values():
        ctx.close()


def shown_numbers(r: dict) -> str:
    """The numbers line a panel shows: the times in ms when the record has them (`said`), else its exact numbers."""
    return r.get("said", r["numbers"])


def wait_panel(page, record: dict, index: int) -> str:
    """The panel of the page's own number `index`, once it shows its result. Its button is expanded first: a press
    replaces an open panel only when the panel's module has it (a task later), so until then the panel of the number
    pressed before is still there."""
    g = record["g"][index]
    page.wait_for_selector(f'{OWN}[data-why="{index}"][aria-expanded="true"]', state="attached")
    page.wait_for_selector("#rl-why-panel .rl-why-result")
    text = page.inner_text("#rl-why-panel")
    r = record["r"][g["of"]]
    assert "이 값은 어떻게 나왔나" in text and g["shown"] in text and shown_numbers(r) in text, text
    return text


# the page's own marked numbers (an explorer's are its states', below)
OWN = "button.rl-why:not([data-rl-explorer] *)"
VISIBLE = (f"[...document.querySelectorAll('{OWN}')].filter(b => b.checkVisibility({{visibilityProperty: true}}))"
           ".map(b => +b.dataset.why)")


# what an open panel adds to the page: the panel, and the number that opened it (its state and the panel it names);
# axe-core judges those (the rest of the page is judged by the site's visits, test_site_browser.py)
OPENED = ["#rl-why-panel", 'button.rl-why[aria-expanded="true"]']


# Which of the elements a reader sees (Playwright's is_visible: shown, and a box of some size), each by its index
SEEN = """(all) => all.flatMap((el, i) => { const box = el.getBoundingClientRect();
  return el.checkVisibility({visibilityProperty: true}) && box.width > 0 && box.height > 0 ? [i] : []; })"""


def visible(locator) -> list:
    """The elements of `locator` a reader sees, in order (asked in one call, not one call each)."""
    return [locator.nth(i) for i in locator.evaluate_all(SEEN)]


# the number is where a click at its centre lands (not under the open panel)
UNCOVERED = """(b) => { const r = b.getBoundingClientRect();
  return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"""


def expanded(page, index: int) -> str:
    return page.get_attribute(f'button.rl-why[data-why="{index}"]', "aria-expanded")


@pytest.mark.parametrize("docname", marked_pages())
def test_panels_by_keyboard_and_click(docname, tab):
    data = records(docname)
    page, errors, blocked = tab(docname)
    n = page.locator(OWN).count()
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
    switched = 0
    for i in picks:                                            # click: one panel at a time
        button = page.locator(f'button.rl-why[data-why="{i}"]')
        button.scroll_into_view_if_needed()
        page.evaluate(TWO_FRAMES)   # (an open panel follows its number when the page scrolls: placed before the click)
        if page.locator("#rl-why-panel").count() and not button.evaluate(UNCOVERED):
            page.keyboard.press("Escape")   # a number under the open panel: a mouse reader closes the panel first
        else:
            switched += page.locator("#rl-why-panel").count()
        button.click()
        wait_panel(page, data, i)
        assert page.locator("#rl-why-panel").count() == 1
    assert switched, "no click went from an open panel to another number's"
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
    page.mouse.move(0, 0)   # keyboard only: the pointer of the tab's last click hovers nothing the panel brings
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
    expect(page.locator("#rl-why-panel")).to_contain_text(own["formula"])
    text = page.inner_text("#rl-why-panel")
    assert own["symbol"] in text and shown_numbers(own) in text and "처음 값" in text
    assert axe_violations(page, OPENED) == []   # axe-core on what opening the panel added
    page.locator("#rl-why-panel a").first.hover()   # a link under the pointer keeps its contrast (the theme's hover)
    assert axe_violations(page, OPENED) == []
    page.keyboard.press("Escape")
    assert page.locator("#rl-why-panel").count() == 0
    assert page.evaluate("document.activeElement.dataset.why") == str(index)
    assert not errors and not blocked, (errors, blocked)


@pytest.mark.parametrize("docname", marked_pages())
def test_phone_width(docname, tab):
    """The page's tab narrowed to a phone's 390 px (the site lays itself out again on a resize: the theme's CSS, the
    explorers' plots, scroll-focus.js, the panel's placing), then widened back for the tests after this one: a load
    at 390 px in a tab of its own would start a renderer and load the page again for two panels."""
    data = records(docname)
    page, errors, blocked = tab(docname)
    page.set_viewport_size(PHONE)
    try:
        shown = page.evaluate(VISIBLE)
        for i in (shown[0], shown[-1]):
            page.locator(f'button.rl-why[data-why="{i}"]').click()
            wait_panel(page, data, i)
            box = page.locator("#rl-why-panel").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        page.keyboard.press("Escape")   # (the tab is left with no panel open)
    finally:
        page.set_viewport_size(DESKTOP)
    assert not errors and not blocked, (errors, blocked)


def explorer_pages() -> list[tuple[str, str]]:
    root = html_dir()
    found = []
    for d in toc_pages():
        html = (root / page_file(d)).read_text(encoding="utf-8")
        found += [(d, uid) for uid in re.findall(r'<div class="rl-explorer" id="([^"]+)"', html)
                  if "data-rl-control" in html.split(f'id="{uid}"', 1)[1].split("</form>", 1)[0]]
    return found


def pool_of(docname: str, uid: str) -> dict:
    from coursebook.assets import explorer_data

    path = html_dir() / page_file(docname)
    for data, found in zip(explorer_data(path.read_text(encoding="utf-8"), path.parent),
                           re.findall(r'<div class="rl-explorer" id="([^"]+)"', path.read_text(encoding="utf-8"))):
        if found == uid:
            return data["why"]
    raise AssertionError(uid)


def pressed_panel(page, button, pool: dict) -> str:
    """Press `button` (a number of an explorer's state): its panel shows that state's record."""
    key = button.get_attribute("data-why")
    entry = pool["g"][key]
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")   # (its panel, not one still open before: wait_panel)
    page.wait_for_selector("#rl-why-panel .rl-why-result")
    text = page.inner_text("#rl-why-panel")
    assert entry["shown"] in text and shown_numbers(pool["r"][entry["of"]]) in text, (key, text)
    return key


WAITING = "[data-rl-field], td"   # where a value waits for the guess ("?")
MOVE = """(root) => { const el = root.querySelector("[data-rl-control]"); return [el.type || el.tagName, el.value]; }"""


def move(page, root, asking: bool = False) -> None:
    """The explorer's first control moved as a reader moves it: a range to its other end (with `asking`, the nearest
    state to it that has something to guess: `slide_to_other_end`), another radio, another option."""
    kind, value = root.evaluate(MOVE)
    control = root.locator("[data-rl-control]").first
    if kind == "range":
        control.focus()
        slide_to_other_end(root, control, asking)
    elif kind == "radio":
        root.locator("[data-rl-control]:not(:checked)").first.check()
    else:
        options = control.evaluate("el => [...el.options].map(o => o.value)")
        control.select_option(next(o for o in options if o != value))


@pytest.mark.parametrize("docname,uid", explorer_pages())
def test_an_explorers_numbers_open_their_states_derivation(docname, uid, tab):
    pool = pool_of(docname, uid)
    page, errors, blocked = tab(docname)
    root = start_explorer(page.locator(f"#{uid}"))
    numbers = root.locator("button.rl-why[data-why]")
    assert numbers.count() >= 3
    button = visible(numbers)[0]
    first = pressed_panel(page, button, pool)
    assert axe_violations(page, OPENED) == []   # axe-core on an explorer's open panel
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.dataset.why") == first
    # another state (the first control moved as a reader moves it): the panel of the old state closes, and the
    # numbers of the new one name their own records
    button.click()
    page.wait_for_selector("#rl-why-panel .rl-why-result")
    move(page, root)
    page.wait_for_function("() => !document.getElementById('rl-why-panel')")
    moved = numbers.evaluate_all("(buttons) => buttons.map((b) => b.getAttribute('data-why'))")
    assert moved and all(moved) and set(moved) <= set(pool["g"])
    again = visible(numbers)[0]
    pressed_panel(page, again, pool)
    page.keyboard.press("Escape")
    # predict first: a value waiting for the guess opens no panel (it would give the answer)
    page.locator(f"#{uid} .rl-predict-toggle").click()
    page.wait_for_function("(r) => r.rlExplorer.predictor", arg=root.element_handle())
    move(page, root, asking=True)   # (predict mode hides the answers of the next state)
    page.wait_for_function(f"() => [...document.querySelectorAll('{WAITING}')].some(e => e.textContent === '?')")
    waiting = root.evaluate(f"(r) => [...r.querySelectorAll('{WAITING}')].filter(e => e.textContent === '?')"
                            ".map(e => e.closest('button') || e.querySelector('button'))"
                            ".map(b => b ? [b.disabled, b.hasAttribute('data-why')] : [true, false])")
    assert waiting and all(d and not w for d, w in waiting), waiting
    page.locator(f"#{uid} .rl-predict-toggle").click()   # (the mode is remembered: off again for the next test)
    assert not errors and not blocked, (errors, blocked)


# two states of each explorer that choose a preset or a dtype: (control, value) pairs the page's selects take
CHOSEN_STATES = {"hw": ("H100_SXM", "A100_SXM"), "dtype": ("TF32", "BF16"), "gpu": ("A100_SXM", "H200_SXM")}
NAMED_KEYS = re.compile(r"presets\.([A-Za-z0-9_]+)(?:\.peak\.([A-Z0-9]+))?|dtypes\.([A-Z0-9]+)")


def walked_keys(page, button) -> set[tuple[str, str]]:
    """Press `button` and walk its panel down the first link of each record to a leaf: every (kind, name) the
    course.toml keys on the way name ("preset" H100_SXM, "dtype" FP16: a peak's dtype too)."""
    button.click()
    page.wait_for_selector("#rl-why-panel .rl-why-result")
    found, seen = set(), set()
    while True:
        text = page.inner_text("#rl-why-panel")
        for preset, peak, dtype in NAMED_KEYS.findall(text):
            found |= {("preset", preset)} if preset else set()
            found |= {("dtype", d) for d in (peak, dtype) if d}
        links = page.locator("#rl-why-panel a:not(.rl-why-back)").filter(has_text="유도 보기")
        if not links.count() or text in seen:
            break
        seen.add(text)
        links.first.click()
        page.wait_for_selector("#rl-why-panel .rl-why-result")
    page.keyboard.press("Escape")
    return found


@pytest.mark.parametrize("docname,uid", explorer_pages())
def test_an_explorer_states_panels_name_its_own_preset_and_dtype(docname, uid, tab):
    """For two states of an explorer that differ in preset or dtype (② hardware and dtype, ④ GPU): open panels of
    the state's numbers, walk each to a leaf input, and every course.toml key on the way names that state's preset
    and dtype (content-5 item 9: an A100 state showed H100's smem_per_SM)."""
    page, errors, blocked = tab(docname)
    root = start_explorer(page.locator(f"#{uid}"))
    controls = {c: root.locator(f'select[data-rl-control="{c}"]') for c in CHOSEN_STATES}
    controls = {c: s for c, s in controls.items() if s.count()}
    if not controls:
        pytest.skip(f"{uid} chooses neither a preset nor a dtype")
    for i in range(2):
        chosen = {}
        for control, select in controls.items():
            options = select.evaluate("el => [...el.options].map(o => o.value)")
            value = next((v for v in CHOSEN_STATES[control][i:] + CHOSEN_STATES[control] if v in options), options[-1])
            select.select_option(value)
            chosen[control] = value
        numbers = visible(root.locator("button.rl-why[data-why]"))[:6]
        assert numbers, uid
        preset = chosen.get("hw", chosen.get("gpu"))
        named = set()
        for button in numbers:
            keys = walked_keys(page, button)
            wrong = {(k, v) for k, v in keys if (k == "preset" and preset and v != preset)
                     or (k == "dtype" and "dtype" in chosen and v != chosen["dtype"])}
            assert not wrong, (uid, chosen, wrong)
            named |= keys
        assert ("preset", preset) in named, (uid, chosen, named)   # the walk reached the state's own keys
    assert not errors and not blocked, (errors, blocked)



def test_a_code_cells_call_reads_as_the_value_it_gave(tab):
    """measured's ranks and ρ come from a code cell's call (`code:page.ladder_section(note)`): the panel says the call
    gave them ("이 호출로 얻은 값"), not that the cell chose them ("정한 값", which only `code:name = value` says)."""
    docname = next(d for d in marked_pages() if d.endswith("measured"))
    data = records(docname)
    page, errors, blocked = tab(docname)
    shown = page.evaluate(VISIBLE)
    index = next(i for i, g in enumerate(data["g"]) if i in shown
                 and (o := data["r"][g["of"]].get("origin", "")).startswith("code:") and "=" not in o)
    page.locator(f'button.rl-why[data-why="{index}"]').click()
    text = wait_panel(page, data, index)
    page.keyboard.press("Escape")
    assert "이 호출로 얻은 값: " in text and "정한 값" not in text, text
    assert not errors and not blocked, (errors, blocked)


def parted() -> list[tuple[str, str]]:
    """The first page whose own records are in parts (uid "") and the first explorer whose are
    (coursebook.recordfiles)."""
    root, found = html_dir(), []
    pages = {d: (root / page_file(d)).read_text(encoding="utf-8") for d in toc_pages()}
    found += [(d, "") for d, html in pages.items() if "data-rl-why-parts=" in html][:1]
    found += [(d, uid) for d, uid in explorer_pages() if '"whyParts"' in pages[d]][:1]
    return found


@pytest.mark.parametrize("docname,uid", parted())
def test_a_first_panel_fetches_its_part_and_the_whole_file_follows(docname, uid, site_url, browser):
    """A first panel opens from its one part of the records (a few kilobytes), not the whole file (on an explorer, the
    part of the state that shows the number, not those of the other states on show); the whole file comes after it, and a number of another part (or of another state) then opens from it, fetching no part."""
    blocked: list[str] = []
    ctx = local_context(browser, site_url, blocked)
    try:
        page = ctx.new_page()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/_static/why/" in r.url or ".why." in r.url else None)
        page.goto(site_url + page_file(docname), wait_until="load")
        if uid:
            root = start_explorer(page.locator(f"#{uid}"))
            numbers, data = root.locator("button.rl-why[data-why]"), pool_of(docname, uid)
        else:
            numbers, data = page.locator(OWN), records(docname)
        first = visible(numbers)[0]
        if uid:
            pressed_panel(page, first, data)
        else:
            first.click()
            wait_panel(page, data, int(first.get_attribute("data-why")))
        parts = [u for u in asked if ".part" in u]
        assert len(set(parts)) == 1 and asked[0] in parts, f"the first panel did not open from its one part: {asked}"
        page.wait_for_function("() => performance.getEntriesByType('resource').some((e) => "
                               "/(\\/_static\\/why\\/[^/.]+|\\.why)\\.[0-9a-f]{12}\\.json$/.test(e.name) "
                               "&& e.responseEnd > 0)")
        page.keyboard.press("Escape")
        before = len(asked)
        if uid:
            move(page, root)
            again = visible(numbers)[0]
            pressed_panel(page, again, data)
        else:
            per = int(page.get_attribute("[data-rl-why-per]", "data-rl-why-per"))
            shown = page.evaluate(VISIBLE)
            other = next(i for i in reversed(shown) if i // per != int(first.get_attribute("data-why")) // per)
            page.locator(f'button.rl-why[data-why="{other}"]').click()
            wait_panel(page, data, other)
        assert not [u for u in asked[before:] if ".part" in u], f"a part fetched after the whole file: {asked[before:]}"
        assert not blocked, blocked
    finally:
        ctx.close()



def without_core() -> str:
    """The first page with marked numbers that loads no script importing core.js at once (why.js imports it only when
    a panel opens): its first press needs three files."""
    static = html_dir() / "_static"
    importing = [p.name for p in static.glob("*.js") if p.name not in ("why.js", "core.js")
                 and re.search(r"""from\s*["']\./core\.js""", p.read_text(encoding="utf-8"))]
    return next(d for d in marked_pages()
                if not any(f"_static/{name}" in (html_dir() / page_file(d)).read_text(encoding="utf-8") for name in importing))


def test_a_first_press_asks_for_all_it_needs_at_once(site_url, browser):
    """A press that nothing came near before (no pointer over the number: a script's click, a switch's activation)
    asks for all that its panel needs in one round: the panel's module, the number's records and core.js (which this
    page has not loaded), each before any has been answered. The answers are held until all three have been asked: a
    page that waited for one answer before asking for the next would never open the panel."""
    docname = without_core()
    blocked: list[str] = []
    ctx = local_context(browser, site_url, blocked)
    try:
        page = ctx.new_page()
        page.goto(site_url + page_file(docname), wait_until="load")
        page.wait_for_load_state("networkidle")
        loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        assert not [u for u in loaded if "/core.js" in u or "/why-panel.js" in u], loaded
        held, asked, released = [], [], []

        def hold(route):
            asked.append(route.request.url.split("/_static/")[1].split("?")[0])
            if released:
                route.continue_()
                return
            held.append(route)
            if len(held) == 3:
                released.append(True)
                for r in held:
                    r.continue_()

        page.route(re.compile(r"/_static/(why-panel\.js|core\.js|why/[^/?]+\.json)(\?|$)"), hold)
        page.evaluate(f"() => [...document.querySelectorAll('{OWN}')].filter((b) => b.checkVisibility())[0].click()")
        try:
            page.wait_for_selector("#rl-why-panel .rl-why-result", timeout=20000)
        except Exception as error:
            raise AssertionError(f"a first press asked for {asked} and waited for an answer before asking for more") \
                from error
        assert sorted(a.split("/")[0] for a in asked[:3]) == ["core.js", "why", "why-panel.js"], asked
        assert not blocked, blocked
    finally:
        ctx.close()
