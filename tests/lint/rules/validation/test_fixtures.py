"""Every VALID rule against its fixtures (fixtures/lint/VALID*/), per release, asserting (rule, line, column)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_harness import case_id, expected, findings, fixture_cases, own_rules, rule_ids

from kubectl_wasdra.catalog.releases import Release

CASES = fixture_cases("VALID")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    path, release = case
    rule = path.parent.name
    got = [f for f in findings(path, release) if f[0] == rule]
    if path.name.startswith("good"):
        assert got == []
    else:
        assert got == expected(path)
        assert got, "a bad fixture must produce findings"


def test_every_valid_rule_has_good_and_bad_fixtures() -> None:
    valid_ids = {r.info.id for r in own_rules() if r.info.family == "VALID"}
    assert len(valid_ids) >= 15 and valid_ids <= rule_ids()
    releases = {str(release) for path, release in CASES}
    assert {"1.35", "1.36", "1.37"} <= releases
    for rule_id in valid_ids:
        names = [p.name for p in Path(__file__).resolve().parents[4].joinpath("fixtures", "lint", rule_id).glob("*.yaml")]
        assert any(n.startswith("bad") for n in names) and any(n.startswith("good") for n in names), rule_id


def test_every_rule_documented() -> None:
    for implemented in own_rules():
        for heading in ("## What it does", "## Why is this bad?", "## Example", "## Fix"):
            assert heading in implemented.doc, (implemented.info.id, heading)
