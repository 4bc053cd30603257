"""Accessibility of the built site, in a real browser: axe-core (the copy bundled by axe-playwright-python)
on every page of _toc.yml with every folded answer opened: all rules in light mode on a desktop window,
the colour rules again in dark mode, the scrolling-box rule at a phone's width; and a keyboard reader
scrolling every table wider than its box (desktop and phone).

No serious or critical violation may appear. A moderate or minor one must be fixed or listed in
ACCEPTED below with its reason; a listed rule that no page breaks any more is an error too, so the list
stays true.
"""
from __future__ import annotations

import dataclasses

import pytest

from browser_helpers import chromium, html_dir, offline, page_file, serve, toc_pages

PAGES = toc_pages()
MODES = {   # name: (viewport, theme, the axe rules to run: None = all of them)
    "light": ({"width": 1280, "height": 900}, "light", None),
    # the same page in the other colours: only the rules whose outcome depends on colour (axe is slow)
    "dark": ({"width": 1280, "height": 900}, "dark", ["color-contrast", "link-in-text-block"]),
    # the same page in a narrow window: what changes is which boxes scroll (and the keyboard check below)
    "phone": ({"width": 390, "height": 844}, "light", ["scrollable-region-focusable"]),
}
KEYBOARD_MODES = ("light", "phone")       # the table widths differ by window, not by colour
BLOCKING = {"serious", "critical"}
# rule id -> why it stays (moderate/minor only); empty while every such rule is fixed
ACCEPTED: dict[str, str] = {}

# the theme's colour mode before its own script runs (what its switch stores)
THEME = """(mode) => { localStorage.setItem("mode", mode); localStorage.setItem("theme", mode); }"""
# Open every folded answer, as a reader who reads them does, once fonts and the theme's script (which sets
# the tab stops of scrolling boxes) have run.
SETTLE = """async () => {
  await document.fonts.ready;
  document.querySelectorAll(".toggle-hidden").forEach((el) => el.classList.remove("toggle-hidden"));
  document.querySelectorAll("details").forEach((el) => { el.open = true; });
  await new Promise((ok) => setTimeout(ok, 400));
  return document.documentElement.dataset.theme;
}"""
# The tables wider than their box: each box's tab stop and accessible name.
WIDE = """() => [...document.querySelectorAll(".bd-article .pst-scrollable-table-container")]
  .filter((box) => box.scrollWidth > box.clientWidth + 1)
  .map((box) => ({tabIndex: box.tabIndex, role: box.getAttribute("role"), label: box.getAttribute("aria-label")}))"""
# Put the focus on the last visible tab stop before the i-th wide table (as a reader who tabbed that far).
BEFORE = """(i) => {
  const box = [...document.querySelectorAll(".bd-article .pst-scrollable-table-container")]
    .filter((b) => b.scrollWidth > b.clientWidth + 1)[i];
  const stops = [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
    .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0 &&
                    getComputedStyle(el).visibility === "visible" &&
                    (box.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) && !box.contains(el));
  const last = stops[stops.length - 1];
  last.focus();
  return document.activeElement === last;
}"""
FOCUSED = """() => { const el = document.activeElement;
  return el && el.classList.contains("pst-scrollable-table-container") ?
    {label: el.getAttribute("aria-label"), scrollLeft: el.scrollLeft} : null; }"""


@dataclasses.dataclass
class Audit:
    theme: str
    violations: list                                    # (rule id, impact, help, [targets])
    wide_tables: list = dataclasses.field(default_factory=list)   # WIDE + what the keyboard did


def _axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def _keyboard(page, wide: list) -> list:
    """For each wide table: Tab from the tab stop before it, then the right arrow key."""
    for i, table in enumerate(wide):
        table["reached"] = table["scrolled"] = False
        if not page.evaluate(BEFORE, i):
            continue
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        table["reached"] = focused is not None and focused["label"] == table["label"]
        if not table["reached"]:
            continue
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        try:                                   # keyboard scrolling is animated: wait for it to move
            page.wait_for_function(f"() => document.activeElement.scrollLeft > {focused['scrollLeft']}",
                                   timeout=3000)
            table["scrolled"] = True
        except Exception:
            pass
    return wide


