"""Kubelet admission per Topology Manager policy and scope, with the CPU, memory and device managers' hints."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_wasdra.kubelet.admission import admit
from kubectl_wasdra.kubelet.facts import node_numa
from kubectl_wasdra.kubelet.providers import free_of


def nrt(free_cpu: tuple[int, int] = (30, 30), free_gpu: tuple[int, int] = (4, 4), zones: int = 2,
        free_mem: tuple[str, str] = ("250Gi", "250Gi")) -> dict[str, Any]:
    return {"apiVersion": "topology.node.k8s.io/v1alpha2", "kind": "NodeResourceTopology", "metadata": {"name": "n1"},
            "zones": [{"name": f"node-{i}", "type": "Node",
                       "costs": [{"name": f"node-{j}", "value": 10 if i == j else 21} for j in range(zones)],
                       "resources": [
                           {"name": "cpu", "capacity": "32", "allocatable": "30", "available": str(free_cpu[min(i, 1)])},
                           {"name": "memory", "capacity": "256Gi", "allocatable": "250Gi", "available": free_mem[min(i, 1)]},
                           {"name": "nvidia.com/gpu", "capacity": "4", "allocatable": "4",
                            "available": str(free_gpu[min(i, 1)])}]}
                      for i in range(zones)]}


def configz(policy: str, scope: str = "container", **extra: Any) -> dict[str, Any]:
    return {"kubeletconfig": {"cpuManagerPolicy": "static", "topologyManagerPolicy": policy,
                              "topologyManagerScope": scope, **extra}}


def container(name: str, cpu: str, gpus: int = 0, memory: str = "8Gi") -> dict[str, Any]:
    limits: dict[str, Any] = {"cpu": cpu, "memory": memory}
    if gpus:
        limits["nvidia.com/gpu"] = gpus
    return {"name": name, "resources": {"limits": limits}}


def pod(*containers: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": list(containers), **spec}}


def run(p: dict[str, Any], policy: str, scope: str = "container", topo: dict[str, Any] | None = None, **extra: Any):
    facts = node_numa("n1", topo or nrt(), configz(policy, scope, **extra))
    assert facts is not None
    free = free_of(facts)
    return admit(p, facts, free), free


def test_single_numa_node_aligns_cpus_and_gpus() -> None:
    verdict, free = run(pod(container("main", "4", gpus=2)), "single-numa-node")
    assert verdict.admitted and verdict.placements["main"] == {
        "numa": [0], "cpus": {"node-0": 4}, "devices": {"nvidia.com/gpu": {"node-0": 2}}}
    assert free[0]["cpu"] == 26 and free[0]["nvidia.com/gpu"] == 2


def test_single_numa_node_rejects_when_no_node_has_both() -> None:
    verdict, free = run(pod(container("main", "4", gpus=2)), "single-numa-node", topo=nrt((30, 2), (1, 4)))
    assert (verdict.admitted, verdict.reason) == (False, "TopologyAffinityError")
    assert verdict.message == "Resources cannot be allocated with Topology locality"
    assert "no NUMA node has 4 exclusive CPUs and 2 nvidia.com/gpu together" in verdict.detail
    assert free[0]["cpu"] == 30  # nothing consumed


@pytest.mark.parametrize(("policy", "admitted"), [("none", True), ("best-effort", True), ("restricted", False),
                                                  ("single-numa-node", False)])
def test_fragmented_node_per_policy(policy: str, admitted: bool) -> None:
    # 20 CPUs fit in one NUMA node of the machine (preferred width 1) but only 10 are free on each node
    verdict, _ = run(pod(container("main", "20")), policy, topo=nrt((10, 10)))
    assert verdict.admitted is admitted
    if policy == "best-effort":
        assert verdict.placements["main"]["cpus"] == {"node-0": 10, "node-1": 10}


def test_restricted_admits_a_request_wider_than_one_node() -> None:
    verdict, _ = run(pod(container("main", "40")), "restricted")
    assert verdict.admitted and verdict.placements["main"]["numa"] == [0, 1]


def test_container_scope_splits_where_pod_scope_rejects() -> None:
    two = pod(container("a", "4", gpus=2), container("b", "4", gpus=2))
    topo = nrt((6, 6), (4, 4))
    by_container, _ = run(two, "single-numa-node", "container", topo)
    assert by_container.admitted
    assert [by_container.placements[c]["numa"] for c in ("a", "b")] == [[0], [1]]
    by_pod, _ = run(two, "single-numa-node", "pod", topo)
    assert (by_pod.admitted, by_pod.reason) == (False, "TopologyAffinityError")
    assert by_pod.detail.startswith("pod: no NUMA node has 8 exclusive CPUs and 4 nvidia.com/gpu")


def test_memory_manager_no_fit_is_unexpected_admission_error() -> None:
    verdict, _ = run(pod(container("main", "2", memory="100Gi")), "single-numa-node",
                     topo=nrt(free_mem=("40Gi", "40Gi")), memoryManagerPolicy="Static")
    assert verdict.reason == "UnexpectedAdmissionError"
    assert "[memorymanager] failed to get the default NUMA affinity" in verdict.message


def test_full_pcpus_only_rejects_odd_cpu_counts() -> None:
    verdict, _ = run(pod(container("main", "3")), "none", cpuManagerPolicyOptions={"full-pcpus-only": "true"})
    assert (verdict.reason, verdict.message) == (
        "SMTAlignmentError", "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2")


def test_burstable_pod_gets_no_exclusive_cpus() -> None:
    burstable = pod({"name": "main", "resources": {"requests": {"cpu": "20"}}})
    verdict, free = run(burstable, "single-numa-node", topo=nrt((10, 10)))
    assert verdict.admitted and "cpus" not in verdict.placements["main"] and free[0]["cpu"] == 10


def test_pod_level_resources_need_the_gate() -> None:
    p = pod(container("main", "4", gpus=1), resources={"limits": {"cpu": "4", "memory": "8Gi"}})
    verdict, _ = run(p, "single-numa-node")
    assert verdict.admitted and "cpus" not in verdict.placements["main"]
    assert any("PodLevelResourceManagers is off" in n for n in verdict.notes)
    gated, _ = run(p, "single-numa-node", "pod", featureGates={"PodLevelResourceManagers": True})
    assert gated.placements["main"]["cpus"] == {"node-0": 4}


def test_dra_claims_with_exclusive_cpus_are_noted() -> None:
    p = pod(container("main", "4"), resourceClaims=[{"name": "gpu", "resourceClaimName": "c"}])
    verdict, _ = run(p, "single-numa-node")
    assert verdict.admitted and "DRA devices give the Topology Manager no hints" in verdict.notes[0]


def test_more_numa_nodes_than_allowed_stops_the_kubelet() -> None:
    verdict, _ = run(pod(container("main", "1")), "restricted", topo=nrt(zones=9))
    assert (verdict.reason, verdict.message) == ("KubeletNotRunning", "unsupported on machines with more than 8 NUMA Nodes")
    allowed, _ = run(pod(container("main", "1")), "restricted", topo=nrt(zones=9),
                     topologyManagerPolicyOptions={"max-allowable-numa-nodes": "16"})
    assert allowed.admitted


def test_facts_fall_back_to_nrt_attributes() -> None:
    topo = {**nrt(), "attributes": [{"name": "topologyManagerPolicy", "value": "restricted"},
                                    {"name": "topologyManagerScope", "value": "pod"}]}
    facts = node_numa("n1", topo, None)
    assert facts is not None and (facts.topology_policy, facts.topology_scope, facts.cpu_policy) == (
        "restricted", "pod", "static")
    assert any(s.startswith("assumed") for s in facts.sources)
    assert node_numa("n1", {"zones": [{"name": "socket-0", "type": "Socket"}]}, None) is None


@pytest.mark.parametrize(("policy", "reason"), [("restricted", "TopologyAffinityError"),
                                                ("best-effort", "EmptyPodSharedPoolError")])
def test_pod_scope_budget_taken_by_exclusive_containers(policy: str, reason: str) -> None:
    # KEP-5526: the pod budget is 4 CPUs, "main" takes all 4 exclusively, "helper" needs the pod's shared pool
    p = pod(container("main", "4"), {"name": "helper", "resources": {"requests": {"cpu": "100m"}}},
            resources={"limits": {"cpu": "4", "memory": "16Gi"}})
    verdict, _ = run(p, policy, "pod", featureGates={"PodLevelResourceManagers": True})
    assert (verdict.admitted, verdict.reason) == (False, reason)
    fits = pod(container("main", "2"), {"name": "helper", "resources": {"requests": {"cpu": "100m"}}},
               resources={"limits": {"cpu": "4", "memory": "16Gi"}})
    assert run(fits, policy, "pod", featureGates={"PodLevelResourceManagers": True})[0].admitted


@pytest.mark.parametrize("resources", [{"limits": {"cpu": "four"}}, {"limits": ["cpu"]}, "x", {"requests": None}])
def test_malformed_requests_never_crash(resources: Any) -> None:
    verdict, _ = run(pod({"name": "main", "resources": resources}), "single-numa-node")
    assert verdict.admitted


def test_malformed_topology_is_ignored() -> None:
    assert node_numa("n1", {"zones": [{"name": "node-0", "type": "Node", "resources": [{"name": "cpu",
                                                                                      "capacity": "x"}]}]}, None)
    assert node_numa("n1", {"zones": "nope"}, None) is None
