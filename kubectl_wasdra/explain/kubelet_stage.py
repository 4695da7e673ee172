"""The stage after binding: what each placed pod's kubelet answers (kubelet/admission.py), for nodes whose NUMA facts
the snapshot holds (NodeResourceTopology, KubeletConfigz). kube-scheduler never sees this answer: a pod it binds may be
rejected by the kubelet (TopologyAffinityError, ...), end Failed and not be rescheduled.

Pods are admitted in queue order, each consuming its node's free NUMA resources, so pods of a gang that land on one
node see each other. For a rejected pod, the other NUMA-described nodes that pass the scheduler's static filters and
whose kubelet would admit it are listed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.cluster.numa_kinds import NRT_KIND
from kubectl_wasdra.explain.placement_map import numa_attribute
from kubectl_wasdra.kubelet.admission import Verdict, admit
from kubectl_wasdra.kubelet.facts import NodeNuma, facts_of
from kubectl_wasdra.kubelet.providers import Free, free_of
from kubectl_wasdra.kubelet.requests import POD_LEVEL_GATE
from kubectl_wasdra.sched.placement import run_filters


@dataclass
class KubeletStage:
    """Per pod key ("namespace/name"): the node and the kubelet's verdict; for rejected pods, nodes that would admit."""

    verdicts: dict[str, tuple[str, Verdict]] = field(default_factory=dict)
    admitters: dict[str, list[str]] = field(default_factory=dict)


class _Nodes:
    """NUMA facts and free amounts per node, read once."""

    def __init__(self, snapshot: Any) -> None:
        self.snapshot = snapshot
        self.facts: dict[str, NodeNuma | None] = {}
        self.free: dict[str, Free] = {}
        self.described = sorted((o.get("metadata") or {}).get("name", "") for o in snapshot.of_kind(NRT_KIND))

    def of(self, node: str) -> NodeNuma | None:
        if node not in self.facts:
            self.facts[node] = facts_of(self.snapshot, node) if self.described else None
        return self.facts[node]

    def free_of(self, node: str, facts: NodeNuma) -> Free:
        if node not in self.free:
            self.free[node] = free_of(facts)
        return self.free[node]


def _pods(results: Iterable[Any]) -> dict[str, Any]:
    return {p.key: p for r in results for p in r.pods}


def run_stage(sim: Any, results: Iterable[Any]) -> KubeletStage:
    """Admit every placed pod of `results` (queue order) on its node; nothing to do without NodeResourceTopology."""
    stage = KubeletStage()
    nodes = _Nodes(sim.snapshot)
    if not nodes.described:
        return stage
    results = list(results)
    infos = _pods(results)
    gates = {POD_LEVEL_GATE: sim.gates.enabled(POD_LEVEL_GATE)}
    for result in results:
        placements = [(k, v) for c in [result, *result.children] for k, v in sorted(c.placement.items())]
        for key, node in placements:
            facts = nodes.of(node)
            if facts is None or key not in infos:
                continue
            verdict = admit(infos[key].pod, facts, nodes.free_of(node, facts), gates)
            stage.verdicts[key] = (node, verdict)
            if not verdict.admitted:
                stage.admitters[key] = _admitters(sim, infos[key], node, nodes, gates)
    return stage


def _admitters(sim: Any, pod: Any, chosen: str, nodes: _Nodes, gates: Mapping[str, bool]) -> list[str]:
    """Other NUMA-described nodes that pass the static filters and whose kubelet would admit the pod now."""
    out = []
    for name in nodes.described:
        facts = nodes.of(name) if name != chosen else None
        if facts is None or name not in sim.state.facts:
            continue
        if run_filters(pod, sim.state.node(name), static=True) is not None:
            continue
        if admit(pod.pod, facts, copy.deepcopy(nodes.free_of(name, facts)), gates).admitted:
            out.append(name)
    return out


def _line(key: str, node: str, verdict: Verdict, admitters: list[str]) -> str:
    why = f"{verdict.reason}: {verdict.detail or verdict.message}"
    where = f"kubelets that would admit it: {', '.join(admitters)}" if admitters else "no other kubelet would admit it"
    return f"{key}: kube-scheduler: fits on {node}; kubelet on {node} would reject: {why} ({where})"


def apply_stage(diagnosis: Any, result: Any, stage: KubeletStage) -> None:
    """Add the kubelet's verdicts for the group's pods: NUMA placement per admitted pod, a KubeletRejected reason per
    rejected pod (the group then does not run as planned: fits is False), and the gang's count after admission."""
    from kubectl_wasdra.explain.model import ReasonItem
    from kubectl_wasdra.reasons import Reason

    keys = [k for c in [result, *result.children] for k in sorted(c.placement)]
    rejected = []
    for key in keys:
        if key not in stage.verdicts:
            continue
        node, verdict = stage.verdicts[key]
        if verdict.admitted:
            diagnosis.numa[key.split("/", 1)[1]] = {"node": node, "containers": verdict.placements,
                                                     **({"notes": verdict.notes} if verdict.notes else {})}
            continue
        admitters = stage.admitters.get(key, [])
        rejected.append(key)
        diagnosis.reasons.append(ReasonItem(Reason.KUBELET_REJECTED.value, _line(key, node, verdict, admitters), None, {
            "pod": key, "node": node, "reason": verdict.reason, "message": verdict.message, "detail": verdict.detail,
            "admittingNodes": admitters, "notes": verdict.notes}))
    if not rejected:
        return
    diagnosis.fits = False
    running = len(keys) - len(rejected)
    if diagnosis.min_count and running < diagnosis.min_count:
        diagnosis.reasons.append(ReasonItem(Reason.KUBELET_REJECTED.value, (
            f"after kubelet admission {running} pod(s) run, fewer than minCount {diagnosis.min_count}: the gang is "
            "bound but cannot make progress (rejected pods end Failed and are not rescheduled)"), None,
            {"running": running, "minCount": diagnosis.min_count}))


def claim_numa(snapshot: Any, claims: Mapping[str, Iterable[Mapping[str, Any]]]) -> dict[str, list[Any]]:
    """Per allocated claim, the NUMA node of each device in allocation order; claims with no NUMA-publishing device
    are left out."""
    devices = snapshot.devices
    out = {}
    for claim, allocated in claims.items():
        values = [numa_attribute(devices.get((d.get("driver"), d.get("pool"), d.get("device")))) for d in allocated]
        if any(v is not None for v in values):
            out[claim] = values
    return out
