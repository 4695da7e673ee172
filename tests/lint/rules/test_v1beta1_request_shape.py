"""A v1beta1-shaped device request in a v1 object is one finding that says to move the fields under `exactly:` (what
--fix does), not one unknown field per flat field plus a one-of violation."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from tests.cli_runner import run

TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu.example.com
        allocationMode: ExactCount
        count: 2
"""


def test_one_finding_saying_move_under_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(TEMPLATE)
    report = run_check(CheckOptions(paths=(str(path),), ignore=("REF",)))
    (finding,) = report.findings
    assert (finding.rule, finding.line, finding.path) == ("VALID001", 8, "spec.spec.devices.requests[0]")
    assert finding.hint == "move deviceClassName, allocationMode, count under `exactly:`"
    code, _, _ = run(["check", str(path), "--ignore", "REF", "--fix"], capsys)
    assert code == 0 and "exactly:\n          deviceClassName: gpu.example.com" in path.read_text()


def test_a_request_with_neither_and_no_flat_field_keeps_the_plain_message(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(TEMPLATE.replace("        deviceClassName: gpu.example.com\n        allocationMode: ExactCount\n"
                                     "        count: 2\n", ""))
    report = run_check(CheckOptions(paths=(str(path),), ignore=("REF",)))
    assert [f.message for f in report.findings] == [
        "exactly one of `exactly`, `firstAvailable` is required, but none is set"]
