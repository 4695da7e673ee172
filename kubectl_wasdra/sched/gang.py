"""The pod group scheduling cycle inside one placement (set of nodes), as kube-scheduler 1.37 runs it.

Upstream: kubernetes/kubernetes pkg/scheduler/algorithm_podgroup.go (podGroupSchedulingDefaultAlgorithm) and
pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go (PlacementFeasible), release-1.37:
feasibility is checked before the loop and after every pod with M = minCount (basic: 1), S = scheduled,
R = not yet tried; S + R < M stops early, S < M at the end fails, S >= M succeeds and extra pods are still placed.
Pods are assumed in the state inside a transaction so later members see them; a failed cycle is rolled back.
1.36 (schedule_one_podgroup.go at v1.36.2, podGroupSchedulingDefaultAlgorithm) never stops early: every pod is
tried, and each pod that fits nowhere runs the PostFilter plugins right away (`post_filter`), with the pods before
it still assumed; the group is judged by GangScheduling's Permit, which is the same S >= M at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.placement import diagnose_pod, find_node, is_stateful
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profiles import FitArgs
from kubectl_wasdra.sched.scoring import placement_fit_score
from kubectl_wasdra.sched.state import SchedState

CANNOT_SATISFY: Final = "minCount ({m}) cannot be satisfied: {s} scheduled, {r} remaining"
NOT_YET: Final = "minCount ({m}) is not yet satisfied: {s} scheduled, {r} remaining"
NO_PODS: Final = "no pods were schedulable"  # RunRootSchedulingAlgorithm: success without a new pod
NO_EARLY_STOP_MINOR: Final = 36  # 1.36's cycle tries every pod (schedule_one_podgroup.go v1.36.2)

# The PostFilter text of a pod that fits nowhere in the cycle (its message is its FitError followed by this text);
# "" when preemption would make room (the pod then waits for its group like a pod that fits); None: no PostFilter ran.
PostFilter = Callable[[PodInfo, FitError, SchedState], str | None]


@dataclass
class Attempt:
    """One cycle in one placement: which pods went where, which failed and why, and the group's message."""

    nodes: tuple[str, ...]
    domain: tuple[str, str] | None
    success: bool = False
    message: str = ""
    placed: dict[str, str] = field(default_factory=dict)
    failed: dict[str, FitError] = field(default_factory=dict)
    placeable: int = 0  # pods that would fit if the loop had not stopped early (for the explanation)
    scheduled: int = 0
    fit_score: int = 0  # NodeResourcesFit's placement score (scoring.placement_fit_score) of a topology placement
    devices: dict[tuple[str, str], tuple[Mapping[str, str], ...]] = field(default_factory=dict)  # claims of this attempt
    tails: dict[str, str | None] = field(default_factory=dict)  # PostFilter text of each failed pod (run_cycle `post_filter`)


def _feasibility(m: int, s: int, r: int) -> tuple[bool, str]:
    """(proceed, message); message "" means minCount is met."""
    if s + r < m:
        return False, CANNOT_SATISFY.format(m=m, s=s, r=r)
    if s < m:
        return True, NOT_YET.format(m=m, s=s, r=r)
    return True, ""


def _try(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], owner: str, attempt: Attempt,
         diagnosed: dict[bytes, FitError] | None, post_filter: PostFilter | None = None) -> bool:
    node = find_node(pod, state, nodes)
    if node is not None:
        state.assume(pod, node, owner)
        attempt.placed[pod.key] = node
        return True
    if diagnosed is None:
        attempt.failed[pod.key] = FitError(pod.key, len(nodes), {})
        return False
    stateful = is_stateful(pod, state)
    fit = None if stateful else diagnosed.get(pod.signature) or _diagnosed_before(pod, state, nodes)
    if fit is None:
        fit = diagnose_pod(pod, state, nodes)
        if not stateful:
            state.diagnosed[(pod.signature, id(nodes))] = (state.version, fit, nodes)
    diagnosed[pod.signature] = fit
    attempt.failed[pod.key] = fit.for_pod(pod.key)
    if post_filter is not None and not fit.pre_filter_error:
        attempt.tails[pod.key] = post_filter(pod, fit, state)
    return False


def _diagnosed_before(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> FitError | None:
    """The diagnosis of an earlier pod of the same signature over the same nodes while nothing was placed or freed
    since (`version` unchanged): a queue of identical pods that do not fit is diagnosed once, not once per pod."""
    found = state.diagnosed.get((pod.signature, id(nodes)))
    return found[1] if found is not None and found[0] == state.version and found[2] is nodes else None


def _record(attempt: Attempt, pods: list[PodInfo], state: SchedState) -> None:
    """What placement scoring and the explanation need of the attempt before it is rolled back: NodeResourcesFit's
    placement score and the devices it took."""
    if attempt.domain is not None:  # only topology placements are compared with each other
        placed = [p for p in pods if p.key in attempt.placed]
        profile = pods[0].profile if pods else None
        resources = profile.fit.resources if profile is not None else FitArgs().resources
        attempt.fit_score = placement_fit_score(state, attempt.nodes, placed, resources)
    if state.dra is not None:
        for pod in pods:
            for claim in state.dra.claims_of(pod):
                if claim.key in state.dra.devices:
                    attempt.devices[claim.key] = state.dra.devices[claim.key]


def run_cycle(pods: list[PodInfo], min_count: int, scheduled: int, state: SchedState, nodes: tuple[str, ...],
              owner: str, domain: tuple[str, str] | None = None, keep: bool = True, diagnose: bool = True,
              post_filter: PostFilter | None = None) -> Attempt:
    """Place `pods` (already in queue order) in `nodes`; the placements stay in `state` only on success with `keep`.
    With `diagnose` (and an explaining state) every pod that does not fit gets its per-node statuses and, with
    `post_filter`, its PostFilter text."""
    mark = state.begin()
    attempt = Attempt(nodes=nodes, domain=domain)
    s, r = scheduled, len(pods)
    diagnosed: dict[bytes, FitError] | None = {} if diagnose and state.explain else None
    proceed, message = _feasibility(min_count, s, r)
    early_stop = state.minor != NO_EARLY_STOP_MINOR
    stopped_at = 0 if not proceed and early_stop else None
    for index, pod in enumerate(pods):
        if stopped_at is not None:
            break
        r -= 1
        if _try(pod, state, nodes, owner, attempt, diagnosed, post_filter if diagnosed is not None else None):
            s += 1
        proceed, message = _feasibility(min_count, s, r)
        if not proceed and early_stop:
            stopped_at = index + 1
    attempt.scheduled, attempt.message = s, message
    attempt.success = not message and bool(attempt.placed)
    if not message and not attempt.placed:
        attempt.message = NO_PODS
    attempt.placeable = len(attempt.placed)
    if state.explain and not attempt.success and stopped_at is not None and stopped_at < len(pods):
        attempt.placeable += _count_rest(pods[stopped_at:], state, nodes, owner)
    _record(attempt, pods, state)
    if attempt.success and keep:
        state.commit(mark)
    else:
        state.rollback(mark)
    return attempt


def _count_rest(pods: list[PodInfo], state: SchedState, nodes: tuple[str, ...], owner: str) -> int:
    """How many of the pods the early stop skipped would still fit (explanation only; rolled back with the attempt;
    kube-scheduler never tries them, so per-plugin results are not recorded)."""
    count = 0
    with state.unrecorded():
        for pod in pods:
            node = find_node(pod, state, nodes)
            if node is not None:
                state.assume(pod, node, owner)
                count += 1
    return count
