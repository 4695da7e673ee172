"""CompositePodGroup: children PodGroups scheduled top-down in creation order within each parent placement, without
backtracking; a parent placement is feasible when at least minGroupCount children succeed.

Upstream: kubernetes/kubernetes pkg/scheduler/algorithm_podgroup.go (compositePodGroupSchedulingPlacementAlgorithm,
podGroupSchedulingRecursiveAlgorithm) and plugins/gangscheduling (getMinCount for composites), release-1.37.
Only one level (composite -> pod groups) is simulated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kubectl_wasdra.sched.queue import Entry
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.state import SchedState

if TYPE_CHECKING:
    from kubectl_wasdra.sched.simulate import Simulation

CANNOT_SATISFY: Final = "minGroupCount ({m}) cannot be satisfied: {s} scheduled, {r} remaining"


def _in_domain(sim: Simulation, entry: Entry, state: SchedState, nodes: tuple[str, ...]) -> tuple[list[GroupResult], SchedState]:
    results = []
    for child in entry.children:
        result = sim.place(child, state, nodes=nodes)
        results.append(result)
        if result.fits and result.after is not None:
            state = result.after
    return results, state


def place_composite(sim: Simulation, entry: Entry, state: SchedState) -> GroupResult:
    """The composite's result with one child result per PodGroup (the children of the best parent placement)."""
    result = GroupResult(entry, fits=False, notices=list(entry.notices), before=state)
    key = entry.topology_key
    placements = list(state.domain_index(key).items()) if key else [("", state.node_names)]
    best: tuple[int, list[GroupResult], SchedState, str] | None = None
    for value, nodes in placements:
        children, after = _in_domain(sim, entry, state, nodes)
        succeeded = sum(1 for c in children if c.fits)
        if best is None or succeeded > best[0]:
            best = (succeeded, children, after, value)
    if best is None:
        result.message = "0/0 placements are available"
        return result
    succeeded, children, after, value = best
    result.children = children
    if succeeded >= entry.min_count:
        result.fits, result.after = True, after
        for child in children:
            result.placement.update(child.placement)
            result.claims.update(child.claims)
        result.domain = {entry.topology_key: value} if entry.topology_key else None
    else:
        result.message = CANNOT_SATISFY.format(m=entry.min_count, s=succeeded, r=0)
        if len(placements) > 1:
            result.message = f"0/{len(placements)} placements are available, first placement status: {result.message}"
        for child in children:  # a failing ancestor cancels the successes below it
            if child.fits:
                child.fits, child.after, child.message = False, None, result.message
    return result
