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
    d, n = cfg.d_model, cfg.n_ctx
    attention = Fraction(2 * d * (n + 1)) if causal else Fraction(4 * n * d)
    return {QKV: Fraction(6 * d * d), OUT: Fraction(2 * d * d), FFN: Fraction(16 * d * d), ATTN: attention}


def shares(cfg: Transformer, causal: bool = False) -> dict[str, Fraction]:
    """Each part's share of the layers' FLOPs (they sum to 1)."""
    parts = layer_flops(cfg, causal)
    total = sum(parts.values())
    return {name: value / total for name, value in parts.items()}


def outside_layers(cfg: Transformer) -> Fraction:
    """Embedding 4d plus de-embedding 2 d n_vocab (FLOPs per token)."""
    return Fraction(4 * cfg.d_model + 2 * cfg.d_model * cfg.n_vocab)


def per_token(cfg: Transformer, causal: bool = False) -> Fraction:
    """All forward FLOPs per token: n_layers × (layer) + outside the layers."""
    return cfg.n_layers * sum(layer_flops(cfg, causal).values()) + outside_layers(cfg)


def rest_share(cfg: Transformer, causal: bool = False) -> Fraction:
    """Share of the forward FLOPs outside the layers (embedding and logits)."""
    return outside_layers(cfg) / per_token(cfg, causal)


def softmax_elements_share(cfg: Transformer) -> Fraction:
    """Softmax score elements per token and layer (n_heads · n_ctx) over the layer's matmul FLOPs:
    even at many FLOPs per element, the element-wise work is this small."""
    return Fraction(cfg.n_heads * cfg.n_ctx) / sum(layer_flops(cfg).values())
