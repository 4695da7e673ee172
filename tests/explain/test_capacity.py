"""capacity: copies of one pod or one gang placed one after another; every count is checked against explain of that
many renamed copies (all fit) and of one more (not all fit)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from builders import claim_template, device_class, node, pod, pod_group, resource_slice, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.explain.capacity import count_copies
from kubectl_wasdra.explain.capacity_model import CapacityReport
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.explain.run import explain_results
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import Simulation

GPU = "gpu.example.com"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RACK = "example.com/rack"
GPU_CLAIM = [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}]


def capacity(cluster: ClusterSnapshot, shape: Sequence[Mapping[str, Any]], **kwargs: Any) -> CapacityReport:
    overlay = build_overlay([dict(o) for o in shape])
    return count_copies(Simulation(cluster.overlay(list(overlay.objects)), all_on(NEWEST)), overlay, **kwargs)


def copies(shape: Sequence[Mapping[str, Any]], n: int) -> list[dict[str, Any]]:
    """The shape's objects and n-1 renamed copies of its pods and groups (templates and claims named once), as a user
    would write them for `kubectl apply`."""
    out = [copy.deepcopy(dict(o)) for o in shape]
    for index in range(2, n + 1):
        for obj in shape:
            if obj["kind"] not in ("Pod", "PodGroup"):
                continue
            item = copy.deepcopy(dict(obj))
            item["metadata"]["name"] += f"-copy-{index}"
            group = item["spec"].get("schedulingGroup")
            if group:
                group["podGroupName"] += f"-copy-{index}"
            out.append(item)
    return out


def explain_fits(cluster: ClusterSnapshot, objects: Sequence[Mapping[str, Any]]) -> bool:
    """explain's verdict: every pod and group of the objects fits."""
    overlay = build_overlay(objects)
    diagnoses = explain_results(cluster.overlay(list(overlay.objects)), all_on(NEWEST), overlay, with_suggestions=False)
    return bool(diagnoses) and all(d.fits for d in diagnoses)


def assert_agrees_with_explain(cluster: ClusterSnapshot, shape: Sequence[Mapping[str, Any]], count: int) -> None:
    assert count == 0 or explain_fits(cluster, copies(shape, count))
    assert not explain_fits(cluster, copies(shape, count + 1))


def allocated(node_name: str, devices: Sequence[int], index: int) -> list[dict[str, Any]]:
    """A running pod on `node_name` holding `devices` (gpu-N of the node's pool) through an allocated claim."""
    name = f"{node_name}-busy-{index}"
    results = [{"request": "gpu", "driver": GPU, "pool": node_name, "device": f"gpu-{d}"} for d in devices]
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "metadata": {"name": name, "namespace": "default"},
             "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": GPU,
                                                                             "count": len(devices)}}]}},
             "status": {"allocation": {"devices": {"results": results}, "nodeSelector": {"nodeSelectorTerms": [
                 {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node_name]}]}]}},
                        "reservedFor": [{"resource": "pods", "name": name, "uid": name}]}}
    holder = pod(name, cpu="100m", node_name=node_name, claims=[{"name": "gpu", "resourceClaimName": name}])
    return [claim, holder]


def test_one_gpu_pod_counts_every_free_gpu() -> None:
    busy = {"n0": [0, 1, 2], "n1": [], "n2": [0, 1, 2, 3], "n3": [1]}  # of 4 GPUs each
    objects: list[dict[str, Any]] = [device_class(GPU, GPU)]
    for index, (name, held) in enumerate(busy.items()):
        objects += [node(name), resource_slice(name, GPU, 4)]
        objects += allocated(name, held, index) if held else []
    cluster = snapshot(*objects)
    shape = [claim_template("one-gpu", GPU), pod("infer", cpu="100m", claims=GPU_CLAIM)]
    free = sum(4 - len(held) for held in busy.values())
    report = capacity(cluster, shape)
    assert (report.copies, report.capped) == (free, False)
    assert {n.name: n.pods for n in report.nodes} == {name: 4 - len(held) for name, held in busy.items()}
    assert {n.limit.label for n in report.nodes if n.limit} == {f"{GPU}: devices in use"}
    assert_agrees_with_explain(cluster, shape, report.copies)


def test_the_cap_stops_the_count_and_says_so() -> None:
    cluster = snapshot(node("n0", cpu="64"))
    report = capacity(cluster, [pod("p", cpu="1")], max_copies=5)
    assert (report.copies, report.capped, report.message) == (5, True, "")


