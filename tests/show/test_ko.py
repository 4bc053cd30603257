"""roofline.show.ko: Korean particles follow the last sound of the word before them (formulas and numbers too).
"""
from __future__ import annotations

from roofline.show import ko


def test_intensity_particles_follow_the_last_sound():
    """The particles after the glued formulas and numbers, for values other than the seed's (a student may change dtype)."""
    assert [ko.particle(x, "은/는") for x in ("N/6", "N/9", "N/(4N+2)", "N/3", "N/5")] == ["N/6은", "N/9는", "N/(4N+2)는", "N/3은", "N/5는"]
    assert [ko.particle(x, "이라고/라고") for x in ("N/6", "N/9", "NT/(4N+2T)")] == ["N/6이라고", "N/9라고", "NT/(4N+2T)라고"]
    assert [ko.particle(x, "으로/로") for x in ("4,096", "2,048", "1,024", "8,192")] == ["4,096으로", "2,048로", "1,024로", "8,192로"]
