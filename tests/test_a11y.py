"""Accessibility of the built site, in a real browser: axe-core (the copy bundled by axe-playwright-python)
on every page of _toc.yml with every folded answer opened: all rules in light mode on a desktop window,
the colour rules again in dark mode, the scrolling-box rule at a phone's width; and a keyboard reader
scrolling every table wider than its box (desktop and phone).

No serious or critical violation may appear. A moderate or minor one must be fixed or listed in
ACCEPTED below with its reason; a listed rule that no page breaks any more is an error too, so the list
stays true.
"""
from __future__ import annotations

import pytest

from browser_helpers import MODES, toc_pages

PAGES = toc_pages()
KEYBOARD_MODES = tuple(mode for mode, m in MODES.items() if m.keyboard)   # the table widths differ by window
BLOCKING = {"serious", "critical"}
# rule id -> why it stays (moderate/minor only); empty while every such rule is fixed
ACCEPTED: dict[str, str] = {}


class Audits:
    """audits[(docname, mode)]: the session's visit of that page in that mode (tests/browser_helpers.py), which ran
    axe-core with every folded answer open: all rules in light mode, the colour rules in dark mode, the
    scrolling-box rule at a phone's width; and walked every wide table with the keyboard (light and phone)."""

    def __init__(self, visits):
        self.visits = visits

    def __getitem__(self, key):
        return self.visits[key]

    def items(self):
        return [((docname, mode), self.visits[docname, mode]) for docname in PAGES for mode in MODES]


@pytest.fixture(scope="session")
def audits(visits):
    return Audits(visits)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("docname", PAGES)
def test_no_serious_or_critical_violation(audits, docname, mode):
    audit = audits[docname, mode]
    assert audit.theme == MODES[mode].theme, f"{docname}: the page shows theme {audit.theme!r}, not {MODES[mode].theme!r}"
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
