"""Explorers: the reader changes the conditions on the page itself (②, ④, ⑤, the week-3 note).

Each function takes plain values (presets, dtypes, the week's machine, N, tiles, L, capacity …), computes
EVERY state the controls can reach with the model (kernels, cost, buffers), formats every shown value
with `fmt`, and returns an `Explorer` for `glue`:

- on the site (book build), its HTML: the form controls (hidden until the page's script runs), the
  values of the chapter's own condition already filled in (what a reader without JavaScript, a printer
  or a PDF sees), an empty plot area, and a `<script type="application/json">` holding every state;
  the page's script (_static/explorer.js) only picks the state that the controls name, copies its
  strings into the page and hands its float coordinates to the plotting library (no model arithmetic);
- elsewhere (Colab, Jupyter, the .ipynb editions), its Markdown: a note that the controls live on the
  site and the table of the chapter's own condition.

Data layout (read by explorer.js):
    {"controls": {name: {"kind": "select"|"range"|"radio", "options": [[key, label], …], "initial": key,
                         "depends": other, "allowed": {other_key: [key, …]}}},          # depends/allowed optional
     "parts": [{"on": [control, …], "states": {"k1|k2": {"fields": {name: text},
                                                           "widths": {name: "37.5%"},     # a bar's length
                                                           "flags": {name: bool},         # class rl-NAME on the section
                                                           "plots": {name: plot}}}}],
     "plots": {name: {"series": [{"color": …, "width": …, "dash": […], "points": size, "line": bool}]}}}
    plot = {"x": [...], "y": [[...] per series], "xticks": [[v, label]], "yticks": [[v, label]],
            "xrange": [lo, hi], "yrange": [lo, hi], "marks": [{"x", "y", "text"}], "aria": text}
"""
from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass
from fractions import Fraction

from roofline import buffers, kernels, occupancy
from roofline.cost import Timing
from roofline.errors import ParameterError
from roofline.hardware import Roofline
from roofline.show import fmt, ko, style, tables
from roofline.show import tile_size as tile_size_mod

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

def keep(text: str) -> str:
    """No-break spaces: a table cell such as "T = 32" does not wrap inside."""
    return text.replace(" ", "\u00a0")


def powers_of_two(N: int, smallest: int = 8) -> list[int]:
    """Every power of two T ≥ `smallest` that divides N, increasing."""
    kernels.check_positive(N=N, smallest=smallest)
    found, T = [], 1
    while T <= N:
        if T >= smallest and N % T == 0:
            found.append(T)
        T *= 2
    return found


def _float(x) -> float:
    """A coordinate for the plot (floats only for plotting), 6 significant digits."""
    return float(f"{float(x):.6g}")


def _log_ticks(lo, hi) -> list[list]:
    """Tick positions and labels on a log axis between lo and hi: powers of ten (1-2-5 when fewer than 3)."""
    lo, hi = Fraction(lo), Fraction(hi)
    first, last = math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1
    for steps in ((1,), (1, 2, 5)):
        ticks = []
        for k in range(first, last + 1):
            for m in steps:
                value = m * Fraction(10) ** k
                if lo <= value <= hi:
                    ticks.append([_float(value), fmt.number(value, max(0, -k))])
        if len(ticks) >= 3:
            break
    return ticks


def _tile_ticks(Ts: list[int]) -> list[list]:
    """Every tile side on the axis, every other one when there are many (a phone is narrow)."""
    step = 1 if len(Ts) <= 6 else 2
    return [[T, fmt.integer(T)] for T in Ts[::step]]


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


def _legend(items) -> str:
    """Static legend of a plot: (colour, dash?, text)."""
    spans = "".join(
        f'<span class="rl-key"><span class="rl-swatch{" rl-dashed" if dashed else ""}" style="--rl-swatch: {color}">'
        f'</span>{html.escape(text)}</span>' for color, dashed, text in items)
    return f'<p class="rl-legend" aria-hidden="true" hidden>{spans}</p>'


def _plot(uid: str, name: str, aria: str) -> str:
    return f'<div class="rl-plot" data-rl-plot="{name}" id="{uid}-plot-{name}" role="img" aria-label="{_attr(aria)}" hidden></div>'


