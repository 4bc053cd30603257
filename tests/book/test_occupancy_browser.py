"""④'s static explorer in headless Chromium: every state the controls reach (T, buffering, GPU, with the problem's
threads and registers allowance; other values are the live mode's, tests/book/test_live_browser.py) shows the resident
blocks, active warps, occupancy and binding limit of roofline.occupancy (the one function), and never more blocks
than the SM holds.

The page's own script is driven: each control is set the way the page listens to it (a range's `input`, a
select's or a radio's `change`) for every combination, and the shown cells are read back. The expected
values are computed here from the model, not read from the page's data.
"""
from __future__ import annotations

import pytest

from browser_helpers import chromium, html_dir, label_page, serve, start_explorer
from roofline import occupancy
from roofline.show import fmt
from roofline.show.pages import w4_4_tile_size

# Every combination of the controls, through the page's event handlers; the shown cells of each.
WALK = r"""(root) => {
  const norm = (s) => s.replace(/\u00a0/g, " ").replace(/\s+/g, " ").trim();
  const ctl = (name) => [...root.querySelectorAll(`[data-rl-control="${name}"]`)];
  const range = ctl("T")[0], radios = ctl("copies"), gpu = ctl("gpu")[0];
  const field = (name) => norm(root.querySelector(`[data-rl-field="${name}"]`).textContent);
  const set = (el, value, type) => { el.value = value; el.dispatchEvent(new Event(type, {bubbles: true})); };
  const seen = [];
  for (const g of [...gpu.options].map((o) => o.value)) {
    set(gpu, g, "change");
    for (const radio of radios) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", {bubbles: true}));
      for (let i = 0; i <= Number(range.max); i++) {
        set(range, String(i), "input");
        seen.push({gpu: g, threads: field("threads"), extra: field("extra"), copies: radio.value,
                   T: norm(root.querySelector('[data-rl-output="T"]').textContent),
                   blocks: field("blocks"), warps: field("warps"), occupancy: field("occupancy"),
                   binding: field("binding"), limit: field("lim-blocks"), verdict: field("verdict")});
      }
    }
  }
  return seen;
}"""


@pytest.fixture(scope="module")
def shown():
    with serve(html_dir()) as base, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}{label_page('ch-tile-size')}.html")
        root = page.locator("#rl-tile")
        start_explorer(root)
        states = root.evaluate(WALK)
        page.close()
    assert errors == []
    return states


def test_every_state_is_the_models_and_within_the_hardware(shown, course):
    w4 = course.week4
    options = w4_4_tile_size.tile_options(w4)
    assert {(s["threads"], s["extra"]) for s in shown} == {(fmt.integer(w4.threads), fmt.integer(w4.extra_registers))}
    assert len(shown) == options.count and len({(s["gpu"], s["threads"], s["extra"], s["copies"], s["T"]) for s in shown}) == len(shown)
    names = {"warps": "워프 수", "registers": "레지스터", "smem": "Shared Memory", "blocks": "블록 수"}
    above, checked = [], 0
    for s in shown:
        preset = course.presets[s["gpu"]]
        case = occupancy.tile_case(preset, int(s["T"].replace(",", "")), w4.s, int(s["copies"]), int(s["threads"].replace(",", "")),
                                   int(s["extra"].replace(",", "")))
        r = case.result
        if r is None:   # over a per-block or per-thread cap: no number, the reason instead
            assert (s["blocks"], s["occupancy"]) == ("—", "—") and "넘" in s["verdict"], s
            with pytest.raises(occupancy.ParameterError):
                occupancy.occupancy(preset, case.threads, case.registers, case.smem)
            continue
        blocks = int(s["blocks"].replace(",", ""))
        if blocks > preset.sm.blocks:
            above.append(s)
        assert blocks == r.blocks, s
        assert s["warps"] == f"{fmt.integer(r.warps)} / {fmt.integer(r.max_warps)}", s
        assert s["occupancy"] == fmt.percent(r.occupancy, 1), s
        assert s["binding"] == "·".join(names[k] for k in r.binding), s
        assert s["limit"] == fmt.integer(preset.sm.blocks), s
        checked += 1
    assert above == [], f"{len(above)} of {len(shown)} states show more blocks than the SM holds"
    print(f"\n④ explorer in Chromium: {len(shown)} states, {checked} with a result equal to the model's, 0 above the SM's cap")
