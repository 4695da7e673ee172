"""Every VALID rule against its fixtures (fixtures/lint/VALID*/), per release, asserting (rule, line, column)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import FIXTURES, case_id, cases, check_case, module_rules

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.registry import rule_infos

OWN = module_rules("gates", "validation")
CASES = [case for case in cases("VALID") if case[0].parent.name in {r.info.id for r in OWN}]  # VALID050: test_autoscaling


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)


def test_every_valid_rule_has_good_and_bad_fixtures() -> None:
    valid_ids = {r.info.id for r in OWN if r.info.family == "VALID"}
    assert len(valid_ids) >= 15 and valid_ids <= {info.id for info in rule_infos()}
    releases = {str(release) for path, release in CASES}
    assert {"1.35", "1.36", "1.37"} <= releases
    for rule_id in valid_ids:
        names = [p.name for p in (FIXTURES / rule_id).glob("*.yaml")]
        assert any(n.startswith("bad") for n in names) and any(n.startswith("good") for n in names), rule_id


def test_every_rule_documented() -> None:
    for implemented in OWN:
        for heading in ("## What it does", "## Why is this bad?", "## Example", "## Fix"):
            assert heading in implemented.doc, (implemented.info.id, heading)
