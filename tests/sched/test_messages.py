"""FailedScheduling text of single pods, word for word as kube-scheduler 1.37 prints it: per-node reasons, PreFilter
messages, the narrowed-node wording and the PostFilter (DynamicResources, DefaultPreemption) tail.

Upstream: pkg/scheduler/framework/types.go (FitError.Error), pkg/scheduler/schedule_one.go (findNodesThatFitPod),
framework/preemption/preemption.go and plugins/defaultpreemption/default_preemption.go (release-1.37).
"""

from __future__ import annotations

import pytest
from builders import node, pod, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import Simulation

PORTS = "node(s) didn't have free ports for the requested pod ports"
NO_VICTIMS = "No preemption victims found for incoming pod"
NOT_HELPFUL = "Preemption is not helpful for scheduling"
TAIL = "no new claims to deallocate, preemption: "


def _message(objects, name="p"):
    results = Simulation(snapshot(*objects), all_on(NEWEST)).run()
    return next(r for r in results if r.name == name).message


def _with_port(name, port, **fields):
    obj = pod(name, **fields)
    obj["spec"]["containers"][0]["ports"] = [{"containerPort": port, "hostPort": port}]
    return obj


def _name_affinity(*names):
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": list(names)}]}]}}}


def _zone_anti(app):
    return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": "zone"}]}}


def test_port_conflict_with_no_lower_priority_pod():
    objects = [node("n"), _with_port("old", 80, node_name="n"), _with_port("p", 80)]
    assert _message(objects) == f"0/1 nodes are available: 1 {PORTS}. {TAIL}0/1 nodes are available: 1 {NO_VICTIMS}."


def test_port_conflict_with_a_higher_priority_holder_still_conflicts_after_removing_victims():
    objects = [node("n"), _with_port("holder", 80, node_name="n", priority=100), pod("low", node_name="n", priority=1),
               _with_port("p", 80, priority=10)]
    assert _message(objects) == f"0/1 nodes are available: 1 {PORTS}. {TAIL}0/1 nodes are available: 1 {PORTS}."


def test_preemption_that_helps_leaves_no_tail():
    objects = [node("n"), _with_port("low", 80, node_name="n", priority=1), _with_port("p", 80, priority=10)]
    assert _message(objects) == f"0/1 nodes are available: 1 {PORTS}."


def test_existing_pods_anti_affinity_and_not_helpful_nodes():
    objects = [node("a", labels={"zone": "z1"}), node("b", labels={"zone": "z1"}, taints=[{"key": "k", "effect": "NoSchedule"}]),
               pod("guard", node_name="a", labels={"app": "db"}, affinity=_zone_anti("web")),
               pod("p", labels={"app": "web"})]
    assert _message(objects) == ("0/2 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules, "
                                 f"1 node(s) had untolerated taint(s). {TAIL}0/2 nodes are available: 1 {NO_VICTIMS}, "
                                 f"1 {NOT_HELPFUL}.")


def test_affinity_rules_not_matched_is_not_helpful():
    affinity = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "zone"}]}}
    objects = [node("a", labels={"zone": "z1"}), pod("other", node_name="a", labels={"app": "cache"}, namespace="x"),
               pod("p", labels={"app": "web"}, affinity=affinity)]
    assert _message(objects) == (f"0/1 nodes are available: 1 node(s) didn't match pod affinity rules. {TAIL}"
                                 f"0/1 nodes are available: 1 {NOT_HELPFUL}.")


def test_node_affinity_narrowing_names_the_plugin_for_the_other_nodes():
    objects = [node("a", cpu="1"), node("b"), node("c"), pod("p", cpu="2", affinity=_name_affinity("a"))]
    assert _message(objects) == ("0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) "
                                 f"[NodeAffinity]. {TAIL}0/3 nodes are available: 3 {NOT_HELPFUL}.")


def test_node_affinity_narrowing_to_nodes_that_do_not_exist():
    objects = [node("a"), node("b"), pod("p", affinity=_name_affinity("gone"))]
    assert _message(objects) == ("0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. "
                                 f"{TAIL}0/2 nodes are available: 2 {NOT_HELPFUL}.")


