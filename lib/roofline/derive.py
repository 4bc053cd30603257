"""Exact arithmetic that writes its own derivation: the formula in the course's symbols and the same formula with
the values put in, from the one computation that gives the value.

    N, T, s = var("N", 4096), var("T", 32), var("s", 4)
    Q_T = named("Q_T", 2 * s * N**3 / T + s * N**2)
    Q_T.value     → 8657043456
    Q_T.formula   → "2·s·N³/T + s·N²"
    Q_T.numbers   → "2·4·4,096³/32 + 4·4,096²"
    Q_T.inputs    → (s, N, T): the symbols and named quantities the formula uses, each once

A `var` is an input (where it comes from is the caller's: a course.toml key, a parameter-cell variable, …);
`named` gives a quantity its symbol, and a named quantity used in a further formula appears there by its symbol and
its value, so each record says one step and links the steps it rests on. Values are int or Fraction, never rounded
(rounding happens only in `roofline.show.fmt`). No words to show: the Korean names are `roofline.show.why`'s.
"""
from __future__ import annotations

import functools
import operator
from fractions import Fraction

# how tightly a formula binds; QUOTIENT is "F / Q_T" between two named quantities: written with spaces, so it is
# bracketed inside a product ("(M / T_M)·(N / T_N)", never "M / T_M·N / T_N")
SUM, QUOTIENT, PRODUCT, POWER, ATOM = 0, 1, 2, 3, 4
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def exact_text(value) -> str:
    """An exact value as a formula writes it: 4096 → "4,096", Fraction(1, 12) → "1/12" (thousands separators)."""
    if type(value) is not int:   # (an int as it is: most values are, and a Fraction made of one costs a gcd)
        value = value if type(value) is Fraction else Fraction(value)
        if value.denominator != 1:
            return f"{value.numerator:,}/{value.denominator:,}"
        value = value.numerator
    return f"{value:,}"


def _exact(value):
    if type(value) is int:
        return value
    value = value if type(value) is Fraction else Fraction(value)
    return value.numerator if value.denominator == 1 else value


class Term:
    """A value with the formula that computed it (`formula`, in symbols) and the same with the values (`numbers`)."""

    __slots__ = ("value", "formula", "numbers", "level", "inputs")

    def __init__(self, value, formula: str, numbers: str, level: int, inputs: tuple = ()):
        self.value = _exact(value)
        self.formula, self.numbers, self.level, self.inputs = formula, numbers, level, inputs

    # ---- building
    @staticmethod
    def of(x) -> "Term":
        if isinstance(x, Term):
            return x
        text = exact_text(x)
        return Term(x, text, text, PRODUCT if "/" in text else ATOM)

    def _wrap(self, level: int, right: bool = False) -> tuple[str, str]:
        """Formula and numbers, parenthesised when this term binds looser than `level` (or equally, on the right)."""
        loose = self.level < level or (right and self.level == level and level != ATOM)
        bracketed = self.numbers[:1] in "⌊⌈" and self.numbers[-1:] in "⌋⌉"   # ⌈…⌉ delimits itself
        numbers_loose = loose or ("/" in self.numbers and self.level == ATOM and level >= QUOTIENT and not bracketed)
        # a named quantity whose symbol is a ratio ("F/L") reads as one operand: "(F/L) / (Q/L)", never "F/L / Q/L"
        formula_loose = loose or (self.level == ATOM and level >= QUOTIENT and bare_slash(self.formula))
        f = f"({self.formula})" if formula_loose else self.formula
        n = f"({self.numbers})" if numbers_loose else self.numbers
        return f, n

    def _binary(self, other, op: str, level: int, compute, swap: bool = False) -> "Term":
        """`self op other` (`other op self` when `swap`): its value is `compute(left value, right value)`."""
        a, b = (Term.of(other), self) if swap else (self, Term.of(other))
        af, an = a._wrap(level)
        bf, bn = b._wrap(level, right=op in (" − ", "/", " / "))
        if level == SUM:
            af, an = a.formula, a.numbers   # a sum on the left needs no parentheses
        return Term(compute(a.value, b.value), f"{af}{op}{bf}", f"{an}{op}{bn}", level, _merge(a.inputs, b.inputs))

    def __add__(self, other):
        return self._binary(other, " + ", SUM, operator.add)

    def __radd__(self, other):
        return self._binary(other, " + ", SUM, operator.add, swap=True)

    def __sub__(self, other):
        return self._binary(other, " − ", SUM, operator.sub)

    def __rsub__(self, other):
        return self._binary(other, " − ", SUM, operator.sub, swap=True)

    def __mul__(self, other):
        return self._binary(other, "·", PRODUCT, operator.mul)

    def __rmul__(self, other):
        return self._binary(other, "·", PRODUCT, operator.mul, swap=True)

    def __truediv__(self, other):
        slash = _slash(self, other)
        return self._binary(other, slash, _level(slash), _divide)

    def __rtruediv__(self, other):
        slash = _slash(other, self)
        return self._binary(other, slash, _level(slash), _divide, swap=True)

    def __pow__(self, k: int):
        if not isinstance(k, int) or k < 2:
            raise ValueError(f"a power in a formula is a whole number ≥ 2, got {k!r}")
        f, n = self._wrap(ATOM)
        sup = str(k).translate(SUPERSCRIPT)
        return Term(self.value ** k, f + sup, n + sup, POWER, self.inputs)   # (int or Fraction: exact either way)

    def __repr__(self):
        return f"Term({self.formula} = {self.numbers} = {self.value})"


