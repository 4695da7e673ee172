"""What sends a pod back to the queue after its first attempt: its preemption's nomination, the deletion of preemption
victims, and a bound pod that a rejecting plugin's queueing hint accepts.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/preemption/executor.go (prepareCandidateAsync, PreemptPod),
pkg/scheduler/backend/queue (MoveAllToActiveOrBackoffQueue), framework/runtime/framework.go (addGENominatedPods),
plugins/interpodaffinity/plugin.go and plugins/podtopologyspread/plugin.go (isSchedulableAfterPodChange), v1.36.2.
Results are named by their index in the simulation's result list (queue order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.sched.filters import inter_pod_affinity, pod_topology_spread
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.preemption_model import Preemption
from kubectl_wasdra.sched.profile_plugins import plugins_for
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.state import SchedState

DELETION_DELAY: Final = 1  # entries tried after a preemption before its victims are gone


class Requeue:
    """Victims being deleted, nominated preemptors, pods that did not fit, and which of them go back to the queue."""

    def __init__(self, state: SchedState, snapshot: ClusterSnapshot) -> None:
        self.state, self.snapshot = state, snapshot
        self.deleting: list[list[Any]] = []  # [entries to wait, {node: victims}] of preemptions under way
        self.retry: set[int] = set()  # results whose pods an event moved back to the queue
        self.failed: set[int] = set()  # single pods that did not fit (and are not nominated)
        self.nominees: dict[int, tuple[PodInfo, str]] = {}  # preemptor and nominated node
        self.waiting_add: dict[int, Callable[[PodInfo], bool]] = {}  # see on_add

    def nominate(self, pod: PodInfo, answer: Preemption, state: SchedState) -> None:
        """After a pod's successful preemption: it counts on its nominated node for the pods tried after it, all of
        lower or equal priority (addGENominatedPods), and binds there when retried; its victims stay until `land`
        deletes them (devices they hold stay allocated: their claims outlive the pods). A victim an earlier preemptor
        is already deleting is not this pod's: its delete call finds the pod gone and records no Preempted event
        (executor.go PreemptPod)."""
        node = answer.nominated.get(pod.key) or next(iter(answer.nominated.values()), None)
        if node is not None:
            state.assume(pod, node)
        deleting = {(p.namespace, p.name) for batch in self.deleting for pods in batch[1].values() for p in pods}
        answer.victims = [v for v in answer.victims if (v.namespace, v.name) not in deleting]
        gone = {(v.namespace, v.name) for v in answer.victims}
        victims = {name: [p for p in state.pods[name] if (p.namespace, p.name) in gone]
                   for name in sorted({v.node for v in answer.victims})}
        self.deleting.append([DELETION_DELAY, victims])

    def land(self, results: list[GroupResult], force: bool = False) -> None:
        """Delete the victims of earlier preemptions once DELETION_DELAY more entries were tried (all of them with
        `force`): kube-scheduler deletes them asynchronously (prepareCandidateAsync) while the next pods are
        scheduled. Each deletion moves the pods that did not fit so far, and the nominated preemptors, back to the
        queue (MoveAllToActiveOrBackoffQueue on AssignedPodDelete)."""
        waiting = []
        for batch in self.deleting:
            if batch[0] > 0 and not force:
                batch[0] -= 1
                waiting.append(batch)
                continue
            for name, victims in sorted(batch[1].items()):
                gone = {id(p) for p in victims}
                present = [p for p in self.state.pods[name] if id(p) in gone]
                if present:
                    self.state.remove_pods(name, present)
            self.retry.update(self.failed)
            self.retry.update(self.nominees)
        self.deleting = waiting

    def track(self, results: list[GroupResult], index: int, evict: bool) -> None:
        """After placing results[index]: remember a failed pod or a preemptor's nomination (with `evict`), and send
        back the pods waiting for a pod like the ones just bound."""
        result = results[index]
        if result.entry.kind == "Pod" and not result.fits and retried(result):
            self.failed.add(index)
        else:
            self.failed.discard(index)
        answer = result.extra.get("preemption")
        if result.entry.kind == "Pod" and answer is not None and answer.helps and evict:
            pod = result.entry.pods[0]
            self.nominees[index] = (pod, answer.nominated.get(pod.key) or next(iter(answer.nominated.values())))
        self.on_add(results, index)

    def on_add(self, results: list[GroupResult], index: int) -> None:
        """A pod goes back to the queue when a pod is bound that the queueing hint of a plugin that rejected it accepts:
        InterPodAffinity when the bound pod matches all its required affinity terms (podMatchesAllAffinityTerms),
        PodTopologySpread when it is in the pod's namespace and matches a constraint's selector."""
        placed = results[index]
        if not placed.fits:
            hint = self._add_hint(placed) if placed.entry.kind == "Pod" else None
            if hint is not None:
                self.waiting_add[index] = hint
            return
        bound = [p for p in placed.entry.pods if p.key in placed.placement]
        for waiting, hint in sorted(self.waiting_add.items()):
            if waiting != index and any(hint(other) for other in bound):
                del self.waiting_add[waiting]
                self.retry.add(waiting)

    def _add_hint(self, result: GroupResult) -> Callable[[PodInfo], bool] | None:
        """For a pod that did not fit: the test a newly bound pod must pass to send it back to the queue, or None."""
        pod = result.entry.pods[0]
        spread = plugins_for(pod.profile).spread
        if not pod.affinity_terms and (spread is None or not spread.applies_to(pod)):
            return None  # neither plugin can have rejected it (PreFilter Skip): no need to read its node statuses
        error = result.pod_errors.get(pod.key)
        rejected = {status.plugin for status in error.statuses.values()} if error is not None else set()
        constraints: Any = []
        if pod_topology_spread.NAME in rejected:
            constraints = spread.constraints(pod, self.snapshot) if spread is not None else []
            constraints = [] if isinstance(constraints, str) else constraints
        affinity = inter_pod_affinity.NAME in rejected and bool(pod.affinity_terms)
        if not affinity and not constraints:
            return None
        return lambda other: (affinity and matches_all(pod.affinity_terms, other)) or (
            other.namespace == pod.namespace and any(c.selector.matches(other.labels) for c in constraints))


def matches_all(terms: tuple[Any, ...], other: PodInfo) -> bool:
    """podMatchesAllAffinityTerms: `other` matches every term (and there is one)."""
    return bool(terms) and all(term.matches(other.namespace, other.labels, None) for term in terms)


def retried(result: GroupResult) -> bool:
    """A pod that the filters rejected (not one left out as malformed or blocked before the queue) and that is not
    waiting on its own preemption: tried again when victims are deleted."""
    answer = result.extra.get("preemption")
    return result.entry.blocked is None and bool(result.pod_errors) and not (answer is not None and answer.helps)
