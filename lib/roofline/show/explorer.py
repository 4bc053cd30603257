"""Explorers: the reader changes the conditions on the page itself (②, ④, ⑤, the week-3 note, ②'s "내 커널").

A state of ②, ④, ⑤, the week-3 note and "내 커널" is a pure function of the chapter's problem object in
`roofline.show.engine` (texts formatted by `fmt`, words from `ko`, float coordinates). Each function here takes the
chapter's problem (`Week4`, `Week3`), computes with the engine EVERY state the controls can reach, and returns an
`Explorer` for `glue`:

- on the site (book build), its HTML: the form controls (hidden until the page's script runs), the
  values of the chapter's own condition already filled in (what a reader without JavaScript, a printer
  or a PDF sees), an empty plot area, and a `<script type="application/json">` holding every state;
  the page's script (_static/explorer.js) only picks the state that the controls name, copies its
  strings into the page and hands its float coordinates to the plotting library (no model arithmetic);
  the live mode (_static/live.js) runs the same engine in the page (Pyodide) for values no state has;
- elsewhere (Colab, Jupyter, the .ipynb editions), its Markdown: a note that the controls live on the
  site and the table of the chapter's own condition.

Data layout (read by explorer.js and live.js; the site's build moves large `states` into a JSON file of their own that
explorer.js fetches, tools/coursebook/assets.py):
    {"controls": {name: {"kind": "select"|"range"|"radio", "options": [[key, label], …], "initial": key,
                         "depends": other, "allowed": {other_key: [key, …]}}},          # depends/allowed optional
     "parts": [{"on": [control, …], "states": {"k1|k2": state}}],                         # state: see engine
     "plots": {name: {"series": [{"color": …, "width": …, "dash": […], "points": size, "line": bool}],
                      "xlabel": …, "ylabel": …}},                 # a state's plot may carry its own series, legend
     "hash": {control: name in the page's address},               # optional: the state link
     "live": {"page": …, "fields": [[name, label, value], …]}}    # optional: the live mode's form
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass
from fractions import Fraction

from roofline import buffers, kernels
from roofline.errors import ParameterError
from roofline.show import engine, fmt, tables
from roofline.show.pages import w4_4_tile_size as tile_size_mod
from roofline.show.engine import keep, powers_of_two

TERA = 10**12


@dataclass(frozen=True)
class Explorer:
    """What a chapter glues: its record holds both HTML (the site shows it: controls, states, static fallback) and
    Markdown (the Colab edition's text and what a notebook shows, since the controls need the site's script)."""

    key: str
    html: str
    markdown: str
    states: int

    def _repr_html_(self):
        return self.html

    def _repr_markdown_(self):
        return self.markdown

    def __repr__(self):
        return f"<조건 탐색기 {self.key}: 상태 {self.states}개>"


# ---------------------------------------------------------------- small helpers

def _attr(text: str) -> str:
    return html.escape(str(text), quote=True)


def _json(data) -> str:
    """JSON for a <script> element: '</' cannot close it early."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _field(name: str, text: str) -> str:
    return f'<span data-rl-field="{name}">{html.escape(text)}</span>'


def _select(uid: str, name: str, label: str, options, initial, allowed=None) -> str:
    shown = allowed if allowed is not None else [key for key, _ in options]
    items = "".join(f'<option value="{_attr(key)}"{" selected" if key == initial else ""}>{html.escape(text)}</option>'
                    for key, text in options if key in shown)
    return (f'<div class="rl-control"><label for="{uid}-{name}">{html.escape(label)}</label>'
            f'<select id="{uid}-{name}" data-rl-control="{name}">{items}</select></div>')


def _range(uid: str, name: str, label: str, options, initial, allowed=None) -> str:
    shown = allowed if allowed is not None else [key for key, _ in options]
    labels = dict(options)
    index = shown.index(initial)
    return (f'<div class="rl-control rl-range"><label for="{uid}-{name}">{html.escape(label)}</label>'
            f'<input type="range" id="{uid}-{name}" data-rl-control="{name}" min="0" max="{len(shown) - 1}" '
            f'step="1" value="{index}" aria-valuetext="{_attr(labels[initial])}">'
            f'<output for="{uid}-{name}" data-rl-output="{name}">{html.escape(labels[initial])}</output></div>')


