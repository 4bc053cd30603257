"""Reuse across output tiles (③, discussion): the tiled matmul's input tiles through an LRU cache.

Model. C = A @ B, N×N, T×T output tiles visited one after another in a given order. Each output
tile reads, for k = 0 … N/T − 1, the A tile (row, k) and then the B tile (k, column). A tile is one
cache line of s_in·T² Byte. The cache (think L2, between HBM and the chip) keeps the `capacity`
most recently used tiles (LRU). A miss reads the tile from HBM; a hit costs no HBM Byte.

    Q_read = misses · s_in T²,   Q_write = s_out N²,   F = 2N³
    capacity ≤ 1 tile  → every access misses: Q_read = 2 s_in N³/T   (= kernels.matmul_tiled)
    unbounded          → every tile read once: Q_read = 2 s_in N²     (= kernels.matmul_ideal)

Orders: "row" (row-major over output tiles) and "grouped" (Triton's L2 grouping: GROUP_SIZE_M rows
of output tiles are walked column by column), or any explicit permutation of the tiles.

Two implementations that must agree (tests check it):
- `lru_reference`: the obvious simulation with an OrderedDict, one access at a time;
- `simulate`: fast, in memory bounded by the number of output tiles (N/T)², never the 2(N/T)³ accesses.
  An LRU access hits exactly when fewer than `capacity` distinct other tiles were used since the same
  tile was last used (its stack distance). In this access pattern the stack distances follow from a few
  numbers per output tile (the previous output tile in the same row and in the same column, and how many
  distinct rows and columns were visited in between: its links). For the row and grouped orders the links
  have a closed form; for an explicit order one pass over the output tiles finds them. Over the K steps of
  one output tile, its A (and B) distances are one value K times or K consecutive values, so the
  histogram of all distances is counted from the links directly. N = 16384, T = 16 (2·1024³ accesses)
  takes seconds and a few hundred MB.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from roofline.cost import Cost
from roofline.errors import ParameterError, check_divides, check_positive
from roofline.params import simulated_side

ROW = "row"
GROUPED = "grouped"
ORDERS = (ROW, GROUPED)


# ---------------------------------------------------------------- tile orders

def tile_order(n: int, order: str = ROW, group_size_M: int | None = None) -> np.ndarray:
    """The n×n output tiles in visiting order, as an (n², 2) array of (row, column).

    "row": (0,0), (0,1), …;  "grouped": Triton's pid → (pid_m, pid_n) with GROUP_SIZE_M rows per group.
    """
    check_positive(n=n)
    pid = np.arange(n * n, dtype=np.int64)
    if order == ROW:
        return np.stack([pid // n, pid % n], axis=1)
    if order == GROUPED:
        if group_size_M is None:
            raise ParameterError('group_size_M: 묶음 순서("grouped")에는 GROUP_SIZE_M(양의 정수)이 있어야 한다')
        check_positive(group_size_M=group_size_M)
        in_group = group_size_M * n
        first_m = (pid // in_group) * group_size_M
        size_m = np.minimum(n - first_m, group_size_M)
        pid_m = first_m + (pid % in_group) % size_m
        pid_n = (pid % in_group) // size_m
        return np.stack([pid_m, pid_n], axis=1)
    raise ParameterError(f"order: 모르는 타일 순서 {order!r}. 쓸 수 있는 값: {', '.join(ORDERS)}, 또는 (행, 열) 타일의 목록")


def _order(n: int, order, group_size_M) -> np.ndarray:
    if isinstance(order, str):
        return tile_order(n, order, group_size_M)
    tiles = np.asarray(order, dtype=np.int64).reshape(-1, 2) if len(order) else np.zeros((0, 2), np.int64)
    if len(tiles) != n * n or ((tiles < 0) | (tiles >= n)).any() or len(np.unique(tiles[:, 0] * n + tiles[:, 1])) != n * n:
        raise ParameterError(f"order: 타일 목록은 {n}×{n}개의 출력 타일을 저마다 한 번씩 나열해야 한다")
    return tiles


def _check(N: int, T: int, s_in: int, s_out: int) -> int:
    check_positive(N=N, T=T, s_in=s_in, s_out=s_out)
    check_divides("T", T, "N", N)
    simulated_side(N // T, "N", f"N = {N:,}, T = {T}")
    return N // T


def _capacity(T: int, s_in: int, capacity_tiles, capacity_bytes) -> int | None:
    """Capacity in tiles (None = unbounded) from either a tile count or a Byte count."""
    if capacity_tiles is not None and capacity_bytes is not None:
        raise ParameterError("capacity_tiles, capacity_bytes: 캐시 용량은 타일 개수(capacity_tiles)나 Byte(capacity_bytes) "
                             "가운데 하나로만 준다")
    for key, value in (("capacity_tiles", capacity_tiles), ("capacity_bytes", capacity_bytes)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0):
            raise ParameterError(f"{key}: 0 이상의 정수여야 한다 (None은 용량 제한 없음). 받은 값: {value!r}")
    if capacity_bytes is not None:
        return int(capacity_bytes) // (s_in * T * T)
    return None if capacity_tiles is None else int(capacity_tiles)


# ---------------------------------------------------------------- result

@dataclass(frozen=True)
class CacheRun:
    """One simulation: how many of the input-tile accesses missed the cache, and the resulting Cost."""

    N: int
    T: int
    order: str                     # "row", "grouped" or "explicit"
    group_size_M: int | None
    capacity_tiles: int | None     # None: unbounded
    accesses: int                  # input-tile accesses: 2 (N/T)³
    misses: int                    # tiles read from HBM
    s_in: int = 4
    s_out: int = 4

    @property
    def tile_bytes(self) -> int:
        """One cache line = one input tile: s_in T² Byte."""
        return self.s_in * self.T * self.T

    @property
    def Q_read(self) -> int:
        """Byte read from HBM: misses · s_in T²."""
        return self.misses * self.tile_bytes

    @property
    def cost(self) -> Cost:
        return Cost(F=2 * self.N**3, Q_read=self.Q_read, Q_write=self.s_out * self.N**2)

    @property
    def reads_per_element(self):
        """Average HBM reads per input element: Q_read / (2 s_in N²) (1 = each read once)."""
        from fractions import Fraction

        return Fraction(self.Q_read, 2 * self.s_in * self.N**2)

    def derivation(self, name: str):
        """"F", "Q_read", "Q_write", "Q", "I" or "reads" (reads per element) with its formula (`roofline.derive`): the
        same computation as the properties above, from the simulation's `misses` (an input: the LRU count)."""
        from roofline.derive import named, var

        N, T, s_in, s_out = var("N", self.N), var("T", self.T), var("s_in", self.s_in), var("s_out", self.s_out)
        Q_read = named("Q_read", var("misses", self.misses) * s_in * T**2)
        Q_write = named("Q_write", s_out * N**2)
        F, Q = named("F", 2 * N**3), named("Q", Q_read + Q_write)
        how = {"F": F, "Q_read": Q_read, "Q_write": Q_write, "Q": Q, "I": named("I", F / Q),
               "reads": named("원소당 읽기 횟수", Q_read / (2 * s_in * N**2))}
        assert (Q_read.value, Q.value, how["reads"].value) == (self.Q_read, self.cost.Q, self.reads_per_element)
        return how[name]


