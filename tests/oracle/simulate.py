"""Our simulator's verdict on a generated scenario, in the shape the oracle's verdicts are stored in.

Per pending pod: {"node": the node it ends on (placed, or nominated after preemption) or None, "message": the
PodScheduled=False message when it is not placed (optionally "messages": every message kube-scheduler may write where it
picks one at random), "victims": pods evicted for it, "claims": {pod claim name: [[request,
driver, pool, device], ...]}}.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.dra.inventory import with_device_selectors
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.sched import placement, topology
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.simulation import Simulation
from tests.oracle.compare import interchangeable

# DeviceTaintRules: the 1.36.2 scheduler panics with DRADeviceTaintRules on, so the oracle applies the rules' taints to
# the devices itself; the simulator reads the rules, which it does with the gate on.
SIMULATOR_GATES = MappingProxyType({"DRADeviceTaintRules": True})
SIMULATOR_RUNTIME = MappingProxyType({"resource.k8s.io/v1beta2": True})


@contextmanager
def following(nodes: Mapping[str, str], own: dict[str, str], twins: Iterable[Collection[str]] = (),
              placed: dict[str, str] | None = None) -> Iterator[None]:
    """Place every pod where kube-scheduler placed it ({"namespace/pod": node}) when the simulator finds that node
    feasible, and record in `own` the node the simulator would have chosen itself.

    kube-scheduler breaks ties at random (schedule_one.go selectHost), and one different choice changes what every
    later pod sees. Following the recorded placements keeps both on one path, so that each pod is judged on the same
    cluster kube-scheduler judged it on; a difference is then that pod's own. Among equal totals the recorded node is
    offered first, so the simulator's own choice is the recorded one whenever it ties for the top score.

    Pods of a set of `twins` (compare.interchangeable) follow the set's nodes as a multiset: kube-scheduler tried
    them in an order of its own, so a pod takes its own choice while the set still has a pod there, else the best of
    the set's nodes left (those the set's pods do not hold in the simulation's state). `placed` records where each
    pod was put. Topology placements of equal score are likewise ordered with kube-scheduler's first."""
    original = placement.best_node
    set_of = {pod: index for index, pods in enumerate(twins) for pod in pods}
    wanted = [Counter(nodes[p] for p in pods if nodes.get(p)) for pods in twins]

    def best_node(scored: Mapping[str, Any], *args: Any) -> str:
        frame = sys._getframe(1).f_locals  # find_node's locals (placement.find_node calls best_node)
        pod = frame.get("pod")
        if pod is None:
            raise RuntimeError("placement.best_node is no longer called by a function with a local `pod`: "
                               "tests/oracle/simulate.py cannot follow kube-scheduler's placements")
        key = f"{pod.namespace}/{pod.name}"
        chosen = _followed(key, scored, args, frame.get("state"))
        if placed is not None:
            placed[key] = chosen
        return chosen

    def _followed(key: str, scored: Mapping[str, Any], args: tuple[Any, ...], state: Any) -> str:
        index = set_of.get(key)
        if index is not None and state is not None:
            held = Counter(n for n, pods in state.pods.items() for p in pods
                           if set_of.get(f"{p.namespace}/{p.name}") == index)
            left = {n: v for n, v in scored.items() if wanted[index][n] > held[n]}
            own[key] = original({**left, **scored}, *args)  # among equal totals, a node the set still has
            return own[key] if own[key] in left else original(left, *args) if left else own[key]
        want = nodes.get(key)
        if want in scored:
            scored = {want: scored[want], **{k: v for k, v in scored.items() if k != want}}
        chosen = original(scored, *args)
        own[key] = chosen
        return want if want in scored else chosen

    best_placement = topology._best_placement

    def best_placement_first(feasible: list[Any], scheduled: int, pods: list[Any]) -> Any:
        """Among placements of equal score (findBestPlacement breaks them at random) the one holding the group's
        pods where kube-scheduler put them is offered first."""
        theirs = {nodes.get(f"{p.namespace}/{p.name}") for p in pods} - {None}
        ordered = sorted(feasible, key=lambda a: not theirs or not theirs <= set(a.nodes))
        return best_placement(ordered, scheduled, pods)

    placement.best_node = best_node
    topology._best_placement = best_placement_first
    try:
        yield
    finally:
        placement.best_node = original
        topology._best_placement = best_placement


def simulate(scenario: dict[str, Any], follow: Mapping[str, str] = MappingProxyType({})) -> dict[str, dict[str, Any]]:
    """{"namespace/pod": verdict} for every pod of the scenario's manifests; `follow`: kube-scheduler's nodes, where
    the simulation places the pods when it finds them feasible (the verdict keeps the node it would have chosen)."""
    own: dict[str, str] = {}
    placed: dict[str, str] = {}
    with following(follow, own, interchangeable(scenario), placed):
        verdicts = _simulate(scenario)
    for key, verdict in verdicts.items():
        if verdict["node"] is not None and verdict["node"] == placed.get(key) and key in own:
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
    # the harness creates every object before the scheduling loop starts (tools/oracle/README.md)
    sim = Simulation(cluster.overlay(list(overlay.objects)), gates, queued_together=True)
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
    message, alternatives = "", []
    if node is None and key in result.pod_messages:  # 1.36: kube-scheduler's message for each pod of a group
        message, alternatives = result.pod_messages[key], sorted(result.message_alternatives.get(key, ()))
    elif node is None:
        error = result.pod_errors.get(key)
        message = result.message if result.entry.kind == "Pod" or error is None else error.message()
    claims: dict[str, list[list[str]]] = {}
    prefix = key + "-"
    for claim_key, devices in result.claims.items():
        namespace, claim = claim_key.split("/", 1)
        if f"{namespace}/{claim}".startswith(prefix):
            claims[claim[len(prefix) - len(namespace) - 1:]] = [
                [d.get("request", ""), d.get("driver", ""), d.get("pool", ""), d.get("device", "")] for d in devices]
    verdict = {"node": node, "message": message, "victims": victims, "claims": claims}
    if alternatives:
        verdict["messages"] = alternatives  # kube-scheduler writes one of these (a placement picked from a Go map)
    return verdict