def test_prefilter_rejection_has_no_per_node_counts():
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a"]},
                         {"key": "metadata.name", "operator": "In", "values": ["b"]}]}]}}}
    objects = [node("a"), node("b"), node("c"), pod("p", affinity=affinity)]
    assert _message(objects) == (f"0/3 nodes are available: pod affinity terms conflict. {TAIL}"
                                 f"0/3 nodes are available: 3 {NOT_HELPFUL}.")


def test_unparsable_pod_affinity_is_a_prefilter_rejection():
    affinity = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["a b"]}]},
         "topologyKey": "zone"}]}}
    message = _message([node("a"), pod("p", affinity=affinity)])
    assert message.startswith('0/1 nodes are available: parsing pod: requiredAffinityTerms: values[0][app]: '
                              'Invalid value: "a b": a valid label must be an empty string')
    assert message.endswith(f". {TAIL}0/1 nodes are available: 1 {NOT_HELPFUL}.")


def test_unparsable_spread_selector_is_a_scheduling_error_without_tail():
    spread = [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
               "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Bogus"}]}}]
    message = _message([node("a", labels={"zone": "z"}), pod("p", topologySpreadConstraints=spread)])
    assert message == ('running PreFilter plugin "PodTopologySpread": get constraints from pod: obtaining pod\'s hard '
                       'topology spread constraints: "Bogus" is not a valid label selector operator')


@pytest.mark.parametrize("values", [["invalid value: ___@#$%^"], ["ok", "no good"]])
def test_node_affinity_term_with_an_unparsable_value_matches_no_node(values):
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": values}]}]}}}
    objects = [node("a", labels={"foo": "bar"}), pod("p", affinity=affinity)]
    assert _message(objects) == (f"0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. {TAIL}"
                                 f"0/1 nodes are available: 1 {NOT_HELPFUL}.")


def test_dra_post_filter_for_an_extended_resource_backed_by_a_device_class():
    from builders import device_class, resource_slice

    objects = [node("a"), device_class("gpu", "gpu.example.com", extended_resource="example.com/gpu"),
               resource_slice("a", "gpu.example.com", 1), pod("p", extra={"example.com/gpu": "2"})]
    message = _message(objects)
    assert message.endswith(". still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not "
                            "helpful for scheduling.")


def test_dra_post_filter_for_an_extended_resource_nothing_backs():
    objects = [node("a"), pod("p", extra={"example.com/fpga": "1"})]
    assert _message(objects) == (f"0/1 nodes are available: 1 Insufficient example.com/fpga. {TAIL}"
                                 f"0/1 nodes are available: 1 {NOT_HELPFUL}.")


def test_preempting_a_lower_priority_pod_whose_anti_affinity_blocks_helps():
    objects = [node("a", labels={"zone": "z1"}),
               pod("guard", node_name="a", labels={"app": "db"}, affinity=_zone_anti("web"), priority=1),
               pod("p", labels={"app": "web"}, priority=10)]
    assert _message(objects) == "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules."


def test_preemption_against_spread_skew_counts_the_victims_out():
    spread = [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
               "labelSelector": {"matchLabels": {"app": "w"}}}]
    nodes = [node("a", labels={"zone": "z1"}), node("b", labels={"zone": "z2"}, taints=[{"key": "k", "effect": "NoSchedule"}])]
    running = [pod(f"w{i}", node_name="b", labels={"app": "w"}, priority=5, tolerations=[{"operator": "Exists"}])
               for i in range(2)]
    low = [pod(f"low{i}", node_name="a", labels={"app": "w"}, priority=1) for i in range(3)]
    equal = [pod(f"eq{i}", node_name="a", labels={"app": "w"}, priority=10) for i in range(3)]
    incoming = pod("p", labels={"app": "w"}, priority=10, topologySpreadConstraints=spread)
    spread_text = "node(s) didn't match pod topology spread constraints"
    # a: 3 + 1 - 2 = 2 > 1; without the lower-priority pods a holds 0 of them and the pod fits: preemption helps
    assert _message([*nodes, *running, *low, incoming]) == f"0/2 nodes are available: 1 {spread_text}, " \
        "1 node(s) had untolerated taint(s)."
    # the same pods at equal priority are no victims
    assert _message([*nodes, *running, *equal, incoming]) == (
        f"0/2 nodes are available: 1 {spread_text}, 1 node(s) had untolerated taint(s). {TAIL}0/2 nodes are "
        f"available: 1 {NO_VICTIMS}, 1 {NOT_HELPFUL}.")
