"""GANG rules: fixtures per rule (rule, line, column) and the pod counts controllers create."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import ROOT, case_id, cases, check_case, report

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules._pods import job_pod_count


@pytest.mark.parametrize("case", cases("GANG"), ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)


@pytest.mark.parametrize(("spec", "pods"), [
    ({}, 1),
    ({"parallelism": 4}, 4),
    ({"parallelism": 8, "completions": 3, "completionMode": "Indexed"}, 3),
    ({"parallelism": 0}, 0),
    ({"parallelism": "four"}, None),
], ids=["defaults", "parallelism", "completions-cap", "suspended-like", "malformed"])
def test_job_pod_count(spec: dict, pods: int | None) -> None:
    assert job_pod_count(spec) == pods


def test_min_count_message_names_the_controllers() -> None:
    findings = [f for f in report(ROOT / "fixtures/lint/GANG001/bad.yaml", Release(1, 37)).findings if f.rule == "GANG001"]
    assert findings[0].message == ('gang minCount 8 of PodGroup "train" is larger than the 4 pod(s) created for it: '
                                   'Job "train" (parallelism 4)')
    assert findings[0].hint == "lower minCount to 4 or create more pods"


def test_topology_key_suggests_the_label_nodes_carry() -> None:
    findings = [f for f in report(ROOT / "fixtures/lint/GANG004/bad.yaml", Release(1, 37)).findings if f.rule == "GANG004"]
    assert findings[0].hint == 'did you mean "example.com/rack"?'


def test_topology_key_needs_a_snapshot() -> None:
    path = ROOT / "fixtures/lint/GANG004/bad.yaml"
    from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

    assert not run_check(CheckOptions(paths=(str(path),), jobs=1, select=("GANG004",))).findings


def test_pod_sources_computed_once_per_document_set(tmp_path: Path) -> None:
    from kubectl_wasdra.lint.docset import DocumentSet
    from kubectl_wasdra.lint.rules._pods import pod_sources
    from kubectl_wasdra.load import load_paths

    path = tmp_path / "job.yaml"
    path.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 3\n"
                    "  template: {spec: {containers: [{name: c, image: i}]}}\n")
    documents = load_paths((str(path),)).documents
    docs = DocumentSet(documents)
    first = pod_sources(docs)
    assert [s.count for s in first] == [3]
    assert pod_sources(docs) is first                           # cached for the same set
    assert pod_sources(DocumentSet(documents)) is not first     # a new set is a new computation


PYTORCH_JOB = """\
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: train}
spec:
  pytorchReplicaSpecs:
    Master:
      template: {spec: {containers: [{name: c, image: i}]}}
    Worker:
      replicas: 3
      template: {spec: {containers: [{name: c, image: i}]}}
"""
VOLCANO_JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: train}
spec:
  minAvailable: 3
  tasks:
  - name: ps
    replicas: 1
    template: {spec: {containers: [{name: c, image: i}]}}
  - name: worker
    replicas: 2
    template:
      spec:
        resourceClaims: [{name: gpu, resourceClaimTemplateName: missing-template}]
        containers: [{name: c, image: i, resources: {claims: [{name: gpu}]}}]
"""
LOOK_ALIKE = VOLCANO_JOB.replace("batch.volcano.sh/v1alpha1", "example.com/v1")


@pytest.mark.parametrize(("text", "expected"), [
    (PYTORCH_JOB, [("PyTorchJob", 1, "spec.pytorchReplicaSpecs.Master.replicas"),
                   ("PyTorchJob", 3, "spec.pytorchReplicaSpecs.Worker.replicas")]),
    (VOLCANO_JOB, [("Volcano Job", 1, "spec.tasks[0].replicas"), ("Volcano Job", 2, "spec.tasks[1].replicas")]),
    (LOOK_ALIKE, []),
], ids=["pytorchjob", "volcano-job", "other-group-job"])
def test_custom_job_kinds_are_pod_sources(tmp_path: Path, text: str, expected: list) -> None:
    from kubectl_wasdra.lint.docset import DocumentSet
    from kubectl_wasdra.lint.problem import format_path
    from kubectl_wasdra.lint.rules._pods import pod_sources
    from kubectl_wasdra.load import load_paths

    path = tmp_path / "job.yaml"
    path.write_text(text)
    sources = pod_sources(DocumentSet(load_paths((str(path),)).documents))
    assert [(s.owner, s.count, format_path(s.count_path)) for s in sources] == expected


def test_volcano_job_pods_get_reference_checks(tmp_path: Path) -> None:
    from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

    path = tmp_path / "job.yaml"
    path.write_text(VOLCANO_JOB)
    findings = run_check(CheckOptions(paths=(str(path),), select=("REF001",), jobs=1)).findings
    assert [(f.rule, f.line, f.column) for f in findings] == [("REF001", 14, 65)]
