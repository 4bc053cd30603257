"""Shared fixtures of the tests (the nbval set-up is in the repository's conftest.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def course():
    import roofline

    return roofline.load()