def _wrap(uid: str, intro: str, controls: str, body: str, data: dict) -> str:
    return (
        f'<section class="rl-explorer" id="{uid}" data-rl-explorer>'
        f'<p class="rl-intro">{intro}</p>'
        f'<form class="rl-controls" hidden onsubmit="return false">{controls}</form>'
        f'<noscript><p class="rl-note">JavaScript를 켜면 이 자리에서 조건을 바꿔 볼 수 있다. '
        f'지금 보이는 값은 이 장의 조건에서 계산한 것이다.</p></noscript>'
        f'{body}'
        f'<script type="application/json" class="rl-data">{_json(data)}</script>'
        f'</section>'
    )


def _markdown(note: str, table) -> str:
    return f"> **조건 바꿔 보기.** {note}\n\n{table.data}"


def _count(data: dict) -> int:
    return max(len(part["states"]) for part in data["parts"])


# ---------------------------------------------------------------- ② the roofline

def roofline_cases(N: int, tiles, s: int, hw: Roofline):
    """(label, Timing) of the week-4 cases on one machine: no reuse, then each tile side."""
    cases = [("재사용 없음", kernels.matmul_no_reuse(N, s, s))]
    cases += [(f"T = {T}", kernels.matmul_tiled(N, T, s, s)) for T in tiles]
    return [(label, Timing(cost, hw)) for label, cost in cases]


# Which model ②'s explorer applies (the same as the week's hand calculation), said beside it.
MODEL_NOTE = ("값은 4주차의 모델로 셌다. 재사용은 출력 타일 하나 안에서만 일어나고, 서로 다른 출력 타일 사이의 "
              "재사용(L2 캐시)은 없으며, C는 입력과 같은 자료형으로 한 번 쓴다고 둔다. 실제 GEMM 라이브러리는 "
              "타일 사이에서도 입력을 재사용하므로 I가 이보다 크다.")

ROOFLINE_HEADERS = ["경우", "I (FLOPs/Byte)", "성능 상한 (TFLOPs/s)", "Roofline 예상 시간 (ms)", "제한 자원"]


def roofline_row(label: str, t: Timing) -> tuple:
    """One row of ②'s explorer table: I, R_roof, t_ideal, the limiting resource."""
    return (keep(label), fmt.decimal(t.cost.I, 6), fmt.tera(t.R_roof, 6), fmt.ms(t.t_ideal, 6), keep(ko.bound(t)))


def machine_words(hw: Roofline) -> dict[str, str]:
    return {"P": fmt.number(hw.P / TERA, 3), "BW": fmt.number(hw.BW / TERA, 3), "ridge": fmt.number(hw.ridge, 3)}


