"""Each filter on its own: table of (pod, node) -> expected reason code and kube-scheduler text."""

from __future__ import annotations

import pkgutil

import pytest
from builders import node, pod, taint

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched import filters
from kubectl_wasdra.sched.filters import (
    FILTERS,
    node_affinity,
    node_name,
    node_resources_fit,
    node_unschedulable,
    taint_toleration,
)
from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code


def _run(plugin, pod_obj, node_obj, minor=37, running=()):
    facts = NodeFacts.of(node_obj)
    state = SchedState({facts.name: facts}, minor=minor)
    for other in running:
        state.add_pod(build_pod_info(other), facts.name)
    return plugin.filter_node(build_pod_info(pod_obj), state.node(facts.name))


CASES = [
    ("cordoned", node_unschedulable, pod("p"), node("n", unschedulable=True), Reason.NODE_UNSCHEDULABLE,
     "node(s) were unschedulable"),
    ("cordon-tolerated", node_unschedulable,
     pod("p", tolerations=[{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]),
     node("n", unschedulable=True), None, None),
    ("other-node-name", node_name, pod("p", nodeName="m"), node("n"), Reason.NODE_NAME_MISMATCH,
     "node(s) didn't match the requested node name"),
    ("taint", taint_toleration, pod("p"), node("n", taints=[taint("gpu", "true")]), Reason.UNTOLERATED_TAINT,
     "node(s) had untolerated taint(s)"),
    ("taint-prefer-only", taint_toleration, pod("p"), node("n", taints=[taint("gpu", "true", "PreferNoSchedule")]), None, None),
    ("taint-tolerated", taint_toleration, pod("p", tolerations=[{"key": "gpu", "operator": "Exists"}]),
     node("n", taints=[taint("gpu", "true")]), None, None),
    ("selector", node_affinity, pod("p", node_selector={"pool": "a"}), node("n", labels={"pool": "b"}),
     Reason.NODE_AFFINITY_MISMATCH, "node(s) didn't match Pod's node affinity/selector"),
    ("cpu", node_resources_fit, pod("p", cpu="9"), node("n", cpu="8"), Reason.INSUFFICIENT_RESOURCE, "Insufficient cpu"),
    ("extended", node_resources_fit, pod("p", extra={"example.com/fpga": "1"}), node("n"), Reason.INSUFFICIENT_RESOURCE,
     "Insufficient example.com/fpga"),
    ("fits", node_resources_fit, pod("p", cpu="8"), node("n", cpu="8"), None, None),
]


@pytest.mark.parametrize(("plugin", "pod_obj", "node_obj", "reason", "message"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_filter(plugin, pod_obj, node_obj, reason, message):
    status = _run(plugin, pod_obj, node_obj)
    if reason is None:
        assert status is None
    else:
        assert (status.reason, status.message, status.plugin) == (reason, message, plugin.NAME)


def test_taint_text_before_1_35_names_the_taint():
    status = _run(taint_toleration, pod("p"), node("n", taints=[taint("gpu", "")]), minor=34)
    assert status.message == "node(s) had untolerated taint {gpu: }"


def test_resources_report_every_shortage_and_pod_count():
    status = _run(node_resources_fit, pod("p", cpu="2", memory="2Gi"), node("n", cpu="2", memory="2Gi", pods=1),
                  running=[pod("q", cpu="1", memory="1Gi")])
    assert [s.message for s in status.all_reasons()] == ["Too many pods", "Insufficient cpu", "Insufficient memory"]
    assert status.all_reasons()[1].details == {"resource": "cpu", "requested": "2", "free": "1"}
    assert status.code is Code.UNSCHEDULABLE


def test_request_above_allocatable_is_unresolvable():
    status = _run(node_resources_fit, pod("p", cpu="16"), node("n", cpu="8"))
    assert status.code is Code.UNRESOLVABLE


def test_every_filter_module_is_listed_in_order():
    names = {m.name for m in pkgutil.iter_modules(filters.__path__)} - {"base", "pre_filter"}
    assert {f.__name__.rsplit(".", 1)[1] for f in FILTERS} == names
    # kube-scheduler's default order (sched/profiles.py DEFAULT_FILTERS, from default_plugins.go): every filter
    from kubectl_wasdra.sched.profiles import DEFAULT_FILTERS

    assert [f.NAME for f in FILTERS] == list(DEFAULT_FILTERS)
    assert [f.NAME for f in FILTERS] == ["NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                         "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
                                         "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity",
                                         "DynamicResources"]


def _spread_pod(name, zone_key="zone"):
    return pod(name, labels={"app": "w"}, topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": zone_key, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "w"}}}])


def test_topology_spread_skew_and_missing_label():
    from kubectl_wasdra.sched.filters import pod_topology_spread

    facts = [NodeFacts.of(node("a", labels={"zone": "1"})), NodeFacts.of(node("b", labels={"zone": "2"})),
             NodeFacts.of(node("c"))]
    state = SchedState({f.name: f for f in facts})
    state.add_pod(build_pod_info(pod("w0", labels={"app": "w"})), "a")
    incoming = build_pod_info(_spread_pod("w1"))
    assert pod_topology_spread.filter_node(incoming, state.node("a")).message == \
        "node(s) didn't match pod topology spread constraints"
    assert pod_topology_spread.filter_node(incoming, state.node("b")) is None
    assert pod_topology_spread.filter_node(incoming, state.node("c")).message == \
        "node(s) didn't match pod topology spread constraints (missing required label)"


def test_anti_affinity_keeps_workers_apart():
    from kubectl_wasdra.sched.filters import inter_pod_affinity

    facts = [NodeFacts.of(node(n, labels={"kubernetes.io/hostname": n})) for n in ("a", "b")]
    state = SchedState({f.name: f for f in facts})
    state.add_pod(build_pod_info(pod("w0", labels={"app": "w"})), "a")
    term = {"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": {"app": "w"}}}
    incoming = build_pod_info(pod("w1", labels={"app": "w"},
                                  affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}))
    assert inter_pod_affinity.filter_node(incoming, state.node("a")).message == "node(s) didn't match pod anti-affinity rules"
    assert inter_pod_affinity.filter_node(incoming, state.node("b")) is None
