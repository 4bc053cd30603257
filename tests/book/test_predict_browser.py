"""Predict first (issue 39) in headless Chromium: every explorer asks for the reader's guess before it shows the
model's answer.

For ②, ④, ⑤ and the week-3 note: predict mode on ("먼저 예측하기"), a control moved; the new state's headline values
are neither in the explorer's text nor in its accessibility tree (the hidden fields and table cells read "?", the plot
is out); a wrong guess, a right guess and a guess equal to a common mistake are committed, each after a move; the
page then shows the model's value as the library writes it for that state, the error as `predict.error_text` writes
it, the library's why sentence and the mistake by name; the reader's record keeps every guess and the mode survives a
reload. Then keyboard only at 390 px, and axe-core with the guess pending and after it. The expectations are computed
here from the page modules for the state the controls show, never typed (any term).

While a guess waits, no other place on the page shows a waiting value or a value it is computed from in one step
(issue 55): neither the whole page's text nor its accessibility tree has them, in the forms the library writes them
(`predict.number`'s shown and inputs), and after the guess the page is as it was.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from browser_helpers import (
    ASKS,
    axe_violations,
    label_page,
    local_context,
    page_file,
    slide_to_other_end,
    start_explorer,
    step_until,
)
from roofline.problems import powers_of_two
from roofline.show import exercises as ex
from roofline.show import predict as pr
from roofline.show.pages import w4_2_roofline, w4_4_tile_size, w4_5_matmul, week3_vector_add

pytestmark = pytest.mark.heavy(40)

PAGES = {"roofline": "ch-roofline", "tile": "ch-tile-size", "matmul": "ch-matmul", "vector": "ch-week3"}
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


# What the checks read of an explorer, in one call (each locator call is a round trip through the driver to the page):
# the inner text of each element of each field named, the cells of each row of each table named, and each result
# item of each quantity named (its text, verdict, why, error and mistakes).
READ = """(root, [fields, tables, quantities]) => {
  const all = (selector, within = root) => [...within.querySelectorAll(selector)];
  const texts = (selector, within) => all(selector, within).map((el) => el.innerText);
  return {
    fields: Object.fromEntries(fields.map((name) => [name, texts(`[data-rl-field="${name}"]`)])),
    tables: Object.fromEntries(tables.map((name) => [name,
      all(`[data-rl-table="${name}"] tr`).map((tr) => texts("td", tr))])),
    results: Object.fromEntries(quantities.map((id) => [id, all(`.rl-predict-result[data-quantity="${id}"]`)
      .map((item) => ({text: item.innerText, verdict: item.dataset.verdict, why: texts(".rl-predict-why", item),
                       error: texts(".rl-predict-error", item),
                       mistakes: all(".rl-predict-mistake", item).map((m) => ({kind: m.dataset.kind, text: m.innerText})),
      }))])),
  };
}"""


def expected(course, name: str, values: dict) -> tuple[dict, dict]:
    """(the predict part, the fields the page shows after the guess) of the state the controls name."""
    w4, w3 = course.week4, course.week3
    if name == "roofline":
        state = w4_2_roofline.roofline_state(w4.with_(hardware=values["hw"], dtype=values["dtype"]))
        return state["predict"], state["fields"]
    if name == "tile":
        p = w4.with_(gpu=values["gpu"])
        T, copies = int(values["T"]), int(values["copies"])
        state = w4_4_tile_size.tile_state(p, T, copies)
        return state["predict"], state["fields"]
    if name == "matmul":
        N, T = int(values["N"]), int(values["T"])
        p = w4 if N == w4.N else w4.with_(N=N, tiles=powers_of_two(N))
        state = w4_5_matmul.matmul_state(p, T)
        return state["predict"], state["fields"]
    kP, kBW, kcap = (Fraction(values[k]) for k in ("P", "BW", "cap"))
    state = week3_vector_add.vector_state(w3, kP, kBW, kcap)
    return state["predict"], state["fields"]


def typed(x: Fraction) -> str:
    """A value as a reader types it (10 significant digits)."""
    return f"{float(x):.10g}"


def value_of(text: str, unit: str) -> Fraction:
    return ex.read(text).value * ex.UNITS[unit].size


@pytest.fixture(scope="module")
def tabs(site_url, browser):
    """One tab per width for the module (its own context, nothing leaving 127.0.0.1, reduced motion: what a move
    changes would light up for 600 ms and repaint the page, and the highlight is test_explorer.py's to check). A new
    tab starts a renderer process, and axe-core's first run in one compiles its script: each test opens its page in the
    width's tab instead, as a new load with an empty record (the reader's record is cleared before it)."""
    opened: dict = {}

    def get(viewport: dict):
        if viewport["width"] not in opened:
            blocked: list[str] = []
            context = local_context(browser, site_url, blocked, viewport=viewport, reduced_motion="reduce")
            opened[viewport["width"]] = context.new_page(), blocked
        return opened[viewport["width"]]

    yield get
    for page, _ in opened.values():
        page.context.close()


@pytest.fixture
def open_page(tabs, site_url, course):
    """open_page(name, viewport): the explorer `name`'s page, loaded in that width's tab (its errors and blocked
    requests are this test's)."""
    made: list[Page] = []

    def open_(name: str, viewport: dict = DESKTOP) -> Page:
        made.append(Page(*tabs(viewport), site_url, name, course))
        return made[-1]

    yield open_
    for p in made:
        p.close()


class Page:
    def __init__(self, page, blocked, base, name, course):
        self.name, self.course, self.page = name, course, page
        self.blocked, self.errors = blocked, []
        self.blocked.clear()
        url = base + page_file(label_page(PAGES[name]))
        if page.url.startswith(base):            # the last test's record (answers, predictions, modes) is not this one's
            page.evaluate("() => localStorage.clear()")
        self.listeners = {"console": lambda m: self.errors.append(m.text) if m.type == "error" else None,
                          "pageerror": lambda e: self.errors.append(f"page error: {e}")}
        for event, listener in self.listeners.items():
            page.on(event, listener)
        if page.url.split("#")[0] == url:        # (a goto to the same address and another #… would not load it)
            page.reload(wait_until="load")
        else:
            page.goto(url, wait_until="load")
        self.root = self.page.locator(f"#rl-{name}")
        start_explorer(self.root)

    def close(self):
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)

    def values(self) -> dict:
        return self.root.evaluate("(root) => ({...root.rlExplorer.values})")

    def toggle(self):
        return self.root.locator(".rl-predict-toggle")

    def move(self, step: int):
        """Move the explorer's first control one step to a state with something to guess (another option each time;
        a range to the end it is not at, or the nearest state to it that asks: `slide_to_other_end`)."""
        control = self.root.locator("[data-rl-control]").first
        if self.name == "roofline":
            options = control.evaluate("(s) => [...s.options].map((o) => o.value)")
            current = control.input_value()
            control.select_option([o for o in options if o != current][step % (len(options) - 1)])
        else:
            slide_to_other_end(self.root, control, asking=True)
        self.page.wait_for_selector(f"#rl-{self.name} .rl-predict-form")

    def hidden_check(self, part: dict, fields: dict):
        """Before the guess: no headline value in the text or the accessibility tree."""
        text = self.root.inner_text()
        tree = self.root.aria_snapshot()
        shown = self.read(part)
        for name in part["hide"]["fields"]:
            for each in shown["fields"][name]:
                assert each == "?", (self.name, name, each)
        for q in part["questions"]:
            if q["kind"] == "number" and "." in q["shown"]:   # short ones ("8개") are checked as their fields
                assert q["shown"] not in text and q["shown"] not in tree, (self.name, q["id"], q["shown"])
        for name in part["hide"]["plots"]:
            assert self.root.locator(f'[data-rl-plot="{name}"]').is_hidden()
        for table, cols in part["hide"]["tables"].items():
            for cells in shown["tables"][table]:
                assert all(cells[c] == "?" for c in cols), (self.name, table, cells)
        return text

    def read(self, part: dict) -> dict:
        """What the checks read of the explorer for `part` (READ), in one call."""
        return self.root.evaluate(READ, [part["hide"]["fields"], list(part["hide"]["tables"]),
                                         [q["id"] for q in part["questions"]]])

    def guess(self, q: dict, text: str):
        box = self.root.locator(".rl-predict-form fieldset").filter(has_text=q["ask"])
        box.locator("input[type=text]").fill(text)

    def commit(self):
        self.root.locator(".rl-predict-check").click()
        self.page.wait_for_selector(f"#rl-{self.name} .rl-predict-results")

    def axe(self) -> list:
        """axe-core, every rule, on the explorer (the rest of the page is the site visits', test_site_browser.py)."""
        return axe_violations(self.page, [f"#rl-{self.name}"])