# ---------------------------------------------------------------- the obvious simulation

def lru_reference(N: int, T: int, capacity_tiles: int | None = None, order=ROW, group_size_M: int | None = None,
                  s_in: int = 4, s_out: int = 4) -> CacheRun:
    """Access by access with an OrderedDict as the LRU cache (slow: for small N and for checking)."""
    n = _check(N, T, s_in, s_out)
    capacity = _capacity(T, s_in, capacity_tiles, None)
    cache: OrderedDict = OrderedDict()
    misses = accesses = 0
    for row, column in _order(n, order, group_size_M).tolist():
        for k in range(n):
            for tile in (("A", row, k), ("B", k, column)):
                accesses += 1
                if tile in cache:
                    cache.move_to_end(tile)           # now the most recently used
                    continue
                misses += 1                           # read from HBM
                cache[tile] = True
                if capacity is not None and len(cache) > capacity:
                    cache.popitem(last=False)         # evict the least recently used
    return CacheRun(N, T, order if isinstance(order, str) else "explicit", group_size_M, capacity, accesses, misses,
                    s_in, s_out)


# ---------------------------------------------------------------- the fast simulation

@dataclass(frozen=True)
class Distances:
    """Stack distances of all accesses of one (N, T, order): enough to answer every capacity at once."""

    accesses: int
    cold: int                 # first use of a tile: a miss at any capacity
    histogram: np.ndarray     # histogram[d] = accesses with stack distance d (d distinct other tiles since last use)

    def misses(self, capacity: int | None) -> int:
        """Misses of an LRU cache holding `capacity` tiles (None: unbounded): cold + #{distance ≥ capacity}."""
        if capacity is None:
            return self.cold
        return self.cold + int(self.histogram[capacity:].sum())