def _divide(x, y):
    """x / y, exact: a Fraction (two ints make it at once; Fraction's operators are for the other cases)."""
    return Fraction(x, y) if type(x) is int and type(y) is int else Fraction(x) / y


@functools.lru_cache(maxsize=4096)   # (asked of the same symbols over and over: "F/L", "I*", "max(F/P, Q/BW)")
def bare_slash(text: str) -> bool:
    """Whether `text` has a "/" outside every bracket ("F/L" yes; "max(F/P, Q/BW)", "⌈N/T⌉", "t·(N_큰/N)³" no)."""
    depth = 0
    for ch in text:
        depth += (ch in "([⌈⌊") - (ch in ")]⌉⌋")
        if ch == "/" and depth == 0:
            return True
    return False


def _slash(a, b) -> str:
    """"F / Q_T" between two named quantities, "N³/T" otherwise (as the course writes them)."""
    return " / " if isinstance(a, Quantity) and isinstance(b, Quantity) else "/"


def _level(slash: str) -> int:
    return QUOTIENT if slash == " / " else PRODUCT


def _merge(*groups) -> tuple:
    """The inputs of several terms, each once, in order of first use."""
    if len(groups) == 2 and not groups[1]:   # (most operands of a step are a constant or one term's inputs)
        return groups[0]
    if len(groups) == 2 and not groups[0]:
        return groups[1]
    seen, out = set(), []
    for group in groups:
        for item in group:
            if id(item) not in seen:
                seen.add(id(item))
                out.append(item)
    return tuple(out)


def _call(name: str, terms, pick) -> Term:
    terms = [Term.of(t) for t in terms]
    value = pick(t.value for t in terms)
    return Term(value, f"{name}({', '.join(t.formula for t in terms)})", f"{name}({', '.join(t.numbers for t in terms)})",
                ATOM, _merge(*(t.inputs for t in terms)))


def tmin(*terms) -> Term:
    """min(a, b, …) as a term."""
    return _call("min", terms, min)


def tmax(*terms) -> Term:
    """max(a, b, …) as a term."""
    return _call("max", terms, max)


def _around(left: str, right: str, term, value) -> Term:
    """`term` between two brackets (⌊ ⌋, ⌈ ⌉) with the value they give."""
    term = Term.of(term)
    return Term(value, f"{left}{term.formula}{right}", f"{left}{term.numbers}{right}", ATOM, term.inputs)


def tfloor(term) -> Term:
    """⌊a⌋ as a term (a whole division: ⌊SM당 워프 / W⌋)."""
    return _around("⌊", "⌋", term, Fraction(Term.of(term).value).__floor__())


def tceil(term) -> Term:
    """⌈a⌉ as a term (rounding up to whole warps, to an allocation unit)."""
    return _around("⌈", "⌉", term, Fraction(Term.of(term).value).__ceil__())


class Quantity(Term):
    """A named value: `symbol` = `term`. Used in a further formula it stands as its symbol (and its value), and it is
    one of that formula's `inputs`; a `var` is a Quantity without a formula (an input of the problem)."""

    __slots__ = ("symbol", "term")

    def __init__(self, symbol: str, value, term: Term | None = None):
        text = exact_text(value)
        super().__init__(value, symbol, text, ATOM)
        self.inputs = (self,)
        self.symbol, self.term = symbol, term

    @property
    def derived(self) -> bool:
        return self.term is not None

    def __repr__(self):
        if self.term is None:
            return f"var({self.symbol} = {self.numbers})"
        return f"named({self.symbol} = {self.term.formula} = {self.term.numbers} = {self.value})"


def var(symbol: str, value) -> Quantity:
    """An input of a formula, by its symbol."""
    return Quantity(symbol, value)


def named(symbol: str, term) -> Quantity:
    """`term` under the symbol the course writes for it."""
    term = Term.of(term)
    return Quantity(symbol, term.value, term)


def value(x):
    """The exact value of a term or a plain number."""
    return x.value if isinstance(x, Term) else x


def _bracket(a, b, left: str, right: str, pick) -> Term:
    a, b = Term.of(a), Term.of(b)
    af, an = a._wrap(PRODUCT)
    bf, bn = b._wrap(PRODUCT, right=True)
    return Term(pick(a.value, b.value), f"{left}{af}/{bf}{right}", f"{left}{an}/{bn}{right}", ATOM,
                _merge(a.inputs, b.inputs))


def ceil_div(a, b) -> Term:
    """⌈a/b⌉ as a term (whole numbers): T_c = ⌈N/B_c⌉."""
    return _bracket(a, b, "⌈", "⌉", lambda x, y: -(-Fraction(x) // Fraction(y)))


def floor_div(a, b) -> Term:
    """⌊a/b⌋ as a term: M = ⌊smem/s⌋."""
    return _bracket(a, b, "⌊", "⌋", lambda x, y: Fraction(x) // Fraction(y))


def ceil(a) -> Term:
    """⌈a⌉ as a term: the smallest whole number ≥ a (the same as `tceil`)."""
    return tceil(a)
