"""LOAD, API and SCHEMA fixtures: bad files give exactly the expected (rule, line, column), good files none."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import case_id, cases, check_case

from kubectl_wasdra.catalog.releases import Release


@pytest.mark.parametrize("case", cases("LOAD", "API", "SCHEMA"), ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)
