"""Build steps that are pure functions of bytes, kept by the digest of those bytes.

`made(step, make, *inputs)` returns `make()`'s bytes, kept in `_build/.kept/<step>/<digest of the inputs>`: the next
build (and a copy of the checkout whose _build has the folder, tests/course_copies.py) reads them instead of making
them again. The steps kept are slow ones that depend only on what they are given: a figure's lossless WebP
(coursebook.assets.webp_if_smaller), the theme's stylesheets cut to the words the pages use (assets.purge_css), the
math font cut to the characters in use (coursebook.mathml), the icon fonts cut to the icons in use (coursebook.icons),
the scripts terser compacted (coursebook.minify) and the course's figures drawn for a problem
(coursebook.__main__.drawn).
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
