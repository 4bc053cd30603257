"""roofline.show.claims: the quoted paper claims are the papers' own.
"""
from __future__ import annotations

from roofline.show import claims


def test_paper_claims_are_the_papers():
    texts = [claims.claim_text(c) for c in claims.CLAIMS]
    assert texts == ["최대 7.6배", "최대 3.0배", "15%", "약 2.0배", "50–73%", "최대 225 TFLOPs/s",
                     "1.5–2.0배", "최대 740 TFLOPs/s", "약 1.2 PFLOPs/s"]
