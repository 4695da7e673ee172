"""count_copies(): place copies of one pod or one pod group, one after another, until one does not fit.

The cluster is prepared once (Simulation: node facts, pod infos, device inventory, CEL results) and the queue is run up
to the shape's own entry, exactly as `explain` runs it; each further copy is then placed in that same state by the same
simulator (gangs all or nothing, topology domains searched, devices allocated), so N copies fit here exactly when
`explain` of the shape and N-1 renamed copies after it says they all fit. The copy that does not fit is placed once
more with explanations on: its per-node statuses say what ran out where (capacity_limits.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.explain.capacity_limits import Limit, limit_of
from kubectl_wasdra.explain.capacity_model import CapacityReport, DomainCapacity, NodeCapacity
from kubectl_wasdra.explain.overlay import Overlay
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.copies import copy_entry
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.queue import Entry
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.simulation import Simulation

MAX_COPIES: Final = 10_000  # --max default: a bound on time and output, said in the answer when reached


@dataclass
class Placed:
    """The copies that fit (in order) and the result of the one that did not (None when the cap stopped the run), or
    the pods of the first copy a kubelet rejects."""

    entry: Entry
    fitted: list[GroupResult] = field(default_factory=list)
    failed: GroupResult | None = None
    before: list[GroupResult] = field(default_factory=list)  # the queue's entries placed before the shape
    rejected: list[tuple[str, str, Any]] = field(default_factory=list)  # (pod, node, kubelet Verdict) of the cut copy


def shape_entry(sim: Simulation, overlay: Overlay) -> Entry:
    """The one queue entry the manifests define; WasdraError when they define none or several, or a composite."""
    ours = [e for e in sim.entries if (e.kind == "Pod" and (e.namespace, e.name) in overlay.pods)
            or (e.kind != "Pod" and ((e.namespace, e.name) in overlay.groups
                                     or any((p.namespace, p.name) in overlay.pods for p in e.pods)))]
    if not ours:
        raise WasdraError("the manifests define no pod to schedule", where="-f",
                          hint="give one Pod, one Job, or one PodGroup/Workload with its pods")
    if len(ours) > 1:
        names = ", ".join(f"{e.kind} {e.namespace}/{e.name}" for e in ours[:3]) + (" ..." if len(ours) > 3 else "")
        raise WasdraError(f"capacity counts copies of one pod or one group, the manifests define {len(ours)}: {names}",
                          where="-f", hint="give one Pod, or put the pods in one PodGroup")
    if ours[0].kind == "CompositePodGroup":
        raise WasdraError(f"CompositePodGroup {ours[0].namespace}/{ours[0].name}: copies of composite groups are not "
                          "counted", where="-f", hint="count one of its PodGroups with its pods")
    return ours[0]


def place_copies(sim: Simulation, overlay: Overlay, max_copies: int) -> Placed:
    """Run the queue up to the shape's entry (copy 1), then place copies 2, 3, ... until one does not fit or
    `max_copies` fit. Copies are placed without preemption (a copy that fits only by evicting pods does not count)
    and without explanations, which only the failing copy gets. On nodes whose NUMA facts the snapshot holds, the
    kubelets then admit the placed pods in queue order, as explain's kubelet stage does: the first copy a kubelet
    rejects ends the count."""
    entry = shape_entry(sim, overlay)
    placed = Placed(entry)
    for queued in sim.entries:  # Simulation.run up to the shape, keeping the results before it for the kubelets
        result = sim.place_more(queued)
        if queued is entry:
            break
        placed.before.append(result)
    if not result.fits:
        placed.failed = result
        return placed
    placed.fitted.append(result)
    sim.preemption, sim.state.explain = False, False
    index = 1
    while len(placed.fitted) < max_copies:
        index += 1
        copy = copy_entry(entry, index, sim.queue.group_claims)
        result = sim.place_more(copy)
        if not result.fits:
            sim.state.explain = True  # the same placement again, now keeping every node's status
            placed.failed = sim.place_more(copy)
            break
        placed.fitted.append(result)
    sim.state.explain = True
    _admit(sim, placed)
    return placed


def _admit(sim: Simulation, placed: Placed) -> None:
    """Cut the copies at the first one a kubelet would reject (explain/kubelet_stage.py); nothing to do without
    NodeResourceTopology objects."""
    from kubectl_wasdra.explain.kubelet_stage import run_stage

    stage = run_stage(sim, [*placed.before, *placed.fitted])
    for index, result in enumerate(placed.fitted):
        rejected = [(key, *stage.verdicts[key]) for key in sorted(result.placement)
                    if key in stage.verdicts and not stage.verdicts[key][1].admitted]
        if rejected:
            placed.fitted, placed.rejected = placed.fitted[:index], rejected
            return


def _first_statuses(errors: Iterable[FitError]) -> FitError | None:
    """The first pod's FitError that names nodes (a PreFilter failure names none)."""
    return next((e for e in errors if e.statuses), None)


