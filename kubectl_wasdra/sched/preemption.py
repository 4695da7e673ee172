"""The PostFilter tail kube-scheduler appends to a single pod's FailedScheduling message (pods of a pod group get
none in 1.37): DynamicResources' claim deallocation, then DefaultPreemption.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (PostFilter),
pkg/scheduler/framework/preemption/preemption.go (findCandidates, DryRunPreemption, SelectCandidate,
pickOneNodeForPreemption) and plugins/defaultpreemption/default_preemption.go (PodEligibleToPreemptOthers,
SelectVictimsOnNode, calculateNumCandidates), release-1.37.
Only nodes whose filters said Unschedulable are tried; each loses every lower-priority victim unit (sched/victims.py),
the filters run again, and units are reprieved most important first, PDB-violating ones first. The node is picked by
fewest PDB violations, lowest top victim priority, lowest priority sum, fewest victims, latest start of the top
victims. Simplified: devices held by victims stay allocated, nominated pods are not counted, the dry run starts at
the first node in name order instead of a random offset, and the last tie goes to the first node by name where
upstream takes whichever a Go map yields first.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.filters import volume_restrictions
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.placement import run_filters
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.preemption_model import Context, Preemption, victims_of
from kubectl_wasdra.sched.profile_plugins import plugins_for
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status
from kubectl_wasdra.sched.victims import (
    Selection,
    priority_of,
    remove,
    reprieve,
    start_time,
    units_of,
    whole_group_members,
)

NO_CLAIMS: Final = "no new claims to deallocate"
STILL_NOT: Final = "still not schedulable"
NEVER: Final = "not eligible due to preemptionPolicy=Never."
TERMINATING: Final = "not eligible due to a terminating pod on the nominated node."
NOT_HELPFUL: Final = "Preemption is not helpful for scheduling"
NO_VICTIMS: Final = "No preemption victims found for incoming pod"
MIN_PERCENTAGE: Final = 10  # DefaultPreemptionArgs defaults
MIN_ABSOLUTE: Final = 100
_SHIFT: Final = 2**31  # pickOneNodeForPreemption adds MaxInt32+1 so negative priorities sum sensibly


@functools.cache
def _not_helpful(reason: Reason) -> Status:
    """One shared "not helpful" status per reason (statuses are immutable)."""
    return Status.unresolvable(reason, NOT_HELPFUL)


def num_candidates(potential: int, percentage: int = MIN_PERCENTAGE, absolute: int = MIN_ABSOLUTE) -> int:
    """calculateNumCandidates: max(potential * percentage / 100, absolute), at most `potential`."""
    return min(max(potential * percentage // 100, absolute), potential)


def dry_run_filters(pod: PodInfo, state: SchedState, name: str) -> Status | None:
    """The filters on node `name` in a dry run's state, where victims are gone or back. VolumeRestrictions counts
    the pods using the pod's ReadWriteOncePod claims in PreFilter and keeps the count current through RemovePod and
    AddPod (volume_restrictions.go), so the count is taken again over the pods now in the state and speaks in the
    plugin's place in filter order."""
    status = run_filters(pod, state.node(name))
    if not pod.has_volumes or state.volume_index is None or not plugins_for(pod.profile).runs(volume_restrictions.NAME):
        return status
    in_use = volume_restrictions.rwop_in_use(pod, state)
    return status if in_use is None else volume_restrictions.in_filter_order(status, in_use)


def select_victims(pod: PodInfo, name: str, reason: Reason, state: SchedState, context: Context,
                   members: Mapping[str, list[PodInfo]] | None = None) -> tuple[Status | None, Selection | None]:
    """SelectVictimsOnNode: (the node's status with every lower-priority unit gone, None) when that is not enough,
    else (None, the minimal victims). Everything is rolled back."""
    if not any(priority_of(p, context.groups) < pod.priority for p in state.pods[name]):
        return Status.unresolvable(reason, NO_VICTIMS), None
    units = units_of(list(state.pods[name]), state, context.groups, members)
    potential = [u for u in units if u.priority < pod.priority]
    mark = state.begin()
    try:
        for unit in potential:
            remove(state, unit)
        status = dry_run_filters(pod, state, name)
        if status is not None:
            return status, None
        selection = reprieve(state, potential, context.budgets, lambda _unit: dry_run_filters(pod, state, name) is None)
        return None, selection
    finally:
        state.rollback(mark)


def _earliest_top_start(pods: list[PodInfo]) -> str:
    """GetEarliestPodStartTime: the earliest start among the highest-priority victims."""
    top = max(p.priority for p in pods)
    return min(start_time(p) for p in pods if p.priority == top)


def pick_node(candidates: Mapping[str, tuple[list[PodInfo], int]]) -> str:
    """pickOneNodeForPreemption over {node: (victim pods most important first, PDB violations)}."""
    names = list(candidates)

    def keep(score: Any) -> None:
        best = min(score(n) for n in names)
        names[:] = [n for n in names if score(n) == best]

    keep(lambda n: candidates[n][1])
    keep(lambda n: candidates[n][0][0].priority)
    keep(lambda n: sum(p.priority + _SHIFT for p in candidates[n][0]))
    keep(lambda n: len(candidates[n][0]))
    latest = max(_earliest_top_start(candidates[n][0]) for n in names)  # NOW ("~") sorts after every timestamp
    return next(n for n in names if _earliest_top_start(candidates[n][0]) == latest)