def roofline(presets: dict, dtypes: dict, N: int, tiles, hw: Roofline, dtype: str) -> Explorer:
    """② The reader chooses the hardware (every preset) and a dtype it has; the roofline, the matmul cases
    and their I, R_roof, t_ideal and limiting resource follow. Starts at the chapter's own machine `hw`
    (a preset whose `dtype` roofline it is, else an extra choice "이 장의 하드웨어")."""
    tiles = list(tiles)
    if dtype not in dtypes:
        raise ValueError(f"dtype: 알 수 없는 자료형 {dtype!r}이다. 아는 자료형: {', '.join(dtypes)}")
    machines = {key: (p.name, {d: p.roofline(d) for d in p.peak}) for key, p in presets.items()}
    start = next((key for key, p in presets.items() if dtype in p.peak and (p.P(dtype), p.BW) == (hw.P, hw.BW)), None)
    if start is None:
        start = "chapter"
        machines = {"chapter": (hw.name or "이 장의 하드웨어", {dtype: hw}), **machines}
    uid = "rl-roofline"
    states = {}
    for key, (name, by_dtype) in machines.items():
        for d, machine in by_dtype.items():
            cases = roofline_cases(N, tiles, dtypes[d], machine)
            fields = {**machine_words(machine), "machine": f"{name}, {d}"}
            for i, (label, t) in enumerate(cases):
                for j, text in enumerate(roofline_row(label, t)[1:], start=1):
                    fields[f"c{i}-{j}"] = text
            I_all = [t.cost.I for _, t in cases] + [machine.ridge]
            lo, hi = min(I_all) / 4, max(I_all) * 8
            xs = sorted({lo, machine.ridge, hi, *(t.cost.I for _, t in cases)})
            ys = [[_float(machine.R_roof(x) / TERA) for x in xs]]
            ys += [[_float(t.R_roof / TERA) if x == t.cost.I else None for x in xs] for _, t in cases]
            y_lo, y_hi = machine.BW * lo / TERA / 2, machine.P / TERA * 4
            states[f"{key}|{d}"] = {"fields": fields, "plots": {"roofline": {
                "x": [_float(x) for x in xs], "y": ys,
                "xticks": _log_ticks(lo, hi), "yticks": _log_ticks(y_lo, y_hi),
                "xrange": [_float(lo), _float(hi)], "yrange": [_float(y_lo), _float(y_hi)],
                "marks": [{"x": _float(machine.ridge), "y": _float(machine.P / TERA),
                           "text": f"I* = {fmt.number(machine.ridge, 3)}", "vline": True}],
                "aria": (f"{name} {d}의 Roofline. 분기점 I* = {fields['ridge']} FLOPs/Byte, 연산 상한 P = {fields['P']} "
                         f"TFLOPs/s. 점은 " + ", ".join(f"{label} (I = {fmt.decimal(t.cost.I, 3)})" for label, t in cases)
                         + "의 성능 상한이다."),
            }}}
    options = [[key, name] for key, (name, _) in machines.items()]
    all_dtypes = [[d, f"{d} (원소당 {dtypes[d]} Byte)"] for d in dtypes]
    allowed = {key: [d for d in dtypes if d in by_dtype] for key, (_, by_dtype) in machines.items()}
    data = {
        "controls": {
            "hw": {"kind": "select", "options": options, "initial": start},
            "dtype": {"kind": "select", "options": all_dtypes, "initial": dtype, "depends": "hw", "allowed": allowed},
        },
        "parts": [{"on": ["hw", "dtype"], "states": states}],
        "plots": {"roofline": {"series": [{"color": "var(--rl-ink)", "width": 2, "line": True}]
                               + [{"color": style.case_color(i), "points": 9} for i in range(len(tiles) + 1)],
                               "xlabel": "산술 강도 I (FLOPs/Byte, 로그 축)",
                               "ylabel": "R (TFLOPs/s, 로그 축)"}},
    }
    first = states[f"{start}|{dtype}"]
    f = first["fields"]
    cases = roofline_cases(N, tiles, dtypes[dtype], hw)
    rows = [roofline_row(label, t) for label, t in cases]
    names = [[None] + [f"c{i}-{j}" for j in range(1, 5)] for i in range(len(rows))]
    controls = (_select(uid, "hw", "하드웨어", options, start)
                + _select(uid, "dtype", "자료형", all_dtypes, dtype, allowed[start]))
    body = (
        f'<p class="rl-summary" aria-live="polite">{_field("machine", f["machine"])}: P = {_field("P", f["P"])} TFLOPs/s, '
        f'BW = {_field("BW", f["BW"])} TB/s, 분기점 I* = P/BW = {_field("ridge", f["ridge"])} FLOPs/Byte</p>'
        + _plot(uid, "roofline", first["plots"]["roofline"]["aria"])
        + _legend([("var(--rl-ink)", False, "성능 상한 min(P, BW×I)"), ("var(--rl-muted)", True, "분기점 I*")]
                  + [(style.case_color(i), False, label) for i, (label, _) in enumerate(cases)])
        + _table(ROOFLINE_HEADERS, rows, "lrrrl", names)
    )
    intro = (f"{N}×{N} 행렬곱을 다른 하드웨어와 자료형에서 보면 어떻게 될까? 하드웨어와 자료형을 고르면 Roofline과 "
             f"각 경우의 점, 아래 표가 그 조건의 값으로 바뀐다. {MODEL_NOTE}")
    note = ("강의 사이트의 이 자리에서는 하드웨어와 자료형을 골라 Roofline과 표가 바뀌는 것을 볼 수 있다. "
            "노트북에서는 매개변수 셀의 하드웨어를 바꾸고 다시 실행하면 된다. "
            f"{MODEL_NOTE} 아래는 지금 조건({f['machine']})의 값이다.")
    return Explorer("roofline", _wrap(uid, intro, controls, body, data),
                    _markdown(note, tables.markdown(ROOFLINE_HEADERS, rows, "lrrrl")), _count(data))


# ---------------------------------------------------------------- ⑤ the matmul