def device_classes(sim: Simulation, entry: Entry) -> str:
    """The DeviceClass names the entry's claims ask for (exactly and firstAvailable requests), comma-separated."""
    names: set[str] = set()
    dra = sim.state.dra
    for pod in entry.pods if dra is not None else ():
        for claim in dra.claims_of(pod):
            for request in ((claim.claim.get("spec") or {}).get("devices") or {}).get("requests") or ():
                if not isinstance(request, dict):
                    continue
                for item in (request.get("exactly") or {}, *(request.get("firstAvailable") or ())):
                    if isinstance(item, dict) and isinstance(item.get("deviceClassName"), str):
                        names.add(item["deviceClassName"])
    return ", ".join(sorted(names))


def failure_limits(result: GroupResult | None, classes: str = "") -> tuple[dict[str, Limit], dict[str, int]]:
    """Per node, what kept the failed copy off it; per domain value (topology-constrained groups), how many of its
    pods would have fitted there. `classes`: the shape's device classes (capacity_limits.limit_of)."""
    limits: dict[str, Limit] = {}
    placeable: dict[str, int] = {}
    if result is None:
        return limits, placeable
    outcome = result.outcome
    attempts = outcome.attempts if outcome is not None else ()
    sources = [(a.domain, a.failed.values(), a.placeable) for a in attempts] or [(None, result.pod_errors.values(), 0)]
    if result.kind == "Pod" and result.pod_errors:
        sources = [(None, result.pod_errors.values(), 0)]
    for domain, errors, count in sources:
        if domain is not None:
            placeable[str(domain[1])] = count
        fit = _first_statuses(errors)
        if fit is None:
            continue
        for node, status in fit.statuses.items():
            limits.setdefault(node, limit_of(status, classes))
    return limits, placeable


def kubelet_limits(rejected: list[tuple[str, str, Any]]) -> dict[str, Limit]:
    """The nodes whose kubelet rejects a pod of the cut copy, with the kubelet's reason (TopologyAffinityError ...)."""
    return {node: Limit(f"kubelet: {verdict.reason}", Reason.KUBELET_REJECTED.value, False,
                        {"reason": verdict.reason, "message": verdict.message})
            for _pod, node, verdict in rejected}


def kubelet_message(rejected: list[tuple[str, str, Any]]) -> str:
    """kube-scheduler places the copy; the kubelet of its node rejects a pod (explain's KubeletRejected wording)."""
    pod, node, verdict = rejected[0]
    return (f"{pod}: kube-scheduler: fits on {node}; kubelet on {node} would reject: {verdict.reason}: "
            f"{verdict.detail or verdict.message}")


def _histogram(limits: Iterable[Limit]) -> list[tuple[Limit, int]]:
    """Limits by node count, most nodes first, then by label."""
    counts = Counter(limits)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0].label))


def tally(sim: Simulation, placed: Placed, topology_key: str | None, max_copies: int, release: str) -> CapacityReport:
    """The report: copies, pods per node and per domain, limits per node, per domain and overall."""
    entry = placed.entry
    key = topology_key or entry.topology_key
    facts = sim.state.facts
    domain_of = {name: (str(f.labels[key]) if key in f.labels else None) if key else None for name, f in facts.items()}
    pods: Counter[str] = Counter()
    copies: Counter[str] = Counter()
    for result in placed.fitted:
        nodes = list(result.placement.values())
        pods.update(nodes)
        values = {domain_of.get(n) for n in nodes}
        if len(values) == 1 and None not in values:
            copies[str(values.pop())] += 1
    if placed.rejected:
        limits, placeable, message = kubelet_limits(placed.rejected), {}, kubelet_message(placed.rejected)
    else:
        limits, placeable = failure_limits(placed.failed, device_classes(sim, entry))
        message = placed.failed.message if placed.failed is not None else ""
    nodes_out = [NodeCapacity(name, domain_of[name], pods[name], limits.get(name)) for name in facts]
    report = CapacityReport(release, entry.kind, entry.namespace, entry.name, len(entry.pods), len(placed.fitted),
                            max_copies, placed.failed is None and not placed.rejected, key, message,
                            constrained=bool(entry.topology_key))
    report.nodes = nodes_out
    report.limits = _histogram(n.limit for n in nodes_out if n.limit is not None)
    if key:
        report.domains = _domains(nodes_out, copies, placeable if entry.topology_key else {})
    return report


def _domains(nodes: list[NodeCapacity], copies: Counter[str], placeable: dict[str, int]) -> list[DomainCapacity]:
    """Per domain value: nodes, copies wholly inside it, pods, and its limits by node count."""
    by_value: dict[str, list[NodeCapacity]] = {}
    for node in nodes:
        if node.domain is not None:
            by_value.setdefault(node.domain, []).append(node)
    return [DomainCapacity(value, len(members), copies[value], sum(n.pods for n in members), placeable.get(value),
                           _histogram(n.limit for n in members if n.limit is not None))
            for value, members in by_value.items()]


def count_copies(sim: Simulation, overlay: Overlay, *, max_copies: int = MAX_COPIES, topology_key: str | None = None,
                 release: str = "") -> CapacityReport:
    """How many copies of the overlay's one pod or group fit in `sim` (a Simulation of the snapshot with the overlay),
    with per-domain and per-node counts and limits."""
    placed = place_copies(sim, overlay, max_copies)
    return tally(sim, placed, topology_key, max_copies, release or str(sim.gates.release))