def _links_walked(n: int, tiles: np.ndarray) -> tuple[np.ndarray, ...]:
    """(pA, pB, LA, LB) of any tile order, by one pass over the output tiles (O(n²) memory, Python speed).

    For tile u, pA / pB = the previous tile in the same row / column (−1: none); LA / LB = the distinct rows
    plus distinct columns of the tiles strictly between pA (or pB) and u. A tile v carries one mark for its
    row and one for its column while it is the last tile so far to use them; a Fenwick tree over the tile
    positions counts the live marks between p and u."""
    U = len(tiles)
    rows, cols = tiles[:, 0].tolist(), tiles[:, 1].tolist()
    tree = [0] * (U + 1)
    last_row = [-1] * n
    last_col = [-1] * n
    pA = np.empty(U, np.int64)
    pB = np.empty(U, np.int64)
    LA = np.zeros(U, np.int64)
    LB = np.zeros(U, np.int64)
    total = 0
    for u in range(U):
        r, c = rows[u], cols[u]
        a, b = last_row[r], last_col[c]
        pA[u], pB[u] = a, b
        for p, out in ((a, LA), (b, LB)):
            if p >= 0:
                i, s = p + 1, 0
                while i:
                    s += tree[i]
                    i &= i - 1
                out[u] = total - s
        for p, delta in ((a, -1), (b, -1), (u, 2)):
            if p >= 0:
                i = p + 1
                while i <= U:
                    tree[i] += delta
                    i += i & -i
        total += 2 - (a >= 0) - (b >= 0)
        last_row[r] = u
        last_col[c] = u
    return pA, pB, LA, LB


