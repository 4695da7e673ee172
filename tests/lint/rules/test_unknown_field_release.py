"""SCHEMA002 names the release a field belongs to instead of guessing a neighbour: "added in 1.36" for a field of a
later release, "removed after 1.35" for one a release dropped; a real typo still gets its did-you-mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml}
spec:
  FIELD
  containers: [{name: c, image: busybox}]
"""


@pytest.mark.parametrize(("field", "release", "message", "hint"), [
    ("schedulingGroup: {podGroupName: g}", "1.35", 'unknown field "schedulingGroup": added in 1.36', "1.36 or later"),
    ("workloadRef: {name: w, podGroup: g}", "1.37", 'unknown field "workloadRef": removed after 1.35', "remove"),
    ("schedulingGates2: []", "1.37", 'unknown field "schedulingGates2"', 'did you mean "schedulingGates"?'),
], ids=["later", "removed", "typo"])
def test_unknown_field_names_its_release(field: str, release: str, message: str, hint: str, tmp_path: Path) -> None:
    path = tmp_path / "pod.yaml"
    path.write_text(POD.replace("FIELD", field))
    report = run_check(CheckOptions(paths=(str(path),), releases=(Release.parse(release),), select=("SCHEMA002",)))
    (finding,) = report.findings
    assert finding.message == message and hint in (finding.hint or "")
