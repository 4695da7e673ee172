"""Snapshot index on the two-racks fixture cluster: nodes, pods, free resources, pools, allocations, rule taints, overlay."""

from __future__ import annotations

import copy
from decimal import Decimal
from pathlib import Path

import pytest

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.index import GroupRef, group_ref
from kubectl_wasdra.cluster.pools import build_pools
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "clusters"
GPU = "gpu.example.com"


@pytest.fixture(scope="module")
def snapshot() -> ClusterSnapshot:
    loaded, problems = load_snapshot([str(FIXTURES / "two-racks")])
    assert problems == ()
    return loaded


def test_nodes_by_label(snapshot: ClusterSnapshot) -> None:
    assert snapshot.nodes_with_label("example.com/rack", "r0") == ("gpu-r0-n0", "gpu-r0-n1", "gpu-r0-n2", "gpu-r0-n3")
    assert len(snapshot.nodes_with_label("topology.kubernetes.io/zone")) == 10
    assert snapshot.node("cpu-1")["metadata"]["name"] == "cpu-1"
    assert snapshot.node("nope") is None


def test_free_resources_subtract_bound_non_terminal_pods(snapshot: ClusterSnapshot) -> None:
    # cpu-0 runs web-0 and web-2 (4 cpu, 8Gi each); batch-done is Succeeded and holds nothing
    free = snapshot.free_resources("cpu-0")
    assert free["cpu"] == Decimal("31.5") - 8
    assert free["memory"] == (120 - 16) * 2**30
    assert free["pods"] == 108
    assert [p["metadata"]["name"] for p in snapshot.pods_on_node("cpu-0")] == ["web-0", "web-2"]
    assert snapshot.free_resources("unknown") == {}


def test_pending_pods_and_groups(snapshot: ClusterSnapshot) -> None:
    assert [p["metadata"]["name"] for p in snapshot.pending_pods()] == ["pending-8gpu"]
    assert group_ref({"metadata": {"namespace": "ml"}, "spec": {"schedulingGroup": {"podGroupName": "g"}}}) == GroupRef("ml", "g")
    assert group_ref({"metadata": {}, "spec": {"workloadRef": {"name": "w", "podGroup": "workers"}}}) == \
        GroupRef("default", "workers", "w", None)
    grouped = snapshot.overlay([{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "m", "namespace": "ml"},
                                 "spec": {"containers": [], "schedulingGroup": {"podGroupName": "g"}}}])
    assert [p["metadata"]["name"] for p in grouped.pods_in_group(GroupRef("ml", "g"))] == ["m"]


def test_pools_allocations_and_counters(snapshot: ClusterSnapshot) -> None:
    partitioned = snapshot.pools[(GPU, "gpu-r1-n3")]
    assert partitioned.complete and partitioned.resource_slice_count == 2
    assert len(list(partitioned.devices())) == 24
    allocated = snapshot.allocated
    assert (GPU, "gpu-r0-n3", "gpu-0") in allocated.exclusive
    assert allocated.holders[(GPU, "gpu-r0-n3", "gpu-0")] == (("default", "busy-gpu-r0-n3"),)
    nic = ("rdma.example.com", "gpu-r1-n2", "nic-1")
    assert nic not in allocated.exclusive and allocated.is_allocated(nic)
    assert allocated.consumed_capacity[nic]["bandwidth"] == Decimal(100 * 10**9)
    assert allocated.consumed_counters[(GPU, "gpu-r1-n3", "gpu-1-counters")]["multiprocessors"] == 132


def test_rule_taints_are_applied_to_selected_devices_only(snapshot: ClusterSnapshot) -> None:
    assert list(snapshot.rule_taints) == [(GPU, "gpu-r1-n0", "gpu-3")]
    by_node, shared = snapshot.slices_by_node
    assert shared == ()
    (gpu_slice,) = [s for s in by_node["gpu-r1-n0"] if s["spec"]["driver"] == GPU]
    taints = {d["name"]: d.get("taints") for d in gpu_slice["spec"]["devices"]}
    assert taints["gpu-3"][0]["key"] == "example.com/ecc-error" and taints["gpu-2"] is None
    original = snapshot.get("ResourceSlice", gpu_slice["metadata"]["name"])
    assert "taints" not in original["spec"]["devices"][3], "the published slice must stay unchanged"


def test_incomplete_and_mixed_generation_pools() -> None:
    def slice_(name: str, generation: int, count: int) -> dict:
        return {"metadata": {"name": name}, "spec": {"driver": "d", "pool": {"name": "p", "generation": generation,
                                                                              "resourceSliceCount": count}, "devices": []}}
    pools = build_pools([slice_("a", 2, 2), slice_("b", 1, 1)])
    pool = pools[("d", "p")]
    assert not pool.complete and pool.mixed_generations and pool.generation == 2
    assert pool.problem == "pool d/p generation 2: 1 of 2 ResourceSlices present"


