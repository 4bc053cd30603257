"""Math drawn at build time: every formula of the site becomes MathML in the page, so a reader's browser
draws it with no script (MathJax was 1.2 MB of JavaScript on every page).

- TeX → MathML is latex2mathml's. Its gaps that this site's formulas meet are bridged here, each in
  one line of `_PRE`/`_POST`: `aligned` is drawn as `split` (the same right/left column pairs),
  `gathered` as one centred display-style column, `\\\\[4pt]` loses its extra space, `4{,}096` stays
  one number, `\\iff` is a spaced relation, `\\min(`/`\\max(`, `\\log x` and `a/b` get TeX's spacing, `\\tilde`
  is an accent, and `\\!` is dropped (MathML Core has no negative space).
- The font is STIX Two Math (shipped inside the ziamath package), cut down at the end of the build to
  the characters the pages' formulas use (with their MATH-table size variants, so braces, roots and
  fences still stretch): `_static/math/stix-two-math.woff2`, a few dozen KB, the same drawing on every
  reader's machine. `_static/math/math.css` holds its @font-face; `_static/math.css` (a source file)
  does the layout that Chromium's MathML Core leaves to CSS (column alignment of `split`).
- A formula latex2mathml cannot read is a build warning (= error) naming the page and the TeX.

Site tooling: `import roofline` does not import this module.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from docutils import nodes
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

from coursebook import kept

logger = logging.getLogger(__name__)

FONT_FAMILY = "Roofline STIX Two Math"
FONT_FILE = "math/stix-two-math.woff2"   # WOFF2 (brotli): a quarter smaller than WOFF, read by every browser with MathML
CSS_FILE = "math/math.css"

# TeX rewrites before latex2mathml (see the module docstring)
_PRE = [
    (re.compile(r"\\(begin|end)\{aligned\}"), r"\\\1{split}"),
    (re.compile(r"\\(begin|end)\{gathered\}"), r"\\\1{matrix}"),
    (re.compile(r"\\\\\[[^\]]*\]"), r"\\\\"),
    (re.compile(r"\\iff\b"), r"\\;\\Longleftrightarrow\\;"),           # TeX's own definition of \iff
]
# MathML rewrites after it
_POST = [
    (re.compile(r"<mn>(\d+)</mn><mrow><mo>&#x0002C;</mo></mrow>(?=<mn>|<msup><mn>)"), r"<mn>\1,</mn>"),
    (re.compile(r"<mi>(&#x027FA;|&#x027F9;|&#x027F8;)</mi>"), r"<mo>\1</mo>"),
    (re.compile(r"<mo>&#x0002F;</mo>"), r'<mo lspace="0" rspace="0">&#x0002F;</mo>'),    # a/b: "/" is no operator in TeX
    # \tilde: an accent (close above its letter), not a "~" set over it
    (re.compile(r'(<mover>.*?)<mo stretchy="false">&#x0007E;</mo></mover>'), r'\1<mo>&#x002DC;</mo></mover>'),
    (re.compile(r"<mover>(?=(?:(?!</mover>).)*<mo>&#x002DC;</mo></mover>)"), r'<mover accent="true">'),
    (re.compile(r"<mtable>"), r'<mtable displaystyle="true">'),   # only `gathered` makes a bare mtable
    # \min, \max as TeX sets them: upright names, no operator space before "(" (limits under them stay)
    (re.compile(r"(?<!<munder>)<mo>(min|max)</mo>"), r"<mi>\1</mi>"),
    # \log x: TeX's thin space between the name and its argument
    (re.compile(r"<mi>(log|ln|exp)</mi>(?!<mo stretchy=\"false\">&#x00028;)"), r'<mi>\1</mi><mspace width="0.1667em" />'),
    (re.compile(r'<mspace width="negative\w+" />'), ""),           # \! (MathML Core has no negative space)
]
_JOIN_NUMBER = re.compile(r"<mn>([\d,]+,)</mn>(<msup>)?<mn>([\d,]+)</mn>")


def to_mathml(tex: str, display: bool) -> str:
    """MathML for one TeX formula (inline or display). Raises on TeX that latex2mathml cannot read."""
    from latex2mathml.converter import convert

    source = tex.strip()
    for pattern, repl in _PRE:
        source = pattern.sub(repl, source)
    if display and r"\\" in source and not re.search(r"\\begin\{", source):
        source = r"\begin{split}" + source + r"\end{split}"     # as Sphinx's MathJax writer does
    out = convert(source, display="block" if display else "inline")
    for pattern, repl in _POST:
        out = pattern.sub(repl, out)
    while _JOIN_NUMBER.search(out):
        out = _JOIN_NUMBER.sub(r"\2<mn>\1\3</mn>", out)
    if "linebreak=" in out:
        raise ValueError("a line break outside an aligned/split/gathered environment")
    # the TeX source rides along for copying and for readers whose browser lacks MathML
    return out.replace("<math ", f'<math alttext="{html.escape(tex.strip(), quote=True)}" ', 1)


def _convert(self, node, display: bool) -> str:
    try:
        return to_mathml(node.astext(), display)
    except Exception as error:   # latex2mathml raises several kinds
        logger.warning("수식을 MathML로 바꾸지 못했다 (%s): %s", error, node.astext(), location=node)
        return f"<code>{self.encode(node.astext())}</code>"


def visit_math(self, node) -> None:
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate"))
    self.body.append(_convert(self, node, display=False))
    self.body.append("</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math notranslate"))
    if node["number"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    parts = [p for p in node.astext().split("\n\n") if p.strip()]
    if len(parts) > 1 and not node["nowrap"]:     # several equations: one aligned block, as MathJax does
        node = nodes.math_block(r" \\ ".join(parts), r" \\ ".join(parts))
    self.body.append(_convert(self, node, display=True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


# ---- the font: STIX Two Math, cut to the characters of the built pages' formulas ----

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_ATTR = re.compile(r'\s[\w-]+="[^"]*"')
_TAG = re.compile(r"<[^>]*>")
# Chromium draws a one-letter <mi> in the Mathematical Italic letters (U+1D434…), so those come along
_ITALIC = {**{chr(c): chr(0x1D434 + c - 0x41) for c in range(0x41, 0x5B)},
           **{chr(c): chr(0x1D44E + c - 0x61) for c in range(0x61, 0x7B)},
           **{chr(c): chr(0x1D6FC + c - 0x3B1) for c in range(0x3B1, 0x3CA)}, "h": "\u210e"}


def stix_font() -> Path:
    """STIX Two Math inside the installed ziamath package (found, not imported: its import loads the font)."""
    import importlib.util

    spec = importlib.util.find_spec("ziamath")
    if spec is None or spec.origin is None:
        raise RuntimeError("수식 글꼴이 없다: ziamath 패키지를 설치하라 (requirements.txt)")
    return Path(spec.origin).resolve().parent / "fonts" / "STIXTwoMath-Regular.ttf"


def math_text(pages) -> str:
    """Every character that the <math> elements of these HTML texts draw (entities resolved), plus
    the italic forms of their letters."""
    chars = set()
    for page in pages:
        for element in _MATH.findall(page):
            text = html.unescape(_TAG.sub("", _ATTR.sub("", element)))
            chars.update(text)
    chars |= {_ITALIC[c] for c in chars if c in _ITALIC}
    return "".join(sorted(c for c in chars if not c.isspace()))


def write_font(outdir: Path, text: str) -> int:
    """Write the cut-down font and its @font-face; returns the font's size in bytes."""
    target = outdir / "_static" / FONT_FILE
    _cut_font(target, text)
    (outdir / "_static" / CSS_FILE).write_text(
        "/* written by the build: STIX Two Math (SIL Open Font License) cut to the characters of the site's formulas */\n"
        f'@font-face {{ font-family: "{FONT_FAMILY}"; font-style: normal; font-weight: 400; font-display: swap;\n'
        f'  src: url("stix-two-math.woff2") format("woff2"); }}\n'
        f'math {{ font-family: "{FONT_FAMILY}", math; }}\n', encoding="utf-8")
    return target.stat().st_size


def _cut_font(target: Path, text: str) -> None:
    """STIX Two Math cut to `text`'s characters (and the digits), as WOFF2 with every layout feature; kept by the
    font's and the characters' bytes (coursebook.kept.font_cut): a cut takes about a second, and a new term's formulas
    have the same characters."""
    source = stix_font().read_bytes()
    chars = "".join(sorted(set(text + "0123456789")))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(kept.font_cut("math-font", source, chars, "woff2", True))


def build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    pages = (p.read_text(encoding="utf-8") for p in outdir.rglob("*.html"))
    write_font(outdir, math_text(pages))


def no_stale_css(app, builder) -> None:
    """write-started: remove last build's @font-face file, so every build writes its pages as a clean build does
    (Sphinx links a static file with `?v=<checksum>` only if it exists while the pages are written)."""
    (Path(app.outdir) / "_static" / CSS_FILE).unlink(missing_ok=True)


def setup(app):
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_displaymath, None))
    app.add_css_file(CSS_FILE)
    app.connect("write-started", no_stale_css)
    app.connect("build-finished", build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