MATMUL_HEADERS = ["방식", "F (FLOPs)", "총 Q (Byte)", "I (FLOPs/Byte)", "Roofline 상한 (TFLOPs/s)", "연산 시간 (ms)",
                  "메모리 시간 (ms)", "이상적 시간 (ms)", "모델상 제한 자원", "시간 비율 t₀/t"]
MATMUL_ALIGN = "lrrrrrrrlr"


def matmul_row(label: str, t: Timing, base: Timing) -> tuple:
    """One row with ⑤'s comparison columns: F, Q, I, R_roof, t_compute, t_memory, t_ideal, limiting resource, t₀/t."""
    return (keep(label), fmt.integer(t.cost.F), fmt.integer(t.cost.Q), fmt.decimal(t.cost.I, 6), fmt.tera(t.R_roof, 6),
            fmt.ms(t.t_compute, 6), fmt.ms(t.t_memory, 6), fmt.ms(t.t_ideal, 6), keep(ko.bound(t)),
            fmt.ratio(base.t_ideal / t.t_ideal))


def matmul_sizes(N: int, smallest: int = 1024, largest: int = 16384) -> list[int]:
    """The N of the explorer: powers of two from `smallest` to `largest`, and the chapter's own N."""
    found, n = set(), smallest
    while n <= largest:
        found.add(n)
        n *= 2
    return sorted(found | {N})


def matmul(hw: Roofline, s: int, dtype: str, N: int, tiles, T: int, sizes=None) -> Explorer:
    """⑤ The reader chooses N (powers of two from 1,024 to 16,384, and the chapter's N) and T (every power of
    two from 8 that divides N, and the chapter's tiles at its N); the point moves on the I–T and t_ideal–T
    curves and the table shows the no-reuse row and the chosen T's row with ⑤'s comparison columns."""
    kernels.check_positive(N=N, T=T, s=s)
    sizes = sizes or matmul_sizes(N)
    tile_sets = {n: sorted(set(powers_of_two(n)) | (set(tiles) if n == N else set())) for n in sizes}
    if T not in tile_sets[N]:
        raise ValueError(f"T: T = {T}은(는) N = {N}에서 고를 수 있는 타일 한 변이 아니다. 고를 수 있는 값: {tile_sets[N]}")
    uid = "rl-matmul"
    states = {}
    for n, Ts in tile_sets.items():
        base = Timing(kernels.matmul_no_reuse(n, s, s), hw)
        sweep = {t: Timing(kernels.matmul_tiled(n, t, s, s), hw) for t in Ts}
        I_lo, I_hi = min(min(p.cost.I for p in sweep.values()), hw.ridge) / 2, max(max(p.cost.I for p in sweep.values()), hw.ridge) * 2
        t_c = base.t_compute
        t_lo = min(t_c, min(p.t_memory for p in sweep.values())) * 1000 / 2
        t_hi = max(p.t_ideal for p in sweep.values()) * 1000 * 2
        for t_side, p in sweep.items():
            fields = {f"r0-{j}": text for j, text in enumerate(matmul_row("재사용 없음", base, base)[1:], start=1)}
            fields.update({f"r1-{j}": text for j, text in enumerate(matmul_row(f"T = {t_side}", p, base)[1:], start=1)})
            fields.update({"T": keep(f"T = {t_side}"), "shape": f"{n}×{n}", "N": fmt.integer(n)})
            x = [float(t) for t in Ts]
            states[f"{n}|{t_side}"] = {"fields": fields, "plots": {
                "intensity": {
                    "x": x, "y": [[_float(q.cost.I) for q in sweep.values()], [_float(hw.ridge)] * len(Ts),
                                  [_float(p.cost.I) if t == t_side else None for t in Ts]],
                    "xticks": _tile_ticks(Ts), "yticks": _log_ticks(I_lo, I_hi),
                    "xrange": [_float(Fraction(Ts[0]) / Fraction(3, 2)), _float(Ts[-1] * Fraction(3, 2))],
                    "yrange": [_float(I_lo), _float(I_hi)],
                    "marks": [{"x": _float(t_side), "y": _float(p.cost.I), "text": f"I = {fmt.decimal(p.cost.I, 3)}"}],
                    "aria": (f"{n}×{n} 행렬곱의 산술 강도 I_T 곡선. T = {t_side}에서 I = {fmt.decimal(p.cost.I, 3)} FLOPs/Byte, "
                             f"분기점 I* = {fmt.number(hw.ridge, 3)} FLOPs/Byte."),
                },
                "times": {
                    "x": x, "y": [[_float(q.t_ideal * 1000) for q in sweep.values()], [_float(t_c * 1000)] * len(Ts),
                                  [_float(q.t_memory * 1000) for q in sweep.values()],
                                  [_float(p.t_ideal * 1000) if t == t_side else None for t in Ts]],
                    "xticks": _tile_ticks(Ts), "yticks": _log_ticks(t_lo, t_hi),
                    "xrange": [_float(Fraction(Ts[0]) / Fraction(3, 2)), _float(Ts[-1] * Fraction(3, 2))],
                    "yrange": [_float(t_lo), _float(t_hi)],
                    "marks": [{"x": _float(t_side), "y": _float(p.t_ideal * 1000), "text": f"{fmt.ms(p.t_ideal, 3)} ms"}],
                    "aria": (f"{n}×{n} 행렬곱의 이상적 시간 곡선. T = {t_side}에서 이상적 시간 {fmt.ms(p.t_ideal, 3)} ms, "
                             f"연산 시간 {fmt.ms(t_c, 3)} ms, 제한 자원은 {ko.bound(p)}."),
                },
            }}
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
    }
    first = states[f"{N}|{T}"]
    f = first["fields"]
    base = Timing(kernels.matmul_no_reuse(N, s, s), hw)
    chosen = Timing(kernels.matmul_tiled(N, T, s, s), hw)
    rows = [matmul_row("재사용 없음", base, base), matmul_row(f"T = {T}", chosen, base)]
    names = [[None] + [f"r0-{j}" for j in range(1, 10)], ["T"] + [f"r1-{j}" for j in range(1, 10)]]
    allowed = data["controls"]["T"]["allowed"][str(N)]
    controls = (_range(uid, "N", "행렬 한 변 N", n_options, str(N))
                + _range(uid, "T", "타일 한 변 T", t_options, str(T), allowed))
    body = (
        f'<p class="rl-summary" aria-live="polite">{_field("shape", f["shape"])} {html.escape(dtype)} 행렬곱, '
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
             f"하드웨어는 이 장의 {html.escape(hw.name or '주어진 하드웨어')}, 자료형은 {html.escape(dtype)}이다.")
    note = ("강의 사이트의 이 자리에서는 N과 T를 바꿔 가며 산술 강도와 이상적 시간 곡선 위의 점과 표가 바뀌는 것을 볼 수 있다. "
            f"노트북에서는 매개변수 셀의 N과 타일을 바꾸고 다시 실행하면 된다. 아래는 지금 조건({f['shape']}, {f['T']})의 값이다.")
    return Explorer("matmul", _wrap(uid, intro, controls, body, data),
                    _markdown(note, tables.markdown(MATMUL_HEADERS, rows, MATMUL_ALIGN)), _count(data))