def numbers(part):
    return [q for q in part["questions"] if q["kind"] == "number"]


def check_revealed(p: Page, part: dict, fields: dict, guessed: dict):
    """After the guess: the model's value, the error, the why and the mistake as the library writes them."""
    shown = p.read(part)
    for q in part["questions"]:
        items = shown["results"][q["id"]]
        assert len(items) == 1, (q["id"], items)
        item = items[0]
        assert f"모델: {q['shown']}." in item["text"]
        assert item["why"] == [q["why"]]
        if q["id"] in guessed:
            text, unit, mistake = guessed[q["id"]]
            error = pr.error_text(value_of(text, unit), pr.exact(q["answer"]))
            assert item["error"] == [f"오차 {error}."], q["id"]
            right = pr.right(value_of(text, unit), pr.exact(q["answer"]))
            assert item["verdict"] == ("right" if right else "wrong")
            if mistake:
                assert len(item["mistakes"]) == 1 and item["mistakes"][0]["kind"] == mistake["kind"]
                assert mistake["name"] in item["mistakes"][0]["text"]
            elif right:
                assert item["mistakes"] == []
    for name in part["hide"]["fields"]:
        for each in shown["fields"][name]:
            assert " ".join(each.split()) == " ".join(fields[name].replace("\u00a0", " ").split()), name


