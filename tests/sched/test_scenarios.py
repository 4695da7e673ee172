"""Scenarios on fixture clusters: gangs, racks, NUMA-aligned claims, taints, fallbacks, queue order."""

from __future__ import annotations

from builders import claim_template, device_class, node, pod, pod_group, resource_slice, snapshot, taint
from builders import run_all as run

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import Gates, all_on

RACK = "example.com/rack"
NUMA = "resource.kubernetes.io/numaNode"
GPU = "gpu.example.com"


def _gang(name, count, min_count, *, gpus=4, rack=True, numa=True, namespace="ml", priority=None, created=""):
    template = claim_template(f"{name}-gpus", GPU, gpus, namespace=namespace, match_attribute=NUMA if numa else None)
    group = pod_group(name, namespace=namespace, min_count=min_count, topology_key=RACK if rack else None,
                      created=created, priority=priority)
    pods = [pod(f"{name}-{i}", namespace=namespace, cpu="8", group=name, priority=priority, created=created,
                claims=[{"name": "gpus", "resourceClaimTemplateName": f"{name}-gpus"}]) for i in range(count)]
    return [template, group, *pods]


def test_gang_fits_in_one_rack(two_racks):
    result = run(two_racks, *_gang("train", 4, 4))["train"]
    assert result.fits
    assert result.domain == {RACK: "r0"}
    assert len(result.placement) == 4
    assert {len(devices) for devices in result.claims.values()} == {4}


def test_no_rack_has_min_count_but_the_cluster_does(two_racks):
    with_rack = run(two_racks, *_gang("train", 6, 6))["train"]
    assert not with_rack.fits
    assert with_rack.message == ("0/2 placements are available, first placement status: "
                                 "minCount (6) cannot be satisfied: 4 scheduled, 1 remaining, "
                                 "pod group preemption: not supported with topology constraints")
    assert max(a.placeable for a in with_rack.outcome.attempts) == 4
    without = run(two_racks, *_gang("train", 6, 6, rack=False))["train"]
    assert without.fits and len(without.placement) == 6


def test_topology_dropped_when_the_gate_is_off(two_racks):
    gates = all_on(NEWEST)
    gates = Gates(gates.release, {**gates.enabled_gates, "TopologyAwareWorkloadScheduling": False}, gates.runtime_config)
    result = run(two_racks, *_gang("train", 6, 6), gates=gates)["train"]
    assert result.fits
    assert [n.reason for n in result.notices] == [Reason.FEATURE_GATE_DISABLED]


def test_fewer_pods_than_min_count_wait_before_the_queue(two_racks):
    result = run(two_racks, *_gang("train", 3, 4))["train"]
    assert not result.fits
    assert result.entry.blocked.reason is Reason.GANG_TOO_FEW_PODS
    assert result.message == "waiting for minCount pods from a gang to appear in scheduling queue"


def test_numa_aligned_eight_gpus_do_not_fit_on_two_numa_halves(two_racks):
    result = run(two_racks, pod("big", namespace="ml", cpu="8", claims=[{"name": "gpus",
                                                                              "resourceClaimTemplateName": "aligned"}]),
                 claim_template("aligned", GPU, 8, namespace="ml", match_attribute=NUMA))["big"]
    assert not result.fits
    error = result.pod_errors["ml/big"]
    assert error.message() == "0/10 nodes are available: 10 cannot allocate all claims."
    codes = {s.reason for s in error.statuses.values()}
    assert Reason.CONSTRAINT_UNSATISFIABLE in codes


def test_tainted_device_blocks_the_full_node(two_racks):
    pinned = pod("pinned", namespace="ml", cpu="8", node_selector={"kubernetes.io/hostname": "gpu-r0-n1"},
                 claims=[{"name": "gpus", "resourceClaimTemplateName": "gpu-8"}])
    result = run(two_racks, pinned)["pinned"]
    assert not result.fits
    status = result.pod_errors["ml/pinned"].statuses["gpu-r0-n1"]
    assert status.reason is Reason.DEVICE_TAINTED
    assert "untainted" in status.details["funnel"]


def test_node_taint_and_insufficient_cpu_are_both_counted():
    cluster = snapshot(node("a", cpu="4", taints=[taint("dedicated", "infra")]), node("b", cpu="4"), node("c", cpu="4"),
                       pod("busy-b", cpu="2", node_name="b", priority=100), pod("busy-c", cpu="2", node_name="c", priority=100),
                       pod("want", cpu="3", priority=50))
    result = run(cluster)["want"]
    assert result.message == ("0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. "
                              "no new claims to deallocate, preemption: 0/3 nodes are available: "
                              "1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.")


def test_preemption_that_would_help_leaves_no_tail():
    cluster = snapshot(node("b", cpu="4"), pod("low", cpu="2", node_name="b", priority=1), pod("want", cpu="3", priority=50))
    result = run(cluster)["want"]
    assert result.message == "0/1 nodes are available: 1 Insufficient cpu."
    answer = result.extra["preemption"]
    assert answer.nominated == {"default/want": "b"}
    assert [(v.name, v.node, v.priority) for v in answer.victims] == [("low", "b", 1)]


def test_first_available_falls_back_to_the_smaller_request():
    cluster = snapshot(node("n"), resource_slice("n", GPU, 6), device_class(GPU, GPU),
                       claim_template("flex", GPU, first_available=[
                           {"name": "eight", "deviceClassName": GPU, "count": 8},
                           {"name": "four", "deviceClassName": GPU, "count": 4}]),
                       pod("p", claims=[{"name": "gpu", "resourceClaimTemplateName": "flex"}]))
    result = run(cluster)["p"]
    assert result.fits
    (devices,) = result.claims.values()
    assert len(devices) == 4 and devices[0]["request"] == "gpu/four"


