"""Topology-aware placement of one group: one placement per value of the constraint's label key, the gang cycle in
each, the best feasible placement chosen.

Upstream: kubernetes/kubernetes pkg/scheduler/algorithm_podgroup.go (podGroupSchedulingPlacementAlgorithm,
newPodGroupPlacementFitError) and pkg/scheduler/framework/plugins/topologyaware/topology_placement.go, release-1.37:
nodes without the label are in no placement; members already running pin the group to their domain; when no
placement is feasible the group reads "0/K placements are available, first placement status: <msg>".
Feasible placements are scored as findBestPlacement does (PodGroupPodsCount and NodeResourcesFit's MostAllocated
placement score, weighted); ties go to the first placement by label value where kube-scheduler picks at random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.gang import Attempt, PostFilter, run_cycle
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profiles import Profile
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code

NO_PLACEMENT: Final = "0/{k} placements are available, first placement status: {msg}"  # podGroupFitError.Error
DEFAULT_PLACEMENT_SCORES: Final = Profile().placement_scores  # default_plugins.go: PodGroupPodsCount 1, NodeResourcesFit 1
NO_LABEL: Final = 'no node has the label "{key}" of the topology constraint'  # not kube-scheduler's wording


@dataclass
class Outcome:
    """The group's result: success, kube-scheduler's group message, the chosen attempt and every attempt made."""

    success: bool
    message: str
    chosen: Attempt | None
    attempts: tuple[Attempt, ...]
    topology_key: str | None = None

    @property
    def best(self) -> Attempt | None:
        """The chosen attempt, or the failed one closest to fitting (closeness; ties: first tried)."""
        if self.chosen is not None:
            return self.chosen
        if len(self.attempts) < 2:  # closeness reads every node's status: not for a lone attempt (a pod, no domains)
            return self.attempts[0] if self.attempts else None
        return max(self.attempts, key=closeness)


# what freeing capacity on a node may change (DynamicResources reports device shortages as UnschedulableAndUnresolvable
# too, so the status code alone does not tell them from a taint or a selector)
_CAPACITY: Final = frozenset({Reason.INSUFFICIENT_RESOURCE, Reason.TOO_MANY_PODS, Reason.DEVICES_ALLOCATED,
                              Reason.CONSTRAINT_UNSATISFIABLE, Reason.CAPACITY_EXHAUSTED, Reason.COUNTERS_EXHAUSTED})


def closeness(attempt: Attempt) -> tuple[int, int]:
    """How near a failed placement came to fitting, higher is nearer: pods placeable, then the nodes on which the
    first pod that did not fit was stopped by what may change there (capacity or devices in use, Code.UNSCHEDULABLE),
    not by a taint, a selector or a missing label. A tainted rack and a full one both place 0 pods; the full one is
    where freeing or adding capacity would help."""
    error = next(iter(attempt.failed.values()), None)
    statuses = error.statuses.values() if error is not None else ()
    return attempt.placeable, sum(1 for s in statuses if s.code is Code.UNSCHEDULABLE or s.reason in _CAPACITY)


def _domains(key: str, state: SchedState, running_nodes: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    index = state.domain_index(key)
    values = {state.facts[n].labels.get(key) for n in running_nodes if n in state.facts}
    if running_nodes and len(values) == 1 and None not in values:
        value = values.pop()
        return [(value, index[value])]
    return list(index.items())


def _best_placement(feasible: list[Attempt], scheduled: int, pods: list[PodInfo]) -> Attempt:
    """findBestPlacement: the highest weighted sum of PodGroupPodsCount (scheduled plus proposed pods, normalized
    to 100 against the best placement, podgrouppodscount/podgroup_pods_count.go) and NodeResourcesFit's placement
    score (Attempt.fit_score), with the profile's placementScore weights; kube-scheduler breaks ties at random, we
    take the first placement by label value."""
    profile = pods[0].profile if pods else None
    weights = dict(profile.placement_scores if profile is not None else DEFAULT_PLACEMENT_SCORES)
    top = max(scheduled + len(a.placed) for a in feasible) or 1
    totals = [weights.get("PodGroupPodsCount", 0) * ((scheduled + len(a.placed)) * 100 // top)
              + weights.get("NodeResourcesFit", 0) * a.fit_score for a in feasible]
    return feasible[totals.index(max(totals))]


def _attempts(pods: list[PodInfo], min_count: int, scheduled: int, state: SchedState, owner: str, topology_key: str,
              running_nodes: tuple[str, ...], nodes: tuple[str, ...] | None, first_fit: bool) -> list[Attempt]:
    """The group cycle once per domain of `topology_key` (within `nodes` when given), each rolled back; with
    `first_fit` it stops at the first domain where the group fits."""
    allowed = set(nodes) if nodes is not None else None
    attempts = []
    for value, domain_nodes in _domains(topology_key, state, running_nodes):
        in_scope = domain_nodes if allowed is None else tuple(n for n in domain_nodes if n in allowed)
        if in_scope:
            attempts.append(run_cycle(pods, min_count, scheduled, state, in_scope, owner, (topology_key, value), keep=False,
                                      diagnose=False))
            if first_fit and attempts[-1].success:
                break
    return attempts


def schedule_group(pods: list[PodInfo], min_count: int, running_nodes: tuple[str, ...], state: SchedState,
                   owner: str, topology_key: str | None, nodes: tuple[str, ...] | None = None, keep: bool = True,
                   post_filter: PostFilter | None = None, first_fit: bool = False) -> Outcome:
    """Run the group cycle over all `nodes` (default: every node) or once per topology domain within them; with
    `keep` the chosen placement stays in `state`; `post_filter` (1.36) gives each failed pod its PostFilter text;
    with `first_fit` the first feasible domain is chosen and the rest are not tried (a what-if's question is whether
    the group fits, not which domain would score best)."""
    scope = nodes if nodes is not None else state.node_names
    scheduled = len(running_nodes)
    if not topology_key:
        attempt = run_cycle(pods, min_count, scheduled, state, scope, owner, keep=keep, post_filter=post_filter)
        return Outcome(attempt.success, attempt.message, attempt if attempt.success else None, (attempt,))
    with state.unrecorded() as recorder:  # per-plugin results: only the placement shown (below)
        attempts = _attempts(pods, min_count, scheduled, state, owner, topology_key, running_nodes, nodes, first_fit)
        feasible = [a for a in attempts if a.success]
        if not attempts:  # podGroupFitError prints the bare reason when there is no placement; this reason is ours
            return Outcome(False, NO_LABEL.format(key=topology_key), None, (), topology_key)
        if not feasible:
            outcome = Outcome(False, NO_PLACEMENT.format(k=len(attempts), msg=attempts[0].message), None,
                              tuple(attempts), topology_key)
            if state.explain:  # every placement gets its cause: the cycle again, diagnosing the pods that do not fit
                attempts = [run_cycle(pods, min_count, scheduled, state, a.nodes, owner, a.domain, keep=False,
                                      post_filter=post_filter) for a in attempts]
                outcome.attempts = tuple(attempts)
    if not feasible:
        closest = outcome.best
        if closest is not None and recorder is not None and recorder.wants(pods):  # the placement explained, recorded
            run_cycle(pods, min_count, scheduled, state, closest.nodes, owner, closest.domain, keep=False)
        return outcome
    best = _best_placement(feasible, scheduled, pods)
    if keep:  # evaluate the chosen placement again, this time keeping it (deterministic: same result)
        index = attempts.index(best)
        best = attempts[index] = run_cycle(pods, min_count, scheduled, state, best.nodes, owner, best.domain,
                                           post_filter=post_filter)
    return Outcome(True, "", best, tuple(attempts), topology_key)