def test_rack_constrained_gang_counts_whole_gangs_per_rack() -> None:
    racks = {"r1": 2, "r2": 1, "r10": 3}  # nodes per rack; each node holds two 3-cpu pods
    nodes = [node(f"{rack}-n{i}", cpu="8", labels={RACK: rack}) for rack, count in racks.items() for i in range(count)]
    cluster = snapshot(*nodes)
    group = pod_group("train", min_count=4, topology_key=RACK)
    shape = [group, *(pod(f"train-{i}", cpu="3", group="train") for i in range(4))]
    report = capacity(cluster, shape)
    per_rack = {d.value: d.copies for d in report.domains}
    assert per_rack == {rack: count * 2 // 4 for rack, count in racks.items()}
    assert report.copies == sum(per_rack.values())
    assert {d.value: d.next_copy_pods for d in report.domains} == {rack: (count * 2) % 4 for rack, count in racks.items()}
    assert_agrees_with_explain(cluster, shape, report.copies)


def test_numa_aligned_two_device_claims_count_aligned_pairs() -> None:
    # n1: one free GPU on each NUMA node (no aligned pair); n2: NUMA 0 has 2 free, NUMA 1 has 4 free
    objects: list[dict[str, Any]] = [device_class(GPU, GPU)]
    for index, (name, held) in enumerate({"n1": [0, 1, 2, 4, 5, 6], "n2": [0, 1]}.items()):
        objects += [node(name), resource_slice(name, GPU, 8, numa_split=4), *allocated(name, held, index)]
    cluster = snapshot(*objects)
    pair = claim_template("two-gpus", GPU, 2, match_attribute="resource.kubernetes.io/numaNode")
    shape = [pair, pod("p", cpu="100m", claims=[{"name": "gpu", "resourceClaimTemplateName": "two-gpus"}])]
    report = capacity(cluster, shape)
    by_node = {n.name: n for n in report.nodes}
    assert (by_node["n1"].pods, by_node["n2"].pods) == (0, 1 + 2)
    assert by_node["n1"].limit.code == "ConstraintUnsatisfiable"
    assert "no aligned set" in by_node["n1"].limit.label
    assert_agrees_with_explain(cluster, shape, report.copies)


def _counter_slices(node_name: str) -> list[dict[str, Any]]:
    """One 40Gi GPU cut into partitions: three of 20Gi and the whole one, all drawing on one counter set."""
    def slice_(suffix: str, **spec: Any) -> dict[str, Any]:
        return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": f"{node_name}-{suffix}"},
                "spec": {"driver": GPU, "nodeName": node_name,
                         "pool": {"name": node_name, "generation": 1, "resourceSliceCount": 2}, **spec}}
    def part(name: str, memory: str) -> dict[str, Any]:
        return {"name": name, "consumesCounters": [{"counterSet": "gpu-0", "counters": {"memory": {"value": memory}}}]}
    counters = [{"name": "gpu-0", "counters": {"memory": {"value": "40Gi"}}}]
    devices = [part("gpu-0-a", "20Gi"), part("gpu-0-b", "20Gi"), part("gpu-0-c", "20Gi"), part("gpu-0-full", "40Gi")]
    return [slice_("counters", sharedCounters=counters), slice_("devices", devices=devices)]


def test_counters_limit_partitionable_devices() -> None:
    cluster = snapshot(device_class(GPU, GPU), node("n0"), *_counter_slices("n0"))
    shape = [claim_template("one-gpu", GPU), pod("p", cpu="100m", claims=GPU_CLAIM)]
    report = capacity(cluster, shape)
    assert report.copies == 2  # two 20Gi partitions use the 40Gi; two devices stay free but have no counters left
    (limit, nodes), = report.limits
    assert (limit.code, limit.label, nodes) == ("CountersExhausted", f"{GPU}: counters", 1)
    assert_agrees_with_explain(cluster, shape, report.copies)


def test_host_ports_allow_one_copy_a_node() -> None:
    port = {"containerPort": 8080, "hostPort": 8080}
    taken = pod("web-old", node_name="n1")
    taken["spec"]["containers"][0]["ports"] = [port]
    cluster = snapshot(node("n0"), node("n1"), node("n2"), taken)
    shape = [pod("web", cpu="1")]
    shape[0]["spec"]["containers"][0]["ports"] = [port]
    report = capacity(cluster, shape)
    assert report.copies == 2
    assert {limit.label for limit, _ in report.limits} == {"host port 8080/TCP"}
    assert_agrees_with_explain(cluster, shape, report.copies)