def _radios(uid: str, name: str, label: str, options, initial) -> str:
    items = "".join(
        f'<label class="rl-radio"><input type="radio" name="{uid}-{name}" value="{_attr(key)}" '
        f'data-rl-control="{name}"{" checked" if key == initial else ""}> {html.escape(text)}</label>'
        for key, text in options)
    return f'<fieldset class="rl-control rl-radios"><legend>{html.escape(label)}</legend>{items}</fieldset>'


def _table(headers, rows, align: str, fields) -> str:
    """An HTML table whose cells carry field names (`fields[r][c]`, None: a fixed cell)."""
    side = {"l": "text-left", "r": "text-right", "c": "text-center"}
    head = "".join(f'<th class="head {side[a]}">{html.escape(h)}</th>' for h, a in zip(headers, align))
    body = []
    for row, names in zip(rows, fields):
        cells = "".join(
            f'<td class="{side[a]}">{_field(n, c) if n else html.escape(c)}</td>' for c, n, a in zip(row, names, align))
        body.append(f"<tr>{cells}</tr>")
    table = f'<table class="table rl-table"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    return f'<div class="pst-scrollable-table-container">{table}</div>'   # scrolls in its own box, as the site's tables


def _legend(items, name: str | None = None) -> str:
    """Static legend of a plot: (colour, dash?, text); a named one the page's script rewrites from a state's plot."""
    spans = "".join(
        f'<span class="rl-key"><span class="rl-swatch{" rl-dashed" if dashed else ""}" style="--rl-swatch: {color}">'
        f'</span>{html.escape(text)}</span>' for color, dashed, text in items)
    named = f' data-rl-legend="{name}"' if name else ""
    return f'<p class="rl-legend"{named} hidden>{spans}</p>'


def _plot(uid: str, name: str, aria: str) -> str:
    return f'<div class="rl-plot" data-rl-plot="{name}" id="{uid}-plot-{name}" role="img" aria-label="{_attr(aria)}" hidden></div>'


def _wrap(uid: str, intro: str, controls: str, body: str, data: dict) -> str:
    return (
        f'<div class="rl-explorer" id="{uid}" data-rl-explorer>'
        f'<p class="rl-intro">{intro}</p>'
        f'<form class="rl-controls" hidden onsubmit="return false">{controls}</form>'
        f'<noscript><p class="rl-note">JavaScript를 켜면 이 자리에서 조건을 바꿔 볼 수 있다. '
        f'지금 보이는 값은 이 장의 조건에서 계산한 것이다.</p></noscript>'
        f'{body}'
        f'<script type="application/json" class="rl-data">{_json(data)}</script>'
        f'</div>'
    )


def _markdown(note: str, table) -> str:
    return f"> **조건 바꿔 보기.** {note}\n\n{table.data}"


def _count(data: dict) -> int:
    return max(len(part["states"]) for part in data["parts"])


# ---------------------------------------------------------------- ② the roofline

ROOFLINE_HEADERS, ROOFLINE_ALIGN = engine.ROOFLINE_HEADERS, engine.ROOFLINE_ALIGN


# Which model ②'s explorer applies (the same as the week's hand calculation), said beside it.
MODEL_NOTE = ("값은 4주차의 모델로 셌다. 재사용은 출력 타일 하나 안에서만 일어나고, 서로 다른 출력 타일 사이의 "
              "재사용(L2 캐시)은 없으며, C는 입력과 같은 자료형으로 한 번 쓴다고 둔다. 실제 GEMM 라이브러리는 "
              "타일 사이에서도 입력을 재사용하므로 I가 이보다 크다.")


