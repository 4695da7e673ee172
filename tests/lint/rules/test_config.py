"""CONF fixtures (suppressions that name no rule, match nothing, or are malformed) and how suppressions act on the
findings: on the line, on the line above, on the object, per file; counted, shown on request, kept for SARIF."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from fixture_runner import FIXTURES, case_id, cases, expected, findings, options

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.report import render


def _options(path: Path, release: Release) -> CheckOptions:
    return dataclasses.replace(options(path, release), report_unused_ignores=path.parent.name == "CONF002")


@pytest.mark.parametrize("case", cases("CONF"), ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    path, release = case
    got = sorted((f.rule, f.line, f.column) for f in run_check(_options(path, release)).findings
                 if f.rule == path.parent.name)
    assert got == ([] if path.name.startswith("good") else expected(path)), got


def test_unused_suppressions_are_reported_only_on_request() -> None:
    assert not [f for f in findings(FIXTURES / "CONF002" / "bad.yaml", NEWEST) if f[0] == "CONF002"]


CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpus
  namespace: ml{annotations}
spec:
  devices:
    requests:
    - name: gpus
      exactly:{above}
        deviceClassName: gpu.example.com{trailing}
        cuont: 1
"""


def _check(tmp_path: Path, **parts: str) -> tuple[list[tuple[str, int]], list[tuple[str, str, str]]]:
    text = CLAIM.format(**{"annotations": "", "above": "", "trailing": "", **parts})
    (tmp_path / "claim.yaml").write_text(text)
    report = run_check(CheckOptions(paths=(str(tmp_path / "claim.yaml"),)))
    return ([(f.rule, f.line) for f in report.findings],
            [(s.finding.rule, s.kind, s.reason) for s in report.suppressed])


@pytest.mark.parametrize(("parts", "suppressed"), [
    ({"trailing": "  # wasdra: ignore[REF003] installed by the operator"}, [("REF003", "inSource", "installed by the operator")]),
    ({"above": "\n        # wasdra: ignore[REF003]"}, [("REF003", "inSource", "")]),
    ({"annotations": '\n  annotations: {wasdra.dev/ignore: "REF003,SCHEMA002: legacy"}'},
     [("REF003", "inSource", "legacy"), ("SCHEMA002", "inSource", "legacy")]),
    ({"annotations": '\n  annotations: {wasdra.dev/ignore: "REF"}'}, [("REF003", "inSource", "")]),
], ids=["trailing-comment", "comment-above", "annotation-two-rules", "annotation-family"])
def test_suppressions(tmp_path: Path, parts: dict[str, str], suppressed: list[tuple[str, str, str]]) -> None:
    kept, got = _check(tmp_path, **parts)
    assert sorted(got) == suppressed
    assert not {rule for rule, _ in kept} & {rule for rule, _, _ in suppressed}


def test_a_comment_covers_only_its_line(tmp_path: Path) -> None:
    kept, got = _check(tmp_path, trailing="  # wasdra: ignore[SCHEMA002]")   # SCHEMA002 is on the next line
    assert got == [] and ("SCHEMA002", 12) in kept


def test_per_file_ignores_are_external_suppressions(tmp_path: Path) -> None:
    (tmp_path / "claim.yaml").write_text(CLAIM.format(annotations="", above="", trailing=""))
    ignores = ((str(tmp_path / "*.yaml"), ("REF",)),)
    report = run_check(CheckOptions(paths=(str(tmp_path / "claim.yaml"),), per_file_ignores=ignores))
    assert [(s.finding.rule, s.kind) for s in report.suppressed] == [("REF003", "external")]


def test_suppressed_findings_are_counted_shown_on_request_and_marked_in_sarif(tmp_path: Path) -> None:
    text = CLAIM.format(annotations="", above="", trailing="  # wasdra: ignore[REF003] operator")
    (tmp_path / "claim.yaml").write_text(text)
    report = run_check(CheckOptions(paths=(str(tmp_path / "claim.yaml"),)))
    assert render(report, "text").splitlines()[-1] == "1 file, 1 document: 1 error, 0 warnings (1 suppressed)"
    assert "REF003" not in render(report, "text")
    shown = dataclasses.replace(report, show_suppressed=True)
    assert "[suppressed: operator] spec.devices" in " ".join(render(shown, "text").split())
    rows = json.loads(render(shown, "json"))["findings"]
    assert [r.get("suppressed") for r in rows] == [{"kind": "inSource", "reason": "operator"}, None]
    assert json.loads(render(report, "json"))["summary"]["suppressed"] == 1
    results = json.loads(render(report, "sarif"))["runs"][0]["results"]
    marks = {r["ruleId"]: r.get("suppressions") for r in results}
    assert marks == {"SCHEMA002": None, "REF003": [{"kind": "inSource", "status": "accepted", "justification": "operator"}]}
    assert not report.fails("warning") or [f.rule for f in report.findings] == ["SCHEMA002"]


def test_a_suppression_of_rules_that_did_not_run_is_not_unused() -> None:
    path = FIXTURES / "CONF002" / "bad.yaml"
    base = _options(path, NEWEST)
    only_schema = dataclasses.replace(base, select=("SCHEMA", "CONF"))
    got = [(f.rule, f.message) for f in run_check(only_schema).findings if f.rule == "CONF002"]
    assert got == [("CONF002", 'suppression of "SCHEMA002" matched no finding')]     # REF003 did not run