def _terminating_by_preemption(pod: PodInfo) -> bool:
    """PodTerminatingByPreemption: deletionTimestamp set and the first DisruptionTarget condition is
    True/PreemptionByScheduler."""
    status = pod.pod.get("status")
    for condition in (status.get("conditions") if isinstance(status, Mapping) else None) or ():
        if isinstance(condition, Mapping) and condition.get("type") == "DisruptionTarget":
            return pod.terminating and condition.get("status") == "True" and condition.get("reason") == "PreemptionByScheduler"
    return False


def nominated_node(pod: PodInfo) -> str:
    """status.nominatedNodeName, or "" when the pod has none."""
    status = pod.pod.get("status")
    return str((status.get("nominatedNodeName") if isinstance(status, Mapping) else None) or "")


def victim_terminating(node_name: str, priority: int, state: SchedState, context: Context) -> bool:
    """A possible victim (lower priority than `priority`) on the node is already terminating by preemption: the
    preemptor waits for it instead of preempting again (PodEligibleToPreemptOthers)."""
    return any(priority_of(p, context.groups) < priority and _terminating_by_preemption(p) for p in state.pods[node_name])


def eligible(pod: PodInfo, error: FitError, state: SchedState, context: Context) -> str:
    """PodEligibleToPreemptOthers: "" when eligible, else why not."""
    if pod.preemption_policy == "Never":
        return NEVER
    nominated = nominated_node(pod)
    if not nominated or nominated not in state.facts:
        return ""
    node_status = error.statuses.get(nominated)
    if node_status is not None and node_status.code is Code.UNRESOLVABLE:
        return ""
    return TERMINATING if victim_terminating(nominated, pod.priority, state, context) else ""


def dry_run(pod: PodInfo, error: FitError, state: SchedState, context: Context, offset: int = 0,
            percentage: int = MIN_PERCENTAGE, absolute: int = MIN_ABSOLUTE) -> tuple[dict[str, Selection], dict[str, Status]]:
    """DryRunPreemption over the Unschedulable nodes, from `offset` on (upstream: random) and wrapping around:
    candidates (non-violating first) and every other node's status."""
    statuses: dict[str, Status] = {}
    potential = []
    for name in state.node_names:
        status = error.statuses.get(name)
        if status is None:  # left out by PreFilter: absent from the map means UnschedulableAndUnresolvable
            statuses[name] = _not_helpful(Reason.NODE_AFFINITY_MISMATCH)
        elif status.code is not Code.UNSCHEDULABLE:  # nodesWherePreemptionMightHelp: only Unschedulable nodes
            statuses[name] = _not_helpful(status.reason)
        else:
            potential.append(name)
    wanted = num_candidates(len(potential), percentage, absolute)
    clean: dict[str, Selection] = {}
    violating: dict[str, Selection] = {}
    start = offset % len(potential) if potential else 0
    members = whole_group_members(state, context.groups)
    for name in potential[start:] + potential[:start]:
        if clean and len(clean) + len(violating) >= wanted:  # enough candidates, one of them without violations
            break
        after, selection = select_victims(pod, name, error.statuses[name].reason, state, context, members)
        if selection is None:
            statuses[name] = after or _not_helpful(error.statuses[name].reason)
            continue
        bucket = violating if selection.violating else clean
        if len(bucket) < wanted:
            bucket[name] = selection
    return {**clean, **violating}, statuses


def preempt(pod: PodInfo, error: FitError, state: SchedState, context: Context) -> Preemption:
    """DefaultPreemption for a pod that fits nowhere: the nominated node and victims, or why it does not help."""
    why = eligible(pod, error, state, context)
    if why:
        return Preemption(message=f"preemption: {why}", attempted=False)
    candidates, statuses = dry_run(pod, error, state, context)
    if not candidates:
        inner = FitError(pod.key, error.num_all_nodes, statuses).message()
        return Preemption(message=f"preemption: {inner}")
    node = pick_node({n: (s.pods, len(s.violating)) for n, s in candidates.items()})
    victims, spared = victims_of(candidates[node], {node})
    return Preemption({pod.key: node}, victims, spared)


def post_filter_message(pod: PodInfo, error: FitError, state: SchedState,
                        context: Context | None = None) -> tuple[str, Preemption]:
    """(PostFilter text, preemption's answer); the text is empty when preemption would succeed (the pod is then
    nominated and retried)."""
    answer = preempt(pod, error, state, context or Context())
    if answer.helps:
        return "", answer
    return ", ".join([claims_post_filter(pod, state), answer.message]), answer


def claims_post_filter(pod: PodInfo, state: SchedState) -> str:
    """DynamicResources' PostFilter text, which comes first: nothing to deallocate for a pod without claims."""
    claims = state.dra.claims_of(pod) if state.dra is not None and pod.claims_or_extended else ()
    return STILL_NOT if claims else NO_CLAIMS

