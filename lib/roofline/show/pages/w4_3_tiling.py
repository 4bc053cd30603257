"""Chapter ③ (타일링): its equations, tables, sentences and figures for one week-4 problem, as the page shows them.

Each function takes the problem object (`course.week4.with_(…)`) and returns name → value, ready to glue.
The small example is counted by walking the loop nest (`walk`), the big problem with the closed forms
(`kernels`), the reuse between output tiles with the LRU simulation (`cachesim`); tests check that they agree.
"""
from __future__ import annotations

from fractions import Fraction

from IPython.display import Markdown, Math

from roofline import cachesim, kernels, walk
from roofline.derive import named, var
from roofline.params import simulated_side
from roofline.show import exercises as ex
from roofline.show import fmt, formulas, ko, tables, variants, why
from roofline.show.figures import figure, styled
from roofline.show.palette import case_color

TRITON_GROUP_SIZE_M = 8   # the value in Triton's matmul tutorial ("GROUP_SIZE_M": 8)


def listed(pieces, last: str) -> list:
    """Shown pieces as a Korean list ending in particle pair `last`: "4 MiB, 16 MiB와 64 MiB로" (each a button, the
    particles outside), as the pieces of a `why.sentence`."""
    pieces = list(pieces)
    out = []
    for i, piece in enumerate(pieces):
        if i == len(pieces) - 1:
            out.append(why.particle(piece, last) if last else piece)
        elif i == len(pieces) - 2:
            out += [why.particle(piece, "과/와"), " "]
        else:
            out += [piece, ", "]
    return out


def cache_shown(capacity: int, src: dict):
    """A cache capacity in MiB with its record (week4.cache.capacities)."""
    return why.shown(var("C_cache", capacity), fmt.mib(capacity), {**src, "C_cache": "toml:week4.cache.capacities"},
                     digits=3, scale=Fraction(1, 2**20), unit="MiB", rounding="MiB(2²⁰ Byte)로, 소수 3자리로 반올림, 끝의 0은 생략")


def joined(words) -> str:
    """Korean list: "C00", "C00과 C01", "C00, C01과 C02" (the last pair joined by 과/와)."""
    words = list(words)
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-2] + [ko.particle(words[-2], "과/와") + " " + words[-1]])


def intensity_text(I) -> str:
    """"2/9 ≈ 0.2222" or "2/5 = 0.4": the exact fraction and four decimals."""
    exact = fmt.rounded(I, 4) == I
    return f"{fmt.fraction(I)} {'=' if exact else '≈'} {fmt.number(I, 4) if exact else fmt.decimal(I, 4)}"


def _names(w4):
    tiles = w4.small_N // w4.small_T
    return tiles, (lambda letter, r, c: tile_name(letter, r, c, tiles))


def small_sources(w4) -> dict:
    """The origins of the small example's inputs: N and T are small_N and small_T (the file's or the cell's)."""
    return {**why.sources(w4), ("N", w4.small_N): w4.origin("small_N"), ("T", w4.small_T): w4.origin("small_T")}


def small_example(w4) -> dict:
    """The small example: uses per element, C00's equation over its K steps, the bytes of a step, the names of
    the other output tiles, and the concrete reuse inside one step (A00's first row, B00's first column)."""
    n, t, s = w4.small_N, w4.small_T, w4.s
    tiles, name = _names(w4)
    steps = walk.tiled(n, t, s, s).tile_steps((0, 0))

    def sub(letter, rc):
        return f"{letter}_{{{''.join(map(str, rc)) if tiles <= 10 else ','.join(map(str, rc))}}}"

    terms = " + ".join(rf"{sub('A', st.A)}\,{sub('B', st.B)}" for st in steps)
    row_outputs = joined(f"C[0,{j}]" for j in range(t))
    column_outputs = joined(f"C[{i},0]" for i in range(t))
    # the counts the walk gives, each with its closed form (checked against the walk here)
    src = small_sources(w4)
    n_, t_, s_ = var("N", n), var("T", t), var("s", s)
    uses = named("uses", n_)                      # A[i, k] is used by the n outputs C[i, 0..n-1]
    K = named("K 단계 수", n_ / t_)
    piece = named("조각의 Byte", t_**2 * s_)
    step = named("단계당 읽기", 2 * t_**2 * s_)  # an A piece and a B piece
    assert (uses.value, K.value, step.value) == (walk.uses(n)[0], len(steps), steps[0].loads * s)
    return {
        "n": why.integer(n_, src), "t": why.integer(t_, src), "s": why.integer(s_, src), "dtype": w4.dtype,
        "uses": why.integer(uses, src), "t-sq": why.integer(named("T²", t_**2), src),
        "c00-equation": Math(rf"{sub('C', (0, 0))} = {terms}"), "c00": name("C", 0, 0),
        "steps": why.integer(K, src),
        "others": "·".join(name("C", r, c) for r in range(tiles) for c in range(tiles) if (r, c) != (0, 0)),
        "piece-bytes": why.integer(piece, src), "step-bytes": why.integer(step, src),
        "write-bytes": why.integer(piece, src),
        "A00": name("A", 0, 0), "B00": name("B", 0, 0),
        "reuse-row": ko.particle(row_outputs, "을/를"), "reuse-column": ko.particle(column_outputs, "을/를"),
        "next-step": f"{name('A', 0, 1)} @ {name('B', 1, 0)}" if tiles > 1 else "",
    }


def intensity_shown(I, src: dict) -> why.Shown:
    """`intensity_text` of the derived I ("2/9 ≈ 0.2222"), carrying I's record (its exact fraction, shown first)."""
    return why.around(why.fraction(I, src), intensity_text(I.value))


