"""Fixtures for scheduler tests."""

from __future__ import annotations

import pytest
from builders import fixture_cluster


@pytest.fixture(scope="session")
def two_racks():
    return fixture_cluster("two-racks")