# ---------------------------------------------------------------- ④ tile size

BUFFER_MODES = [["1", "단일 버퍼"], ["2", "이중 버퍼링"]]
TILE_HEADERS = ["A 입력 버퍼", "B 입력 버퍼", "입력 합계", "중간 합", "논리적 총합"]
THREADS = (64, 128, 256, 512, 1024)     # threads per block the reader may choose (and the chapter's own)
EXTRA_REGISTERS = (16, 32, 64)          # registers allowance per thread (and the chapter's own)


def byte_kib(n: int) -> str:
    return f"{fmt.integer(n)} B ({fmt.kib(n)})"


def tile_row(T: int, s: int, copies: int) -> tuple:
    """④'s buffer sizes of one T×T×T tile (`copies` input sets)."""
    b = buffers.tile_buffers(T, T, T, s, s, copies)
    return (byte_kib(b.A), byte_kib(b.B), fmt.kib(b.inputs), fmt.kib(b.acc), fmt.kib(b.total))


@dataclass(frozen=True)
class TileOptions:
    """What ④'s explorer offers: presets with per-SM limits, tile sides, threads per block, registers allowances."""

    gpus: tuple[str, ...]
    Ts: tuple[int, ...]
    threads: tuple[int, ...]
    extras: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.gpus) * len(self.Ts) * 2 * len(self.threads) * len(self.extras)


