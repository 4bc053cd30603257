"""What the FlashAttention papers report, quoted (not computed), with the Korean words the note shows.

`claim_text(claim)` writes a claim's value as the note does ("최대 7.6배", "50–73%", "최대 740 TFLOPs/s").
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from roofline.show import fmt


@dataclass(frozen=True)
class Claim:
    """One headline result of a FlashAttention paper: a value (or a range) and how to show it."""

    paper: str
    url: str
    what: str
    kind: str          # "ratio" (×), "percent", "tera" (FLOPs/s), "peta" (FLOPs/s)
    low: Fraction
    high: Fraction | None = None
    prefix: str = ""


FA1 = "https://arxiv.org/abs/2205.14135"
FA2 = "https://arxiv.org/abs/2307.08691"
FA3 = "https://arxiv.org/abs/2407.08608"

CLAIMS = (
    Claim("FlashAttention", FA1, "GPT-2 규모 어텐션의 속도 (표준 구현 대비)", "ratio", Fraction(76, 10), prefix="최대 "),
    Claim("FlashAttention", FA1, "GPT-2 학습 전체 속도, 시퀀스 1K (HuggingFace 구현 대비)", "ratio", Fraction(3), prefix="최대 "),
    Claim("FlashAttention", FA1, "BERT-large 학습, MLPerf v1.1 기록 대비 단축", "percent", Fraction(15, 100)),
    Claim("FlashAttention-2", FA2, "FlashAttention 대비 속도", "ratio", Fraction(2), prefix="약 "),
    Claim("FlashAttention-2", FA2, "A100 이론 최대 FLOPs/s 대비 도달률", "percent", Fraction(50, 100), Fraction(73, 100)),
    Claim("FlashAttention-2", FA2, "GPT 학습에서 A100 한 장의 성능", "tera", Fraction(225 * 10**12), prefix="최대 "),
    Claim("FlashAttention-3", FA3, "H100에서 FlashAttention-2 대비 속도", "ratio", Fraction(15, 10), Fraction(2)),
    Claim("FlashAttention-3", FA3, "H100 FP16 성능", "tera", Fraction(740 * 10**12), prefix="최대 "),
    Claim("FlashAttention-3", FA3, "H100 FP8 성능", "peta", Fraction(12, 10) * 10**15, prefix="약 "),
)


NAMES = ("FlashAttention-2", "GPT-2", "MLPerf v1.1")   # names with digits in the claims' words (why.name)


def what_text(claim: Claim):
    """What the claim measures, as the note's table shows it: its names with digits marked as names (`why.name`:
    "GPT-2" is a name, not a number)."""
    from roofline.show import why

    return why.names_in(claim.what, NAMES)


def claim_text(claim: Claim) -> str:
    """The claim's value as the chapter shows it ("최대 7.6배", "50–73%", "최대 740 TFLOPs/s")."""
    def one(x, last=True):
        if claim.kind == "ratio":
            return fmt.decimal(x, 1) + ("배" if last else "")
        if claim.kind == "percent":
            return fmt.number(x * 100, 1) + ("%" if last else "")
        if claim.kind == "tera":
            return fmt.number(x / 10**12, 1) + (" TFLOPs/s" if last else "")
        if claim.kind == "peta":
            return fmt.number(x / 10**15, 1) + (" PFLOPs/s" if last else "")
        raise ValueError(f"unknown claim kind {claim.kind!r}; allowed: ratio, percent, tera, peta")

    if claim.high is None:
        return claim.prefix + one(claim.low)
    return claim.prefix + one(claim.low, last=False) + "–" + one(claim.high)
