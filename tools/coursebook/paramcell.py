"""A chapter's parameter cell: plain literals a student edits, written from course.toml by the tooling.

The cell is the one code cell tagged `parameters`; its metadata `params` names the problem it feeds
(`week4`, `week3`, `note`), and each line `NAME = literal  # 설명` stands for the parameter
`params.cell_fields(problem)[NAME]` (its key of course.toml: `.path`). `write(md_text, course)` puts the loaded,
validated values into the cell of a chapter's MyST source; `disagreements(md_text, course)` names every line
whose value differs from the file (the staleness check).
"""
from __future__ import annotations

import ast
import re

from roofline.params import PROBLEMS, cell_fields

CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(?P<options>(?::[^\n]*\n)+)\n?(?P<body>.*?)^```[ \t]*$", re.S | re.M)
LINE = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<eq>\s*=\s*)(?P<value>.+?)(?P<comment>\s+#.*)?$")


def literal(value) -> str:
    """The Python literal a student reads: 4096, 100_000_000, "FP32", [32, 64, 128]."""
    if isinstance(value, bool):
        raise TypeError(f"no parameter is a bool: {value!r}")
    if isinstance(value, int):
        return f"{value:_}" if value >= 100_000 else str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    raise TypeError(f"a parameter cell holds ints, strings and lists of them, not {type(value).__name__}")


def find(md_text: str):
    """(match of the parameter cell, its problem name), or (None, None) for a chapter without parameters."""
    found = [m for m in CELL.finditer(md_text) if re.search(r"^:tags:.*\bparameters\b", m["options"], re.M)]
    if not found:
        return None, None
    if len(found) > 1:
        raise ValueError(f"{len(found)} cells are tagged parameters; a chapter has one")
    problem = re.search(r"^:params:\s*(\w+)\s*$", found[0]["options"], re.M)
    if not problem or problem[1] not in PROBLEMS:
        raise ValueError(f"the parameter cell needs `:params:` naming one of {', '.join(PROBLEMS)}")
    return found[0], problem[1]


def assignments(source: str) -> dict[str, object]:
    """NAME → literal value of each plain assignment in a parameter cell's code."""
    values = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = value_of(node.value)
    return values


def value_of(node: ast.expr):
    """A literal (`ast.literal_eval`), or an integer written as a power or product of integers (`10**9`,
    `4 * 2**30`): how a person writes a large constant, and what Python gives the chapter for it. The exponent is
    bounded (at most 4096), so a cell cannot make the check compute without end; anything else is refused."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Mult)):
        left, right = value_of(node.left), value_of(node.right)
        if type(left) is int and type(right) is int:
            if isinstance(node.op, ast.Mult):
                return left * right
            if 0 <= right <= 4096:
                return left ** right
        raise ValueError(f"not a literal: {ast.unparse(node)}")
    return ast.literal_eval(node)


def expected(course, problem: str, names) -> dict[str, object]:
    """NAME → the course's (validated) value for each cell variable `names` of `problem`."""
    known = cell_fields(problem)
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(f"parameter cell variable(s) {', '.join(unknown)} stand for no key of course.toml; "
                         f"known for {problem}: {', '.join(known)}")
    return {name: known[name].of(getattr(course, problem)) for name in names}


def comment(problem: str, name: str) -> str:
    """A parameter line's comment: what its field table says the variable is (the live form's label too)."""
    return f"# {cell_fields(problem)[name].about}"


def write_source(source: str, course, problem: str) -> str:
    """A parameter cell's code with the file's values in place of its literals, each line's comment the field
    table's description (`comment`), in the cell's column."""
    want = expected(course, problem, assignments(source))
    column = comment_column(source)
    lines = []
    for line in source.split("\n"):
        match = LINE.match(line)
        if match and match["name"] in want:
            head = f"{match['name']}{match['eq']}{literal(want[match['name']])}"
            gap = match["comment"][:len(match["comment"]) - len(match["comment"].lstrip())] if match["comment"] else "  "
            # a line longer than the column keeps its gap
            line = (head.ljust(column) if len(head) < column else head + gap) + comment(problem, match["name"])
        lines.append(line)
    return "\n".join(lines)


def comment_column(source: str) -> int:
    """The column the cell's comments line up at: the one most of its commented assignments use (the smallest of
    equals). A value too long for it keeps its comment its own gap away, and a shorter value written later brings the
    comment back: a cell written once is written the same way again, whatever was written before."""
    columns = [len(m["name"] + m["eq"] + m["value"]) + len(m["comment"]) - len(m["comment"].lstrip())
               for m in map(LINE.match, source.split("\n")) if m and m["comment"]]
    return min(columns, key=lambda c: (-columns.count(c), c)) if columns else 0


def write(md_text: str, course) -> str:
    """The chapter's MyST text with the file's values written into its parameter cell."""
    cell, problem = find(md_text)
    if cell is None:
        return md_text
    start, end = cell.span("body")
    return md_text[:start] + write_source(cell["body"], course, problem) + md_text[end:]


def disagreements(md_text: str, course) -> list[str]:
    """'N = 2048 but course.toml's week4.N is 4096' for every cell variable that differs from the file."""
    cell, problem = find(md_text)
    if cell is None:
        return []
    have = assignments(cell["body"])
    want = expected(course, problem, have)
    known = cell_fields(problem)
    found = [f"parameter cell: {name} = {literal(have[name])} but course.toml's {known[name].path} is "
             f"{literal(want[name])}"
             for name in have if _plain(have[name]) != _plain(want[name])]
    for match in map(LINE.match, cell["body"].split("\n")):
        if match and match["name"] in have and (match["comment"] or "").strip() != comment(problem, match["name"]):
            found.append(f"parameter cell: {match['name']}'s comment is not its field's description "
                         f"{comment(problem, match['name'])!r} (roofline.params)")
    return found


def _plain(value):
    return list(map(_plain, value)) if isinstance(value, (list, tuple)) else value
