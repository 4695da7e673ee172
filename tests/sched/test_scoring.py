"""Scoring as the 1.37 default profile does it: LeastAllocated, BalancedAllocation, PreferNoSchedule taints,
preferred node affinity, prioritized-list DRA scores, numFeasibleNodesToFind, ties broken by node name."""

from __future__ import annotations

import pytest
from builders import device_class, node, pod, resource_slice, snapshot, taint
from builders import run_all as run

from kubectl_wasdra.sched.scoring import num_feasible_nodes_to_find

GPU = "gpu.example.com"


@pytest.mark.parametrize(("nodes", "expected"), [(5, 5), (99, 99), (100, 100), (500, 230), (1000, 420), (5000, 500),
                                                 (6000, 300)],
                         ids=["tiny", "just-below-min", "min", "500-adaptive-46pct", "1000-42pct", "5000-10pct", "6000-min-5pct"])
def test_num_feasible_nodes_to_find(nodes, expected):
    assert num_feasible_nodes_to_find(nodes) == expected


def test_explicit_percentage_still_finds_at_least_100():
    assert num_feasible_nodes_to_find(1000, 5) == 100
    assert num_feasible_nodes_to_find(1000, 50) == 500


def test_least_allocated_prefers_the_emptier_node_not_the_first_by_name():
    busy = pod("busy", cpu="6", memory="8Gi", node_name="a")
    cluster = snapshot(node("a", cpu="8", memory="32Gi"), node("b", cpu="8", memory="32Gi"), busy)
    result = run(cluster, pod("new", cpu="1", memory="1Gi"))["new"]
    assert result.placement == {"default/new": "b"}


def test_equal_scores_go_to_the_first_node_by_name():
    cluster = snapshot(node("b"), node("a"), node("c"))
    assert run(cluster, pod("new"))["new"].placement == {"default/new": "a"}


def test_identical_pods_spread_over_identical_nodes():
    cluster = snapshot(*(node(f"n{i}", cpu="8", memory="32Gi") for i in range(3)))
    results = run(cluster, *(pod(f"p{i}", cpu="2", memory="4Gi", created=f"2026-01-01T00:00:0{i}Z") for i in range(3)))
    assert sorted(results[f"p{i}"].placement[f"default/p{i}"] for i in range(3)) == ["n0", "n1", "n2"]


def _gates(minor: int):
    from kubectl_wasdra.catalog.releases import Release
    from kubectl_wasdra.sched.admission import all_on

    return all_on(Release(1, minor))


def test_balanced_allocation_up_to_1_35_prefers_the_node_whose_cpu_and_memory_stay_even():
    # LeastAllocated alone would pick a (59 against 58); b keeps cpu and memory even (balanced 100 against 80)
    cluster = snapshot(node("a", cpu="10", memory="10Gi"), node("b", cpu="10", memory="10Gi"),
                       pod("cpu-heavy", cpu="4", memory="0", node_name="a"),
                       pod("even", cpu="2200m", memory="2252Mi", node_name="b"))
    assert run(cluster, pod("new", cpu="2", memory="2Gi"), gates=_gates(35))["new"].placement == {"default/new": "b"}
    # since 1.36 the pod changes neither node's balance (75 on both), so LeastAllocated decides
    assert run(cluster, pod("new", cpu="2", memory="2Gi"), gates=_gates(36))["new"].placement == {"default/new": "a"}


@pytest.mark.parametrize(("minor", "expected"), [(35, "b"), (36, "a"), (37, "a")], ids=["1.35", "1.36", "1.37"])
def test_balanced_allocation_since_1_36_scores_how_the_pod_changes_the_balance(minor, expected):
    # one pod asking 2 CPU / 8Gi on empty nodes of 4 CPU/32Gi (a) and 4 CPU/16Gi (b). Old formula: a 62 + 87 = 149,
    # b 50 + 100 = 150. Since kubernetes PR #135573: a 62 + (50 + (50 + 87 - 100) / 2) = 130, b 50 + 75 = 125
    cluster = snapshot(node("a", cpu="4", memory="32Gi"), node("b", cpu="4", memory="16Gi"))
    result = run(cluster, pod("new", cpu="2", memory="8Gi"), gates=_gates(minor))["new"]
    assert result.placement == {"default/new": expected}


def test_prefer_no_schedule_taint_steers_away():
    cluster = snapshot(node("a", taints=[taint("dedicated", "x", "PreferNoSchedule")]), node("b"))
    assert run(cluster, pod("new"))["new"].placement == {"default/new": "b"}
    tolerant = pod("tolerant", tolerations=[{"key": "dedicated", "operator": "Exists", "effect": "PreferNoSchedule"}])
    assert run(cluster, tolerant)["tolerant"].placement == {"default/tolerant": "a"}


def test_preferred_node_affinity_wins_over_name_order():
    cluster = snapshot(node("a"), node("b", labels={"disk": "ssd"}))
    affinity = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 10, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}]}}
    assert run(cluster, pod("new", affinity=affinity))["new"].placement == {"default/new": "b"}