@pytest.fixture(scope="session")
def audits():
    """{(docname, mode): Audit} for every page of _toc.yml and every mode."""
    script = _axe_script()
    results = {}
    with serve(html_dir()) as base, chromium() as browser:
        for mode, (viewport, theme, rules) in MODES.items():
            options = {"resultTypes": ["violations"]}
            if rules:
                options["runOnly"] = {"type": "rule", "values": rules}
            context = browser.new_context(viewport=viewport, color_scheme=theme)
            blocked: list[str] = []
            offline(context, base, blocked)
            context.add_init_script(f"({THEME})({theme!r})")
            for docname in PAGES:
                page = context.new_page()
                page.goto(base + page_file(docname), wait_until="load")
                shown = page.evaluate(SETTLE)
                page.evaluate(script)
                response = page.evaluate("(options) => axe.run(document, options)", options)
                audit = results[docname, mode] = Audit(shown, [
                    (v["id"], v["impact"], v["help"], [" ".join(n["target"]) for n in v["nodes"]][:5])
                    for v in response["violations"]])
                if mode in KEYBOARD_MODES:
                    audit.wide_tables = _keyboard(page, page.evaluate(WIDE))
                page.close()
            context.close()
            assert blocked == [], f"requests outside the site: {sorted(set(blocked))[:5]}"
    return results


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("docname", PAGES)
def test_no_serious_or_critical_violation(audits, docname, mode):
    audit = audits[docname, mode]
    assert audit.theme == MODES[mode][1], f"{docname}: the page shows theme {audit.theme!r}, not {MODES[mode][1]!r}"
    bad = [v for v in audit.violations if v[1] in BLOCKING]
    assert bad == [], f"{docname} ({mode}): axe-core finds " + "; ".join(
        f"{rule} ({impact}): {text} at {targets}" for rule, impact, text, targets in bad)


def test_lesser_violations_fixed_or_listed(audits):
    found: dict[str, list] = {}
    for (docname, mode), audit in audits.items():
        for rule, impact, text, targets in audit.violations:
            if impact not in BLOCKING:
                found.setdefault(rule, []).append(f"{docname} ({mode}, {impact}): {text} at {targets}")
    unlisted = {rule: where for rule, where in found.items() if rule not in ACCEPTED}
    assert unlisted == {}, "fix these or list them in ACCEPTED with the reason:\n" + "\n".join(
        f"{rule}: {where[:3]}" for rule, where in unlisted.items())
    stale = sorted(set(ACCEPTED) - set(found))
    assert stale == [], f"listed in ACCEPTED but no page breaks them any more: {stale}"


@pytest.mark.parametrize("mode", KEYBOARD_MODES)
@pytest.mark.parametrize("docname", PAGES)
def test_keyboard_scrolls_wide_tables(audits, docname, mode):
    """Every table wider than its box is a named region that Tab reaches and the arrow keys scroll."""
    wide = audits[docname, mode].wide_tables
    labels = [t["label"] for t in wide]
    assert all(t["tabIndex"] == 0 for t in wide), f"{docname}: a wide table takes no keyboard focus: {wide}"
    assert all(t["role"] == "region" and t["label"] and t["label"].startswith("표") for t in wide), wide
    assert len(set(labels)) == len(labels), f"{docname}: two tables share a name: {labels}"
    assert [t["label"] for t in wide if not t["reached"]] == [], f"{docname} ({mode}): Tab does not reach"
    assert [t["label"] for t in wide if not t["scrolled"]] == [], f"{docname} ({mode}): arrow keys do not scroll"


def test_keyboard_check_has_tables(audits):
    """The keyboard check checks something: at a phone's width some page has a table wider than its box."""
    assert any(audits[d, "phone"].wide_tables for d in PAGES)