def _links_grouped(n: int, G: int) -> tuple[np.ndarray, ...]:
    """(pA, pB, LA, LB) of the grouped order with GROUP_SIZE_M = G (G = 1 is the row order), in closed form.

    A group is the S = min(G, rows left) rows from first_m, walked column by column; tile u = (r, c) is at
    first_m·n + c·S + (r − first_m). Same row, previous column: S − 1 tiles in between (the group's other rows,
    from columns c−1 and c). Same column, previous row: the tile just before, or, for a group's first row, the
    previous group's last row (its columns after c, then this group's columns before c: every other column)."""
    tiles = tile_order(n, GROUPED, G)
    r, c = tiles[:, 0], tiles[:, 1]
    u = np.arange(n * n, dtype=np.int64)
    first = (r // G) * G
    S = np.minimum(n - first, G)
    i = r - first                                           # row inside the group
    pA = np.where(c > 0, u - S, -1)
    LA = np.where(c > 0, (S - 1) + (i < S - 1) + (i > 0), 0)
    behind = (first - G) * n + c * G + (G - 1)              # the previous group's last row, column c
    pB = np.where(i > 0, u - 1, np.where(first > 0, behind, -1))
    LB = np.where((i == 0) & (first > 0), G * (c < n - 1) + S * (c > 0) + (n - 1), 0)
    return pA, pB, LA, LB


def _distances(n: int, links: tuple[np.ndarray, ...]) -> Distances:
    """The histogram of all stack distances of the access sequence A(r,0) B(0,c) A(r,1) B(1,c) … over the
    output tiles, from each tile's links (pA, pB, LA, LB), without listing the 2n·n² accesses.

    For output tile u and step k (K = n steps), with base = K·L + (K − 1):
        A(r,k): base + [B of pA alive at u]·(K−k) + [B tiles of u older than pA]·k
        B(k,c): base + [A of pB alive at u]·(K−1−k) + [A tiles of u older than pB]·(k+1)
    so over k each tile's A (and B) distances are one value n times, or n consecutive values once each: a
    histogram of points and a difference array of ranges, O(n²) memory for 2n³ accesses."""
    pA, pB, LA, LB = links
    U = len(pA)
    u_index = np.arange(U, dtype=np.int64)
    # next use of each tile's row / column (U: never), to know whether the marks of pA / pB are alive at u
    next_row = np.full(U, U, np.int64)
    next_col = np.full(U, U, np.int64)
    hasA, hasB = pA >= 0, pB >= 0
    next_row[pA[hasA]] = u_index[hasA]
    next_col[pB[hasB]] = u_index[hasB]
    points, starts = [], []                         # (value) × n accesses; ranges [start, start + n)
    for has, p, q, L, other_next, a in ((hasA, pA, pB, LA, next_col, 1), (hasB, pB, pA, LB, next_row, 0)):
        # alive and older: base + K at every k; neither: base at every k;
        # A: alive only → base + K−k ∈ [base+1, base+K], older only → base + k ∈ [base, base+K−1]
        # B: alive only → base + K−1−k ∈ [base, base+K−1], older only → base + k+1 ∈ [base+1, base+K]
        if not has.any():
            continue
        base = n * L[has] + n - 1
        alive = other_next[p[has]] >= u_index[has]
        older = q[has] < p[has]
        points += [base[alive & older] + n, base[~alive & ~older]]
        starts += [base[alive & ~older] + a, base[~alive & older] + (1 - a)]
    cold = n * (int((~hasA).sum()) + int((~hasB).sum()))
    points = np.concatenate(points) if points else np.zeros(0, np.int64)
    starts = np.concatenate(starts) if starts else np.zeros(0, np.int64)
    size = int(max(points.max(initial=-1), starts.max(initial=-1) + n)) + 2
    histogram = n * np.bincount(points, minlength=size)
    edges = np.bincount(starts, minlength=size) - np.bincount(starts + n, minlength=size)
    histogram += np.cumsum(edges)
    return Distances(accesses=2 * n * U, cold=cold, histogram=np.trim_zeros(histogram, "b"))


@lru_cache(maxsize=8)
def _named_distances(n: int, order: str, group_size_M: int | None) -> Distances:
    return _distances(n, _links_grouped(n, 1 if order == ROW else group_size_M))


def distances(N: int, T: int, order=ROW, group_size_M: int | None = None) -> Distances:
    """Stack distances for (N, T, order); computed once per named order and reused for every capacity."""
    n = _check(N, T, 1, 1)
    if isinstance(order, str):
        tile_order(1, order, group_size_M)            # validates the name and group_size_M
        return _named_distances(n, order, group_size_M if order == GROUPED else None)
    return _distances(n, _links_walked(n, _order(n, order, group_size_M)))


def simulate(N: int, T: int, *, capacity_tiles: int | None = None, capacity_bytes: int | None = None,
             order=ROW, group_size_M: int | None = None, s_in: int = 4, s_out: int = 4) -> CacheRun:
    """Input tiles of the tiled matmul through an LRU cache of the given capacity (tiles or Byte; None: unbounded).

    Q_read = misses · s_in T². Same result as `lru_reference`, fast enough for N = 4096, T = 32.
    """
    _check(N, T, s_in, s_out)
    capacity = _capacity(T, s_in, capacity_tiles, capacity_bytes)
    d = distances(N, T, order, group_size_M)
    name = order if isinstance(order, str) else "explicit"
    return CacheRun(N, T, name, group_size_M if name == GROUPED else None, capacity, d.accesses,
                    d.misses(capacity), s_in, s_out)


def miss_curve(d: Distances, top: int) -> tuple[np.ndarray, np.ndarray]:
    """The step function of an LRU cache over capacities 1…top (in tiles): (capacities, misses) at 1, at every
    capacity where the misses change, and at `top` (drawn with where="post": the same line as every capacity,
    with a few hundred points instead of 4(N/T)²)."""
    capacities = np.arange(1, top + 1)
    noncold = d.accesses - d.cold
    counted = np.concatenate([[0], np.cumsum(d.histogram)])        # counted[c] = #{distance < c}
    counted = np.pad(counted, (0, max(0, top + 1 - len(counted))), mode="edge")
    misses = d.cold + noncold - counted[capacities]
    keep = np.unique(np.concatenate([[0], np.flatnonzero(np.diff(misses)) + 1, [top - 1]]))
    return capacities[keep], misses[keep]
