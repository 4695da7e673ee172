"""convert never duplicates an object: a PodGroup a 1.35 Workload implies is not added when the input (this file or
another one converted with it) already defines it, and the result checks clean of REF012/REF013."""

from __future__ import annotations

from pathlib import Path

import yaml

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.run import convert_paths
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

WORKLOAD = """\
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: train, namespace: ml}
spec:
  podGroups:
  - name: workers
    policy:
      gang: {minCount: 4}
"""
POD_GROUP = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train-workers, namespace: ml}
spec:
  workloadRef: {workloadName: train, templateName: workers}
  schedulingPolicy:
    gang: {minCount: 4}
"""
NEWEST = Release(1, 37)


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(d["kind"], d["metadata"]["name"]) for d in yaml.safe_load_all(text) if d]


def test_an_existing_pod_group_in_the_file_is_not_added_again(tmp_path: Path) -> None:
    path = tmp_path / "wl.yaml"
    path.write_text(WORKLOAD + "---\n" + POD_GROUP)
    outcome = convert_paths([str(path)], NEWEST, {})
    assert _kinds(outcome.stdout) == [("Workload", "train"), ("PodGroup", "train-workers")]
    assert "keeps the existing PodGroup train-workers" in outcome.stderr and outcome.exit_code == 0
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "wl.yaml").write_text(outcome.stdout)
    report = run_check(CheckOptions(paths=(str(tmp_path / "out"),), select=("REF",)))
    assert not [f for f in report.findings if f.rule in ("REF012", "REF013")]


def test_an_existing_pod_group_in_another_input_file_counts(tmp_path: Path) -> None:
    (tmp_path / "wl.yaml").write_text(WORKLOAD)
    (tmp_path / "pg.yaml").write_text(POD_GROUP)
    outcome = convert_paths([str(tmp_path)], NEWEST, {})
    assert sorted(_kinds(outcome.stdout)) == [("PodGroup", "train-workers"), ("Workload", "train")]


def test_without_one_the_pod_group_is_added(tmp_path: Path) -> None:
    (tmp_path / "wl.yaml").write_text(WORKLOAD)
    outcome = convert_paths([str(tmp_path / "wl.yaml")], NEWEST, {})
    assert _kinds(outcome.stdout) == [("Workload", "train"), ("PodGroup", "train-workers")]
    assert "adds PodGroup train-workers" in outcome.stderr
