"""Our simulator's verdict on a generated scenario, in the shape the oracle's verdicts are stored in.

Per pending pod: {"node": the node it ends on (placed, or nominated after preemption) or None, "message": the
PodScheduled=False message when it is not placed, "victims": pods evicted for it, "claims": {pod claim name: [[request,
driver, pool, device], ...]}}.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.dra.inventory import with_device_selectors
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.sched import placement, preemption
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.simulation import Simulation

# DeviceTaintRules: the 1.36.2 scheduler panics with DRADeviceTaintRules on, so the oracle applies the rules' taints to
# the devices itself; the simulator reads the rules, which it does with the gate on.
SIMULATOR_GATES = MappingProxyType({"DRADeviceTaintRules": True})
SIMULATOR_RUNTIME = MappingProxyType({"resource.k8s.io/v1beta2": True})


@contextmanager
def following(nodes: Mapping[str, str], own: dict[str, str]) -> Iterator[None]:
    """Place every pod where kube-scheduler placed it ({"namespace/pod": node}) when the simulator finds that node
    feasible, and record in `own` the node the simulator would have chosen itself.

    kube-scheduler breaks ties at random (schedule_one.go selectHost), and one different choice changes what every
    later pod sees. Following the recorded placements keeps both on one path, so that each pod is judged on the same
    cluster kube-scheduler judged it on; a difference is then that pod's own. Among equal totals the recorded node is
    offered first, so the simulator's own choice is the recorded one whenever it ties for the top score."""
    original = placement.best_node

    def best_node(scored: Mapping[str, Any], *args: Any) -> str:
        pod = sys._getframe(1).f_locals.get("pod")  # find_node's pod (placement.find_node calls best_node)
        if pod is None:
            raise RuntimeError("placement.best_node is no longer called by a function with a local `pod`: "
                               "tests/oracle/simulate.py cannot follow kube-scheduler's placements")
        key = f"{pod.namespace}/{pod.name}"
        want = nodes.get(key)
        if want in scored:
            scored = {want: scored[want], **{k: v for k, v in scored.items() if k != want}}
        chosen = original(scored, *args)
        own[key] = chosen
        return want if want in scored else chosen

    def pick_node(candidates: Mapping[str, Any]) -> str:
        pod = sys._getframe(1).f_locals.get("pod")  # preempt()'s pod (preemption.preempt calls pick_node)
        if pod is None:
            raise RuntimeError("preemption.pick_node is no longer called by a function with a local `pod`: "
                               "tests/oracle/simulate.py cannot follow kube-scheduler's preemptions")
        tied = preemption.best_candidates(candidates)
        want = nodes.get(f"{pod.namespace}/{pod.name}")
        return want if want in tied else tied[0]

    original_pick = preemption.pick_node
    placement.best_node, preemption.pick_node = best_node, pick_node
    try:
        yield
    finally:
        placement.best_node, preemption.pick_node = original, original_pick


def simulate(scenario: dict[str, Any], follow: Mapping[str, str] = MappingProxyType({})) -> dict[str, dict[str, Any]]:
    """{"namespace/pod": verdict} for every pod of the scenario's manifests; `follow`: kube-scheduler's nodes, where
    the simulation places the pods when it finds them feasible (the verdict keeps the node it would have chosen)."""
    own: dict[str, str] = {}
    with following(follow, own):
        verdicts = _simulate(scenario)
    for key, verdict in verdicts.items():
        if verdict["node"] is not None and verdict["node"] == follow.get(key) and key in own:
            verdict["node"] = own[key]  # where the simulator itself would have put it
    return verdicts


def _simulate(scenario: dict[str, Any]) -> dict[str, dict[str, Any]]:
    from tests.oracle.scenarios import FEATURE_GATES, RELEASE, RUNTIME_CONFIG

    builder = SnapshotBuilder()
    for obj in scenario["snapshot"]:
        builder.add(obj)
    cluster = with_device_selectors(builder.build())
    overlay = build_overlay(scenario["manifests"])
    gates = make_gates(Release.parse(RELEASE), {**FEATURE_GATES, **SIMULATOR_GATES},
                       {**RUNTIME_CONFIG, **SIMULATOR_RUNTIME})
    sim = Simulation(cluster.overlay(list(overlay.objects)), gates)
    out: dict[str, dict[str, Any]] = {}
    for result in sim.run():
        for pod in result.entry.pods:
            key = f"{pod.namespace}/{pod.name}"
            if (pod.namespace, pod.name) in overlay.pods:
                out[key] = _verdict(result, key)
    for namespace, name in overlay.pods:  # pods no queue entry took (left out, blocked before the queue)
        out.setdefault(f"{namespace}/{name}", {"node": None, "message": "", "victims": [], "claims": {}})
    return out


def _verdict(result: Any, key: str) -> dict[str, Any]:
    node = result.placement.get(key)
    victims: list[str] = []
    preemption = result.extra.get("preemption")
    if node is None and preemption is not None and preemption.helps:
        node = preemption.nominated.get(key) or preemption.nominated.get(key.split("/", 1)[1])
        victims = sorted(f"{v.namespace}/{v.name}" for v in preemption.victims)
    message = ""
    if node is None:
        error = result.pod_errors.get(key)
        message = result.message if result.entry.kind == "Pod" or error is None else error.message()
    claims: dict[str, list[list[str]]] = {}
    prefix = key + "-"
    for claim_key, devices in result.claims.items():
        namespace, claim = claim_key.split("/", 1)
        if f"{namespace}/{claim}".startswith(prefix):
            claims[claim[len(prefix) - len(namespace) - 1:]] = [
                [d.get("request", ""), d.get("driver", ""), d.get("pool", ""), d.get("device", "")] for d in devices]
    return {"node": node, "message": message, "victims": victims, "claims": claims}
