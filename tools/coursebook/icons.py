"""Only the icons the site shows: the theme ships all of Font Awesome twice, as a 1.5 MB script that
draws every icon as SVG and as web fonts (270 KB) for its CSS classes. Here the script is left out of
every page (`_templates/layout.html` drops its <script> through `without_fontawesome_js`), the icons
are drawn by the theme's own CSS classes, and at the end of the build each Font Awesome font is cut
down to the glyphs in use:

- every `fa-NAME` class written in a built page or in the theme's scripts (e.g. the close button its
  JavaScript makes), looked up in the theme's CSS (`.fa-NAME:before{content:"\\f0c9"}`);
- every Font Awesome character that the theme's CSS uses outside those class rules (admonition
  icons, the "on this page" chevron, …).

The cut fonts go to `_static/icons/`, with an @font-face for each family and weight in
`_static/icons/icons.css`, loaded after the theme's CSS so that its faces win.

Site tooling: `import roofline` does not import this module.
"""
from __future__ import annotations

import re
from pathlib import Path

CSS_FILE = "icons/icons.css"
THEME_CSS = ("styles/pydata-sphinx-theme.css", "styles/sphinx-book-theme.css")
_FA_SCRIPT = re.compile(r'[ \t]*<script\b[^>]*\bsrc="[^"]*/fontawesome\.js[^"]*"[^>]*>\s*</script>\n?')
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_CLASS_RULE = re.compile(r"\s*\.(fa-[a-z0-9-]+)::?before\s*")
_CONTENT = re.compile(r'content:\s*"([^"]*)"')
_VAR = re.compile(r'--[\w-]+:\s*"([^"]*)"')
_FONT_FACE = re.compile(r"@font-face\s*\{([^{}]*Font Awesome[^{}]*)\}")
_CLASS_USE = re.compile(r"\bfa-[a-z0-9-]+")


def without_fontawesome_js(head: str) -> str:
    """The theme's <head> assets without the Font Awesome script."""
    return _FA_SCRIPT.sub("", head)


def _css_char(value: str) -> str:
    """A CSS string's characters, `\\f0c9` escapes resolved."""
    return re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda m: chr(int(m.group(1), 16)), value)


def _private(text: str) -> set[str]:
    return {c for c in text if 0xE000 <= ord(c) <= 0xF8FF}


def glyphs_in_use(static: Path, pages: list[str], scripts: list[str]) -> set[str]:
    """The Font Awesome characters the site shows (see the module docstring)."""
    classes: dict[str, set[str]] = {}
    theme_own: set[str] = set()
    for name in THEME_CSS:
        css = (static / name).read_text(encoding="utf-8")
        css = _FONT_FACE.sub("", css)
        for selector, body in _RULE.findall(css):
            chars = set()
            for value in _CONTENT.findall(body) + _VAR.findall(body):
                chars |= _private(_css_char(value))
            if not chars:
                continue
            names = [_CLASS_RULE.fullmatch(s) for s in selector.split(",")]
            if all(names):
                for match in names:
                    classes.setdefault(match.group(1), set()).update(chars)
            else:
                theme_own |= chars
    used = set(theme_own)
    for text in pages + scripts:
        for name in set(_CLASS_USE.findall(text)):
            used |= classes.get(name, set())
    return used


def font_faces(static: Path) -> list[dict]:
    """The theme's Font Awesome @font-face rules: family, weight, style and the .ttf file."""
    faces = []
    for name in THEME_CSS:
        css = (static / name).read_text(encoding="utf-8")
        for body in _FONT_FACE.findall(css):
            family = re.search(r"font-family:\s*([^;]+)", body).group(1).strip().strip('"').replace("\\ ", " ")
            weight = re.search(r"font-weight:\s*(\d+)", body).group(1)
            style = re.search(r"font-style:\s*(\w+)", body).group(1)
            ttf = re.search(r"url\(([^)]+\.ttf)\)", body).group(1).strip("'\"")
            faces.append({"family": family, "weight": weight, "style": style,
                          "ttf": (static / Path(name).parent / ttf).resolve()})
    return faces


def write_icon_fonts(static: Path, chars: set[str]) -> dict[str, int]:
    """Cut every Font Awesome face to `chars`; write the fonts and icons.css. Returns {file: bytes}."""
    folder = static / "icons"
    folder.mkdir(parents=True, exist_ok=True)
    css, sizes = ["/* written by the build (tools/coursebook/icons.py): Font Awesome Free (SIL OFL 1.1), "
                  "only the glyphs the site shows */"], {}
    for face in font_faces(static):
        target = folder / (face["ttf"].stem + ".woff")
        target.write_bytes(woff(face["ttf"].read_bytes(), "".join(sorted(chars))))
        sizes[target.name] = target.stat().st_size
        css.append(f'@font-face {{ font-family: "{face["family"]}"; font-style: {face["style"]}; '
                   f'font-weight: {face["weight"]}; font-display: block; '
                   f'src: url("{target.name}") format("woff"); }}')
    (folder / "icons.css").write_text("\n".join(css) + "\n", encoding="utf-8")
    return sizes


def woff(ttf: bytes, text: str) -> bytes:
    """The font `ttf` cut to `text`'s characters, as WOFF; kept (coursebook.kept.font_cut) by the font's bytes, the
    characters, fontTools' version and this file: every build cuts the same faces to the same icons, and a new term's
    pages use the same icons."""
    from coursebook import kept

    return kept.font_cut("icon-fonts", ttf, text, "woff", False, Path(__file__).read_bytes())


def build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    static = outdir / "_static"
    pages = [p.read_text(encoding="utf-8") for p in outdir.rglob("*.html")]
    scripts = [p.read_text(encoding="utf-8") for p in static.rglob("*.js")
               if p.name != "fontawesome.js" and "mathjax" not in p.parts]
    write_icon_fonts(static, glyphs_in_use(static, pages, scripts))


def page_context(app, pagename, templatename, context, doctree) -> None:
    context["without_fontawesome_js"] = without_fontawesome_js


def no_stale_css(app, builder) -> None:
    """write-started: remove last build's icons.css, so a rebuild links it as a clean build does (no `?v=`)."""
    (Path(app.outdir) / "_static" / CSS_FILE).unlink(missing_ok=True)


def setup(app):
    app.add_css_file(CSS_FILE)
    app.connect("html-page-context", page_context)
    app.connect("write-started", no_stale_css)
    app.connect("build-finished", build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
