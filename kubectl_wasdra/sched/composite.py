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
    from kubectl_wasdra.sched.simulation import Simulation

CANNOT_SATISFY: Final = "minGroupCount ({m}) cannot be satisfied: {s} scheduled, {r} remaining"


def _in_domain(sim: Simulation, entry: Entry, state: SchedState, nodes: tuple[str, ...]) -> list[GroupResult]:
    """Children in creation order; each child that fits stays placed for the next one (no backtracking)."""
    return [sim.place(child, state, nodes=nodes) for child in entry.children]


def place_composite(sim: Simulation, entry: Entry, state: SchedState) -> GroupResult:
    """The composite's result with one child result per PodGroup (the children of the best parent placement)."""
    result = GroupResult(entry, fits=False, notices=list(entry.notices), state=state)
    if entry.blocked is not None:
        result.message = entry.blocked.message
        return result
    key = entry.topology_key
    placements = list(state.domain_index(key).items()) if key else [("", state.node_names)]
    best: tuple[int, str, tuple[str, ...]] | None = None
    for value, nodes in placements:
        mark = state.begin()
        succeeded = sum(1 for c in _in_domain(sim, entry, state, nodes) if c.fits)
        state.rollback(mark)
        if best is None or succeeded > best[0]:
            best = (succeeded, value, nodes)
    if best is None:
        result.message = "0/0 placements are available"
        return result
    succeeded, value, nodes = best
    mark = state.begin()
    result.children = _in_domain(sim, entry, state, nodes)
    if succeeded >= entry.min_count:
        state.commit(mark)
        result.fits = True
        for child in result.children:
            result.placement.update(child.placement)
            result.claims.update(child.claims)
        result.domain = {key: value} if key else None
        return result
    state.rollback(mark)
    result.message = CANNOT_SATISFY.format(m=entry.min_count, s=succeeded, r=0)
    if len(placements) > 1:
        result.message = f"0/{len(placements)} placements are available, first placement status: {result.message}"
    for child in result.children:  # a failing ancestor cancels the successes below it
        if child.fits:
            child.fits, child.message = False, result.message
    return result