def test_overlay_never_mutates_the_base(snapshot: ClusterSnapshot) -> None:
    before = copy.deepcopy(dict(snapshot.objects))
    free_before = snapshot.free_resources("cpu-1")
    new_pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "extra"},
               "spec": {"nodeName": "cpu-1", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
    claim = {"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "ml"},
             "spec": {"devices": {"requests": [{"name": "r", "deviceClassName": GPU}]}}}
    overlaid = snapshot.overlay([new_pod, claim])
    assert overlaid.free_resources("cpu-1")["cpu"] == free_before["cpu"] - 1
    assert overlaid.get("Pod", "extra", "default") is not None
    assert overlaid.get("ResourceClaim", "c", "ml")["spec"]["devices"]["requests"][0]["exactly"] == {"deviceClassName": GPU}
    assert snapshot.free_resources("cpu-1") == free_before
    assert dict(snapshot.objects) == before
    assert "metadata" in new_pod and "namespace" not in new_pod["metadata"]


def _cel(expression: str, driver: str, device: dict) -> bool:
    """The allocator's CEL (dra/cel.py), as a caller above the cluster layer passes it."""
    from kubectl_wasdra.dra.cel import DeviceView, compile_selector

    return compile_selector(expression).matches(DeviceView(driver, device))


def test_rules_selecting_by_class_or_cel_of_1_34_clusters() -> None:
    from kubectl_wasdra.cluster.pools import is_unresolved_rule, rule_taints

    taint = {"key": "k", "effect": "NoSchedule"}
    classes = [{"metadata": {"name": "gpu.example.com"}, "spec": {"selectors": [
                   {"cel": {"expression": 'device.driver == "drv" && device.attributes["drv"].model == "a100"'}}]}},
               {"metadata": {"name": "any"}, "spec": {}}]
    rules = [
        {"metadata": {"name": "by-class"}, "spec": {"deviceSelector": {"deviceClassName": "gpu.example.com"}, "taint": taint}},
        {"metadata": {"name": "by-cel"}, "spec": {"deviceSelector": {"pool": "p", "selectors": [
            {"cel": {"expression": 'device.capacity["drv"].memory.compareTo(quantity("40Gi")) > 0'}}]}, "taint": taint}},
        {"metadata": {"name": "class-without-selectors"}, "spec": {"deviceSelector": {"deviceClassName": "any",
                                                                                        "device": "d3"}, "taint": taint}},
        {"metadata": {"name": "missing-class"}, "spec": {"deviceSelector": {"deviceClassName": "nope"}, "taint": taint}},
        {"metadata": {"name": "runtime-error"}, "spec": {"deviceSelector": {"selectors": [
            {"cel": {"expression": 'device.attributes["drv"].absent == 1'}}]}, "taint": taint}},
        {"metadata": {"name": "one"}, "spec": {"deviceSelector": {"pool": "p", "device": "d1"}, "taint": taint}},
    ]
    def device(name: str, model: str, memory: str) -> dict:
        return {"name": name, "attributes": {"model": {"string": model}}, "capacity": {"memory": {"value": memory}}}

    devices = {("drv", "p", "d1"): device("d1", "a100", "80Gi"), ("drv", "p", "d2"): device("d2", "t4", "16Gi"),
               ("drv", "q", "d3"): device("d3", "a100", "80Gi")}
    found = rule_taints(rules, devices, classes, _cel)
    names = {key[2]: [name for name, _ in found.get(key, ())] for key in devices}
    assert names == {"d1": ["by-cel", "by-class", "one"], "d2": [], "d3": ["by-class", "class-without-selectors"]}
    without_cel = rule_taints(rules, devices, classes)
    assert {key[2]: [n for n, _ in v] for key, v in without_cel.items()} == {"d1": ["one"], "d3": ["class-without-selectors"]}
    by_name = {c["metadata"]["name"]: c for c in classes}
    assert [is_unresolved_rule(rule, by_name) for rule in rules] == [True, True, False, False, True, False]
    assert is_unresolved_rule(rules[2]) and not is_unresolved_rule(rules[5])


def test_snapshot_applies_class_rules_with_an_evaluator() -> None:
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

    slice_ = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
              "spec": {"driver": "drv", "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1}, "nodeName": "n",
                       "devices": [{"name": "d1", "attributes": {"model": {"string": "a100"}}}, {"name": "d2"}]}}
    device_class = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "c"}, "spec": {
        "selectors": [{"cel": {"expression": 'device.attributes["drv"].model == "a100"'}}]}}
    rule = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": {"name": "r"},
            "spec": {"deviceSelector": {"deviceClassName": "c"}, "taint": {"key": "k", "effect": "NoExecute"}}}
    snapshot = ClusterSnapshot(objects={"ResourceSlice": (slice_,), "DeviceClass": (device_class,),
                                        "DeviceTaintRule": (rule,)})
    assert dict(snapshot.rule_taints) == {}
    with_cel = snapshot.with_selector_evaluator(_cel)
    assert list(with_cel.rule_taints) == [("drv", "p", "d1")]
    assert with_cel.overlay([]).selector_evaluator is _cel
    (tainted,) = with_cel.tainted_slices
    assert tainted["spec"]["devices"][0]["taints"] == [{"key": "k", "effect": "NoExecute"}]
