"""HPA rules: scale to zero needs Object/External metrics (VALID050), scale targets exist (REF011 fixtures are in
test_references), and GATE001 keeps owning the HPAScaleToZero gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import ROOT, case_id, cases, check_case, report

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


def test_tolerance_fields_are_gated_per_release_by_gate001(tmp_path: Path) -> None:
    hpa = tmp_path / "hpa.yaml"
    hpa.write_text("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n"
                   "  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n"
                   "  behavior:\n    scaleDown: {tolerance: '0.1'}\n")
    from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

    def rules(version: str) -> list[tuple[str, int, int]]:
        report = run_check(CheckOptions(paths=(str(hpa),), releases=(Release.parse(version),), jobs=1))
        return [(f.rule, f.line, f.column) for f in report.findings if f.rule in ("GATE001", "VALID050")]

    assert rules("1.33") == [("GATE001", 8, 17)]
    assert rules("1.35") == []