@pytest.mark.parametrize("name", list(PAGES))
def test_predict_first(open_page, course, name):
    p = open_page(name)
    p.page.evaluate("() => window.rlProgress.reset()")
    assert p.toggle().get_attribute("aria-pressed") == "false"
    assert p.root.locator(".rl-predict").count() == 0          # off: the explorer as it was
    p.toggle().click()
    p.page.wait_for_selector(f"#rl-{name} .rl-predict")
    committed = 0
    for step, kind in enumerate(("wrong", "right", "mistake")):
        p.move(step)
        part, fields = expected(course, name, p.values())
        p.hidden_check(part, fields)
        if step == 0:
            assert p.axe() == [], f"{name}: axe-core with the guess pending"
        qs = numbers(part)
        guessed = {}
        if kind == "wrong":
            q = qs[0]
            text = typed(pr.exact(q["answer"]) * 3 / ex.UNITS[q["unit"]].size)
            guessed[q["id"]] = (text, q["unit"], None)
            p.guess(q, text)
            choice = next((c for c in part["questions"] if c["kind"] == "choice"), None)
            if choice:                                              # the right choice, by its label
                p.root.locator(".rl-predict-form fieldset").filter(has_text=choice["ask"]).get_by_label(
                    dict(map(tuple, choice["choices"]))[choice["answer"]]).check()
                committed += 1
        elif kind == "right":
            for q in qs:
                text = typed(pr.exact(q["answer"]) / ex.UNITS[q["unit"]].size)
                guessed[q["id"]] = (text, q["unit"], None)
                p.guess(q, text)
        else:
            q = next((q for q in qs if q["mistakes"]), None)
            if q is None:
                pytest.skip(f"{name}: no mistake differs from the answer in this state")
            m = q["mistakes"][0]
            text = typed(pr.exact(m["value"]) / ex.UNITS[q["unit"]].size)
            guessed[q["id"]] = (text, q["unit"], m)
            p.guess(q, text)
        committed += len(guessed)
        p.commit()
        check_revealed(p, part, fields, guessed)
        if step == 0:
            assert p.axe() == [], f"{name}: axe-core after the guess"
    record = p.root.locator(".rl-predict-record").inner_text()
    assert record.startswith(f"예측 {committed}번, 평균 오차 ")
    kept = p.page.evaluate("(page) => window.rlProgress.predictions(page)", page_file(label_page(PAGES[name]))
                           .rsplit("/", 1)[-1].removesuffix(".html"))
    assert len(kept) == committed and {k["explorer"] for k in kept} == {name}

    p.page.reload(wait_until="load")                               # the mode and the record are kept
    p.root = p.page.locator(f"#rl-{name}")
    start_explorer(p.root)
    p.page.wait_for_selector(f"#rl-{name} .rl-predict")
    assert p.toggle().get_attribute("aria-pressed") == "true"
    assert p.root.locator(".rl-predict-record").inner_text().startswith(f"예측 {committed}번")
    p.toggle().click()                                              # off again: every value as today
    assert p.root.locator(".rl-predict").count() == 0
    assert "?" not in p.root.locator("[data-rl-field]").all_inner_texts()
    assert p.errors == [] and p.blocked == []


