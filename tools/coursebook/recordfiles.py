"""The files a derivation panel fetches: a page's records (coursebook.derivations) and an explorer's (coursebook.assets),
each a JSON file `{"g": entries, "r": records}` named by its content's digest, and, when it is large, the same records in
parts as well.

A first panel opens from its part: a few kilobytes parse at once, where the note's 222 KB or ④'s explorer's 531 KB
took tens of milliseconds on a phone (issue 54: a panel in ≤ 100 ms). Once a part has come, the page fetches the whole
file when it is idle (_static/why.js, _static/explorer.js); every later panel opens from it, and the offline worker
keeps it, so every panel of a page opens offline once one has opened. The parts are not in the worker's list of files
(`coursebook.offline.RECORDS`): a reader who takes the site offline takes the whole files.

A part holds its entries and every record a panel on them walks to (`reached`). Its name is the whole file's with
`.part<n>` before the digest (`part_names`): the whole file's digest names the parts too, since they are made from it.
- A page's entries are a list (a button's `data-why` is its index): part n holds entries n·PAGE_PART … n·PAGE_PART +
  PAGE_PART − 1, as an object keyed by the index; the page's marker names the parts' address and PAGE_PART.
- An explorer's entries are keyed by id and shown by its states: the states, in their order, go into parts of about
  EXPLORER_PART bytes each (neighbouring states share most records), and each state says its part (`"wp": n`); a panel
  fetches the parts of the states on show.
"""
from __future__ import annotations

import json

PARTS_FROM = 64 * 1024   # bytes: a records file larger than this is written in parts too
PAGE_PART = 32           # a page's entries per part (at most 53 KB on today's pages, most under 25)
EXPLORER_PART = 24 * 1024   # bytes: a part of an explorer's records grows by whole states up to about this


def dumps(data) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def reached(records: dict, ids) -> dict:
    """The records a panel can show from the records `ids`: each, and through every `derived:` origin (the record's own
    or an input's, the links of why-panel.js) the records those name, and so on."""
    out, todo = {}, list(ids)
    while todo:
        key = todo.pop()
        if key in out:
            continue
        record = out[key] = records[key]
        links = [record.get("origin") or "", *(x.get("origin") or "" for x in record.get("inputs", []))]
        todo += [link.removeprefix("derived:") for link in links if link.startswith("derived:")]
    return out


def part_names(name: str) -> str:
    """The parts' address for the whole file's `name` ("…/chapters-flashattention.5ef328762c61.json"): the same with
    `.part{}` before the digest, `{}` standing for the part's number (the scripts put it in)."""
    stem, digest, suffix = name.rsplit(".", 2)
    return f"{stem}.part{{}}.{digest}.{suffix}"


def part_files(name: str, parts: list[dict]) -> dict[str, bytes]:
    """{each part's name: its bytes} for the whole file's `name` (`part_names`)."""
    return {part_names(name).replace("{}", str(n)): dumps(part) for n, part in enumerate(parts)}


def page_parts(entries: list[dict], records: dict) -> list[dict]:
    """A page's records in parts of PAGE_PART entries, in the order of the page's buttons."""
    parts = []
    for start in range(0, len(entries), PAGE_PART):
        chosen = {str(i): entries[i] for i in range(start, min(start + PAGE_PART, len(entries)))}
        parts.append({"g": chosen, "r": reached(records, [e["of"] for e in chosen.values()])})
    return parts


def state_ids(state: dict) -> list[str]:
    """The entry ids a precomputed state shows (`roofline.show.why.pooled`: a field's or a cell's id, or a sentence's
    [[at, length, id], …])."""
    why, ids = state.get("why") or {}, []

    def add(found) -> None:
        if isinstance(found, list):
            ids.extend(part[2] for part in found)
        elif found:
            ids.append(found)

    for found in (why.get("fields") or {}).values():
        add(found)
    for rows in (why.get("tables") or {}).values():
        for row in rows:
            for found in row:
                add(found)
    return ids


def explorer_parts(pool: dict, parts: list[dict]) -> list[dict]:
    """An explorer's records (`pool`) in parts: each state of each of its parts (in order) is put in the current part
    while that stays under EXPLORER_PART bytes, else starts the next; the state says which (`"wp": n`, written into it).
    Returns the parts."""
    out: list[dict] = []
    current: dict | None = None
    for part in parts:
        for state in part["states"].values():
            ids = state_ids(state)
            if not ids:   # (a state that shows no number: no part; explorer.js fetches those of the others)
                continue
            entries = {key: pool["g"][key] for key in ids}
            recs = reached(pool["r"], [e["of"] for e in entries.values()])
            if current is not None:
                grown = {"g": {**current["g"], **entries}, "r": {**current["r"], **recs}}
                if len(dumps(grown)) <= EXPLORER_PART:
                    current.update(grown)
                    state["wp"] = len(out) - 1
                    continue
            current = {"g": entries, "r": recs}
            out.append(current)
            state["wp"] = len(out) - 1
    return out
