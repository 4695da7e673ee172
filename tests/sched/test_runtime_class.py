"""RuntimeClass admission of manifests (plugin/pkg/admission/runtimeclass/admission.go): the class's podFixed
overhead counts in the pod's requests, its scheduling nodeSelector and tolerations join the pod's."""

from __future__ import annotations

from builders import node, pod, snapshot, taint
from builders import run_all as run

KATA = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata"}, "handler": "kata",
        "overhead": {"podFixed": {"cpu": "250m", "memory": "128Mi"}}}


def test_overhead_of_the_runtime_class_counts_in_the_pods_requests():
    cluster = snapshot(KATA, node("a", cpu="2"))
    assert run(cluster, pod("plain", cpu="1900m"))["plain"].fits
    result = run(cluster, pod("kata", cpu="1900m", runtimeClassName="kata"))["kata"]
    assert not result.fits and result.message.startswith("0/1 nodes are available: 1 Insufficient cpu.")


def test_created_pods_are_not_admitted_again():
    # a pod that exists was admitted when it was created: its spec is taken as it is
    cluster = snapshot(KATA, node("a", cpu="2"))
    assert run(cluster, pod("kata", cpu="1900m", runtimeClassName="kata", created="2026-01-01T00:00:00Z"))["kata"].fits


def test_scheduling_of_the_runtime_class_joins_the_pods():
    gvisor = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "gvisor"}, "handler": "runsc",
              "scheduling": {"nodeSelector": {"sandbox": "gvisor"},
                             "tolerations": [{"key": "sandbox", "operator": "Exists", "effect": "NoSchedule"}]}}
    cluster = snapshot(gvisor, node("a"), node("b", labels={"sandbox": "gvisor"}, taints=[taint("sandbox", "gvisor")]))
    assert run(cluster, pod("sandboxed", runtimeClassName="gvisor"))["sandboxed"].placement == {"default/sandboxed": "b"}
    assert run(cluster, pod("plain"))["plain"].placement == {"default/plain": "a"}
