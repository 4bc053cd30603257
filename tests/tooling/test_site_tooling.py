"""The site tooling behind light, accessible pages, without a browser: TeX → MathML (what TeX means, checked
on the MathML), the icon script left out, table regions and bibliography roles. The built pages are checked
in a real browser by test_site_browser.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from coursebook import a11y, assets, icons, kept, mathml

ROOT = Path(__file__).resolve().parents[2]


def rows(out: str) -> list[str]:
    return re.findall(r"<mtr>(.*?)</mtr>", out)


def test_aligned_is_a_table_of_right_left_pairs():
    out = mathml.to_mathml(r"\begin{aligned} F &= 2N^3 \\ Q &= 8N^3/T + 4N^2 \\[4pt] I &\approx 0.25 \end{aligned}", True)
    assert len(rows(out)) == 3
    for row in rows(out):
        assert re.findall(r'<mtd columnalign="(\w+)"', row) == ["right", "left"]
    body = re.sub(r'alttext="[^"]*"', "", out)
    assert "4pt" not in body and "linebreak" not in body


def test_gathered_rows_are_centred_in_display_style():
    out = mathml.to_mathml(r"\begin{gathered} \frac{K}{T_K} = 4 \\ 4 \times 4{,}096 = 16{,}384 \end{gathered}", True)
    assert len(rows(out)) == 2
    assert '<mtable displaystyle="true">' in out and "columnalign" not in out


def test_display_lines_without_environment_are_split_as_sphinx_does():
    out = mathml.to_mathml(r"a = b \\ c = d", True)
    assert len(rows(out)) == 2 and "linebreak" not in out


def test_grouped_numbers_stay_one_number():
    out = mathml.to_mathml(r"2 \times 4{,}096^3 = 137{,}438{,}953{,}472", False)
    assert "<mn>137,438,953,472</mn>" in out
    assert "<msup><mn>4,096</mn><mn>3</mn></msup>" in out


def test_spacing_as_tex_sets_it():
    iff = mathml.to_mathml(r"a \iff b", False)
    assert re.search(r'<mspace width="0.278em" /><mo>&#x027FA;</mo><mspace width="0.278em" />', iff)
    assert '<mo lspace="0" rspace="0">&#x0002F;</mo>' in mathml.to_mathml("F/P", False)
    assert "<mi>min</mi>" in mathml.to_mathml(r"\min(P,\ BW \times I)", True)
    assert re.search(r'<mi>log</mi><mspace width="0.1667em" /><mi>R</mi>', mathml.to_mathml(r"\log R", True))
    assert "negative" not in mathml.to_mathml(r"\min\!\left(P, Q\right)", True)
    tilde = mathml.to_mathml(r"\tilde P^{(2)}", False)
    assert '<mover accent="true"><mi>P</mi><mo>&#x002DC;</mo></mover>' in tilde


def test_source_rides_along_as_alttext():
    out = mathml.to_mathml(r"I = \frac{F}{Q}", True)
    assert out.startswith('<math alttext="I = \\frac{F}{Q}"') and 'display="block"' in out


def test_math_text_has_the_italic_letters_chromium_draws():
    text = mathml.math_text(['<p>x</p><math><mi>F</mi><mo>&#x0003D;</mo><mi>&#x003B1;</mi><mtext>총</mtext></math>'])
    assert set(text) == {"F", "=", "α", "총", "\U0001D439", "\U0001D6FC"}       # 𝐹 and 𝛼 too; "x" is outside math


def test_math_font_keeps_the_stretchy_variants(tmp_path):
    from fontTools.ttLib import TTFont

    (tmp_path / "_static").mkdir()
    size = mathml.write_font(tmp_path, "(){}⏟∑")
    font = TTFont(tmp_path / "_static" / mathml.FONT_FILE)
    assert "MATH" in font and 0 < size < 100_000
    variants = font["MATH"].table.MathVariants
    assert variants.VertGlyphCount > 0 and variants.HorizGlyphCount > 0       # tall (…), wide ⏟
    css = (tmp_path / "_static" / mathml.CSS_FILE).read_text(encoding="utf-8")
    assert mathml.FONT_FAMILY in css and "stix-two-math.woff" in css


def test_a_kept_step_is_made_once_and_a_damaged_file_is_made_again(tmp_path):
    """coursebook.kept: the same inputs give what was made, without making it; other inputs make it; a file changed in
    one byte or cut short is not believed."""
    made = []

    def make(out: bytes):
        return lambda: made.append(out) or out

    assert kept.made("step", make(b"one"), b"a", b"bc", folder=tmp_path) == b"one"
    assert kept.made("step", make(b"two"), b"a", b"bc", folder=tmp_path) == b"one" and made == [b"one"]
    assert kept.made("step", make(b"three"), b"ab", b"c", folder=tmp_path) == b"three"   # (not the same inputs)
    [first] = [f for f in (tmp_path / "step").iterdir() if f.name == kept.digest(b"a", b"bc")]
    for damage in (lambda b: b[:-1] + bytes([b[-1] ^ 1]), lambda b: b[:40]):
        first.write_bytes(damage(first.read_bytes()))
        assert kept.made("step", make(b"again"), b"a", b"bc", folder=tmp_path) == b"again"
        assert kept.made("step", make(b"never"), b"a", b"bc", folder=tmp_path) == b"again"


def test_a_kept_css_cut_and_figure_are_what_the_steps_make(tmp_path):
    """The theme's stylesheet cut and a figure's WebP, kept (coursebook.kept), are the bytes the steps make now: the
    stylesheet from its words, the figure from its PNG."""
    from PIL import Image

    css = ".used{color:red}.unused{color:blue}a:hover{--x:1}.bd-x{color:var(--y)}:root{--y:2;--z:3}"
    words, outside = {"used", "a", "bd-x"}, set()
    names = assets._names_in([css])
    assert {"used", "unused", "hover", "--x", "--y", "--z", "bd-x"} <= names
    cut = assets._purged({"t.css": css}, words & names, outside & names)["t.css"]
    assert cut == assets._purged({"t.css": css}, words, outside)["t.css"]
    assert ".used{" in cut and ".unused" not in cut and "--y" in cut and "--z" not in cut
    png = tmp_path / "f.png"
    Image.new("RGB", (1200, 300), "white").save(png)
    fresh = assets._smaller(png.read_bytes())
    out = assets.webp_if_smaller(png)
    assert out.read_bytes() == fresh[4:] and out.suffix == (".webp" if fresh.startswith(b"webp") else ".png")


def test_a_kept_icon_font_is_the_cut_the_subsetter_makes(tmp_path, monkeypatch):
    """An icon font cut to the icons in use (coursebook.icons.woff), kept (coursebook.kept), is the bytes the subsetter
    makes now; a kept font changed in one byte is not believed, and is cut again."""
    import pydata_sphinx_theme

    monkeypatch.setattr(kept, "KEPT", tmp_path)
    ttf = next(Path(pydata_sphinx_theme.__file__).parent.rglob("fa-solid-900.ttf")).read_bytes()
    text = "\uf00d\uf0c9"   # (the close and menu icons)
    fresh = kept.subset_font(ttf, text, "woff")
    assert fresh.startswith(b"wOFF") and len(fresh) < len(ttf) // 10
    assert icons.woff(ttf, text) == fresh and icons.woff(ttf, text) == fresh
    [file] = (tmp_path / "icon-fonts").iterdir()
    data = file.read_bytes()
    file.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert icons.woff(ttf, text) == fresh and file.read_bytes() == data


def test_icon_script_left_out():
    head = ('<link href="../_static/styles/theme.css" rel="stylesheet" />\n'
            '  <script defer src="../_static/scripts/fontawesome.js?digest=55c2"></script>\n'
            '  <link rel="preload" as="script" href="../_static/scripts/bootstrap.js" />\n')
    out = icons.without_fontawesome_js(head)
    assert "fontawesome.js" not in out and "theme.css" in out and "bootstrap.js" in out


def test_tables_become_named_regions():
    body = ('<div class="pst-scrollable-table-container"><table class="table"><thead><tr><th>방식</th>'
            '<th><span class="math"><math alttext="Q"><mi>Q</mi></math></span> (Byte)</th></tr></thead>'
            '<tbody><tr><td>1</td><td>2</td></tr></tbody></table></div>'
            '<div class="pst-scrollable-table-container"><table class="table"><tbody><tr><td>가</td>'
            '<td>나</td></tr></tbody></table></div>')
    out = a11y.focusable_tables(body)
    assert re.findall(r'aria-label="([^"]*)"', out) == ["표 1: 방식, Q (Byte)", "표 2: 가, 나"]
    assert out.count('tabindex="0" role="region"') == 2


def test_bibliography_entries_are_list_items():
    body = '<div role="list" class="citation-list"><div class="citation" id="id9" role="doc-biblioentry">'
    assert a11y.bibliography_roles(body) == body.replace("doc-biblioentry", "listitem")


@pytest.mark.parametrize("bad", [r"\frac{a}{", r"\begin{aligned} a &= b"])
def test_unreadable_tex_raises(bad):
    with pytest.raises(Exception):
        mathml.to_mathml(bad, True)


# ---- the theme's assets at load (tools/coursebook/assets.py) ------------------------------------------------

def test_stylesheets_bundled_in_order_with_their_urls_rebased(tmp_path):
    from coursebook import assets

    static = tmp_path / "_static"
    (static / "icons").mkdir(parents=True)
    (static / "a.css").write_text("@charset \"utf-8\";\nbody{color:red}\n", encoding="utf-8")
    (static / "icons" / "icons.css").write_text('@font-face{src:url("fa.woff")}\n.x{background:url(data:,)}\n',
                                               encoding="utf-8")
    (tmp_path / "chapters").mkdir()
    page = tmp_path / "chapters" / "p.html"
    page.write_text('<html><head>\n  <link rel="stylesheet" type="text/css" href="../_static/a.css?v=1" />\n'
                    '  <link rel="stylesheet" href="../_static/icons/icons.css" />\n'
                    '  <script defer src="../_static/x.js"></script>\n</head><body>'
                    '<link rel="stylesheet" href="late.css"></body></html>', encoding="utf-8")
    written = assets.bundle_stylesheets(tmp_path)
    assert list(written.values()) == [["_static/a.css", "_static/icons/icons.css"]]
    (name,) = written
    bundle = tmp_path / assets.BUNDLES_DIR / name
    css = bundle.read_text(encoding="utf-8")
    assert css.startswith('@charset "UTF-8";\n') and css.count("@charset") == 1
    assert css.index("color:red") < css.index("@font-face")
    assert 'url("../icons/fa.woff")' in css and "url(data:,)" in css
    assert assets.bundled_sources(bundle) == ["_static/a.css", "_static/icons/icons.css"]
    head, body = page.read_text(encoding="utf-8").split("</head>")
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)"', head) == [f"../_static/bundles/{name}"]
    assert "x.js" in head and 'href="late.css"' in body


def test_glue_prefix_is_the_installed_myst_nbs():
    """roofline.show.glue names the record prefix itself (Colab has no myst-nb); it is the one myst-nb reads."""
    from myst_nb.ext.glue import GLUE_PREFIX

    from roofline.show.glue import PREFIX

    assert PREFIX == GLUE_PREFIX