def tile_options(presets: dict, N: int, s: int, tiles, threads: int, extra_registers: int) -> TileOptions:
    """Every power of two from 8 that divides N, up to the first whose single input buffers no GPU's block can
    take (one such T is shown), and the chapter's tiles; THREADS and EXTRA_REGISTERS with the chapter's values."""
    gpus = tuple(key for key, p in presets.items() if p.sm)
    most = max(presets[key].sm.smem_per_block for key in gpus)
    Ts = []
    for T in powers_of_two(N):
        Ts.append(T)
        if buffers.tile_buffers(T, T, T, s, s, 1).inputs > most:
            break
    Ts = tuple(sorted(set(Ts) | set(tiles)))
    cap = min(presets[key].sm.threads_per_block for key in gpus)
    return TileOptions(gpus, Ts, tuple(sorted({t for t in THREADS if t <= cap} | {threads})),
                       tuple(sorted(set(EXTRA_REGISTERS) | {extra_registers})))


def tile_states(presets: dict, N: int, s: int, tiles, threads: int, extra_registers: int):
    """Every (gpu, T, copies, threads, extra) the explorer offers, with its occupancy.TileCase."""
    o = tile_options(presets, N, s, tiles, threads, extra_registers)
    for key in o.gpus:
        for T in o.Ts:
            for copies in (1, 2):
                for t in o.threads:
                    for extra in o.extras:
                        yield occupancy.tile_case(presets[key], T, s, copies, t, extra)


def tile_size(presets: dict, N: int, s: int, dtype: str, tiles, T: int, gpu: str, threads: int,
              extra_registers: int) -> Explorer:
    """④ The reader chooses T, single or double buffering, the GPU (presets with per-SM limits), the threads per
    block and the registers allowance: the buffers, the four limits on resident blocks, the resident blocks,
    active warps, occupancy and the binding limit follow (roofline.occupancy, the one function)."""
    o = tile_options(presets, N, s, tiles, threads, extra_registers)
    if gpu not in o.gpus:
        raise ParameterError(f"gpu: 프리셋 {gpu!r}에는 SM 한도(presets.{gpu}.sm)가 없다. 고를 수 있는 프리셋: {', '.join(o.gpus)}")
    if T not in o.Ts:
        raise ParameterError(f"T: T = {T}은(는) 고를 수 있는 타일 한 변이 아니다. 고를 수 있는 값: {list(o.Ts)}")
    uid = "rl-tile"
    mode = dict(BUFFER_MODES)
    sizes = {}
    for t in o.Ts:
        for copies, label in BUFFER_MODES:
            sizes[f"{t}|{copies}"] = {"fields": {**{f"b{j}": text for j, text in enumerate(tile_row(t, s, int(copies)))},
                                                 "tile": f"T = {t}, {label}"}}
    states = {}
    for case in tile_states(presets, N, s, tiles, threads, extra_registers):
        preset = presets[case.preset]
        words = tile_size_words(case, preset)
        r = case.result
        states[f"{case.T}|{case.copies}|{case.preset}|{case.threads}|{case.extra_registers}"] = {
            "fields": words,
            "widths": {"occupancy": fmt.percent(r.occupancy if r else 0, 1).replace(" ", "")},
            "flags": {"misfit": r is None or not r.blocks},
        }
    t_options = [[str(t), fmt.integer(t)] for t in o.Ts]
    g_options = [[key, presets[key].name] for key in o.gpus]
    th_options = [[str(t), f"{fmt.integer(t)}개 (워프 {-(-t // 32)}개)"] for t in o.threads]
    x_options = [[str(x), f"{x}개"] for x in o.extras]
    data = {
        "controls": {
            "T": {"kind": "range", "options": t_options, "initial": str(T)},
            "copies": {"kind": "radio", "options": BUFFER_MODES, "initial": "1"},
            "gpu": {"kind": "select", "options": g_options, "initial": gpu},
            "threads": {"kind": "select", "options": th_options, "initial": str(threads)},
            "extra": {"kind": "select", "options": x_options, "initial": str(extra_registers)},
        },
        "parts": [{"on": ["T", "copies"], "states": sizes},
                  {"on": ["T", "copies", "gpu", "threads", "extra"], "states": states}],
        "plots": {},
    }
    first = {**sizes[f"{T}|1"]["fields"], **states[f"{T}|1|{gpu}|{threads}|{extra_registers}"]["fields"]}
    width = states[f"{T}|1|{gpu}|{threads}|{extra_registers}"]["widths"]["occupancy"]
    row = tile_row(T, s, 1)
    occ_rows = [(h, first[k]) for h, k in zip(tile_size_mod.OCC_HEADERS, tile_size_mod.OCC_KEYS)]
    controls = (_range(uid, "T", "타일 한 변 T (T_M = T_N = T_K)", t_options, str(T))
                + _radios(uid, "copies", "입력 버퍼 A·B", BUFFER_MODES, "1")
                + _select(uid, "gpu", "GPU 프리셋", g_options, gpu)
                + _select(uid, "threads", "블록당 스레드", th_options, str(threads))
                + _select(uid, "extra", "스레드당 레지스터 여유분", x_options, str(extra_registers)))
    body = (
        f'<p class="rl-summary" aria-live="polite">{_field("tile", first["tile"])}: {_field("verdict", first["verdict"])}</p>'
        f'<div class="rl-meter" aria-hidden="true" hidden><span class="rl-meter-label">점유율: SM 하나의 최대 워프 가운데 '
        f'활성 워프의 몫</span><span class="rl-meter-track"><span class="rl-meter-fill" '
        f'data-rl-width="occupancy" style="width: {width}"></span></span></div>'
        + _table(["블록 하나의 공간", "값"], [(h, v) for h, v in zip(TILE_HEADERS, row)], "lr",
                 [[None, f"b{j}"] for j in range(len(row))])
        + _table(["SM 하나의 점유율", "값"], occ_rows, "lr", [[None, k] for k in tile_size_mod.OCC_KEYS])
    )
    intro = (f"{html.escape(dtype)} 원소 {s} Byte로 T×T 출력 타일 하나를 맡는 블록이 실제 GPU의 SM 하나에 몇 개 상주하는지 "
             "본다. 입력 버퍼는 Shared Memory에, 중간 합은 스레드들의 레지스터에 나누어 둔다고 본다. 네 한도(워프 수, "
             "레지스터, Shared Memory, 블록 수)는 위의 표와 같은 함수 occupancy.occupancy로 계산했다. 조건을 바꿔 보자.")
    note = ("강의 사이트의 이 자리에서는 타일 한 변, 단일·이중 버퍼링, GPU, 블록당 스레드, 레지스터 여유분을 골라 버퍼 크기와 "
            f"네 한도, 상주 블록과 점유율이 바뀌는 것을 볼 수 있다. 아래는 지금 조건({first['tile']}, {presets[gpu].name}, "
            f"스레드 {threads}개, 여유분 {extra_registers}개)의 값이다.")
    table = tables.markdown(["항목", "값"], list(zip(TILE_HEADERS, row)) + occ_rows, "lr")
    return Explorer("tile-size", _wrap(uid, intro, controls, body, data), _markdown(note, table), len(states))


