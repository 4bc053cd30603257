"""roofline.show.formulas: the closed forms of I and Q as text.
"""
from __future__ import annotations

from roofline.show import formulas


def test_closed_forms_as_text():
    assert formulas.intensity_no_reuse(4, 4) == "N/(4N+2)"
    assert formulas.intensity_tiled(4, 4) == "NT/(4N+2T)"
    assert formulas.intensity_ideal(4, 4) == "N/6"
    assert formulas.q_no_reuse(4, 4) == "8N³ + 4N²"
    assert formulas.q_tiled(2, 4) == "4N³/T + 4N²"
