"""The course's own scripts as a reader's browser gets them: without their comments and the spaces that separate
nothing (`compact`). The sources in `_static/` keep their comments for the next maintainer (most of them Korean,
three bytes a character); a first visit moves the compact copies the build writes in their place
(`compact_scripts`, from coursebook.assets at `build-finished`), as it does for the offline worker's scripts
(coursebook.offline). Not a general minifier: names are kept, and nothing is rewritten but whitespace and comments,
so an error in a reader's console points at the same code.
"""
from __future__ import annotations

import re
from pathlib import Path

SOURCES = Path(__file__).parents[2] / "_static"   # the course's own scripts are the .js files at its top level


def own_scripts(sources: Path = SOURCES) -> list[str]:
    """The names (under _static) of the course's own scripts; those in its folders (vendor/, live/) are others'."""
    return sorted(path.name for path in sources.glob("*.js") if path.is_file())


def compact_scripts(static: Path, sources: Path = SOURCES) -> list[str]:
    """Each of the course's own scripts in the built `static` folder written compact; the names written."""
    written = []
    for name in own_scripts(sources):
        built = static / name
        if built.is_file():
            built.write_text(compact((sources / name).read_text(encoding="utf-8")), encoding="utf-8")
            written.append(name)
    return written


_WORD = re.compile(r"[\w$]")
_REGEX_AFTER = set("(,=:[!&|?{};\n") | {""}


def _regex_end(script: str, start: int) -> int:
    """The end of the regular expression literal starting at `start` (a `/` inside a class [...] does not end it)."""
    j, in_class = start + 1, False
    while in_class or script[j] != "/":
        if script[j] == "\\":
            j += 1
        elif script[j] in "[]":
            in_class = script[j] == "["
        j += 1
    j += 1
    while j < len(script) and script[j].isalpha():
        j += 1
    return j


def _quoted_end(script: str, start: int) -> int:
    """The end of the string or template literal starting at `start`; a template's `${…}` is skipped whole, with
    the strings, templates and regular expressions inside it."""
    quote, j = script[start], start + 1
    while script[j] != quote:
        if script[j] == "\\":
            j += 1
        elif quote == "`" and script.startswith("${", j):
            depth, j = 1, j + 2
            while depth:
                if script[j] in "'\"`":
                    j = _quoted_end(script, j)
                    continue
                if script[j] == "/" and script[:j].rstrip()[-1:] in _REGEX_AFTER:
                    j = _regex_end(script, j)
                    continue
                depth += {"{": 1, "}": -1}.get(script[j], 0)
                j += 1
            continue
        j += 1
    return j + 1


def compact(script: str) -> str:
    """A script of ours as small as it safely gets: without comments, and with no space or indentation that
    separates nothing — a space stays only between two word characters and between two of `+ - /`, and a line
    break only where a semicolon could be inserted there (not after `; { , ( [`, not before `} ) ] , . : ?`), so
    automatic semicolons fall where they did. Strings, template literals (with their `${…}`) and regular
    expressions are copied as they are; a `/` begins a regular expression after an operator, a bracket, a line
    break or `return`."""
    out: list[str] = []
    i, n = 0, len(script)
    pending = ""                      # whitespace seen since the last token: "", " " or "\n"

    def last() -> str:
        for chunk in reversed(out):
            if chunk:
                return chunk[-1]
        return ""

    def emit(token: str) -> None:
        nonlocal pending
        before = last()
        if pending == "\n" and before and before not in ";{,([" and token[0] not in "})],.:?":
            out.append("\n")
        elif pending and before and ((_WORD.match(before) and _WORD.match(token[0]))
                                     or (before in "+-/" and token[0] in "+-/")):
            out.append(" ")
        pending = ""
        out.append(token)

    while i < n:
        c = script[i]
        if script.startswith("/*", i):
            i = script.index("*/", i) + 2
        elif script.startswith("//", i):   # never a regular expression (one is read whole from its opening /)
            i = script.index("\n", i) if "\n" in script[i:] else n
        elif c in " \t\r\n":
            if c == "\n" or pending != "\n":
                pending = "\n" if c == "\n" else " "
            i += 1
        elif c in "'\"`":
            j = _quoted_end(script, i)
            emit(script[i:j])
            i = j
        elif c == "/" and (last() in _REGEX_AFTER or "".join(out).endswith("return")):
            j = _regex_end(script, i)
            emit(script[i:j])
            i = j
        elif _WORD.match(c):
            j = i
            while j < n and _WORD.match(script[j]):
                j += 1
            emit(script[i:j])
            i = j
        else:
            emit(c)
            i += 1
    return "".join(out).strip() + "\n"