def tile_size_words(case, preset) -> dict[str, str]:
    """The shown strings of one ④ state (the same words as the chapter's table)."""
    return tile_size_mod.occupancy_words(case, preset)


# ---------------------------------------------------------------- week 3: vector add

FACTORS = tuple(Fraction(2) ** k for k in range(-6, 7))   # ×1/64 … ×64


def factor_label(k) -> str:
    return fmt.fraction(k) + "배"


def gb(nbytes) -> str:
    return fmt.number(Fraction(nbytes, 10**9)) + " GB"


def ms(seconds) -> str:
    return fmt.number(Fraction(seconds) * 1000)


VECTOR_HEADERS = ["연산 시간", "메모리 시간", "이상적 실행 시간", "기준 대비 속도", "제한 자원"]


def vector_row(t: Timing, base: Timing) -> tuple:
    """The week-3 note's columns: the three times (ms), the speedup over the base machine, the limiting resource."""
    return (f"{ms(t.t_compute)} ms", f"{ms(t.t_memory)} ms", f"{ms(t.t_ideal)} ms",
            fmt.number(base.t_ideal / t.t_ideal) + "배", keep(ko.bound(t)))


def fits_text(footprint: int, capacity) -> str:
    return (f"세 벡터({gb(footprint)})가 용량 {gb(capacity)}에 모두 들어간다." if footprint <= capacity else
            f"세 벡터({gb(footprint)})가 용량 {gb(capacity)}에 한꺼번에 들어가지 않는다. 이때는 한 번에 실행할 수 없어 "
            "위의 시간 모델 밖이다.")


