"""scheduling.k8s.io Workload/PodGroup and the pod's group link: 1.35 v1alpha1 <-> 1.36 v1alpha2 <-> 1.37 v1beta1."""

from __future__ import annotations

import pytest

from tests.convert.helpers import convert, reported

WORKLOAD_135 = """\
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata:
  name: train
  namespace: ml
spec:
  podGroups:
  - name: workers   # eight GPUs hosts
    policy:
      gang:
        minCount: 8
"""

WORKLOAD_137 = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata:
  name: train
  namespace: ml
spec:
  podGroupTemplates:
  - name: workers   # eight GPUs hosts
    schedulingPolicy:
      gang:
        minCount: 8
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: train-workers
  namespace: ml
spec:
  workloadRef:
    workloadName: train
    templateName: workers
  schedulingPolicy:
    gang:
      minCount: 8
"""

POD_135 = """\
apiVersion: v1
kind: Pod
metadata: {name: w-0, namespace: ml}
spec:
  workloadRef:
    name: train   # the Workload
    podGroup: workers
  containers:
  - {name: c, image: busybox}
"""

PODGROUP_136 = """\
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: train-workers, namespace: ml}
spec:
  podGroupTemplateRef:
    workload:
      workloadName: train
      podGroupTemplateName: workers
  disruptionMode: PodGroup
  schedulingPolicy:
    gang: {minCount: 8}
"""

PODGROUP_137 = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train-workers, namespace: ml}
spec:
  workloadRef:
    workloadName: train
    templateName: workers
  disruptionMode:
    all: {}
  schedulingPolicy:
    gang: {minCount: 8}
"""


WORKLOAD_ONLY_137 = WORKLOAD_137.split("---\n")[0]
PODGROUP_V1ALPHA3 = PODGROUP_137.replace("v1beta1", "v1alpha3")


@pytest.mark.parametrize(("source", "release", "expected", "version"), [
    (WORKLOAD_135, "1.37", WORKLOAD_137, "v1beta1"),
    (WORKLOAD_ONLY_137, "1.35", WORKLOAD_135, "v1alpha1"),
    (PODGROUP_136, "1.37", PODGROUP_137, "v1beta1"),
    (PODGROUP_137, "1.36", PODGROUP_136, "v1alpha2"),
    (PODGROUP_V1ALPHA3, "1.37", PODGROUP_137, "v1beta1"),
], ids=["135-workload-becomes-137-workload-and-pod-group", "137-workload-back-to-135", "pod-group-136-to-137",
        "pod-group-137-to-136", "pod-group-v1alpha3-to-the-default-v1beta1"])
def test_conversion(source: str, release: str, expected: str, version: str) -> None:
    text, notes = convert(source, release)
    assert text == expected
    target = f"scheduling.k8s.io/{version}"
    assert [(n.status, n.target, n.runtime_config) for n in notes] == [("converted", target, f"{target}=true")]


def test_135_workload_note_names_the_gate_and_the_added_pod_group() -> None:
    note = convert(WORKLOAD_135)[1][0]
    assert note.gates == ("GenericWorkload",)
    assert "adds PodGroup train-workers" in note.message


def test_135_workload_for_136_gets_v1alpha2_pod_group() -> None:
    text, _ = convert(WORKLOAD_135, "1.36")
    assert "apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup" in text
    assert "podGroupTemplateRef:\n    workload:\n      workloadName: train\n      podGroupTemplateName: workers\n" in text


def test_137_workload_with_topology_cannot_go_to_135() -> None:
    workload = WORKLOAD_ONLY_137 + "    schedulingConstraints:\n      topology: [{key: rack}]\n"
    note = reported(workload, "1.35")
    assert "schedulingConstraints" in note.message


def test_137_pod_group_cannot_go_to_135() -> None:
    note = reported(PODGROUP_137, "1.35")
    assert "spec.podGroups" in note.hint


def test_pod_workload_ref_becomes_scheduling_group() -> None:
    text, notes = convert(POD_135)
    assert "  schedulingGroup:\n    podGroupName: train-workers\n" in text
    assert "workloadRef" not in text
    assert notes[0].gates == ("GenericWorkload",)


def test_pod_template_link_in_a_job_is_converted() -> None:
    job = """\
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  template:
    spec:
      workloadRef: {name: train, podGroup: workers}
      containers: [{name: c, image: busybox}]
      restartPolicy: Never
"""
    text, _ = convert(job)
    assert "      schedulingGroup: {podGroupName: train-workers}\n" in text


def test_replica_key_is_reported_not_guessed() -> None:
    pod = POD_135.replace("    podGroup: workers\n", "    podGroup: workers\n    podGroupReplicaKey: '3'\n")
    note = reported(pod)
    assert "podGroupReplicaKey" in note.message


def test_137_pod_cannot_name_its_group_in_135() -> None:
    pod = convert(POD_135)[0]
    note = reported(pod, "1.35")
    assert "workloadRef" in note.message


def test_composite_pod_group_stays_and_says_what_it_needs() -> None:
    source = """\
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: root-0}
spec:
  workloadRef: {workloadName: w, templateName: root}
  schedulingPolicy: {gang: {minGroupCount: 2}}
"""
    text, notes = convert(source)
    assert text == source
    assert (notes[0].status, notes[0].runtime_config) == ("kept", "scheduling.k8s.io/v1alpha3=true")
    assert "CompositePodGroup" in notes[0].gates


def test_runtime_config_chooses_the_version_it_enables() -> None:
    text, notes = convert(PODGROUP_V1ALPHA3, "1.37", "scheduling.k8s.io/v1alpha3=true")
    assert text == PODGROUP_V1ALPHA3 and notes[0].status == "kept" and notes[0].runtime_config is None
