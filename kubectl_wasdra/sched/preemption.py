"""The PostFilter tail kube-scheduler appends to a single pod's FailedScheduling message (pods of a pod group get
none in 1.37): DynamicResources' claim deallocation, then DefaultPreemption's dry run.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (PostFilter),
pkg/scheduler/framework/preemption/preemption.go (nodesWherePreemptionMightHelp, SelectVictimsOnNode) and
plugins/defaultpreemption/default_preemption.go (PodEligibleToPreemptOthers), release-1.37.
Dry run: a node whose filters said Unschedulable loses every lower-priority pod ("No preemption victims found for
incoming pod" when it has none) and the filters run again; UnschedulableAndUnresolvable nodes and nodes PreFilter left
out are "Preemption is not helpful for scheduling". Simplified: devices held by victims stay allocated, and
PodDisruptionBudgets, nominated pods and the reprieve of victims are not modelled.
"""

from __future__ import annotations

import functools
from typing import Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.filters import node_resources_fit
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status

NO_CLAIMS: Final = "no new claims to deallocate"
STILL_NOT: Final = "still not schedulable"
NEVER: Final = "not eligible due to preemptionPolicy=Never."
NOT_HELPFUL: Final = "Preemption is not helpful for scheduling"
NO_VICTIMS: Final = "No preemption victims found for incoming pod"
_RESOURCE_REASONS: Final = (Reason.INSUFFICIENT_RESOURCE, Reason.TOO_MANY_PODS)


@functools.cache
def _not_helpful(reason: Reason) -> Status:
    """One shared "not helpful" status per reason (statuses are immutable)."""
    return Status.unresolvable(reason, NOT_HELPFUL)


def _without_victims(pod: PodInfo, node: NodeInfo, victims: list[PodInfo]) -> Status | None:
    """NodeResourcesFit on the node with `victims` gone: enough when only resources kept the pod off the node."""
    requested = dict(node.requested)
    for victim in victims:
        for resource, value in victim.requests.items():
            requested[resource] = requested.get(resource, 0) - value
    survivors = tuple(p for p in node.pods if p.priority >= pod.priority)
    trial = NodeInfo(node.facts, requested, survivors, node.state)
    return node_resources_fit.filter_node(pod, trial)


def select_victims(pod: PodInfo, name: str, status: Status, state: SchedState) -> tuple[Status | None, int]:
    """SelectVictimsOnNode for a node the filters found Unschedulable: every lower-priority pod removed and the
    filters run again (the node's status then, or None when the pod fits), and how many pods that removes."""
    node = state.node(name)
    victims = [p for p in node.pods if p.priority < pod.priority]
    if not victims:
        return Status.unresolvable(status.reason, NO_VICTIMS), 0
    if not pod.is_stateful and all(s.reason in _RESOURCE_REASONS for s in status.all_reasons()):
        return _without_victims(pod, node, victims), len(victims)
    from kubectl_wasdra.sched.placement import run_filters

    mark = state.begin()
    try:
        state.remove_pods(name, victims)
        return run_filters(pod, state.node(name)), len(victims)
    finally:
        state.rollback(mark)


def post_filter_message(pod: PodInfo, error: FitError, state: SchedState) -> tuple[str, dict[str, int]]:
    """(PostFilter text, {node: victims} where preemption would make room); the text is empty when preemption
    would succeed (the pod is then nominated and retried)."""
    claims = state.dra.claims_of(pod) if state.dra is not None and pod.claims_or_extended else ()
    parts = [STILL_NOT if claims else NO_CLAIMS]
    if pod.preemption_policy == "Never":
        return ", ".join([*parts, f"preemption: {NEVER}"]), {}
    statuses: dict[str, Status] = {}
    helpful: dict[str, int] = {}
    for name in sorted(state.node_names):
        status = error.statuses.get(name)
        if status is None:
            continue
        if status.code is not Code.UNSCHEDULABLE:  # nodesWherePreemptionMightHelp: only Unschedulable nodes
            statuses[name] = _not_helpful(status.reason)
            continue
        after, victims = select_victims(pod, name, status, state)
        if after is None:
            helpful[name] = victims
        else:
            statuses[name] = after
    if helpful:
        return "", helpful
    inner = FitError(pod.key, error.num_all_nodes, statuses).message()
    return ", ".join([*parts, f"preemption: {inner}"]), {}