def vector_add(hw: Roofline, L: int, s: int, dtype: str, capacity: int, factors=FACTORS) -> Explorer:
    """Week 3: the reader multiplies P, BW and the memory capacity by k each; the three times, the speedup
    over the chapter's machine and whether the three vectors fit follow."""
    kernels.check_positive(L=L, s=s, capacity=capacity)
    factors = [Fraction(k) for k in factors]
    if 1 not in factors:
        raise ValueError("factors: 배율에 1(이 장의 하드웨어 그대로)이 있어야 한다")
    add = kernels.vector_add(L, s)
    base = Timing(add, hw)
    footprint = 3 * s * L
    uid = "rl-vector"
    options = [[fmt.fraction(k), factor_label(k)] for k in factors]
    times = {}
    for kP in factors:
        for kBW in factors:
            machine = hw.with_(P=kP * hw.P, BW=kBW * hw.BW)
            t = Timing(add, machine)
            row = vector_row(t, base)
            fields = {f"t{j}": text for j, text in enumerate(row)}
            fields.update({"P": fmt.number(machine.P / TERA), "BW": fmt.number(machine.BW / TERA),
                           "kind": "메모리 한계" if t.memory_bound else "연산 한계"})
            longer = max(t.t_compute, t.t_memory)
            widths = {"compute": fmt.percent(t.t_compute / longer, 1).replace(" ", ""),
                      "memory": fmt.percent(t.t_memory / longer, 1).replace(" ", "")}
            times[f"{fmt.fraction(kP)}|{fmt.fraction(kBW)}"] = {"fields": fields, "widths": widths}
    fits = {fmt.fraction(k): {"fields": {"capacity": gb(k * capacity), "fits": fits_text(footprint, k * capacity)},
                              "flags": {"misfit": footprint > k * capacity}}
            for k in factors}
    data = {
        "controls": {name: {"kind": "range", "options": options, "initial": "1"} for name in ("P", "BW", "cap")},
        "parts": [{"on": ["P", "BW"], "states": times}, {"on": ["cap"], "states": fits}],
        "plots": {},
    }
    f = {**times["1|1"]["fields"], **fits["1"]["fields"]}
    w = times["1|1"]["widths"]
    row = vector_row(base, base)
    controls = (_range(uid, "P", "연산 성능 P의 배율 k", options, "1")
                + _range(uid, "BW", "메모리 대역폭 BW의 배율 k", options, "1")
                + _range(uid, "cap", "메모리 용량의 배율 k", options, "1"))

    def bar(name, label):
        return (f'<span class="rl-bar-row"><span class="rl-bar-name">{label}</span><span class="rl-meter-track">'
                f'<span class="rl-meter-fill" data-rl-width="{name}" style="width: {w[name]}"></span></span></span>')

    body = (
        f'<p class="rl-summary" aria-live="polite">P = {_field("P", f["P"])} TFLOPs/s, BW = {_field("BW", f["BW"])} TB/s: '
        f'이상적 실행 시간 {_field("t2", f["t2"])}, {_field("kind", f["kind"])}. {_field("fits", f["fits"])}</p>'
        f'<div class="rl-meter rl-bars" aria-hidden="true" hidden>{bar("compute", "연산 시간")}{bar("memory", "메모리 시간")}</div>'
        + _table(VECTOR_HEADERS + ["메모리 용량"], [row + (f["capacity"],)], "rrrrlr",
                 [[f"t{j}" for j in range(len(row))] + ["capacity"]])
    )
    intro = (f"길이 L의 {html.escape(dtype)} Vector Add에서 연산 성능 P, 메모리 대역폭 BW, 메모리 용량에 각각 배율 k를 곱해 보자. "
             "두 시간과 이상적 실행 시간, 이 장의 가상 하드웨어 대비 속도, 세 벡터가 들어가는지가 따라 바뀐다.")
    note = ("강의 사이트의 이 자리에서는 P, BW, 메모리 용량에 배율을 곱해 세 시간과 속도, 들어가는지가 바뀌는 것을 볼 수 있다. "
            "노트북에서는 위 코드 셀의 배율을 바꾸고 다시 실행하면 된다. 아래는 세 배율이 모두 1일 때의 값이다.")
    return Explorer("vector-add", _wrap(uid, intro, controls, body, data),
                    _markdown(note, tables.markdown(VECTOR_HEADERS + ["메모리 용량"], [row + (f["capacity"],)], "rrrrlr")),
                    len(times))
