"""Pod fields the per-pod filters read beyond the upstream tables: matchLabelKeys/mismatchLabelKeys (merged by the
API server on create), default spread constraints as plugin args, host ports of sidecars and hostNetwork pods, and
inter-pod anti-affinity across the members of a gang."""

from __future__ import annotations

from builders import node, pod, pod_group, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.filters import inter_pod_affinity, pod_topology_spread
from kubectl_wasdra.sched.filters.pod_topology_spread import SYSTEM_DEFAULT_CONSTRAINTS, PodTopologySpread
from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.simulation import Simulation
from kubectl_wasdra.sched.state import SchedState


def _state(nodes, running=(), snapshot_obj=None):
    facts = {n["metadata"]["name"]: NodeFacts.of(n) for n in nodes}
    state = SchedState(facts)
    state.snapshot = snapshot_obj
    for obj in running:
        info = build_pod_info(obj)
        state.add_pod(info, info.node_name)
    return state


def _anti(match_keys=(), mismatch_keys=()):
    return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "train"}}, "topologyKey": "zone",
         "matchLabelKeys": list(match_keys), "mismatchLabelKeys": list(mismatch_keys)}]}}


def test_match_label_keys_are_merged_for_pods_not_created_yet():
    info = build_pod_info(pod("p", labels={"app": "train", "run": "r2"}, affinity=_anti(match_keys=["run"])))
    state = _state([node("a", labels={"zone": "z"})], [pod("old", node_name="a", labels={"app": "train", "run": "r1"},
                                                         created="2026-01-01T00:00:00Z")])
    assert inter_pod_affinity.filter_node(info, state.node("a")) is None  # run=r1 is another rollout


def test_mismatch_label_keys_exclude_the_same_value():
    info = build_pod_info(pod("p", labels={"app": "train", "team": "a"}, affinity=_anti(mismatch_keys=["team"])))
    state = _state([node("a", labels={"zone": "z"})], [pod("old", node_name="a", labels={"app": "train", "team": "a"},
                                                         created="2026-01-01T00:00:00Z")])
    assert inter_pod_affinity.filter_node(info, state.node("a")) is None
    other = build_pod_info(pod("q", labels={"app": "train", "team": "b"}, affinity=_anti(mismatch_keys=["team"])))
    assert inter_pod_affinity.filter_node(other, state.node("a")).message == inter_pod_affinity.ANTI_MESSAGE


def test_created_pods_keep_their_stored_selector():
    stored = pod("p", labels={"app": "train", "run": "r2"}, affinity=_anti(match_keys=["run"]),
                 created="2026-01-01T00:00:00Z")
    state = _state([node("a", labels={"zone": "z"})], [pod("old", node_name="a", labels={"app": "train", "run": "r1"})])
    assert inter_pod_affinity.filter_node(build_pod_info(stored), state.node("a")) is not None


def test_spread_match_label_keys_count_only_the_same_revision():
    spread = [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
               "labelSelector": {"matchLabels": {"app": "w"}}, "matchLabelKeys": ["rev"]}]
    nodes = [node("a", labels={"zone": "z1"}), node("b", labels={"zone": "z2"})]
    running = [pod(f"o{i}", node_name="a", labels={"app": "w", "rev": "1"}) for i in range(3)]
    state = _state(nodes, running)
    info = build_pod_info(pod("p", labels={"app": "w", "rev": "2"}, topologySpreadConstraints=spread))
    assert pod_topology_spread.filter_node(info, state.node("a")) is None


def test_system_default_constraints_never_filter():
    assert all(c["whenUnsatisfiable"] == "ScheduleAnyway" for c in SYSTEM_DEFAULT_CONSTRAINTS)
    assert [(c["topologyKey"], c["maxSkew"]) for c in SYSTEM_DEFAULT_CONSTRAINTS] == [
        ("kubernetes.io/hostname", 3), ("topology.kubernetes.io/zone", 5)]


def test_list_default_constraints_apply_with_the_selector_of_a_service():
    plugin = PodTopologySpread(({"topologyKey": "zone", "maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule"},), "List")
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "default"},
               "spec": {"selector": {"app": "web"}}}
    nodes = [node("a", labels={"zone": "z1"}), node("b", labels={"zone": "z2"})]
    running = [pod("w1", node_name="a", labels={"app": "web"})]
    state = _state(nodes, running, snapshot(*nodes, service))
    info = build_pod_info(pod("p", labels={"app": "web"}))
    assert plugin.filter_node(info, state.node("a")).message == pod_topology_spread.MESSAGE
    assert plugin.filter_node(info, state.node("b")) is None
    unselected = build_pod_info(pod("q", labels={"app": "batch"}))
    assert plugin.filter_node(unselected, state.node("a")) is None  # no Service selects it: no default constraint


def test_sidecar_and_host_network_ports():
    spec = {"hostNetwork": True, "initContainers": [
        {"name": "proxy", "image": "x", "restartPolicy": "Always", "ports": [{"containerPort": 15001}]},
        {"name": "setup", "image": "x", "ports": [{"containerPort": 9999, "hostPort": 9999}]}]}
    info = build_pod_info(pod("p", **spec) | {})
    assert info.host_ports == (("0.0.0.0", "TCP", 15001),)


def test_gang_members_with_anti_affinity_spread_over_zones():
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "g"}}, "topologyKey": "zone"}]}}
    nodes = [node(f"n{i}", labels={"zone": f"z{i % 2}"}) for i in range(4)]
    members = [pod(f"g-{i}", group="g", labels={"app": "g"}, affinity=anti) for i in range(3)]
    results = Simulation(snapshot(*nodes).overlay([pod_group("g", min_count=3), *members]), all_on(NEWEST)).run()
    assert not results[0].fits  # only two zones for three mutually exclusive members
    two = Simulation(snapshot(*nodes).overlay([pod_group("g", min_count=2), *members[:2]]), all_on(NEWEST)).run()[0]
    assert two.fits and {two.placement[f"default/g-{i}"] for i in range(2)} in ({"n0", "n1"}, {"n0", "n3"},
                                                                                {"n2", "n1"}, {"n2", "n3"})
