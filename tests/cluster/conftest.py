"""Shared fixtures of the cluster tests: the two-racks snapshot the fake API server serves."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.cluster.files import load_snapshot

TWO_RACKS = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"


@pytest.fixture(scope="module")
def offline():
    """The two-racks fixture loaded from files (what a live read of the fake server must equal)."""
    snapshot, problems = load_snapshot([str(TWO_RACKS)])
    assert problems == ()
    return snapshot
