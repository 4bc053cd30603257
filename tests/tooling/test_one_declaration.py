"""One declaration per variable (issue 41): a chapter's parameter is declared by its field in roofline.params, its key
in course.toml and its line in the parameter cell; everything else follows from the field table.

- every parameter cell line's comment is its field's description (written by `make parameters`, checked by
  `make check`: a stale comment is named and `write_source` puts it right);
- the chapters take their cells' variables with `with_cell(globals())`, never by listing them;
- every live form's parameter field is labelled with the same description and starts at the chapter's value.
"""
from __future__ import annotations

import re
from pathlib import Path

from coursebook import paramcell
from roofline.params import cell_fields
from roofline.show import engine, explorer

CHAPTERS = Path(__file__).resolve().parents[2] / "chapters"


def sources():
    return {md.name: md.read_text(encoding="utf-8") for md in sorted(CHAPTERS.glob("*.md"))}


def test_each_parameter_line_says_its_fields_description(course):
    checked = 0
    for name, text in sources().items():
        cell, problem = paramcell.find(text)
        if cell is None:
            continue
        for line in cell["body"].split("\n"):
            match = paramcell.LINE.match(line)
            if match and match["name"] in cell_fields(problem):
                assert match["comment"].strip() == f"# {cell_fields(problem)[match['name']].about}", (name, line)
                checked += 1
        assert paramcell.disagreements(text, course) == [], name
        stale = text.replace(f"# {cell_fields(problem)['dtype'].about}", "# 옛 설명", 1)
        assert any("comment" in line for line in paramcell.disagreements(stale, course)), name
        assert paramcell.write(stale, course) == text, name    # `make parameters` puts it right
    assert checked


def test_chapters_take_the_cell_by_with_cell_not_by_listing_it():
    for name, text in sources().items():
        cell, problem = paramcell.find(text)
        if cell is None:
            continue
        assert f"course.{problem}.with_cell(globals())" in text, name
        assert not re.search(rf"course\.{problem}\.with_\(", text), name


def test_live_forms_label_their_parameters_with_the_field_table(course):
    for page in engine.forms():
        form = engine.form(page)
        known = cell_fields(form.table)
        labels = dict(form.fields)
        problem = getattr(course, form.table)
        data = explorer.live_form(page, problem, **{n: 1 for n in labels if n not in form.parameters})
        first = {name: value for name, _, value in data["fields"]}
        for name in form.parameters:
            assert labels[name] == known[name].about, (page, name)
            assert first[name] == explorer._literal(known[name].of(problem)), (page, name)
