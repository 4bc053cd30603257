"""Build steps that are pure functions of bytes, kept by the digest of those bytes.

`made(step, make, *inputs)` returns `make()`'s bytes, kept in `_build/.kept/<step>/<digest of the inputs>`: the next
build (and a copy of the checkout whose _build has the folder, tests/course_copies.py) reads them instead of making
them again. The steps kept are slow ones that depend only on what they are given: a figure's lossless WebP
(coursebook.assets.webp_if_smaller), the theme's stylesheets cut to the words the pages use (assets.purge_css), the
math font cut to the characters in use (coursebook.mathml) and the icon fonts cut to the icons in use
(coursebook.icons), both by `font_cut`, the scripts terser compacted (coursebook.minify) and the course's figures
drawn for a problem (coursebook.__main__.drawn).
Each caller puts in `inputs` everything the bytes depend on, the tool's version included.

A kept file starts with the sha256 of the rest: a damaged or truncated file is not believed, and is made again. A
file is written whole or not at all (two builds at once write the same bytes), and a disk that refuses the write
only costs the next build the work. (`ROOFLINE_KEPT`: another folder, as tests/flows/test_reproducible.py's second
build uses so that it makes every step again.)
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEPT = Path(os.environ.get("ROOFLINE_KEPT") or ROOT / "_build" / ".kept")   # (a test's clean build: a folder of its own)


def digest(*inputs: bytes) -> str:
    """One digest of several byte strings (each with its length: ("ab", "c") is not ("a", "bc"))."""
    h = hashlib.sha256()
    for part in inputs:
        h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()


def made(step: str, make: Callable[[], bytes], *inputs: bytes, folder: Path | None = None) -> bytes:
    """`make()`, or what it gave for the same `inputs` before."""
    path = (folder or KEPT) / step / digest(*inputs)
    try:
        data = path.read_bytes()
        if hashlib.sha256(data[32:]).digest() == data[:32]:
            return data[32:]
    except OSError:   # not kept yet
        pass
    out = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        partial.write_bytes(hashlib.sha256(out).digest() + out)
        partial.replace(path)
    except OSError:
        pass
    return out


def font_cut(step: str, font: bytes, chars: str, flavor: str, all_features: bool = False, *inputs: bytes) -> bytes:
    """`subset_font(...)`, kept under `step` by the font's bytes, the characters, fontTools' version, the options and
    the caller's `inputs`."""
    import fontTools

    return made(step, lambda: subset_font(font, chars, flavor, all_features), font, chars.encode(),
                fontTools.version.encode(), flavor.encode(), b"all" if all_features else b"", *inputs)


def subset_font(font: bytes, chars: str, flavor: str, all_features: bool = False) -> bytes:
    """The font `font` cut to `chars` by fontTools' subsetter, as `flavor` ("woff", "woff2"), with every OpenType
    layout feature when `all_features` (a math font's stretchy and script forms). The source font's dates are kept:
    the same bytes every build."""
    import io

    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = flavor
    options.notdef_outline = True
    if all_features:
        options.layout_features = ["*"]
    face = TTFont(io.BytesIO(font), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(face)
    face.flavor = flavor
    out = io.BytesIO()
    face.save(out)
    return out.getvalue()