def test_extended_resource_served_through_dra():
    cluster = snapshot(node("n"), resource_slice("n", GPU, 2), device_class(GPU, GPU, extended_resource="example.com/gpu"),
                       pod("ok", extra={"example.com/gpu": "2"}), pod("too-many", extra={"example.com/gpu": "3"}))
    results = run(cluster)
    assert results["ok"].fits
    assert len(next(iter(results["ok"].claims.values()))) == 2
    assert not results["too-many"].fits


def test_earlier_pending_group_takes_the_capacity(two_racks):
    first = _gang("first", 4, 4, priority=1000, created="2026-11-02T00:00:00Z")
    second = _gang("second", 4, 4, priority=1000, created="2026-11-03T00:00:00Z")
    results = run(two_racks, *first, *second)
    assert results["first"].fits and results["first"].domain == {RACK: "r0"}
    second_result = results["second"]
    assert second_result.fits and second_result.domain == {RACK: "r1"}
    third = _gang("third", 4, 4, created="2026-11-04T00:00:00Z")
    third_result = run(two_racks, *first, *second, *third)["third"]
    assert not third_result.fits
    owners = {owner for node_owners in third_result.placed_by_before.values() for owner in node_owners}
    assert {"ml/first", "ml/second"} <= owners


def test_mismatched_priority_makes_the_group_invalid():
    cluster = snapshot(node("n"), pod_group("g", min_count=2, priority=10),
                       pod("a", group="g", priority=10), pod("b", group="g", priority=5))
    result = run(cluster)["g"]
    assert result.entry.blocked.reason is Reason.GROUP_INVALID
    assert result.message == ("all pods in a pod group hierarchy should have the same priority as the root pod group's "
                              'priority, got 5 ("b") and 10 ("g")')


def test_mixed_scheduler_names_make_the_group_invalid():
    cluster = snapshot(node("n"), pod_group("g", min_count=2), pod("a", group="g"), pod("b", group="g", schedulerName="other"))
    result = run(cluster)["g"]
    assert result.entry.blocked.reason is Reason.GROUP_INVALID
    assert result.message == ('all pods in a pod group hierarchy should have the same .spec.schedulerName set, '
                              'got: "default-scheduler" ("a") and "other" ("b")')


def test_api_not_served_leaves_the_pods_waiting():
    cluster = snapshot(node("n"), pod_group("g", min_count=1), pod("a", group="g"))
    gates = Gates(NEWEST, {"GenericWorkload": True}, {})
    result = run(cluster, gates=gates)["g"]
    assert not result.fits
    assert [n.reason for n in result.notices] == [Reason.API_NOT_SERVED]
    assert result.entry.blocked.reason is Reason.GROUP_NOT_FOUND


def test_workload_api_of_1_35_and_pod_group_of_1_36_are_read():
    workload = {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload", "metadata": {"name": "w", "namespace": "default"},
                "spec": {"podGroups": [{"name": "workers", "policy": {"gang": {"minCount": 2}}}]}}
    pods = [pod(f"w-{i}", workloadRef={"name": "w", "podGroup": "workers"}) for i in range(2)]
    gates = Gates(NEWEST.previous().previous(), {"GenericWorkload": True}, {"scheduling.k8s.io/v1alpha1": True})
    result = run(snapshot(node("n"), workload, *pods), gates=gates)["w/workers"]
    assert result.fits and result.entry.min_count == 2
    group = pod_group("g", min_count=3, api_version="scheduling.k8s.io/v1alpha2")
    gates = Gates(NEWEST.previous(), {"GenericWorkload": True}, {"scheduling.k8s.io/v1alpha2": True})
    result = run(snapshot(node("n", cpu="2"), group, *(pod(f"g-{i}", group="g") for i in range(3))), gates=gates)["g"]
    assert not result.fits
    assert result.message == "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining"


def test_composite_group_needs_min_group_count_children():
    cpg = {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
           "metadata": {"name": "root", "namespace": "default"},
           "spec": {"workloadRef": {"workloadName": "w", "templateName": "root"},
                    "schedulingPolicy": {"gang": {"minGroupCount": 2}}}}
    children = [pod_group(name, min_count=2, parent="root", api_version="scheduling.k8s.io/v1alpha3") for name in ("a", "b")]
    pods = [pod(f"{g}-{i}", group=g, cpu="2") for g in ("a", "b") for i in range(2)]
    fits = run(snapshot(node("n", cpu="8"), cpg, *children, *pods))["root"]
    assert fits.fits and len(fits.placement) == 4
    short = run(snapshot(node("n", cpu="6"), cpg, *children, *pods))["root"]
    assert not short.fits
    assert short.message == "minGroupCount (2) cannot be satisfied: 1 scheduled, 0 remaining"
    assert not any(child.fits for child in short.children)
    waiting = run(snapshot(node("n", cpu="8"), cpg, *children, *pods[:3]))["root"]
    assert waiting.message == 'waiting for composite pod group "root" tree to meet quorum'


def test_pod_group_claim_is_shared_by_its_pods():
    template = claim_template("shared", GPU, 1)
    group = pod_group("g", min_count=2, claims=[{"name": "gpu", "resourceClaimTemplateName": "shared"}])
    pods = [pod(f"g-{i}", group="g", claims=[{"name": "gpu", "resourceClaimTemplateName": "shared"}]) for i in range(2)]
    cluster = snapshot(node("n"), resource_slice("n", GPU, 1), device_class(GPU, GPU), template, group, *pods)
    result = run(cluster)["g"]
    assert result.fits
    assert list(result.claims) == ["default/g-gpu"]
