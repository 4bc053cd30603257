"""Golden files of the glued values: every page's glue records at the seed parameters, as the library gives them.

`python tests/golden_values.py` writes tests/golden/<page>.json (glue key → {mime: text}) from the current code;
tests/pages/test_every_page.py recomputes every page's file in-process (no Sphinx build, no kernel) and compares
byte for byte. A refactoring of roofline.show must leave them unchanged; a deliberate change to a page's words
rewrites its file.
Figures are kept as their glued text (the fingerprint of what they plot), not as PNG bytes (which differ across
machines); values measured on the running machine are kept by key only (null).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "golden"
SEED_TOML = HERE / "seed" / "course.toml"
SKIPPED_MIMES = {"image/png"}


def glued_pages() -> list[str]:
    """The pages whose source glues values, in the book's order."""
    sys.path.insert(0, str(HERE))
    from site_pages import toc_pages

    return [Path(p).name for p in toc_pages(ROOT) if "{glue" in (ROOT / f"{p}.md").read_text(encoding="utf-8")]


def golden(stem: str) -> dict[str, dict[str, str] | None]:
    """glue key → {mime: payload} of page `stem` run at the seed parameters (None: measured on this machine)."""
    from coursebook import editions

    glued = editions.recompute(ROOT / "chapters" / f"{stem}.md", course_path=SEED_TOML, measured=True)
    return {key: None if key in glued.measured else
            {mime: payload for mime, payload in sorted(bundle.items()) if mime not in SKIPPED_MIMES}
            for key, bundle in sorted(glued.items())}


def text(values: dict) -> str:
    return json.dumps(values, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main(stems: list[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for stem in stems or glued_pages():
        (GOLDEN / f"{stem}.json").write_text(text(golden(stem)), encoding="utf-8")
        print(f"wrote tests/golden/{stem}.json")


if __name__ == "__main__":
    main(sys.argv[1:])
