"""Upstream filter test tables, ported as data (fixtures/sched/upstream/*.yaml), run against our filters.

Each case names the upstream test function and case; it gives the incoming pod, the pods already on nodes and the
nodes, and expects PreFilter's outcome (skip, a status) and each node's Filter status (code and message) as upstream
asserts them. Pods are written in a shorthand mirroring upstream's st.MakePod builders (see the fixture headers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_wasdra.sched.filters import (
    inter_pod_affinity,
    node_affinity,
    node_ports,
    pod_topology_spread,
)
from kubectl_wasdra.sched.filters.pod_topology_spread import PodTopologySpread
from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.state import SchedState

UPSTREAM = Path(__file__).resolve().parents[3] / "fixtures" / "sched" / "upstream"
PLUGINS = {"InterPodAffinity": inter_pod_affinity, "PodTopologySpread": pod_topology_spread,
           "NodePorts": node_ports, "NodeAffinity": node_affinity}
_SHORT_OPS = {"in": "In", "notIn": "NotIn", "exists": "Exists", "doesNotExist": "DoesNotExist"}


def _term(term: dict[str, Any]) -> dict[str, Any]:
    """st.MakePod().PodAffinityIn(labelKey, topologyKey, values) and friends, or a full PodAffinityTerm."""
    for short, operator in _SHORT_OPS.items():
        if short in term:
            key, topology, *values = term[short]
            requirement = {"key": key, "operator": operator}
            if values:
                requirement["values"] = values[0]
            return {"labelSelector": {"matchExpressions": [requirement]}, "topologyKey": topology}
    return term


def _port(port: Any) -> dict[str, Any]:
    """A ContainerPort from upstream's "PROTOCOL/hostIP/hostPort" notation (node_ports_test.go newPod)."""
    if isinstance(port, dict):
        return port
    protocol, host_ip, host_port = port.split("/")
    return {"protocol": protocol, "hostIP": host_ip, "hostPort": int(host_port), "containerPort": int(host_port)}


def _pod(spec: dict[str, Any], index: int = 0) -> dict[str, Any]:
    """A Pod object from the shorthand: name, namespace, labels, node, affinity, antiAffinity, ports, spec."""
    pod_spec: dict[str, Any] = dict(spec.get("spec") or {})
    pod_spec.setdefault("containers", [{"name": "c", "ports": [_port(p) for p in spec.get("ports") or ()]}])
    if spec.get("node"):
        pod_spec["nodeName"] = spec["node"]
    affinity: dict[str, Any] = dict(pod_spec.get("affinity") or {})
    for key, kind in (("affinity", "podAffinity"), ("antiAffinity", "podAntiAffinity")):
        if spec.get(key):
            affinity[kind] = {"requiredDuringSchedulingIgnoredDuringExecution": [_term(t) for t in spec[key]]}
    if affinity:
        pod_spec["affinity"] = affinity
    if spec.get("spread"):
        pod_spec["topologySpreadConstraints"] = [{"whenUnsatisfiable": "DoNotSchedule", **c} for c in spec["spread"]]
    meta: dict[str, Any] = {"name": spec.get("name", f"pod-{index}"), "namespace": spec.get("namespace") or "default",
                            "labels": dict(spec.get("labels") or {})}
    meta.update(spec.get("metadata") or {})
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": pod_spec}


def _node(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": spec["name"], "labels": dict(spec.get("labels") or {})},
            "spec": {"taints": list(spec.get("taints") or [])},
            "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "1000"}}}


def _cases() -> list[Any]:
    out = []
    for path in sorted(UPSTREAM.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        for case in data["cases"]:
            case_id = f"{path.stem}:{case['test']}:{case['name']}"
            out.append(pytest.param(data, case, id=case_id))
    return out


def _plugin(data: dict[str, Any], case: dict[str, Any]) -> Any:
    plugin = PLUGINS[data["plugin"]]
    args = case.get("args")
    if data["plugin"] == "PodTopologySpread" and args:
        return PodTopologySpread(tuple(args.get("defaultConstraints") or ()), args.get("defaultingType", "System"))
    return plugin


def _state(data: dict[str, Any], case: dict[str, Any]) -> SchedState:
    facts = {n["name"]: NodeFacts.of(_node(n)) for n in case["nodes"]}
    state = SchedState(facts)
    state.namespaces = {name: labels or {} for name, labels in (data.get("namespaces") or {}).items()}
    for index, spec in enumerate(case.get("pods") or ()):
        info = build_pod_info(_pod(spec, index + 1))
        state.add_pod(info, info.node_name)
    return state


def _status(status: Any, expected: Any = None) -> Any:
    """[code, message], or the code alone when upstream asserts only the code."""
    if status is None:
        return None
    return status.code.value if isinstance(expected, str) else [status.code.value, status.message]


@pytest.mark.parametrize(("data", "case"), _cases())
def test_upstream_case(data: dict[str, Any], case: dict[str, Any]) -> None:
    plugin = _plugin(data, case)
    state = _state(data, case)
    pod = build_pod_info(_pod(case["pod"]))
    pre_filter = getattr(plugin, "pre_filter", None)
    got_pre = _status(pre_filter(pod, state)) if pre_filter else None
    expected_pre = case.get("preFilter")
    if expected_pre not in (None, "skip"):
        assert got_pre == expected_pre
    else:
        assert got_pre is None
    if "preFilterNodes" in case:
        names = plugin.pre_filter_nodes(pod)
        assert (sorted(names) if names is not None else None) == case["preFilterNodes"]
    if "preFilterCounts" in case:
        _constraints, counts, _minimums = plugin.DEFAULT._data(pod, state)
        assert counts == case["preFilterCounts"]
        return
    if expected_pre not in (None, "skip") and "filter" not in case:
        return  # PreFilter rejected the pod: Filter never runs
    expected = case.get("filter") or [None] * len(case["nodes"])  # PreFilter Skip: nothing may reject the pod
    got = [_status(plugin.filter_node(pod, state.node(n["name"])), want)
           for n, want in zip(case["nodes"], expected, strict=True)]
    assert got == expected


def test_added_affinity_is_a_plugin_argument():
    """TestNodeAffinity "Doesn't match added affinity": NodeAffinityArgs.addedAffinity rejects with its own text."""
    from kubectl_wasdra.sched.filters.node_affinity import NodeAffinity

    plugin = NodeAffinity({"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["bar"]}]}]}})
    state = _state({}, {"nodes": [{"name": "node2", "labels": {"zone": "foo"}}]})
    status = plugin.filter_node(build_pod_info(_pod({})), state.node("node2"))
    assert _status(status) == ["UnschedulableAndUnresolvable", "node(s) didn't match scheduler-enforced node affinity"]
