"""Forward FLOPs per token of a decoder-only transformer (the FlashAttention note, "왜 행렬곱인가").

Projections and FFN counted as in Kaplan et al. 2020 (Scaling Laws, Table 1), with
d_attn = d_model = d and d_ff = 4d, one FMA = 2 FLOPs, per token and per layer. The attention
term differs: here QKᵀ and P·V are 2 · n_ctx · d each, 4 n_ctx d without a mask; Kaplan's table
lists one 2 n_layer n_ctx d_attn, about what the causal count below gives.

    QKV projection  2 · d · 3d   = 6d²         attention output projection  2 · d · d = 2d²
    FFN             2 · 2 · d · 4d = 16d²      scores QKᵀ and P·V          2 · n_ctx · d each = 4 n_ctx d

With a causal mask the token at position t (0-based) attends to t + 1 keys; averaged over the
n_ctx positions that is (n_ctx + 1)/2 keys, so scores and AV become 2 d (n_ctx + 1).
Outside the layers: embedding 4d, de-embedding (logits) 2 d n_vocab.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from roofline.derive import named, var
from roofline.errors import ParameterError, positive_int

QKV, OUT, FFN, ATTN = "qkv", "out", "ffn", "attention"   # Korean names: roofline.show.ko.PART
PARTS = (QKV, OUT, FFN, ATTN)


@dataclass(frozen=True)
class Transformer:
    """The configuration that fixes the FLOPs: d_model, n_layers, n_heads, n_ctx, n_vocab."""

    d_model: int
    n_layers: int
    n_heads: int
    n_ctx: int
    n_vocab: int

    def __post_init__(self):
        for key in ("d_model", "n_layers", "n_heads", "n_ctx", "n_vocab"):
            positive_int(getattr(self, key), key)
        if self.d_model % self.n_heads:
            raise ParameterError(f"n_heads: d_model = {self.d_model}의 약수여야 한다. 받은 값: {self.n_heads}")

    @classmethod
    def from_table(cls, table) -> "Transformer":
        """From the parameter file's configuration (`course.note.gpt3`: the same five attributes)."""
        return cls(**{k: getattr(table, k) for k in ("d_model", "n_layers", "n_heads", "n_ctx", "n_vocab")})


def layer_flops(cfg: Transformer, causal: bool = False) -> dict[str, Fraction]:
    """FLOPs per token in one layer, by part: 6d², 2d², 16d², 4 n_ctx d (causal: 2 d (n_ctx + 1))."""
    return {name: Fraction(q.value) for name, q in layer_terms(cfg, causal).items()}


def layer_terms(cfg: Transformer, causal: bool = False) -> dict:
    """`layer_flops` as derivations (roofline.derive): each part's formula in the note's symbols (d, n_ctx)."""
    d, n = var("d", cfg.d_model), var("n_ctx", cfg.n_ctx)
    attention = named("F_attn", 2 * d * (n + 1)) if causal else named("F_attn", 4 * n * d)
    return {QKV: named("F_QKV", 6 * d**2), OUT: named("F_out", 2 * d**2), FFN: named("F_FFN", 16 * d**2),
            ATTN: attention}


def layer_total(cfg: Transformer, causal: bool = False):
    """F_층, the layer's FLOPs per token, as a derivation: the sum of its parts."""
    parts = layer_terms(cfg, causal)
    return named("F_층", parts[QKV] + parts[OUT] + parts[FFN] + parts[ATTN])


def share_terms(cfg: Transformer, causal: bool = False) -> dict:
    """`shares` as derivations: each part over F_층."""
    parts, total = layer_terms(cfg, causal), layer_total(cfg, causal)
    return {name: named(q.symbol + "/F_층", q / total) for name, q in parts.items()}


def outside_term(cfg: Transformer):
    """`outside_layers` as a derivation: 4d + 2 d n_vocab."""
    d, v = var("d", cfg.d_model), var("n_vocab", cfg.n_vocab)
    return named("F_밖", 4 * d + 2 * d * v)


def per_token_term(cfg: Transformer, causal: bool = False):
    """`per_token` as a derivation: n_layers · F_층 + F_밖."""
    return named("F_토큰", var("n_layers", cfg.n_layers) * layer_total(cfg, causal) + outside_term(cfg))


def shares(cfg: Transformer, causal: bool = False) -> dict[str, Fraction]:
    """Each part's share of the layers' FLOPs (they sum to 1): `share_terms`' values."""
    return {name: Fraction(q.value) for name, q in share_terms(cfg, causal).items()}


def outside_layers(cfg: Transformer) -> Fraction:
    """Embedding 4d plus de-embedding 2 d n_vocab (FLOPs per token)."""
    return Fraction(outside_term(cfg).value)


def per_token(cfg: Transformer, causal: bool = False) -> Fraction:
    """All forward FLOPs per token: n_layers × (layer) + outside the layers."""
    return Fraction(per_token_term(cfg, causal).value)


def rest_share(cfg: Transformer, causal: bool = False) -> Fraction:
    """Share of the forward FLOPs outside the layers (embedding and logits)."""
    return Fraction(rest_share_term(cfg, causal).value)


def softmax_elements_share(cfg: Transformer) -> Fraction:
    """Softmax score elements per token and layer (n_heads · n_ctx) over the layer's matmul FLOPs:
    even at many FLOPs per element, the element-wise work is this small."""
    return Fraction(softmax_share_term(cfg).value)


def rest_share_term(cfg: Transformer, causal: bool = False):
    """`rest_share` as a derivation: F_밖 / F_토큰."""
    return named("F_밖/F_토큰", outside_term(cfg) / per_token_term(cfg, causal))


def softmax_elements_term(cfg: Transformer):
    """Softmax score elements per token and layer: n_heads · n_ctx."""
    return named("softmax 원소", var("n_heads", cfg.n_heads) * var("n_ctx", cfg.n_ctx))


def softmax_share_term(cfg: Transformer):
    """`softmax_elements_share` as a derivation: (n_heads · n_ctx) / F_층."""
    return named("softmax 원소/F_층", softmax_elements_term(cfg) / layer_total(cfg))