def counts(w4) -> dict:
    """The small example counted by walking the loops: per output tile and for the whole C, the two ways side
    by side, and the ratios of the reads and of Q (with the particle 로/으로 that follows them)."""
    n, t, s = w4.small_N, w4.small_T, w4.s
    tiles = n // t
    none, tile = walk.no_reuse(n, s, s), walk.tiled(n, t, s, s)
    steps = tile.tile_steps((0, 0))
    tile_F = sum(st.flops for st in steps)
    count = tiles * tiles
    # every count the walk gives, with its closed form (kernels, derive), checked against the walk
    src = small_sources(w4)
    closed_none, closed_tile = kernels.matmul_no_reuse(n, s, s), kernels.matmul_tiled(n, t, s, s)
    assert (closed_none, closed_tile) == (none.cost, tile.cost)
    n_, t_, s_ = var("N", n), var("T", t), var("s", s)
    K = named("K 단계 수", n_ / t_)
    outputs_tile, outputs = named("T²", t_**2), named("출력 개수", n_**2)
    F_step = named("단계당 연산량", 2 * t_**3)
    F_tile = named("F_tile", F_step * K)
    none_tile = named("Q_read,tile", t_**2 * n_ * 2 * s_)
    tile_tile = named("Q_read,tile", K * 2 * t_**2 * s_)
    piece = named("조각의 Byte", t_**2 * s_)
    tile_count = named("출력 타일 수", (n_ / t_) ** 2)
    assert (outputs_tile.value, outputs.value, K.value, F_tile.value, none_tile.value, tile_tile.value) == (
        t * t, tile.writes, len(steps), tile_F, none.cost.Q_read // count, sum(st.loads for st in steps) * s)

    def i(q, text=None):
        shown = why.integer(q, src)
        return shown if text is None else why.around(shown, text)

    F, R0, RT, W = (closed_tile.derivation("F"), closed_none.derivation("Q_read"), closed_tile.derivation("Q_read"),
                    closed_tile.derivation("Q_write"))
    op, per_byte = fmt.unit("FLOPs", w4.dtype), fmt.unit("FLOPs/Byte", w4.dtype)   # the dtype's work (OPs: INT8)
    side = why.label_of("T", t, src)   # a row's name, not a button (a cell starting with a number reads as one)
    T_label = why.sentence("타일 재사용 (", side, "×", side, ")")
    rows = [
        ("출력 개수", i(outputs_tile), i(outputs)),
        ("K 단계 수", i(K), why.sentence(i(K), " (타일마다)")),
        # every expression a sentence of numbers, each its own button (a constant of a formula a label of its record)
        ("연산량 F", why.sentence(i(F_tile), f" {op} = (", why.labelled(F_step, "2", src), "×", why.side("T", t, src),
                                 "³ = ", i(F_step), f" {op}) × ", i(K), "단계"),
         why.sentence(i(F_tile), " × ", i(tile_count), "타일 = ", i(F), f" {op}")),
        ("재사용 없음: A·B 읽기",   # T² outputs × N products × 2 inputs (the 2 of the formula T²·N·2·s) × s
         why.sentence(i(outputs_tile), "출력 × ", why.var("N", n, src), "곱 × ", why.labelled(none_tile, "2", src),
                      "입력 × ", why.var("s", s, src), " B = ", i(none_tile), " B"),
         why.sentence(i(R0), " B")),
        (why.sentence(T_label, ": A·B 읽기"),
         why.sentence(i(K), "단계 × (", i(outputs_tile), " + ", i(outputs_tile), ")원소 × ", why.var("s", s, src), " B = ",
                      i(tile_tile), " B"),
         why.sentence(i(RT), " B")),
        ("최종 C 쓰기", why.sentence(i(outputs_tile), " × ", why.var("s", s, src), " B = ", i(piece), " B"),
         why.sentence(i(W), " B")),
    ]
    methods = [(label, i(c.derivation("F")),
                why.sentence(i(c.derivation("Q_read")), " + ", i(c.derivation("Q_write")), " = ", i(c.derivation("Q"))),
                intensity_shown(c.derivation("I"), src))
               for label, c in (("재사용 없음", closed_none), (T_label, closed_tile))]
    # the ratios and the reads per element with their closed forms (kernels), checked against the walk
    read_ratio = named("Q_read,T / Q_read,0", named("Q_read,T", closed_tile.derivation("Q_read").term)
                       / named("Q_read,0", closed_none.derivation("Q_read").term))
    Q_ratio = named("Q_T / Q_0", closed_tile.derivation("Q") / named("Q_0", closed_none.derivation("Q").term))
    reads_tile, reads_none = named("타일 읽기 횟수", n_ / t_), named("재사용 없음 읽기 횟수", n_)
    assert (tile.reads_per_element(), none.reads_per_element()) == ({reads_tile.value}, {reads_none.value})
    ratio = why.fraction(read_ratio, src)
    return {
        "table-count": tables.markdown(["세는 대상", "출력 타일 하나", f"전체 {n}×{n} C"], rows, "lll"),
        "table-methods": tables.markdown(["방식", f"F ({op})", "Q = 읽기 + 쓰기 (Byte)", f"I ({per_byte})"], methods, "lrrr"),
        "read-ratio": ratio, "read-shrink": why.particle(ratio, "으로/로"),
        "Q-shrink": why.particle(why.fraction(Q_ratio, src), "으로/로"),
        "reads-tile": why.integer(reads_tile, src), "reads-none": why.integer(reads_none, src),
    }


def general(w4) -> dict:
    """N×N with T×T tiles: the three equations and the table (the small example beside the week's tiles)."""
    n, t, s, N = w4.small_N, w4.small_T, w4.s, w4.N
    columns = [(n, t)] + [(N, T) for T in w4.tiles]

    def row(label, formula, value):
        return [f"{label}: {formula}"] + [value(size, side) for size, side in columns]

    def tiled(m, T):
        return kernels.matmul_tiled(m, T, s, s)

    src = {**small_sources(w4), **why.sources(w4)}
    if w4.small_N not in (N,):
        src[("N", w4.small_N)] = w4.origin("small_N")
    if w4.small_T not in w4.tiles:
        src[("T", w4.small_T)] = w4.origin("small_T")

    def sym(m, T):
        return var("N", m), var("T", T), var("s", s)

    def count(symbol, make):
        return lambda m, T: why.integer(named(symbol, make(*sym(m, T))), src)

    rows = [
        row("출력 타일 수", "(N/T)²", count("출력 타일 수", lambda N_, T_, s_: (N_ / T_) ** 2)),
        row("타일당 K 단계 수", "N/T", count("K 단계 수", lambda N_, T_, s_: N_ / T_)),
        row("단계당 A·B 읽기", f"2T² 원소 = {2 * s}T² Byte", count("단계당 읽기", lambda N_, T_, s_: 2 * T_**2 * s_)),
        row("단계당 연산량", f"2T³ {fmt.unit('FLOPs', w4.dtype)}", count("단계당 연산량", lambda N_, T_, s_: 2 * T_**3)),
        row("타일당 최종 쓰기", f"{s}T² Byte", count("조각의 Byte", lambda N_, T_, s_: T_**2 * s_)),
        row("입력 읽기", f"{2 * s}N³/T Byte", lambda m, T: why.integer(tiled(m, T).derivation("Q_read"), src)),
        row("C 쓰기", f"{s}N² Byte", lambda m, T: why.integer(tiled(m, T).derivation("Q_write"), src)),
        row("I", f"{formulas.intensity_tiled(s, s)} {fmt.unit('FLOPs/Byte', w4.dtype)}", lambda m, T: why.decimal(tiled(m, T).derivation("I"), 6, src)),
    ]
    header = ["대상 (식)", f"작은 예 (T = {t})"] + [f"T = {T}" for T in w4.tiles]
    equation = Math(
        rf"\begin{{aligned}} F &= \left(\frac{{N}}{{T}}\right)^2 \cdot \frac{{N}}{{T}} \cdot 2T^3 = 2N^3 \\ "
        rf"Q_\text{{read}} &= \left(\frac{{N}}{{T}}\right)^2 \cdot \frac{{N}}{{T}} \cdot {2 * s}T^2 = \frac{{{2 * s}N^3}}{{T}} \\ "
        rf"Q_\text{{write}} &= {s}N^2 \end{{aligned}}")
    return {"table-general": tables.markdown(header, rows, "l" + "r" * len(columns)), "general-equation": equation,
            "N": why.var("N", N, why.sources(w4))}


def discussion(w4) -> dict:
    """The discussion on reuse between output tiles: which tiles share A and B pieces, and the ideal case in which
    every input element is read from DRAM once (the seed's 192 Byte and I = 2/3)."""
    n, t, s = w4.small_N, w4.small_T, w4.s
    op = fmt.unit("FLOPs", w4.dtype)
    tiles, name = _names(w4)
    A0 = name("A", 0, 0)
    pairs = [f"{ko.particle('·'.join(name('A', r, k) for k in range(tiles)), '은/는')} "
             f"{'·'.join(name('C', r, c) for c in range(tiles))} 사이에서" for r in range(tiles)]
    pairs += [f"{ko.particle('·'.join(name('B', k, c) for k in range(tiles)), '은/는')} "
              f"{'·'.join(name('C', r, c) for r in range(tiles))} 사이에서" for c in range(tiles)]
    none = cachesim.simulate(n, t, capacity_tiles=0, s_in=s, s_out=s)
    ideal = cachesim.simulate(n, t, capacity_tiles=None, s_in=s, s_out=s)
    src = simulated_sources(small_sources(w4), none, ideal)

    # without reuse between tiles each input element is read N/T times: the closed form 2·s·N³/T over the 2·s·N²
    # Byte of A and B (the no-cache simulation gives the same count)
    read_tiled = named("Q_read,T", kernels.matmul_tiled(n, t, s, s).derivation("Q_read").term)
    read_once = named("Q_read,1", kernels.matmul_ideal(n, s, s).derivation("Q_read").term)
    reads_none = named("원소당 읽기 횟수", read_tiled / read_once)
    assert reads_none.value == none.reads_per_element and read_once.value == ideal.Q_read
    src_closed = {**src, ("name", "Q_read,1"): ("A와 B를 한 번씩 읽는 양", "Byte")}

    def d(run, name, text, digits=None):
        q = run.derivation(name)
        shown = why.integer(q, src) if digits is None else why.number(q, digits, src)
        return why.around(shown, text)

    def intensity(run):
        F, Q = run.derivation("F"), run.derivation("Q")
        return why.around(why.fraction(run.derivation("I"), src),
                          f"{fmt.integer(F.value)}/{fmt.integer(Q.value)} = {intensity_text(run.cost.I)}")

    rows = [
        ("입력 원소당 DRAM 읽기 횟수", why.around(why.number(reads_none, 3, src_closed), f"{fmt.number(reads_none.value)}회"),
         d(ideal, "reads", f"{fmt.number(ideal.reads_per_element)}회", 3)),
        ("A·B 입력을 읽는 양", d(none, "Q_read", f"{fmt.integer(none.Q_read)} Byte"),
         why.around(why.integer(read_once, src_closed), f"{fmt.integer(read_once.value)} Byte")),
        ("최종 C를 쓰는 양", d(none, "Q_write", f"{fmt.integer(none.cost.Q_write)} Byte"),
         d(ideal, "Q_write", f"{fmt.integer(ideal.cost.Q_write)} Byte")),
        ("총 이동량 Q", d(none, "Q", f"{fmt.integer(none.cost.Q)} Byte"), d(ideal, "Q", f"{fmt.integer(ideal.cost.Q)} Byte")),
        ("연산량 F", d(none, "F", f"{fmt.integer(none.cost.F)} {op}"), d(ideal, "F", f"{fmt.integer(ideal.cost.F)} {op}")),
        (f"산술 강도 I ({fmt.unit('FLOPs/Byte', w4.dtype)})", intensity(none), intensity(ideal)),
    ]
    return {
        "q-A-shared": ko.particle(A0, "은/는"), "q-A-kept": ko.particle(A0, "이/가"),
        "q-C": joined(name("C", 0, c) for c in range(tiles)), "pairs": Markdown(", ".join(pairs)),
        "table-ideal": tables.markdown(["항목", "타일 사이 캐시 재사용 없음", "모든 입력을 타일 사이에서 재사용"], rows, "lrr"),
        "ideal-Q": why.integer(ideal.derivation("Q"), src), "ideal-I": why.fraction(ideal.derivation("I"), src),
    }


def simulated(run) -> str:
    """The origin of a simulation's miss count: the LRU simulation and its inputs."""
    capacity = "무제한" if run.capacity_tiles is None else f"입력 타일 {fmt.integer(run.capacity_tiles)}개"
    order = {cachesim.ROW: "행 우선", cachesim.GROUPED: f"묶음 (GROUP_SIZE_M = {run.group_size_M})"}.get(run.order, run.order)
    return (f"simulated:cachesim.simulate (N = {fmt.integer(run.N)}, T = {fmt.integer(run.T)}, 캐시 용량 {capacity}, "
            f"{order} 순서): 놓친 접근 {fmt.integer(run.misses)}회 / 전체 {fmt.integer(run.accesses)}회")


def simulated_sources(src: dict, *runs) -> dict:
    """`src` with the origin of each run's miss count (by its value: runs with the same count share a record)."""
    return {**src, **{("misses", r.misses): simulated(r) for r in runs}}


def _orders(group_size_M):
    return ((cachesim.ROW, "행 우선", None), (cachesim.GROUPED, "묶음", group_size_M))


def cache_small(w4) -> dict:
    """The LRU simulation on the small example, both orders, no cache … unbounded, and what it shows."""
    n, t, s, G = w4.small_N, w4.small_T, w4.s, w4.cache.group_size_M
    tiles = n // t
    rows, same = [], True
    for capacity in (0, *w4.cache.small_capacities, None):
        runs = [cachesim.simulate(n, t, capacity_tiles=capacity, order=o, group_size_M=g, s_in=s, s_out=s)
                for o, _, g in _orders(G)]
        same &= len({r.misses for r in runs}) == 1
        label = "없음" if capacity == 0 else ("무제한" if capacity is None else why.sentence(
            "타일\u00a0", why.label(fmt.integer(capacity), "toml:week4.cache.small_capacities"), "개"))
        cells = [label]
        for r in runs:
            src = simulated_sources(small_sources(w4), r)
            cells += [why.around(why.integer(r.derivation("Q"), src),
                                 f"{fmt.integer(r.Q_read)} + {fmt.integer(r.cost.Q_write)} = {fmt.integer(r.cost.Q)}"),
                      intensity_shown(r.derivation("I"), src)]
        rows.append(cells)
    header = ["캐시 용량"] + [f"{label}: {what}" for _, label, _ in _orders(G) for what in ("Q = 읽기 + 쓰기 (Byte)", "I")]
    ends = "용량이 작으면 타일 사이 재사용이 없는 값으로 돌아가고, 용량이 넉넉하면 이상적인 값에 이른다."
    if same and tiles <= G:
        side = why.integer(named("출력 타일 한 줄", var("N", n) / var("T", t)), {**small_sources(w4), (
            "name", "출력 타일 한 줄"): ("출력 타일 한 줄의 타일 수", "")})
        verdict = why.sentence("작은 예에서는 두 순서의 결과가 모든 용량에서 같다. 출력 타일이 ", side, "×", side,
                               "개뿐이라 묶음 하나가 행렬 전체이고, 묶음 순서는 열 우선 순서가 된다. 행 우선 순서와는 A와 B의 "
                               "역할만 바뀌므로 읽는 양이 같다. " + ends)
    elif same:
        verdict = "작은 예에서는 두 순서의 결과가 모든 용량에서 같다. " + ends
    else:
        verdict = "작은 예에서도 두 순서의 결과가 용량에 따라 다르다. " + ends
    names = {("name", "GROUP_SIZE_M"): ("묶음 하나의 출력 타일 행 수", ""),
             ("name", "GROUP_SIZE_M,Triton"): ("Triton 튜토리얼의 GROUP_SIZE_M", "")}
    group = why.particle(why.var("GROUP_SIZE_M", G, {**names, "GROUP_SIZE_M": "toml:week4.cache.group_size_M"}), "이다/다")
    theirs = why.var("GROUP_SIZE_M,Triton", TRITON_GROUP_SIZE_M,
                     {**names, "GROUP_SIZE_M,Triton": "cite:triton-matmul, L2 Cache Optimizations 절의 GROUP_SIZE_M"})
    triton = (why.sentence("Triton 튜토리얼이 쓰는 값과 같은 ", group) if G == TRITON_GROUP_SIZE_M else
              why.sentence(group, ". Triton 튜토리얼은 ", why.particle(theirs, "을/를"), " 쓴다"))
    t_, s_ = var("T", t), var("s", s)
    return {"line-small": why.integer(named("조각의 Byte", t_**2 * s_), small_sources(w4)),
            "table-cache-small": tables.markdown(header, rows, "l" + "r" * (len(header) - 1)),
            "small-verdict": verdict, "group": triton}


def cache_big(w4) -> dict:
    """The LRU simulation for the week's N: reads per element and I for every tile side and capacity, which order
    reads less, why these capacities (against the size of B and of a group's working set), and the figure."""
    N, s, G = w4.N, w4.s, w4.cache.group_size_M
    rows, buckets = [], {"묶음": {}, "행 우선": {}, "같음": {}}
    for T in w4.tiles:
        # a parameter cell's tile is checked before it is simulated, named as the reader typed it (not cachesim's N)
        simulated_side(N // T, w4.typed("N", "tiles"), f"N = {fmt.integer(N)}, T = {fmt.integer(T)}")
        for capacity in w4.cache.capacities:
            row_run, grouped = [cachesim.simulate(N, T, capacity_bytes=capacity, order=o, group_size_M=g, s_in=s, s_out=s)
                                for o, _, g in _orders(G)]
            better = ("묶음" if grouped.misses < row_run.misses else "행 우선" if grouped.misses > row_run.misses
                      else "같음")
            src, row_src, grouped_src = (simulated_sources(why.sources(w4), *r) for r in ((), (row_run,), (grouped,)))
            cap = cache_shown(capacity, src)
            buckets[better].setdefault(T, []).append(cap)
            rows.append((why.var("T", T, src), cap,
                         why.number(row_run.derivation("reads"), 3, row_src), why.decimal(row_run.derivation("I"), 3, row_src),
                         why.number(grouped.derivation("reads"), 3, grouped_src),
                         why.decimal(grouped.derivation("I"), 3, grouped_src),
                         ko.nbsp(better)))

    src = why.sources(w4)

    def cases(bucket):   # "T = 32의 4 MiB·16 MiB, T = 64의 …": each side and capacity with its record
        out = []
        for i, (T, sizes) in enumerate(bucket.items()):
            out += [", "] * bool(i) + ["T = ", why.side("T", T, src), "의 "]
            out += [x for j, size in enumerate(sizes) for x in (["·"] * bool(j) + [size])]
        return out

    parts = []
    if buckets["묶음"]:
        parts.append(why.sentence("묶음 순서가 덜 읽는 경우는 ", *cases(buckets["묶음"]), "다."))
    if buckets["행 우선"]:
        parts.append(why.sentence("묶음 순서가 오히려 더 읽는 경우는 ", *cases(buckets["행 우선"]), "다. 묶음 하나가 재사용하는 "
                                  "조각이 캐시에 다 들어가지 않아, 재사용하기 전에 밀려나기 때문이다."))
    if buckets["같음"]:
        parts.append(why.sentence("두 순서가 같은 경우는 ", *cases(buckets["같음"]), "다."))
    B_bytes = named("B의 Byte", var("s", s) * var("N", N) ** 2)
    B = why.shown(B_bytes, fmt.mib(B_bytes.value), {**src, ("name", "B의 Byte"): ("행렬 B 하나의 Byte", "Byte")},
                  digits=3, scale=Fraction(1, 2**20), unit="MiB", rounding="MiB(2²⁰ Byte)로, 소수 3자리로 반올림, 끝의 0은 생략")
    biggest = max(w4.cache.capacities)
    largest = cache_shown(biggest, src)
    against_B = ([why.particle(B, "과/와"), " 같다"] if biggest == B_bytes.value else
                 [B, "보다 크다" if biggest > B_bytes.value else "보다 작다"])
    capacities = why.sentence(
        "캐시 용량은 ", *listed((cache_shown(c, src) for c in w4.cache.capacities), "으로/로"), " 잡았다. "
        "실제 GPU의 L2 캐시(수 MB에서 수십 MB)를 사이에 두는 범위다. 가장 큰 ", why.particle(largest, "은/는"),
        " 행렬 B 하나의 크기 ", *against_B, ". 행 우선 순서에서 B의 열 띠를 재사용하려면 B 전체와 A의 행 띠 하나가 함께 캐시에 "
        "남아 있어야 한다. 묶음 순서는 A의 행 띠(타일 N/T개) GROUP_SIZE_M개와 B의 열 띠 몇 개만 들어가면 된다.")
    return {"table-cache-big": tables.markdown(["T", "캐시 용량", "행 우선: 원소당 읽기", "행 우선: I", "묶음: 원소당 읽기",
                                                "묶음: I", "덜 읽는 순서"], rows, "rrrrrrl"),
            "big-verdict": why.sentence(*[x for i, p in enumerate(parts) for x in ([" "] * bool(i) + [p])]),
            "capacities": capacities,
            "fig-cache": cache_figure(w4)}


def small_figures(w4) -> dict:
    """The small example's two pictures: every K step of one output tile, and the reuse inside one step."""
    return {"fig-4x4": small_figure(w4), "fig-reuse": reuse_figure(w4)}


# ---------------------------------------------------------------- figures, drawn from the library's own counts
# (walk, cachesim), never from typed numbers:
# - week4-tiling-4x4:   small_N×small_N matmul in small_T×small_T tiles: every K step of C00 (the A and B
#                       tiles read from DRAM, the accumulator kept on chip), then the single write of C00;
# - week4-tiling-reuse: inside one K step, row a_i of the A tile meets column b_j of the B tile: each input
#                       row and column is used T times;
# - week4-tiling-cache: N×N, each tile side T: DRAM reads per input element against the cache capacity,
#                       row-major (solid) against grouped (dashed) tile order (LRU simulation, cachesim);
#                       each panel in its tile's colour, palette.case_color (the roofline figure's).

A_COLOR = "#f4a261"     # A tile read in this step
B_COLOR = "#6fa8dc"     # B tile read in this step
ACC_COLOR = "#93c47d"   # on-chip accumulator / written C tile
IDLE = "#f3f3f3"
EDGE = "#444444"


def tile_name(letter: str, row: int, column: int, tiles: int) -> str:
    """"A01" for small grids, "A0,1" when an index has two digits."""
    return f"{letter}{row}{column}" if tiles <= 10 else f"{letter}{row},{column}"


NAMED_SIDE = 4   # tiles a side up to which every tile of a grid is named (beyond, only the tile read in the step)
SHOWN_STEPS = 4   # K steps up to which the 4x4 figure draws each (beyond: the first two, "⋮", the last)
# the 4x4 figure's room in inches (its 8 inches less these hold the matrices): the step's name, the text of what it
# reads, the gap between matrices, between steps, above for the title, the "⋮" row of the steps not drawn
LEFT, RIGHT, GAP, ROW_PAD, TOP, ELLIPSIS = 1.15, 2.22, 0.51, 0.37, 0.70, 0.8
NAMED_PRODUCTS = 8   # the reuse figure names each product a_i·b_j up to a tile side of 8 (beyond, a plain grid)
# its room in inches: the rows' names, the strip-to-grid gap, the uses right of the rows, below, the title above
REUSE_LEFT, REUSE_GAP, REUSE_RIGHT, REUSE_BOTTOM, REUSE_TOP = 0.56, 0.22, 1.43, 0.56, 0.9
REUSE_MIN_WIDTH = 4.2


def _grid_path(x0: float, y0: float, size: float, at) -> tuple[list, list]:
    """The lines of a size×size square whose top-left is (x0, y0), a vertical and a horizontal one at each offset in
    `at`, as one polyline's x and y broken by NaN: one artist for a whole grid, so that a 32×32 grid draws in
    milliseconds (a Line2D per line took minutes)."""
    xs, ys = [], []
    for (xa, ya), (xb, yb) in ([((x0 + i, y0), (x0 + i, y0 - size)) for i in at]
                               + [((x0, y0 - i), (x0 + size, y0 - i)) for i in at]):
        xs += [xa, xb, float("nan")]
        ys += [ya, yb, float("nan")]
    return xs, ys


def _grid(ax, x0: float, y0: float, N: int, T: int, letter: str, above: float, tile_pt: float, highlight=None,
          color=IDLE):
    """An N×N matrix of cells at (x0, y0) (top-left), T×T tiles outlined, one tile filled and named (every tile is
    named when there are at most NAMED_SIDE a side); its letter `above` it (data units); `tile_pt`, a tile's side in
    points, thins the outlines of tiles too small for the usual 1.6 pt."""
    from matplotlib.patches import Rectangle

    n = N // T
    ax.add_patch(Rectangle((x0, y0 - N), N, N, facecolor="white", edgecolor="none"))
    if highlight is not None:
        r, c = highlight
        ax.add_patch(Rectangle((x0 + c * T, y0 - (r + 1) * T), T, T, facecolor=color, edgecolor="none"))
    inner = [i for i in range(1, N) if i % T]   # element grid, under the tile outlines and the labels
    if inner:
        ax.plot(*_grid_path(x0, y0, N, inner), color="#cccccc", lw=0.6, zorder=1.5)
    ax.plot(*_grid_path(x0, y0, N, range(0, N + 1, T)), color=EDGE, lw=min(1.6, tile_pt / 4), zorder=1.6)
    for r in range(n):
        for c in range(n):
            filled = highlight == (r, c)
            if n <= NAMED_SIDE or filled:   # above the grids (zorder), on an opaque box: no line runs through it
                ax.text(x0 + c * T + T / 2, y0 - r * T - T / 2, tile_name(letter, r, c, n), ha="center",
                        va="center", fontsize=12, fontweight="bold" if filled else "normal",
                        color="black" if filled else "#777777", zorder=4,
                        bbox={"boxstyle": "square,pad=0.3", "fc": color if filled else "white", "ec": "none"})
    ax.text(x0 + N / 2, y0 + above, letter, ha="center", va="bottom", fontsize=13)


def _arrow(ax, x0, y, x1, text=None, above: float = 0):
    from matplotlib.patches import FancyArrowPatch

    ax.add_patch(FancyArrowPatch((x0, y), (x1, y), arrowstyle="-|>", mutation_scale=14, color=EDGE, lw=1.4))
    if text:
        ax.text((x0 + x1) / 2, y + above, text, ha="center", va="bottom", fontsize=11, color=EDGE)


@styled
def draw_4x4(N: int, T: int, s: int):
    """Every K step of C00 and its single write, with the Byte counted by `walk.tiled(N, T, s, s)`."""
    from matplotlib.patches import Rectangle

    w = walk.tiled(N, T, s, s)
    n = N // T
    steps = w.tile_steps((0, 0))
    # the margins and gaps in inches, the matrices in what is left of the 8 inches: the labels keep their room at
    # any small_N (at 4 an element is about a quarter inch)
    unit = (8 - LEFT - RIGHT - 3 * GAP) / (3 * N + T)   # inches per element

    def d(inches: float) -> float:   # inches → data units
        return inches / unit

    shown = list(enumerate(steps)) if n <= SHOWN_STEPS else [(0, steps[0]), (1, steps[1]), None, (n - 1, steps[-1])]
    elided = steps[2:-1] if n > SHOWN_STEPS else []
    gap, row_h = d(GAP), N + d(ROW_PAD)
    heights = [row_h if item else d(ELLIPSIS) for item in shown]
    width = 3 * N + 2 * gap + T + gap + d(RIGHT)
    x_lo, y_top = -d(LEFT), d(TOP)
    y_lo = -sum(heights) - N - d(0.09)
    fig, ax = _fitted_axes(x_lo, width, y_lo, y_top, inches=8)
    xA, xB = 0, N + gap
    xacc = 2 * N + 2 * gap
    xtext = xacc + T + gap
    above, tile_pt = d(0.08), T * unit * 72   # a matrix's letter above it; a tile's side in points

    def acc_tile(y: float) -> None:   # the accumulator tile, on chip, level with the middle of the row at y
        ax.add_patch(Rectangle((xacc, y - T - (N - T) / 2), T, T, facecolor=ACC_COLOR, edgecolor=EDGE, lw=1.6))
        ax.text(xacc + T / 2, y - (N - T) / 2 + above, "acc (온칩)", ha="center", va="bottom", fontsize=12)

    y = 0
    for item, height in zip(shown, heights):
        if item is None:   # the K steps between: each reads one A and one B tile as the ones drawn do
            middle = y + (d(ROW_PAD) - height + d(0.26)) / 2   # between the grids above and the letters below
            for x in (xA + N / 2, xB + N / 2):
                ax.text(x, middle, "⋮", ha="center", va="center", fontsize=16)
            ax.text(-d(0.09), middle, f"K 단계 3…{n - 1}", ha="right", va="center", fontsize=12)
            ax.text(xtext, middle, f"K 단계 {len(elided)}개 더 (같은 방식)\n"
                    f"DRAM에서 읽기 {fmt.integer(sum(st.loads for st in elided) * s)} B", ha="left", va="center",
                    fontsize=12)
            y -= height
            continue
        number, step = item
        k_from, k_to = step.k * T, step.k * T + T - 1
        ks = f"k = {k_from}" if T == 1 else f"k = {k_from}…{k_to}"
        ax.text(-d(0.09), y - N / 2, f"K 단계 {number + 1}\n({ks})", ha="right", va="center", fontsize=12)
        _grid(ax, xA, y, N, T, "A", above, tile_pt, step.A, A_COLOR)
        ax.text(N + gap / 2, y - N / 2, "@", ha="center", va="center", fontsize=16)
        _grid(ax, xB, y, N, T, "B", above, tile_pt, step.B, B_COLOR)
        _arrow(ax, 2 * N + gap + d(0.07), y - N / 2, xacc - d(0.07))
        acc_tile(y)
        a, b = tile_name("A", *step.A, n), tile_name("B", *step.B, n)
        update = f"acc = 0 + {a} @ {b}" if number == 0 else f"acc += {a} @ {b}"
        ax.text(xtext, y - N / 2 + d(0.23), update, ha="left", va="center", fontsize=12, family="DejaVu Sans Mono")
        ax.text(xtext, y - N / 2 - d(0.12),
                f"DRAM에서 읽기: {a}, {b}\n{fmt.integer(step.loads)}원소 × {s} B = {fmt.integer(step.loads * s)} B",
                ha="left", va="center", fontsize=12)
        y -= height
    c_name = tile_name("C", 0, 0, n)
    _grid(ax, xA, y, N, T, "C", above, tile_pt, (0, 0), ACC_COLOR)
    acc_tile(y)
    _arrow(ax, xacc - d(0.07), y - N / 2, N + d(0.09), "마지막에 한 번 쓰기", d(0.06))
    ax.text(xtext, y - N / 2,
            f"DRAM에 {c_name} 쓰기:\n{fmt.integer(T * T)}원소 × {s} B = {fmt.integer(T * T * s)} B\n"
            f"중간 합은 끝까지 칩 안에 둔다", ha="left", va="center", fontsize=12)
    total = sum(st.loads for st in steps) * s
    ax.text((x_lo + width) / 2, y_top - d(0.07), f"{ex.shape(N)} 행렬곱, {T}×{T} 출력 타일: {c_name}을 만드는 {len(steps)}개 "
            f"K 단계 (읽기 {fmt.integer(total)} B, 쓰기 {fmt.integer(T * T * s)} B)", ha="center", va="top", fontsize=13)
    return fig


def _fitted_axes(x0: float, x1: float, y0: float, y1: float, inches: float):
    """A figure `inches` wide whose single axes fills it and shows [x0, x1]×[y0, y1] at equal scale:
    the figure's aspect is the data's, so there is no empty band (no constrained layout, no title box)."""
    from roofline.show.style import Figure

    fig = Figure(figsize=(inches, inches * (y1 - y0) / (x1 - x0)), layout="none")
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    return fig, ax


@styled
def draw_reuse(T: int):
    """One K step: rows a_i of the A tile (horizontal strips of T elements) times columns b_j of the
    B tile (vertical strips of T elements); each row and column is used T times."""
    from matplotlib.patches import Rectangle

    w = walk.tiled(T, T)
    step = w.steps[0]
    uses = (step.flops // 2) // (step.loads // 2)     # multiplies per loaded element = T
    cell, e = 1.5, 0.45                               # product cell, one element of a strip (data units)
    strip = T * e
    # 0.62 inch a unit, as wide as 9.5 inches allow; the margins and the strip-to-grid gap in inches, so that the
    # names and the title keep their room at any tile side
    unit = min(0.62, (9.5 - REUSE_LEFT - REUSE_GAP - REUSE_RIGHT) / (strip + T * cell))

    def d(inches: float) -> float:   # inches → data units
        return inches / unit

    gap = d(REUSE_GAP)
    x_lo, x_hi = -gap - strip - d(REUSE_LEFT), T * cell + d(REUSE_RIGHT)
    wider = max(0.0, d(REUSE_MIN_WIDTH) - (x_hi - x_lo)) / 2   # a small tile: as wide as its title
    x_lo, x_hi = x_lo - wider, x_hi + wider
    y_lo, y_top = -T * cell - d(REUSE_BOTTOM), gap + strip + d(REUSE_TOP)
    fig, ax = _fitted_axes(x_lo, x_hi, y_lo, y_top, inches=unit * (x_hi - x_lo))
    named = range(T) if T <= NAMED_PRODUCTS else (0, T - 1)   # beyond, the first and the last row and column
    for j in range(T):         # column b_j of the B tile: a vertical strip of T elements above column j
        x = j * cell + (cell - e) / 2
        for k in range(T):
            ax.add_patch(Rectangle((x, gap + strip - (k + 1) * e), e, e, facecolor=B_COLOR, edgecolor=EDGE, lw=1))
        if j in named:
            ax.text(x + e / 2, gap + strip + d(0.05), f"$b_{{{j}}}$", ha="center", va="bottom", fontsize=12)
    for i in range(T):         # row a_i of the A tile: a horizontal strip of T elements left of row i
        y = -(i + 1) * cell + (cell - e) / 2
        for k in range(T):
            ax.add_patch(Rectangle((-gap - strip + k * e, y), e, e, facecolor=A_COLOR, edgecolor=EDGE, lw=1))
        if i in named:
            ax.text(-gap - strip - d(0.06), y + e / 2, f"$a_{{{i}}}$", ha="right", va="center", fontsize=12)
            ax.text(T * cell + d(0.12), -(i + 0.5) * cell, f"$a_{{{i}}}$: {uses}번 사용", ha="left", va="center",
                    fontsize=10)
        for j in range(T) if T <= NAMED_PRODUCTS else ():
            ax.add_patch(Rectangle((j * cell, -(i + 1) * cell), cell, cell, facecolor="white", edgecolor=EDGE))
            ax.text(j * cell + cell / 2, -(i + 0.5) * cell, f"$a_{{{i}}} \\cdot b_{{{j}}}$", ha="center",
                    va="center", fontsize=11)
    if T > NAMED_PRODUCTS:     # the T×T products as one grid (a name in each would not fit)
        ax.add_patch(Rectangle((0, -T * cell), T * cell, T * cell, facecolor="white", edgecolor="none"))
        ax.plot(*_grid_path(0, 0, T * cell, [i * cell for i in range(T + 1)]), color=EDGE, lw=0.8)
    for j in named:
        ax.text(j * cell + cell / 2, -T * cell - d(0.155), f"$b_{{{j}}}$: {uses}번 사용", ha="center", va="top",
                fontsize=10)
    ax.text((x_lo + x_hi) / 2, y_top - d(0.06), f"K 단계 하나 ({T}×{T} 타일): A 조각의 행 $a_i$와 B 조각의 열 $b_j$\n"
            f"둘 다 원소 {T}개인 벡터", ha="center", va="top", fontsize=11)
    return fig


@styled
def draw_cache(N: int, tiles, s: int, capacities, group_size_M: int):
    """DRAM reads per input element against cache capacity (MiB), row-major and grouped order, per tile side."""
    from matplotlib.lines import Line2D

    from roofline.show import style
    from roofline.show.style import Figure

    fig = Figure(figsize=(7.2, 2.3 * len(tiles) + 1.0))
    axes = fig.subplots(len(tiles), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
    per_element = 2 * N * N
    x_min = 0.25                                      # MiB: below this no tile order differs much
    x_max = 2 * (2 * s * N * N) / 2**20               # twice A and B together
    for number, (ax, T) in enumerate(zip(axes, tiles), start=1):
        line = s * T * T
        top = 4 * (N // T) ** 2 + 1                 # beyond every input tile: everything fits
        color = case_color(number)            # the tile's colour in every week-4 figure (0 = 재사용 없음)
        for order, label, dashes, group in ((cachesim.ROW, "행 우선 순서 (실선)", "-", None),
                                            (cachesim.GROUPED, f"묶음 순서 (파선, GROUP_SIZE_M = {group_size_M})",
                                             "--", group_size_M)):
            d = cachesim.distances(N, T, order, group)
            caps, misses = cachesim.miss_curve(d, top)
            ax.step(caps * line / 2**20, misses * T * T / per_element, where="post", color=color, ls=dashes,
                    lw=2.4 if dashes == "-" else 2, label=label)
        ax.axhline(N // T, color="gray", ls="--", lw=1)
        ax.axhline(1, color="gray", ls=":", lw=1)
        ax.text(x_min * 1.15, N // T * 1.15, "타일 사이 재사용 없음 (N/T)", fontsize=9, color="dimgray")
        ax.text(x_min * 1.15, 1.15, "각 원소 한 번", fontsize=9, color="dimgray")
        for capacity in capacities:
            ax.axvline(capacity / 2**20, color="#999999", lw=0.8, ls="-.")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(x_min, x_max)
        ax.set_ylim(0.7, N // min(tiles) * 2)
        style.plain_log_ticks(ax)
        ax.set_title(f"T = {T} (타일 하나 {fmt.kib(line)})", fontsize=11, color=color, fontweight="bold")
        ax.set_ylabel("원소당 읽기 횟수")
    axes[-1].set_xlabel("캐시 용량 (MiB, 로그 축)")
    # the legend names the line styles; the colour is the panel's tile
    handles = [Line2D([], [], color="black", ls="-", lw=2.4), Line2D([], [], color="black", ls="--", lw=2)]
    labels = [line.get_label() for line in axes[0].get_lines()[:2]]
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=10, frameon=False)
    fig.suptitle(f"{ex.shape(N)} 행렬곱: 입력 원소당 DRAM 읽기 (로그 축)\nLRU 캐시 용량과 타일 순서에 따라 (세로 선: 본문 표의 용량)",
                 fontsize=12)
    return fig


@figure("week4-tiling-4x4", "week4")
def small_figure(w4):
    return draw_4x4(w4.small_N, w4.small_T, w4.s)


@figure("week4-tiling-reuse", "week4")
def reuse_figure(w4):
    return draw_reuse(w4.small_T)


@figure("week4-tiling-cache", "week4")
def cache_figure(w4):
    return draw_cache(w4.N, w4.tiles, w4.s, w4.cache.capacities, w4.cache.group_size_M)


# ---------------------------------------------------------------- exercises


# a student's variant of this page's exercises (roofline.show.variants): N, the tiles, the small example's side and the dtype
VARIANTS = variants.Bounds("week4", variants.sides, variants.tile_sets, variants.small_examples, variants.dtypes)

def exercises(w4) -> ex.Exercises:
    """③ The small example's count at another size and dtype, A·B reads of a larger problem, and what doubling T
    does to Q (less than halving it: the C writes stay)."""
    d2 = ex.other_dtype(w4.catalog, w4.dtype)
    s2 = w4.catalog.bytes_per(d2)
    # the small example at 2, 3, … times its side: the first whose Q is none of the amounts the page's own small example
    # shows (its reads with and without reuse, its C writes, their sums, its FLOPs)
    N0, T0, s0 = w4.small_N, w4.small_T, w4.s
    reads = (2 * s0 * N0**3, 2 * s0 * N0**3 // T0)
    shown = {*reads, s0 * N0**2, *(r + s0 * N0**2 for r in reads), 2 * N0**3}
    t = T0
    n = next(k * N0 for k in range(2, 10) if kernels.matmul_tiled(k * N0, T0, s2, s2).Q not in shown)
    small = kernels.matmul_tiled(n, t, s2, s2)
    steps1 = (ex.derived(small.derivation("Q_read"), "Byte", name="A·B 읽기"),
              ex.derived(small.derivation("Q_write"), "Byte", name="C 쓰기"), ex.derived(small.derivation("Q"), "Byte"))
    N1 = ex.half(w4.N)
    T1 = ex.divisor_near(N1, 2 * max(w4.tiles), w4.tiles)
    big = kernels.matmul_tiled(N1, T1, s2, s2)
    steps2 = (ex.derived(big.derivation("Q_read"), "Byte", "GB", name="A·B 읽기"),)
    k = next((k for k in range(2, N1 + 1) if N1 % (k * T1) == 0), None)
    T_a = T1 if k else ex.divisor_near(N1, T1 // 2)
    k = k or next(k for k in range(2, N1 + 1) if N1 % (k * T_a) == 0)
    T_b = k * T_a
    cost_a, cost_b = kernels.matmul_tiled(N1, T_a, s2, s2), kernels.matmul_tiled(N1, T_b, s2, s2)
    Qa, Qb = cost_a.Q, cost_b.Q
    ratio = Fraction(Qb, Qa)
    choices = (("exact", f"정확히 1/{k}이 된다"), ("less", f"1/{k}보다 덜 준다"), ("more", f"1/{k}보다 더 준다"))
    def which(ratio):
        return "exact" if ratio == Fraction(1, k) else "less" if ratio > Fraction(1, k) else "more"

    key = which(ratio)
    steps3 = (ex.derived(cost_a.derivation("Q"), "Byte", name=f"Q (T = {ex.number(T_a)})"),
              ex.derived(cost_b.derivation("Q"), "Byte", name=f"Q (T = {ex.number(T_b)})"),
              ex.Step(f"두 Q의 비 = {ex.number(Qb)} / {ex.number(Qa)} = {fmt.number(ratio, 6)}, 1/{k} = {fmt.number(Fraction(1, k), 6)}: "
                   f"A·B 읽기만 1/{k}이 되고 C 쓰기는 그대로이므로 {dict(choices)[key]}", key, "bound"))
    # the common mistakes: the same model call with one term or input changed (exercises.matmul_variants)
    s_o = ex.other_size(w4.catalog, d2)
    wrong1 = ex.matmul_variants(n, t, s2, s_other=s_o)
    wrong2 = {**{kind: c.Q_read for kind, c in ex.matmul_variants(N1, T1, s2, s_other=s_o).items()}, "c-counted": big.Q}
    wrong3 = {kind: which(Fraction(ex.matmul_variants(N1, T_b, s2)[kind].Q, c.Q))
              for kind, c in ex.matmul_variants(N1, T_a, s2).items() if kind in ("c-write", "c-read")}
    return ex.Exercises("③", (
        ex.Question("③-1", f"{n}×{n} {ex.dtype_text(d2, s2)} 행렬곱을 {t}×{t} 출력 타일로 나누어 계산한다. 재사용은 타일 "
                 "안에서만 일어나고 C는 한 번 쓴다. DRAM과 오간 Q는 몇 Byte인가?", small.Q, ex.UNITS["Byte"],
                 ex.formula(small.derivation("Q")), steps1, given=ex.given(N=n, T=t, s=s2, dtype=d2), exact=True,
                 mistakes=ex.named(wrong1, ("c-write", "c-read", "tile-reuse-ignored", "output-per-k", "bits-bytes",
                                            "dtype-other"),
                                   lambda c: c.Q, dtype=d2)),
        ex.Question("③-2", f"{ex.shape(N1)} {ex.dtype_text(d2, s2)} 행렬곱을 T = {ex.number(T1)} 출력 타일로 나누면 A·B에서 읽는 양은?",
                 big.Q_read, ex.UNITS["GB"], f"A·B 읽기 = {big.derivation('Q_read').term.formula}, GB = 10⁹ Byte", steps2, given=ex.given(N=N1, T=T1, s=s2, dtype=d2),
                 mistakes=ex.named(wrong2, ("c-counted", "tile-reuse-ignored", "tile-reuse-twice", "bits-bytes", "dtype-other"),
                                   lambda v: v, dtype=d2)),
        ex.Question("③-3", f"같은 {ex.shape(N1)} {d2} 행렬곱에서 T를 {ex.number(T_a)}에서 {ko.particle(ex.number(T_b), '으로/로')} {k}배 키우면 총 Q는 어떻게 되나?",
                 key, ex.CHOICE, f"{ex.formula(cost_a.derivation('Q'))}에서 T와 상관없는 항을 본다", steps3, choices,
                 given=ex.given(N=N1, s=s2, T_a=T_a, T_b=T_b, dtype=d2), mistakes=ex.named(wrong3, ("c-write", "c-read"), lambda v: v,
                                                                                  dtype=d2)),
    ))
