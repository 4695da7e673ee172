"""GATE and VALID stay quiet for an object whose apiVersion the release does not serve (API001 reports it once instead
of a cascade); one it serves but has not enabled (API002) is still validated as written, so every error shows in one
pass (GATE stays quiet there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

POD_GROUP = """\
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata:
  name: job-1
spec:
  schedulingPolicy: {}
"""


@pytest.mark.parametrize(("release", "runtime", "gates", "rules"), [
    ("1.37", {}, {}, ["API001"]),                                               # v1alpha2 is gone in 1.37
    ("1.36", {}, {}, ["API002", "VALID001"]),                                   # served only when switched on
    ("1.36", {"scheduling.k8s.io/v1alpha2": True}, {"GenericWorkload": True}, ["VALID001"]),
], ids=["not-served", "not-enabled", "enabled"])
def test_validation_quiet_only_when_api_not_served(tmp_path: Path, release: str, runtime: dict, gates: dict,
                                               rules: list[str]) -> None:
    path = tmp_path / "pg.yaml"
    path.write_text(POD_GROUP)
    report = run_check(CheckOptions(paths=(str(path),), releases=(Release.parse(release),), runtime_config=runtime,
                                    feature_gates=gates, select=("API", "GATE", "VALID"), jobs=1))
    assert sorted(f.rule for f in report.findings if f.rule != "API003") == rules


CLAIM_TOLERATIONS = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: monitor}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          tolerations:
          - effect: NoExecute
"""


@pytest.mark.parametrize(("release", "rules"), [
    ("1.35", [("GATE001", 11, 11)]),                    # DRADeviceTaints off: the field is dropped, never validated
    ("1.36", [("VALID018", 12, 13)]),                   # on by default: accepted, warned (empty key with Equal)
], ids=["dropped", "kept"])
def test_validation_quiet_inside_dropped_fields(tmp_path: Path, release: str, rules: list) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(CLAIM_TOLERATIONS)
    report = run_check(CheckOptions(paths=(str(path),), releases=(Release.parse(release),), select=("GATE", "VALID"),
                                    jobs=1))
    assert [(f.rule, f.line, f.column) for f in report.findings] == rules
