"""roofline.transformer: GPT-3 175B's FLOPs per token per layer and their shares (the note's "why matmul").
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from roofline import transformer
from roofline.show import fmt


@pytest.fixture(scope="module")
def gpt3(note):
    return transformer.Transformer.from_table(note.gpt3)


def test_gpt3_config_is_the_papers(gpt3):
    assert (gpt3.d_model, gpt3.n_layers, gpt3.n_ctx, gpt3.n_heads) == (12288, 96, 2048, 96)


def test_gpt3_shares_without_mask(gpt3):
    shares = {k: fmt.percent(v) for k, v in transformer.shares(gpt3).items()}
    assert shares == {transformer.QKV: "24.3%", transformer.OUT: "8.1%", transformer.FFN: "64.9%",
                      transformer.ATTN: "2.7%"}
    assert sum(transformer.shares(gpt3).values()) == 1


def test_gpt3_layer_formula(gpt3):
    d, n = 12288, 2048
    flops = transformer.layer_flops(gpt3)
    assert flops == {transformer.QKV: 6 * d * d, transformer.OUT: 2 * d * d, transformer.FFN: 16 * d * d,
                     transformer.ATTN: 4 * n * d}
    assert transformer.shares(gpt3)[transformer.QKV] == Fraction(6 * d, 24 * d + 4 * n)


def test_gpt3_causal_attention_and_rest(gpt3):
    assert fmt.percent(transformer.shares(gpt3, causal=True)[transformer.ATTN]) == "1.4%"
    assert transformer.layer_flops(gpt3, causal=True)[transformer.ATTN] == 2 * 12288 * 2049
    assert transformer.rest_share(gpt3) < Fraction(1, 100)
    assert fmt.percent(transformer.rest_share(gpt3)) == "0.3%"
    assert transformer.softmax_elements_share(gpt3) < Fraction(1, 10_000)
