"""Accessibility of the built site, in a real browser: axe-core (the copy bundled by axe-playwright-python)
on every page of _toc.yml, in light and dark mode on a desktop window and in light mode at a phone's
width, and a keyboard reader scrolling the wide tables.

No serious or critical violation may appear. A moderate or minor one must be fixed or listed in
ACCEPTED below with its reason; a listed rule that no page breaks any more is an error too, so the list
stays true.
"""
from __future__ import annotations

import dataclasses

import pytest

from browser_helpers import chromium, html_dir, offline, page_file, serve, toc_pages

PAGES = toc_pages()
MODES = {   # name: (viewport, theme)
    "light": ({"width": 1280, "height": 900}, "light"),
    "dark": ({"width": 1280, "height": 900}, "dark"),
    "phone": ({"width": 390, "height": 844}, "light"),
}
BLOCKING = {"serious", "critical"}
# rule id -> why it stays (moderate/minor only); empty while every such rule is fixed
ACCEPTED: dict[str, str] = {}

# the theme's colour mode before its own script runs (what its switch stores)
THEME = """(mode) => { localStorage.setItem("mode", mode); localStorage.setItem("theme", mode); }"""
# wait for the fonts and the theme's and the site's scripts (tab stops are set on load)
SETTLE = """async () => { await document.fonts.ready;
  await new Promise((ok) => setTimeout(ok, 400)); return document.documentElement.dataset.theme; }"""


@dataclasses.dataclass
class Audit:
    theme: str
    violations: list      # (rule id, impact, help, [targets])


def _axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


@pytest.fixture(scope="session")
def audits():
    """{(docname, mode): Audit} for every page of _toc.yml and every mode."""
    script = _axe_script()
    results = {}
    with serve(html_dir()) as base, chromium() as browser:
        for mode, (viewport, theme) in MODES.items():
            context = browser.new_context(viewport=viewport, color_scheme=theme)
            blocked: list[str] = []
            offline(context, base, blocked)
            context.add_init_script(f"({THEME})({theme!r})")
            for docname in PAGES:
                page = context.new_page()
                page.goto(base + page_file(docname), wait_until="load")
                shown = page.evaluate(SETTLE)
                page.evaluate(script)
                response = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
                results[docname, mode] = Audit(shown, [
                    (v["id"], v["impact"], v["help"], [" ".join(n["target"]) for n in v["nodes"]][:5])
                    for v in response["violations"]])
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


# ---- a keyboard reader scrolls a wide table ----

# The wide tables (those whose box is narrower than the table): each box's tab stop and accessible name.
WIDE = """() => [...document.querySelectorAll(".bd-article .pst-scrollable-table-container")]
  .filter((box) => box.scrollWidth > box.clientWidth + 1)
  .map((box) => ({tabIndex: box.tabIndex, role: box.getAttribute("role"), label: box.getAttribute("aria-label")}))"""
FOCUSED = """() => { const el = document.activeElement;
  return el && el.classList.contains("pst-scrollable-table-container") ?
    {label: el.getAttribute("aria-label"), scrollLeft: el.scrollLeft} : null; }"""


def _tab_to_table(page, limit=400):
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is not None:
            return focused
    return None


@pytest.mark.parametrize("width", [1280, 390])
def test_keyboard_scrolls_wide_tables(width):
    """On every page, every table wider than its box can be reached with Tab, has a name, and the arrow
    keys scroll it; at a phone's width some page must have such a table (the premise of the test)."""
    pages_with_wide = []
    with serve(html_dir()) as base, chromium() as browser:
        context = browser.new_context(viewport={"width": width, "height": 900})
        offline(context, base, [])
        for docname in PAGES:
            page = context.new_page()
            page.goto(base + page_file(docname), wait_until="load")
            page.wait_for_timeout(400)           # the theme's script sets the tab stops after load
            wide = page.evaluate(WIDE)
            if wide:
                pages_with_wide.append(docname)
                assert all(w["tabIndex"] == 0 for w in wide), f"{docname}: a wide table takes no keyboard focus: {wide}"
                labels = [w["label"] for w in wide]
                assert all(w["role"] == "region" and w["label"] and w["label"].startswith("표") for w in wide), wide
                assert len(set(labels)) == len(labels), f"{docname}: two tables share a name: {labels}"
                focused = _tab_to_table(page)
                assert focused is not None, f"{docname}: Tab never reaches a wide table"
                assert focused["label"] in labels
                before = focused["scrollLeft"]
                for _ in range(5):
                    page.keyboard.press("ArrowRight")
                after = page.evaluate(FOCUSED)
                assert after["scrollLeft"] > before, f"{docname}: the arrow key does not scroll the focused table"
            page.close()
        context.close()
    if width == 390:
        assert pages_with_wide, "no page has a table wider than a phone: the test checked nothing"
