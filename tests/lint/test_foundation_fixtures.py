"""LOAD, API and SCHEMA fixtures: bad files give exactly the expected (rule, line, column), good files none."""

from __future__ import annotations

from pathlib import Path

import pytest
from foundation_fixture_runner import case_id, cases, expected, findings

from kubectl_wasdra.catalog.releases import Release

CASES = cases(("LOAD", "API", "SCHEMA"))


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_fixture(case: tuple[Path, Release]) -> None:
    path, release = case
    rule = path.parent.name
    got = findings(path, release, rule)
    if path.name.startswith("good"):
        assert got == []
    else:
        assert got and got == expected(path)
