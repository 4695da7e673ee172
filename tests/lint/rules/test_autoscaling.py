"""HPA rules: scale to zero needs Object/External metrics (VALID050), scale targets exist (REF011 fixtures are in
test_references), and GATE001 keeps owning the HPAScaleToZero gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from cross_harness import ROOT, case_id, cases, check_case, report

from kubectl_wasdra.catalog.releases import Release


@pytest.mark.parametrize("case", cases("VALID050"), ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)


def test_message_is_the_api_servers() -> None:
    findings = [f for f in report(ROOT / "fixtures/lint/VALID050/bad.yaml", Release(1, 37)).findings if f.rule == "VALID050"]
    assert findings[0].message.endswith("must specify at least one Object or External metric to support scaling to zero "
                                        "replicas")
    assert findings[0].path == "spec.metrics"


def test_gate_stays_with_gate001_in_136() -> None:
    rules = {f.rule for f in report(ROOT / "fixtures/lint/VALID050/bad.yaml", Release(1, 36)).findings}
    assert {"VALID050", "GATE001"} <= rules
    rules_137 = {f.rule for f in report(ROOT / "fixtures/lint/VALID050/good.yaml", Release(1, 37)).findings}
    assert "GATE001" not in rules_137 and "VALID050" not in rules_137