def leak_forms(part: dict) -> set[str]:
    """What must not be on the page while `part` waits: each number question's value and its one-step inputs as the
    library writes them ("8.657043 ms"), and the bare number where it has four digits or more ("8.657043")."""
    found = set()
    for q in numbers(part):
        for text in [q["shown"], *q.get("inputs", [])]:
            found.add(text.replace("\u00a0", " "))
            bare = re.split(r"[ \u00a0]", text)[0]
            if len(re.sub(r"[^0-9]", "", bare)) >= 4:
                found.add(bare)
    return found


def leaked(forms: set[str], text: str) -> list[str]:
    """The forms that `text` has as a whole number (no digit, or point or comma and a digit, on either side)."""
    text = re.sub(r"[\u00a0\u202f]", " ", text)
    return sorted(f for f in forms if re.search(rf"(?<![0-9])(?<![0-9][.,]){re.escape(f)}(?![0-9]|[.,][0-9])", text))


@pytest.mark.parametrize("name", list(PAGES))
def test_nothing_waiting_can_be_read_elsewhere_on_the_page(open_page, course, name):
    """Content review 5, item 21: ② asked I, which its table shows; ④'s H100 states were in the tables above; week 3
    with only P moved hid a time the text shows. For each explorer, after each of three moves in predict mode."""
    p = open_page(name)
    p.page.evaluate("() => window.rlProgress.reset()")
    before = p.page.locator("body").inner_text()
    p.toggle().click()
    p.page.wait_for_selector(f"#rl-{name} .rl-predict")
    for step in range(3):
        p.move(step)
        part, fields = expected(course, name, p.values())
        forms = leak_forms(part)
        assert forms, (name, "a number to guess")
        text = p.page.locator("body").inner_text()
        tree = p.page.locator("body").aria_snapshot()
        assert leaked(forms, text) == [] and leaked(forms, tree) == [], (name, p.values(), leaked(forms, text + tree))
        q = numbers(part)[0]
        p.guess(q, typed(pr.exact(q["answer"]) / ex.UNITS[q["unit"]].size))
        p.commit()
        check_revealed(p, part, fields, {})
    p.toggle().click()                                              # off: the page as it was, every masked number back
    assert p.page.locator("body").inner_text().count("?") <= before.count("?")
    assert p.errors == [] and p.blocked == []