def test_prioritized_list_prefers_the_node_serving_the_first_alternative():
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "gpus", "namespace": "default"},
                "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "firstAvailable": [
                    {"name": "four", "deviceClassName": GPU, "count": 4},
                    {"name": "one", "deviceClassName": GPU, "count": 1}]}]}}}}
    cluster = snapshot(device_class(GPU, GPU), node("a"), node("b"), resource_slice("a", GPU, 1), resource_slice("b", GPU, 4))
    result = run(cluster, template, pod("new", claims=[{"name": "gpu", "resourceClaimTemplateName": "gpus"}]))["new"]
    assert result.placement == {"default/new": "b"}


def test_least_allocated_counts_request_defaults_per_container():
    """framework/types.go CalculateResource: every container without a cpu or memory request counts 100m / 200Mi, so
    the node running a two-container pod without requests (200m / 400Mi) is fuller than the node running a
    one-container one (100m / 200Mi)."""
    two = pod("two", cpu=None, node_name="a")
    two["spec"]["containers"].append({"name": "side", "image": "busybox"})
    cluster = snapshot(node("a", cpu="1", memory="1Gi"), node("b", cpu="1", memory="1Gi"), two,
                       pod("one", cpu=None, node_name="b"))
    assert run(cluster, pod("new", cpu="100m", memory="100Mi"))["new"].placement == {"default/new": "b"}


def test_preferred_pod_affinity_steers_to_the_zone_of_matching_pods():
    # InterPodAffinity's score (weight 2) outweighs LeastAllocated's lean towards the emptier zone-b node
    zone = "topology.kubernetes.io/zone"
    cluster = snapshot(node("a", labels={zone: "zone-a"}), node("b", labels={zone: "zone-b"}),
                       pod("cache", cpu="2", node_name="a", labels={"app": "cache"}))
    affinity = {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 50, "podAffinityTerm": {
        "labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": zone}}]}}
    assert run(cluster, pod("new", affinity=affinity))["new"].placement == {"default/new": "a"}
    assert run(cluster, pod("new"))["new"].placement == {"default/new": "b"}


def test_schedule_anyway_spread_goes_to_the_zone_with_fewer_matching_pods():
    # PodTopologySpread's score: zone-a holds two matching pods on its larger, emptier node; zone-b one
    zone = "topology.kubernetes.io/zone"
    cluster = snapshot(node("a", cpu="64", labels={zone: "zone-a"}), node("b", labels={zone: "zone-b"}),
                       *(pod(f"w{i}", cpu="100m", node_name="a", labels={"app": "web"}) for i in range(2)),
                       pod("w2", cpu="100m", node_name="b", labels={"app": "web"}))
    spread = [{"maxSkew": 1, "topologyKey": zone, "whenUnsatisfiable": "ScheduleAnyway",
               "labelSelector": {"matchLabels": {"app": "web"}}}]
    new = pod("new", labels={"app": "web"}, topologySpreadConstraints=spread)
    assert run(cluster, new)["new"].placement == {"default/new": "b"}
    assert run(cluster, pod("new", labels={"app": "web"}))["new"].placement == {"default/new": "a"}


@pytest.mark.parametrize(("minor", "expected"), [(35, "a"), (37, "b")], ids=["1.35-weight-1", "1.37-weight-2"])
def test_dynamic_resources_score_weighs_two_since_1_36(minor, expected):
    # a serves the claim with its second alternative (87 after normalizing) and is emptier; b serves the first (100)
    # but runs a 3-cpu pod. 1.36.2's default profile gives DynamicResources weight 2, which turns the choice to b
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "gpus", "namespace": "default"},
                "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "firstAvailable": [
                    {"name": "four", "deviceClassName": GPU, "count": 4},
                    {"name": "one", "deviceClassName": GPU, "count": 1}]}]}}}}
    cluster = snapshot(device_class(GPU, GPU), node("a"), node("b"), resource_slice("a", GPU, 1),
                       resource_slice("b", GPU, 4), pod("busy", cpu="3", node_name="b"))
    new = pod("new", claims=[{"name": "gpu", "resourceClaimTemplateName": "gpus"}])
    assert run(cluster, template, new, gates=_gates(minor))["new"].placement == {"default/new": expected}


def test_topology_placement_scored_by_cpu_and_memory_most_allocated():
    # fit.go ScorePlacement: MostAllocated over cpu and memory of the whole placement. Both racks hold 2 cpu of 16;
    # r2's pods also hold memory, so r2 is the fuller placement (r1 would win as the first by name on cpu alone)
    from builders import pod_group

    rack = "example.com/rack"
    cluster = snapshot(node("a", labels={rack: "r1"}), node("b", labels={rack: "r2"}),
                       pod("cpu-only", cpu="2", node_name="a"), pod("mixed", cpu="2", memory="16Gi", node_name="b"))
    gang = pod_group("g", min_count=1, topology_key=rack)
    result = run(cluster, gang, pod("m0", group="g"))["g"]
    assert result.placement == {"default/m0": "b"}
