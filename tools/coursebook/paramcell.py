"""A chapter's parameter cell: plain literals a student edits, written from course.toml by the tooling.

The cell is the one code cell tagged `parameters`; its metadata `params` names the problem it feeds
(`week4`, `week3`, `note`), and each line `NAME = literal  # 설명` stands for the parameter
`params.cell_fields(problem)[NAME]` (its key of course.toml: `.path`). `write(md_text, course)` puts the loaded,
validated values into the cell of a chapter's MyST source; `disagreements(md_text, course)` names every line
whose value differs from the file (the staleness check).
"""
from __future__ import annotations

import ast
import operator
import re

from roofline.errors import ParameterError, shown
from roofline.params import PROBLEMS, cell_fields

CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(?P<options>(?::[^\n]*\n)+)\n?(?P<body>.*?)^```[ \t]*$", re.S | re.M)
LINE = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<eq>\s*=\s*)(?P<value>.+?)(?P<comment>\s+#.*)?$")


def literal(value) -> str:
    """The Python literal a student reads: 4096, 100_000_000, "FP32", [32, 64, 128] (anything else, as a student's
    cell may hold, as Python writes it)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return f"{value:_}" if value >= 100_000 else str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return shown(value)


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


READABLE = "정수, 실수, 문자열, True/False, None, 그 목록·튜플, 산술식(2**12), list(range(…)), 위에서 정한 이름"
OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
             ast.Mod: operator.mod, ast.Pow: operator.pow, ast.Div: operator.truediv, ast.USub: operator.neg,
             ast.UAdd: operator.pos}
MAX_DIGITS = 40   # an arithmetic result larger than 10⁴⁰ is refused before it is computed (2**10**10 would hang)
MAX_ITEMS = 10_000   # list(range(…)) of at most this many items


def assignments(source: str) -> dict[str, object]:
    """NAME → value of each plain assignment in a parameter cell's code, as Python would compute it, for the
    expressions a student writes (READABLE: `N = 2**12`, `tiles = list(range(32, 129, 32))`, `N = small_N`), read
    without running the cell (in bounded time); anything else is ParameterError naming the variable."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        raise ParameterError(f"매개변수 셀 {err.lineno}번째 줄: 파이썬 문법 오류 ({err.msg})") from None
    values: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            try:
                values[name] = _value(node.value, values)
            except (ValueError, TypeError, ArithmeticError, OverflowError) as err:
                raise ParameterError(f"{name}: 매개변수 셀에서 읽을 수 없는 식 {shown(ast.get_source_segment(source, node.value))}"
                                     f" ({err}). 쓸 수 있는 것: {READABLE}") from None
    return values


def _value(node, names: dict):
    """The value of expression `node` (READABLE only; `names`: the cell's variables assigned above)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, type(None))):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(item, names) for item in node.elts]
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in OPERATORS:
        return OPERATORS[type(node.op)](_number(_value(node.operand, names)))
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = _number(_value(node.left, names)), _number(_value(node.right, names))
        if isinstance(node.op, ast.Pow) and abs(left) > 1 and abs(right) * len(str(int(abs(left)))) > MAX_DIGITS + 2:
            raise ValueError(f"10^{MAX_DIGITS}보다 큰 수")
        result = OPERATORS[type(node.op)](left, right)
        if isinstance(result, int) and result.bit_length() > MAX_DIGITS * 4:
            raise ValueError(f"10^{MAX_DIGITS}보다 큰 수")
        return result
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        args = [_value(a, names) for a in node.args]
        if node.func.id == "range" or node.func.id in ("list", "tuple") and len(args) == 1:
            items = range(*map(_whole, args)) if node.func.id == "range" else args[0]
            if not isinstance(items, (range, list)) or len(items) > MAX_ITEMS:
                raise ValueError("목록이 아니거나 너무 길다")
            return list(items)
    raise ValueError("이 꼴의 식은 읽지 않는다")


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"수가 아닌 값 {shown(value)}")
    return value


def _whole(value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"range에는 정수만: {shown(value)}")
    return value


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
    """A value compared with its type (4096.0 and True are not the file's 4096 and 1: the chapter would refuse them)."""
    return list(map(_plain, value)) if isinstance(value, (list, tuple)) else (type(value).__name__, value)