@pytest.mark.parametrize("name", list(PAGES))
def test_predict_by_keyboard_on_a_phone(open_page, course, name):
    p = open_page(name, PHONE)
    p.page.evaluate("() => window.rlProgress.reset()")
    p.toggle().focus()
    p.page.keyboard.press("Enter")
    p.page.wait_for_selector(f"#rl-{name} .rl-predict")
    control = p.root.locator("[data-rl-control]").first
    control.focus()
    if name == "roofline":
        p.page.keyboard.press("ArrowDown")
    else:
        slide_to_other_end(p.root, control, asking=True)
    p.page.wait_for_selector(f"#rl-{name} .rl-predict-form")
    part, fields = expected(course, name, p.values())
    p.hidden_check(part, fields)
    for _ in range(12):                                             # Tab to the first box of the form
        p.page.keyboard.press("Tab")
        if p.page.evaluate("() => !!document.activeElement.closest('.rl-predict-form')"):
            break
    q = numbers(part)[0]
    while p.page.evaluate("() => document.activeElement.type") != "text":
        p.page.keyboard.press("Tab")
    text = typed(pr.exact(q["answer"]) / ex.UNITS[q["unit"]].size)
    p.page.keyboard.type(text)
    p.page.keyboard.press("Enter")                                  # submits the form
    p.page.wait_for_selector(f"#rl-{name} .rl-predict-results")
    assert p.page.evaluate("() => document.activeElement.className") == "rl-predict-done"
    check_revealed(p, part, fields, {q["id"]: (text, q["unit"], None)})
    wide = p.page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"{name}: the page is {wide} px wide at 390 px"
    assert p.axe() == []
    assert p.errors == [] and p.blocked == []


def test_a_shared_link_opens_in_the_readers_mode(open_page, course):
    """A state link (#roofline.hardware=…) opened by a reader with predict mode on: the linked state waits for the
    guess; with the mode off, it shows at once (as today)."""
    w4 = course.week4
    key = next(k for k, p in course.presets.items() if k != w4.hardware and w4.dtype in p.peak)
    p = open_page("roofline")
    p.page.evaluate("() => { window.rlProgress.reset(); window.rlProgress.setMode(location.pathname.split('/').pop()"
                    ".replace(/\\.html$/, ''), 'predict', true); }")
    link = f"{p.page.url.split('#')[0]}#roofline.hardware={key}&roofline.dtype={w4.dtype}"
    p.page.goto(link, wait_until="load")
    p.page.reload(wait_until="load")                                # the same page: only its address changed
    p.root = p.page.locator("#rl-roofline")
    start_explorer(p.root)
    p.page.wait_for_selector("#rl-roofline .rl-predict-form")
    assert p.values() == {"hw": key, "dtype": w4.dtype}
    part, fields = expected(course, "roofline", p.values())
    p.hidden_check(part, fields)
    p.toggle().click()                                              # off: the linked state's values at once
    assert p.root.locator(".rl-predict").count() == 0
    want = w4_2_roofline.roofline_state(w4.with_(hardware=key, dtype=w4.dtype))["tables"]["cases"]["rows"]
    shown = [[" ".join(c.split()) for c in row.locator("td").all_inner_texts()]
             for row in p.root.locator('[data-rl-table="cases"] tr').all()]
    assert shown == [[" ".join(c.replace("\u00a0", " ").split()) for c in row] for row in want]
    assert p.errors == [] and p.blocked == []


def test_a_state_that_asks_nothing_says_so(open_page, course):
    """④ in predict mode moved to a tile whose values the page's tables already show (a tile of the problem on its
    GPU): no form and no "?", and the box says why instead of promising a hidden answer."""
    p = open_page("tile")
    p.page.evaluate("() => window.rlProgress.reset()")
    p.toggle().click()
    p.page.wait_for_selector("#rl-tile .rl-predict")
    p.move(0)
    control = p.root.locator("[data-rl-control]").first
    toward = "ArrowLeft" if control.evaluate("(r) => r.value !== r.min") else "ArrowRight"
    if not step_until(control, toward, lambda: not p.root.evaluate(ASKS)):
        pytest.skip("every tile of the range asks something in this term")
    assert p.root.locator(".rl-predict-form").count() == 0
    assert "?" not in p.root.locator("[data-rl-field]").all_inner_texts()
    assert "새로 물을 값이 없다" in p.root.locator(".rl-predict-hint").inner_text()
    assert p.errors == [] and p.blocked == []
