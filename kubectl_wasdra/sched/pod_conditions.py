"""The PodScheduled=False message kube-scheduler 1.36 writes on each pod of a pod group that was not bound.

Upstream (kubernetes/kubernetes v1.36.2): pkg/scheduler/schedule_one_podgroup.go runs every pod of the group through
schedulingAlgorithm (schedule_one.go), which appends the PostFilter plugins' text to the pod's FitError
(framework/types.go FitError.Error: "0/N nodes are available: <filters>. <PostFilter>"); submitPodGroupAlgorithmResult
then gives each pod that fits in a group that failed its Permit status behind errPodGroupUnschedulable. The PostFilter
text is DynamicResources' ("no new claims to deallocate") and then DefaultPreemption's
(plugins/defaultpreemption/default_preemption.go PostFilter: "not eligible due to placement-based pod group scheduling
limitation" for a group with scheduling constraints, "not eligible due to workload aware preemption enabled" with that
gate, else the pod's own preemption). With several topology placements and none feasible, the pods keep the results of
whichever placement came first out of a Go map (podGroupSchedulingPlacementAlgorithm's anyResult): any of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from kubectl_wasdra.sched.gang import Attempt
from kubectl_wasdra.sched.podinfo import PodInfo

GROUP_UNSCHEDULABLE: Final = "pod group is unschedulable"  # schedule_one_podgroup.go errPodGroupUnschedulable
GANG_WAIT: Final = "waiting for minCount pods from a gang to be scheduled"  # gangscheduling.go Permit
PERMIT_WAIT: Final = "one or more plugins asked to wait and no plugin rejected pod"  # runtime/framework.go RunPermitPlugins
WAITING_FOR_GANG: Final = f"{GROUP_UNSCHEDULABLE}, {GANG_WAIT}, {PERMIT_WAIT}"
NO_PLACEMENT: Final = "0/{k} placements are available, first placement status: {status}"  # schedule_one_podgroup.go
PLACEMENT_LIMITATION: Final = "preemption: not eligible due to placement-based pod group scheduling limitation"
WAP_ENABLED: Final = "preemption: not eligible due to workload aware preemption enabled"


def attempt_messages(attempt: Attempt, pods: Iterable[PodInfo], gang: bool) -> dict[str, str]:
    """{pod key: PodScheduled message} for the pods of `attempt` that it leaves unbound: a pod that fits nowhere gets
    its FitError and PostFilter text; a pod that fits (or would after preemption) in a gang that failed gets the gang
    Permit's wait behind "pod group is unschedulable". Pods bound by a successful attempt get none."""
    out: dict[str, str] = {}
    for pod in pods:
        error = attempt.failed.get(pod.key)
        tail = attempt.tails.get(pod.key)
        if error is not None and tail != "":
            out[pod.key] = f"{error.message()} {tail}" if tail else error.message()
        elif not attempt.success and gang and (error is not None or pod.key in attempt.placed):
            out[pod.key] = WAITING_FOR_GANG
    return out


def group_messages(chosen: Attempt | None, attempts: Iterable[Attempt], pods: list[PodInfo],
                   gang: bool) -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """(message per unbound pod, every message kube-scheduler may have written instead): the chosen attempt's, or
    when every placement failed the first placement's, with the others' as the alternatives."""
    tried = list(attempts)
    if chosen is not None or len(tried) <= 1:
        first = chosen if chosen is not None else (tried[0] if tried else None)
        return (attempt_messages(first, pods, gang) if first is not None else {}), {}
    each = [attempt_messages(a, pods, gang) for a in tried]
    keys = {key for messages in each for key in messages}
    return each[0], {key: frozenset(m[key] for m in each if key in m) for key in keys}


def group_condition(placements: int, topology_gate: bool) -> str:
    """The PodGroupScheduled=False message of a group that failed (submitPodGroupAlgorithmResult writes the
    algorithm's status): with TopologyAwareWorkloadScheduling every group runs podGroupSchedulingPlacementAlgorithm,
    whose status names how many placements failed (a group without constraints has one, its parent placement)."""
    if not topology_gate:
        return GROUP_UNSCHEDULABLE
    return NO_PLACEMENT.format(k=max(placements, 1), status=GROUP_UNSCHEDULABLE)
