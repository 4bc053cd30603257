"""The records files in parts (coursebook.recordfiles), read from the built site: a part holds, for each number it
serves, the same entry as the whole file and every record a panel walks to from it, each the whole file's; the parts
together serve every number; an explorer's state names a part holding every number it shows; only a large file is
in parts; the offline worker's list names the whole files and no part. The walk and the ids are found here afresh,
not with the tooling's own functions. (That a first panel fetches its part and the whole file follows:
tests/book/test_why_browser.py.)"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from browser_helpers import html_dir, page_file
from coursebook import offline, recordfiles
from coursebook.assets import _EXPLORER_DATA, _data
from site_pages import toc_pages

MARKER = re.compile(r'<div hidden data-rl-why="([^"]+)"(?: data-rl-why-parts="([^"]+)" data-rl-why-per="(\d+)")?>')


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def self_contained(part: dict, whole: dict, ofs: list[str], where: str) -> None:
    """Every record a panel on `ofs` can walk to (a derived: link, the record's own origin or an input's) is in the
    part, as the whole file has it."""
    todo, seen = list(ofs), set()
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        assert key in part["r"], f"{where}: the record {key} a panel walks to is not in its part"
        assert part["r"][key] == whole["r"][key], f"{where}: the record {key} differs from the whole file's"
        record = part["r"][key]
        for origin in [record.get("origin") or "", *(x.get("origin") or "" for x in record["inputs"])]:
            if origin.startswith("derived:"):
                todo.append(origin[len("derived:"):])
    assert set(part["r"]) == seen, f"{where}: the part holds records no number of it reaches"


def pages() -> list[tuple[str, Path, str]]:
    root = html_dir()
    return [(d, root / page_file(d), (root / page_file(d)).read_text(encoding="utf-8")) for d in toc_pages()]


def test_a_pages_parts_serve_each_of_its_numbers_as_the_whole_file_does():
    split = 0
    for docname, path, text in pages():
        marker = MARKER.search(text)
        if not marker:
            assert "data-rl-why" not in text, f"{docname}: a records marker this test cannot read"
            continue
        whole_path = (path.parent / marker[1]).resolve()
        whole = load(whole_path)
        if not marker[2]:
            assert whole_path.stat().st_size <= recordfiles.PARTS_FROM, f"{docname}: a large records file not in parts"
            assert not list(whole_path.parent.glob(whole_path.name.replace(".", ".part*.", 1))), docname
            continue
        split += 1
        assert whole_path.stat().st_size > recordfiles.PARTS_FROM, f"{docname}: a small records file in parts"
        per, template = int(marker[3]), marker[2]
        count = math.ceil(len(whole["g"]) / per)
        for n in range(count):
            part = load((path.parent / template.replace("{}", str(n))).resolve())
            indices = range(n * per, min((n + 1) * per, len(whole["g"])))
            assert part["g"] == {str(i): whole["g"][i] for i in indices}, f"{docname} part {n}: not its numbers' entries"
            self_contained(part, whole, [e["of"] for e in part["g"].values()], f"{docname} part {n}")
        buttons = [int(i) for i in re.findall(r'<button [^>]*class="rl-why"[^>]*data-why="(\d+)"', text)]
        assert buttons and max(buttons) < count * per
        assert not (path.parent / template.replace("{}", str(count))).resolve().exists(), f"{docname}: a part too many"
    assert split, "no page's records are in parts: the note's, at least, are large"


def ids_in(value) -> list[str]:
    """Every entry id ("e-…") in a state's `why`."""
    if isinstance(value, str):
        return [value] if value.startswith("e-") else []
    if isinstance(value, dict):
        return [i for v in value.values() for i in ids_in(v)]
    if isinstance(value, list):
        return [i for v in value for i in ids_in(v)]
    return []


def test_an_explorer_states_part_serves_every_number_it_shows():
    split = 0
    for docname, path, text in pages():
        for match in _EXPLORER_DATA.finditer(text):
            data = _data(match.group(3))
            if not isinstance(data.get("why"), str):
                continue
            whole_path = (path.parent / data["why"]).resolve()
            whole = load(whole_path)
            if "whyParts" not in data:
                assert whole_path.stat().st_size <= recordfiles.PARTS_FROM, f"{docname}: large records not in parts"
                continue
            split += 1
            states = [load((path.parent / data["states"]).resolve())[i] if "states" in data else part["states"]
                      for i, part in enumerate(data["parts"])]
            parts, served = {}, set()
            for part_states in states:
                for key, state in part_states.items():
                    ids = ids_in(state.get("why", {}))
                    if not ids:   # a state that shows no number needs no part
                        assert "wp" not in state, f"{docname} {match.group(2)} state {key}: a part for no number"
                        continue
                    n = state["wp"]
                    if n not in parts:
                        parts[n] = load((path.parent / data["whyParts"].replace("{}", str(n))).resolve())
                    where = f"{docname} {match.group(2)} state {key} (part {n})"
                    assert all(parts[n]["g"].get(i) == whole["g"][i] for i in ids), where
                    served |= set(ids)
            assert sorted(parts) == list(range(len(parts))), f"{docname} {match.group(2)}: parts not numbered 0…"
            for n, part in parts.items():
                self_contained(part, whole, [e["of"] for e in part["g"].values()], f"{docname} {match.group(2)} {n}")
            assert served == set(whole["g"]), f"{docname} {match.group(2)}: the states do not show every entry"
    assert split, "no explorer's records are in parts: ④'s, at least, are large"


def test_the_offline_workers_list_names_the_whole_records_files_and_no_part():
    files, _ = offline.kept_files(html_dir())
    records = [name for name in files if "/why/" in name or ".why." in name]
    assert records and not [name for name in records if ".part" in name], records
    parts = [p for p in (html_dir() / "_static").rglob("*.part*.json")]
    assert parts and not [p for p in parts if offline.RECORDS.match(p.relative_to(html_dir()).as_posix())]


@pytest.mark.parametrize("name", ["_static/why/chapters-x.0123456789ab.json", "_static/states/p-q.why.0123456789ab.json"])
def test_a_whole_records_file_is_in_the_workers_list(name):
    assert offline.RECORDS.match(name)
    assert not offline.RECORDS.match(recordfiles.part_names(name).replace("{}", "3"))