@pytest.mark.parametrize(("cpus", "pods", "label"), [((4, 3), 110, "cpu"), ((16, 16), 3, "pods")],
                         ids=["cpu-limited", "pod-count-limited"])
def test_cpu_and_pod_count_limits(cpus: tuple[int, int], pods: int, label: str) -> None:
    busy = pod("busy", cpu="1", node_name="n0")
    cluster = snapshot(node("n0", cpu=str(cpus[0]), pods=pods), node("n1", cpu=str(cpus[1]), pods=pods), busy)
    shape = [pod("p", cpu="1")]
    report = capacity(cluster, shape)
    expected = min(cpus[0] - 1, pods - 1) + min(cpus[1], pods)
    assert report.copies == expected
    assert {limit.label for limit, _ in report.limits} == {label}
    assert_agrees_with_explain(cluster, shape, report.copies)


def test_excluded_nodes_are_named_as_such() -> None:
    tainted = node("n1", taints=[{"key": "gpu", "value": "only", "effect": "NoSchedule"}])
    report = capacity(snapshot(node("n0", cpu="2"), tainted), [pod("p", cpu="1")])
    limits = {n.name: n.limit for n in report.nodes}
    assert report.copies == 2
    assert (limits["n0"].label, limits["n0"].excluded) == ("cpu", False)
    assert (limits["n1"].code, limits["n1"].excluded) == ("UntoleratedTaint", True)


def test_a_shape_that_does_not_fit_at_all_counts_zero_with_the_reason() -> None:
    report = capacity(snapshot(node("n0", cpu="2")), [pod("big", cpu="4")])
    assert report.copies == 0 and not report.capped
    assert report.message.startswith("0/1 nodes are available: 1 Insufficient cpu")
    ((limit, _),) = report.limits
    assert (limit.label, limit.excluded) == ("cpu", True)  # the request is above allocatable: never fits


def test_pod_anti_affinity_allows_one_copy_per_node() -> None:
    """Copies carry the shape's labels, so a required anti-affinity to itself spreads them one per hostname."""
    nodes = [node(f"n{i}", labels={"kubernetes.io/hostname": f"n{i}"}) for i in range(3)]
    cluster = snapshot(*nodes)
    shape = [pod("web", cpu="1", labels={"app": "web"}, affinity={"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}})]
    report = capacity(cluster, shape)
    assert report.copies == 3 and {n.pods for n in report.nodes} == {1}
    assert {limit.code for limit, _ in report.limits} == {"PodAffinityMismatch"}
    assert_agrees_with_explain(cluster, shape, report.copies)


def test_a_copy_the_kubelet_rejects_ends_the_count() -> None:
    """numa-gpu: kube-scheduler binds the pod to numa-dp-0, whose single-numa-node kubelet rejects it; explain calls
    that not fitting, so capacity stops there too."""
    from builders import fixture_cluster

    from kubectl_wasdra.explain.run import load_manifests

    cluster = fixture_cluster("numa-gpu")
    shape = list(load_manifests([str(FIXTURES / "manifests" / "numa" / "kubelet-rejects.yaml")]).objects)
    report = capacity(cluster, shape)
    assert (report.copies, report.capped) == (0, False)
    assert "kubelet on numa-dp-0 would reject: TopologyAffinityError" in report.message
    ((limit, nodes),) = report.limits
    assert (limit.code, limit.label, nodes) == ("KubeletRejected", "kubelet: TopologyAffinityError", 1)
    assert_agrees_with_explain(cluster, shape, report.copies)
    # without the preference for numa-dp-0 the copies go where the kubelets admit them, until one is rejected
    spread = copy.deepcopy(shape)
    del spread[0]["spec"]["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"]
    report = capacity(cluster, spread)
    assert report.copies >= 1
    assert_agrees_with_explain(cluster, spread, report.copies)


def test_a_missing_claim_template_excludes_every_node() -> None:
    report = capacity(snapshot(node("n0"), node("n1")), [pod("p", claims=GPU_CLAIM)])
    assert report.copies == 0 and 'ResourceClaim not created yet' in report.message
    ((limit, nodes),) = report.limits
    assert (limit.code, limit.excluded, nodes) == ("ClaimTemplateNotFound", True, 2)