def _literal(value) -> str:
    """A parameter cell's value as the live form shows it: 4096, 100_000_000, [32, 64, 128], H100_SXM."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 100_000:
        return f"{value:_}"
    return str(value)


def _live(page: str, values: dict) -> dict:
    """The live mode's form: the page's fields (name, label as the parameter cell says it, the chapter's value)."""
    return {"page": page, "fields": [[name, label, _literal(values[name])] for name, label in engine.LIVE[page][1]
                                     if name in values]}


def _rows_table(name: str, headers, table: dict) -> str:
    """A table whose body the page's script rewrites from a state's `tables[name]` (the row count may change)."""
    side = {"l": "text-left", "r": "text-right", "c": "text-center"}
    align = table["align"]
    head = "".join(f'<th class="head {side[a]}">{html.escape(h)}</th>' for h, a in zip(headers, align))
    body = "".join("<tr>" + "".join(f'<td class="{side[a]}">{html.escape(c)}</td>' for c, a in zip(row, align)) + "</tr>"
                   for row in table["rows"])
    return (f'<div class="pst-scrollable-table-container"><table class="table rl-table"><thead><tr>{head}</tr></thead>'
            f'<tbody data-rl-table="{name}">{body}</tbody></table></div>')


def roofline(w4) -> Explorer:
    """② The reader chooses the hardware (every preset) and a dtype it has; the roofline, the week-4 cases of the
    problem `w4` and their I, R_roof, t_ideal and limiting resource follow (`engine.roofline_state`)."""
    presets, dtypes = w4.catalog.presets, w4.catalog.dtypes
    start, dtype = w4.hardware_key, w4.dtype
    uid = "rl-roofline"
    states = {f"{key}|{d}": engine.roofline_state(w4.with_(hardware=key, dtype=d))
              for key, p in presets.items() for d in p.peak}
    options = [[key, p.name] for key, p in presets.items()]
    all_dtypes = [[d, f"{d} (원소당 {dtypes[d]} Byte)"] for d in dtypes]
    allowed = {key: [d for d in dtypes if d in p.peak] for key, p in presets.items()}
    data = {
        "controls": {
            "hw": {"kind": "select", "options": options, "initial": start},
            "dtype": {"kind": "select", "options": all_dtypes, "initial": dtype, "depends": "hw", "allowed": allowed},
        },
        "parts": [{"on": ["hw", "dtype"], "states": states}],
        "plots": {"roofline": {"xlabel": "산술 강도 I (FLOPs/Byte, 로그 축)", "ylabel": "R (TFLOPs/s, 로그 축)"}},
        "live": _live("roofline", {"hardware": w4.hardware_key, "dtype": w4.dtype, "N": w4.N, "tiles": list(w4.tiles)}),
        "hash": {"hw": "hardware", "dtype": "dtype"},
    }
    first = states[f"{start}|{dtype}"]
    f = first["fields"]
    plot = first["plots"]["roofline"]
    controls = (_select(uid, "hw", "하드웨어", options, start)
                + _select(uid, "dtype", "자료형", all_dtypes, dtype, allowed[start]))
    body = (
        f'<p class="rl-summary" aria-live="polite">{_field("shape", f["shape"])} 행렬곱, {_field("machine", f["machine"])}: '
        f'P = {_field("P", f["P"])} TFLOPs/s, BW = {_field("BW", f["BW"])} TB/s, 분기점 I* = P/BW = '
        f'{_field("ridge", f["ridge"])} FLOPs/Byte. {_field("regimes", f["regimes"])}</p>'
        + _plot(uid, "roofline", plot["aria"])
        + _legend(plot["legend"], "roofline")
        + _rows_table("cases", ROOFLINE_HEADERS, first["tables"]["cases"])
    )
    intro = (f"{_field('shape', f['shape'])} 행렬곱을 다른 하드웨어와 자료형에서 보면 어떻게 될까? 하드웨어와 자료형을 고르면 Roofline과 "
             f"각 경우의 점, 아래 표가 그 조건의 값으로 바뀐다. {MODEL_NOTE}")
    note = ("강의 사이트의 이 자리에서는 하드웨어와 자료형을 골라 Roofline과 표가 바뀌는 것을 볼 수 있다. "
            "노트북에서는 매개변수 셀의 하드웨어를 바꾸고 다시 실행하면 된다. "
            f"{MODEL_NOTE} 아래는 지금 조건({f['machine']})의 값이다.")
    rows = first["tables"]["cases"]["rows"]
    return Explorer("roofline", _wrap(uid, intro, controls, body, data),
                    _markdown(note, tables.markdown(ROOFLINE_HEADERS, rows, ROOFLINE_ALIGN)), _count(data))


def my_kernel(w4, w3, note, kind: str = "matmul", sizes=None, t_ms=None) -> Explorer:
    """② "내 커널": the reader's kernel on the chosen machine's roofline (`engine.kernel_state`). The build shows
    the default example (the chapter's machine, an N×N matmul with its middle tile); the page's live mode lets
    the reader type F and Q, or a kernel and its sizes, and a measured time. The form starts from the course's
    examples: the week-3 vector length L, the note's GEMM (N, K and a batch b)."""
    sizes = sizes or {"N": w4.N, "T": w4.tiles[len(w4.tiles) // 2]}
    state = engine.kernel_state(w4.catalog, w4.hardware_key, w4.dtype, kind, sizes, t_ms)
    f = state["fields"]
    plot = state["plots"]["kernel"]
    uid = "rl-kernel"
    values = {"hardware": w4.hardware_key, "dtype": w4.dtype, "kernel": kind, "F": 2 * w4.N**3,
              "Q": kernels.matmul_tiled(w4.N, sizes.get("T", 1), w4.s, w4.s).Q if kind == "matmul" else 1,
              "L": w3.L, "N": sizes.get("N", w4.N), "T": sizes.get("T", w4.tiles[0]), "M": note.gemm.N,
              "K": note.gemm.K, "b": note.gemm.batches[len(note.gemm.batches) // 2],
              "t_ms": "" if t_ms is None else t_ms}
    data = {"controls": {}, "parts": [{"on": [], "states": {"": state}}],
            "plots": {"kernel": {"xlabel": "산술 강도 I (FLOPs/Byte, 로그 축)", "ylabel": "R (TFLOPs/s, 로그 축)"}},
            "live": _live("kernel", values)}
    data["live"]["choices"] = {"kernel": [[key, name] for key, (name, _) in engine.KERNELS.items()]}
    data["live"]["sizes"] = {key: list(names) for key, (_, names) in engine.KERNELS.items()}
    rows = [("하드웨어", _field("k-machine", f["k-machine"])), ("F (FLOPs)", _field("k-F", f["k-F"])),
            ("Q (Byte)", _field("k-Q", f["k-Q"])), ("I (FLOPs/Byte)", _field("k-I", f["k-I"])),
            ("성능 상한 R_roof (TFLOPs/s)", _field("k-R", f["k-R"])), ("제한 자원", _field("k-bound", f["k-bound"])),
            ("Roofline 예상 시간 (ms)", _field("k-t", f["k-t"])),
            ("측정 처리율 (TFLOPs/s)", _field("k-achieved", f["k-achieved"])),
            ("성능 상한 대비", _field("k-share", f["k-share"]))]
    table = ('<div class="pst-scrollable-table-container"><table class="table rl-table"><thead><tr>'
             '<th class="head text-left">항목</th><th class="head text-right">값</th></tr></thead><tbody>'
             + "".join(f'<tr><td class="text-left">{html.escape(h)}</td><td class="text-right">{v}</td></tr>' for h, v in rows)
             + "</tbody></table></div>")
    body = (f'<p class="rl-summary rl-verdict" aria-live="polite">{_field("k-verdict", f["k-verdict"])}</p>'
            + _plot(uid, "kernel", plot["aria"]) + _legend(plot["legend"], "kernel") + table)
    example = f"{w4.N}×{w4.N} 행렬곱(T = {sizes.get('T')})" if kind == "matmul" else engine.KERNELS[kind][0]
    intro = (f"내 커널은 Roofline의 어디에 놓일까? 아래는 예로 든 {html.escape(example)}을 이 장의 하드웨어에 놓은 값이다. "
             "이 페이지에서 직접 계산하기를 켜면 F와 Q를 직접 적거나 커널과 크기를 고르고, 잰 시간을 적어 달성한 처리율까지 볼 수 있다.")
    note = ("강의 사이트의 이 자리에서는 내 커널의 F와 Q(또는 커널과 크기)와 잰 시간을 적어 Roofline 위의 위치를 볼 수 있다. "
            f"아래는 예로 든 {example}의 값이다.")
    md_rows = [(h, f[k]) for h, k in zip([r[0] for r in rows], ["k-machine", "k-F", "k-Q", "k-I", "k-R", "k-bound", "k-t",
                                                                  "k-achieved", "k-share"])]
    return Explorer("kernel", _wrap(uid, intro, "", body, data), _markdown(note, tables.markdown(["항목", "값"], md_rows, "lr")), 1)


# ---------------------------------------------------------------- ⑤ the matmul

MATMUL_HEADERS, MATMUL_ALIGN = engine.MATMUL_HEADERS, engine.MATMUL_ALIGN


def matmul_sizes(N: int, smallest: int = 1024, largest: int = 16384) -> list[int]:
    """The N of the explorer: powers of two from `smallest` to `largest`, and the chapter's own N."""
    found, n = set(), smallest
    while n <= largest:
        found.add(n)
        n *= 2
    return sorted(found | {N})


def matmul(w4, T: int, sizes=None) -> Explorer:
    """⑤ The reader chooses N (powers of two from 1,024 to 16,384, and the problem's N) and T (every power of
    two from 8 that divides N, and the problem's tiles at its N); the point moves on the I–T and t_ideal–T
    curves and the table shows the no-reuse row and the chosen T's row (`engine.matmul_state`)."""
    N, dtype = w4.N, w4.dtype
    kernels.check_positive(T=T)
    sizes = sizes or matmul_sizes(N)
    problems_at = {n: w4 if n == N else w4.with_(N=n, tiles=powers_of_two(n)) for n in sizes}
    tile_sets = {n: engine.matmul_sweep(p) for n, p in problems_at.items()}
    if T not in tile_sets[N]:
        raise ParameterError(f"T: T = {T}은(는) N = {N}에서 고를 수 있는 타일 한 변이 아니다. 고를 수 있는 값: {tile_sets[N]}")
    uid = "rl-matmul"
    states = {f"{n}|{t}": engine.matmul_state(p, t) for n, p in problems_at.items() for t in tile_sets[n]}
    n_options = [[str(n), fmt.integer(n)] for n in sizes]
    t_options = [[str(t), fmt.integer(t)] for t in sorted(set().union(*tile_sets.values()))]
    data = {
        "controls": {
            "N": {"kind": "range", "options": n_options, "initial": str(N)},
            "T": {"kind": "range", "options": t_options, "initial": str(T), "depends": "N",
                  "allowed": {str(n): [str(t) for t in Ts] for n, Ts in tile_sets.items()}},
        },
        "parts": [{"on": ["N", "T"], "states": states}],
        "plots": {
            "intensity": {"series": [{"color": "var(--rl-ink)", "width": 1.5, "line": True, "points": 4},
                                     {"color": "var(--rl-muted)", "width": 1.2, "line": True, "dash": [6, 4]},
                                     {"color": "var(--rl-accent)", "points": 11}],
                          "xlabel": "타일 한 변 T (로그 축)", "ylabel": "I_T (FLOPs/Byte, 로그 축)"},
            "times": {"series": [{"color": "var(--rl-ink)", "width": 1.5, "line": True, "points": 4},
                                 {"color": "var(--rl-ink)", "width": 1.2, "line": True, "dash": [6, 4]},
                                 {"color": "var(--rl-muted)", "width": 2, "line": True, "dash": [2, 3]},
                                 {"color": "var(--rl-accent)", "points": 11}],
                      "xlabel": "타일 한 변 T (로그 축)", "ylabel": "시간 (ms, 로그 축)"},
        },
        "live": _live("matmul", {"hardware": w4.hardware_key, "dtype": dtype, "N": N, "tiles": list(w4.tiles), "T": T}),
        "hash": {"N": "N", "T": "T"},
    }
    first = states[f"{N}|{T}"]
    f = first["fields"]
    rows = [[keep("재사용 없음")] + [f[f"r0-{j}"] for j in range(1, 10)], [f["T"]] + [f[f"r1-{j}"] for j in range(1, 10)]]
    names = [[None] + [f"r0-{j}" for j in range(1, 10)], ["T"] + [f"r1-{j}" for j in range(1, 10)]]
    allowed = data["controls"]["T"]["allowed"][str(N)]
    controls = (_range(uid, "N", "행렬 한 변 N", n_options, str(N))
                + _range(uid, "T", "타일 한 변 T", t_options, str(T), allowed))
    body = (
        f'<p class="rl-summary" aria-live="polite">{_field("shape", f["shape"])} {_field("dtype", f["dtype"])} 행렬곱, '
        f'{_field("T", f["T"])}: 이상적 시간 {_field("r1-7", f["r1-7"])} ms, 제한 자원 {_field("r1-8", f["r1-8"])}</p>'
        '<div class="rl-plots">'
        + _plot(uid, "intensity", first["plots"]["intensity"]["aria"])
        + _plot(uid, "times", first["plots"]["times"]["aria"])
        + '</div>'
        + _legend([("var(--rl-ink)", False, "I_T, 이상적 시간"), ("var(--rl-ink)", True, "연산 시간 F/P"),
                   ("var(--rl-muted)", True, "분기점 I*, 메모리 시간"), ("var(--rl-accent)", False, "고른 T")])
        + _table(MATMUL_HEADERS, rows, MATMUL_ALIGN, names)
    )
    intro = ("행렬 한 변 N과 타일 한 변 T를 바꾸면 두 곡선 위의 점이 움직이고, 표의 두 줄이 그 조건의 값으로 바뀐다. "
             f"하드웨어는 {_field('machine', f['machine'])}, 자료형은 {_field('dtype', f['dtype'])}이다.")
    note = ("강의 사이트의 이 자리에서는 N과 T를 바꿔 가며 산술 강도와 이상적 시간 곡선 위의 점과 표가 바뀌는 것을 볼 수 있다. "
            f"노트북에서는 매개변수 셀의 N과 타일을 바꾸고 다시 실행하면 된다. 아래는 지금 조건({f['shape']}, {f['T']})의 값이다.")
    return Explorer("matmul", _wrap(uid, intro, controls, body, data),
                    _markdown(note, tables.markdown(MATMUL_HEADERS, rows, MATMUL_ALIGN)), _count(data))


# ---------------------------------------------------------------- ④ tile size

BUFFER_MODES = [[str(k), label] for k, label in engine.BUFFERING.items()]
TILE_HEADERS, TILES_HEADERS = engine.TILE_HEADERS, engine.TILES_HEADERS


@dataclass(frozen=True)
class TileOptions:
    """What ④'s static explorer offers: the presets with per-SM limits and the tile sides (the problem's threads
    and registers allowance; any other value, N and tiles are the live mode's)."""

    gpus: tuple[str, ...]
    Ts: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.gpus) * len(self.Ts) * 2


def tile_options(w4) -> TileOptions:
    """Every power of two from 8 that divides N, up to the first whose single input buffers no GPU's block can
    take (one such T is shown), and the problem's tiles; every preset with per-SM limits."""
    presets = w4.catalog.presets
    gpus = tuple(key for key, p in presets.items() if p.sm)
    most = max(presets[key].sm.smem_per_block for key in gpus)
    Ts = []
    for T in powers_of_two(w4.N):
        Ts.append(T)
        if buffers.tile_buffers(T, T, T, w4.s, w4.s, 1).inputs > most:
            break
    return TileOptions(gpus, tuple(sorted(set(Ts) | set(w4.tiles))))


def tile_size(w4, T: int) -> Explorer:
    """④ The reader chooses T, single or double buffering and the GPU (presets with per-SM limits): the buffers,
    the four limits on resident blocks, the resident blocks, active warps, occupancy and the binding limit follow,
    and the problem's tiles on that GPU (`engine.tile_buffers_state`, `engine.tile_occupancy_state`,
    `engine.tile_cases_state`: roofline.occupancy, the one function). The threads per block and the registers
    allowance are the problem's; the live mode takes any value of them, of N, the tiles and the dtype."""
    o = tile_options(w4)
    if T not in o.Ts:
        raise ParameterError(f"T: T = {T}은(는) 고를 수 있는 타일 한 변이 아니다. 고를 수 있는 값: {list(o.Ts)}")
    uid = "rl-tile"
    problems_at = {key: w4.with_(gpu=key) for key in o.gpus}
    sizes = {f"{t}|{c}": engine.tile_buffers_state(w4, t, c) for t in o.Ts for c in (1, 2)}
    states = {f"{t}|{c}|{key}": engine.tile_occupancy_state(p, t, c) for key, p in problems_at.items()
              for t in o.Ts for c in (1, 2)}
    cases = {key: engine.tile_cases_state(p) for key, p in problems_at.items()}
    t_options = [[str(t), fmt.integer(t)] for t in o.Ts]
    g_options = [[key, w4.catalog.presets[key].name] for key in o.gpus]
    data = {
        "controls": {
            "T": {"kind": "range", "options": t_options, "initial": str(T)},
            "copies": {"kind": "radio", "options": BUFFER_MODES, "initial": "1"},
            "gpu": {"kind": "select", "options": g_options, "initial": w4.gpu},
        },
        "parts": [{"on": ["T", "copies"], "states": sizes},
                  {"on": ["T", "copies", "gpu"], "states": states},
                  {"on": ["gpu"], "states": cases}],
        "plots": {},
        "live": _live("tile-size", {"dtype": w4.dtype, "N": w4.N, "tiles": list(w4.tiles), "threads": w4.threads,
                                    "gpu": w4.gpu, "extra_registers": w4.extra_registers, "T": T, "copies": 1}),
        "hash": {"T": "T", "copies": "copies", "gpu": "gpu"},
    }
    data["live"]["choices"] = {"copies": BUFFER_MODES}
    first = engine.tile_state(w4, T, 1)
    f = first["fields"]
    row = [f[f"b{j}"] for j in range(len(TILE_HEADERS))]
    occ_rows = [(h, f[k]) for h, k in zip(tile_size_mod.OCC_HEADERS, tile_size_mod.OCC_KEYS)]
    controls = (_range(uid, "T", "타일 한 변 T (T_M = T_N = T_K)", t_options, str(T))
                + _radios(uid, "copies", "입력 버퍼 A·B", BUFFER_MODES, "1")
                + _select(uid, "gpu", "GPU 프리셋", g_options, w4.gpu))
    condition = (f'{_field("gpu-name", f["gpu-name"])}, 블록당 스레드 {_field("threads", f["threads"])}개'
                 f'(워프 {_field("warps-per-block", f["warps-per-block"])}개), 스레드당 레지스터 여유분 '
                 f'{_field("extra", f["extra"])}개')
    body = (
        f'<p class="rl-summary" aria-live="polite">{_field("tile", f["tile"])}: {_field("verdict", f["verdict"])}</p>'
        f'<div class="rl-meter" hidden><span class="rl-meter-label">점유율: SM 하나의 최대 워프 가운데 '
        f'활성 워프의 몫</span><span class="rl-meter-track"><span class="rl-meter-fill" '
        f'data-rl-width="occupancy" style="width: {first["widths"]["occupancy"]}"></span></span></div>'
        + _table(["블록 하나의 공간", "값"], [(h, v) for h, v in zip(TILE_HEADERS, row)], "lr",
                 [[None, f"b{j}"] for j in range(len(row))])
        + _table(["SM 하나의 점유율", "값"], occ_rows, "lr", [[None, k] for k in tile_size_mod.OCC_KEYS])
        + f'<p>매개변수 셀의 비교할 타일을 모두 같은 블록으로 {_field("gpu-name", f["gpu-name"])}에 놓으면 다음과 같다. '
        '칸마다 상주 블록, 점유율과 그 수를 정한 한도다.</p>'
        + _rows_table("tiles", TILES_HEADERS, first["tables"]["tiles"])
    )
    intro = (f"{_field('dtype', f['dtype'])} 원소 {_field('s', f['s'])} Byte로 T×T 출력 타일 하나를 맡는 블록이 실제 GPU의 "
             f"SM 하나에 몇 개 상주하는지 본다. 블록은 {condition}다. 입력 버퍼는 Shared Memory에, 중간 합은 스레드들의 "
             "레지스터에 나누어 둔다고 본다. 네 한도(워프 수, 레지스터, Shared Memory, 블록 수)는 위의 표와 같은 규칙으로 "
             '계산했다. <span class="rl-static-only">타일 한 변, 버퍼링, GPU를 바꿔 보자. 스레드 수와 레지스터 여유분, '
             "N과 타일은 ‘이 페이지에서 직접 계산하기’를 켜면 바꿀 수 있다.</span>")
    note = ("강의 사이트의 이 자리에서는 타일 한 변, 단일·이중 버퍼링, GPU를 골라 버퍼 크기와 네 한도, 상주 블록과 점유율이 "
            "바뀌는 것을 볼 수 있고, 그곳의 ‘이 페이지에서 직접 계산하기’를 켜면 스레드 수, 레지스터 여유분, N과 타일도 바꿀 수 있다. "
            "노트북에서는 매개변수 셀의 값을 바꾸고 다시 실행하면 된다. "
            f"아래는 지금 조건({f['tile']}, {w4.catalog.presets[w4.gpu].name}, 스레드 {w4.threads}개, "
            f"여유분 {w4.extra_registers}개)의 값이다.")
    table = tables.markdown(["항목", "값"], list(zip(TILE_HEADERS, row)) + occ_rows, "lr")
    return Explorer("tile-size", _wrap(uid, intro, controls, body, data), _markdown(note, table), len(states))


# ---------------------------------------------------------------- week 3: vector add

FACTORS = tuple(Fraction(2) ** k for k in range(-6, 7))   # ×1/64 … ×64
VECTOR_HEADERS, VECTOR_ALIGN = engine.VECTOR_HEADERS, engine.VECTOR_ALIGN


def factor_label(k) -> str:
    return fmt.fraction(k) + "배"


def vector_add(w3, factors=FACTORS) -> Explorer:
    """Week 3: the reader multiplies P, BW and the memory capacity of the problem `w3` by k each; the three times,
    the speedup over the chapter's machine and whether the three vectors fit follow (`engine.vector_times`,
    `engine.vector_fits`; the intro's words from `engine.vector_words`)."""
    factors = [Fraction(k) for k in factors]
    if 1 not in factors:
        raise ParameterError("factors: 배율에 1(이 장의 하드웨어 그대로)이 있어야 한다")
    uid = "rl-vector"
    options = [[fmt.fraction(k), factor_label(k)] for k in factors]
    times = {f"{fmt.fraction(kP)}|{fmt.fraction(kBW)}": engine.vector_times(w3, kP, kBW) for kP in factors for kBW in factors}
    fits = {fmt.fraction(k): engine.vector_fits(w3, k) for k in factors}
    data = {
        "controls": {name: {"kind": "range", "options": options, "initial": "1"} for name in ("P", "BW", "cap")},
        "parts": [{"on": ["P", "BW"], "states": times}, {"on": ["cap"], "states": fits},
                  {"on": [], "states": {"": engine.vector_words(w3)}}],
        "plots": {},
        "live": _live("vector-add", {"hardware": w3.hardware_key, "dtype": w3.dtype, "L": w3.L, "capacity": w3.capacity,
                                     "kP": 1, "kBW": 1, "kcap": 1}),
        "hash": {"P": "kP", "BW": "kBW", "cap": "kcap"},
    }
    f = {**times["1|1"]["fields"], **fits["1"]["fields"], **engine.vector_words(w3)["fields"]}
    w = times["1|1"]["widths"]
    row = [f[f"t{j}"] for j in range(5)]
    controls = (_range(uid, "P", "연산 성능 P의 배율 k", options, "1")
                + _range(uid, "BW", "메모리 대역폭 BW의 배율 k", options, "1")
                + _range(uid, "cap", "메모리 용량의 배율 k", options, "1"))

    def bar(name, label):
        return (f'<span class="rl-bar-row"><span class="rl-bar-name">{label}</span><span class="rl-meter-track">'
                f'<span class="rl-meter-fill" data-rl-width="{name}" style="width: {w[name]}"></span></span></span>')

    body = (
        f'<p class="rl-summary" aria-live="polite">P = {_field("P", f["P"])} TFLOPs/s, BW = {_field("BW", f["BW"])} TB/s: '
        f'이상적 실행 시간 {_field("t2", f["t2"])}, {_field("kind", f["kind"])}. {_field("fits", f["fits"])}</p>'
        f'<div class="rl-meter rl-bars" hidden>{bar("compute", "연산 시간")}{bar("memory", "메모리 시간")}</div>'
        + _table(VECTOR_HEADERS, [row + [f["capacity"]]], VECTOR_ALIGN, [[f"t{j}" for j in range(len(row))] + ["capacity"]])
    )
    intro = (f"길이 L의 {_field('dtype', f['dtype'])} Vector Add에서 {_field('base', f['base'])}의 연산 성능 P, 메모리 대역폭 BW, "
             "메모리 용량에 각각 배율 k를 곱해 보자. 두 시간과 이상적 실행 시간, 배율을 곱하기 전의 "
             f"{_field('base', f['base'])} 대비 속도, 세 벡터가 들어가는지가 따라 바뀐다.")
    note = ("강의 사이트의 이 자리에서는 P, BW, 메모리 용량에 배율을 곱해 세 시간과 속도, 들어가는지가 바뀌는 것을 볼 수 있다. "
            "노트북에서는 위 코드 셀의 배율을 바꾸고 다시 실행하면 된다. 아래는 세 배율이 모두 1일 때의 값이다.")
    return Explorer("vector-add", _wrap(uid, intro, controls, body, data),
                    _markdown(note, tables.markdown(VECTOR_HEADERS, [row + [f["capacity"]]], VECTOR_ALIGN)), len(times))
