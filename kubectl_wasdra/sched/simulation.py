"""simulate(): place every pending pod and group of a snapshot in queue order against what is already bound.

Earlier entries consume what later ones need; a result remembers which entries had placed pods on each node. After
the queue, the pods that events sent back to it (sched/requeue.py) are tried again, in queue order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.kube.quantity import QuantityError
from kubectl_wasdra.sched import admission
from kubectl_wasdra.sched.admission import Gates
from kubectl_wasdra.sched.claims import extended_resource_classes, resolve_claims
from kubectl_wasdra.sched.filters.dynamic_resources import build_dra_state
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.group_preemption import preempt_group
from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.pod_conditions import PLACEMENT_LIMITATION, WAP_ENABLED, group_condition, group_messages
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.preemption import claims_post_filter, post_filter_message
from kubectl_wasdra.sched.preemption_model import Context, read_context
from kubectl_wasdra.sched.profiles import DEFAULT_CONFIG, SchedulerConfig
from kubectl_wasdra.sched.queue import Entry, QueueBuilder
from kubectl_wasdra.sched.requeue import Requeue
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.topology import Outcome, schedule_group
from kubectl_wasdra.sched.volumes import VolumeIndex

# what reading a malformed field raises (a list where a map belongs, a string count); SCHEMA findings report the field
MALFORMED: Final = (AttributeError, TypeError, KeyError, ValueError, IndexError, QuantityError)
DRA_KINDS = ("ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceClass")
DRA_STATIC = ("ResourceSlice", "ResourceClaim", "DeviceClass", "DeviceTaintRule")
DRA_INVENTORY = ("ResourceSlice", "DeviceClass", "DeviceTaintRule", "Namespace")  # what dra.Inventory reads
MAX_SETTLE_ROUNDS: Final = 8  # rounds of deleting victims and retrying; each round's retries may preempt again
GROUP_ENTRY_KINDS = ("PodGroup", "Workload")  # CompositePodGroup roots: preemption at the root is not modelled
PER_POD_POST_FILTER_MINOR: Final = 36  # schedule_one_podgroup.go v1.36.2: each pod of a group runs PostFilter
VOLUME_KINDS = ("PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode")


def _same(a: ClusterSnapshot, b: ClusterSnapshot, kinds: tuple[str, ...]) -> bool:
    """True when both snapshots hold the very same objects of these kinds (an overlay that did not touch them)."""
    for kind in kinds:
        left, right = a.of_kind(kind), b.of_kind(kind)
        if left is right:
            continue
        if len(left) != len(right) or any(x is not y for x, y in zip(left, right, strict=True)):
            return False
    return True


def _same_bound(a: list[tuple[PodInfo, str]], b: list[tuple[PodInfo, str]]) -> bool:
    """True when both queues start from the very same bound pods (the same PodInfo objects) on the same nodes."""
    return len(a) == len(b) and all(x[0] is y[0] and x[1] == y[1] for x, y in zip(a, b, strict=True))


class Simulation:
    """A snapshot prepared for simulation: node facts, the queue, the initial state with bound pods."""

    def __init__(self, snapshot: ClusterSnapshot, gates: Gates, *, explain: bool = True,
                 base: Simulation | None = None, config: SchedulerConfig | None = None,
                 queued_together: bool = False) -> None:
        """`explain=False` skips what only explanations need (per-node diagnoses of failed pods); `base` is a simulation
        of a snapshot this one was derived from: its node facts and device inventory are reused when unchanged;
        `config` holds the scheduler profiles (--scheduler-config; default: kube-scheduler's, or `base`'s);
        `queued_together`: every pending object existed before the scheduler started (QueueBuilder)."""
        self.snapshot, self.gates = snapshot, gates
        self.config = config or (base.config if base is not None else DEFAULT_CONFIG)
        self.preemption = True  # False (--no-preemption): no PostFilter preemption is simulated
        self.evict = True  # False: a pod's preemption is reported only; later entries still see its victims
        reuse_infos = base is not None and base.gates is gates and base.config is self.config
        self.queue = QueueBuilder(snapshot, gates, self.config, base.queue.infos if reuse_infos and base else None,
                                  same_priorities=base is not None and _same(base.snapshot, snapshot,
                                                                            ("PriorityClass", "RuntimeClass")),
                                  queued_together=queued_together)
        self.entries = self.queue.build()
        same_nodes = base is not None and _same(base.snapshot, snapshot, ("Node",))
        facts = base.state.facts if same_nodes and base is not None else self._node_facts(base)
        self.state = SchedState(facts, minor=gates.release.minor)
        self.state.explain = explain
        self.state.snapshot = snapshot
        self.requeue = Requeue(self.state, snapshot)  # what sends pods back to the queue (victims deleted, hints)
        self.state.namespaces = {str((ns.get("metadata") or {}).get("name") or ""): (ns.get("metadata") or {}).get("labels")
                                 or {} for ns in snapshot.of_kind("Namespace")}
        self._claims_cache: dict[int, Any] = {}
        self._preempted: dict[tuple[Any, ...], tuple[Any, tuple[str, Any]]] = {}  # _post_filter
        if self._wants_devices() and (any(snapshot.of_kind(kind) for kind in DRA_KINDS) or self._any_claims()):
            self.extended = extended_resource_classes(snapshot) if gates.enabled("DRAExtendedResource") else {}
            advertised = frozenset(r for f in facts.values() for r in f.allocatable)
            self.advertised = advertised
            reuse = base.state.dra if base is not None and same_nodes and _same(base.snapshot, snapshot, DRA_STATIC) else None
            inventory = base.state.dra.inventory if reuse is None and base is not None and base.state.dra is not None \
                and base.gates is gates and same_nodes and _same(base.snapshot, snapshot, DRA_INVENTORY) else None
            known = base.state.dra.inventory if base is not None and base.state.dra is not None \
                and base.gates is gates else None
            self.state.dra = build_dra_state(snapshot, self._resolve, frozenset(self.extended), reuse, gates.enabled,
                                             inventory, known)
        if any(snapshot.of_kind(kind) for kind in VOLUME_KINDS):
            self.state.volume_index = VolumeIndex(snapshot)
        if same_nodes and base is not None and _same_bound(base.queue.bound, self.queue.bound) \
                and base.state.volume_index is None and self.state.volume_index is None:
            self.state.restore(base.initial)  # the same bound pods on the same nodes: their ledger, copied
        else:
            for pod, node in self.queue.bound:
                self.state.add_pod(pod, node)
        self.initial = self.state.ledger()  # for simulations derived from this one (what-ifs)

    def _node_facts(self, base: Simulation | None = None) -> dict[str, NodeFacts]:
        """Facts of every node; those of node objects `base` already read (the same object) are reused."""
        known = base.state.facts if base is not None else {}
        facts = {}
        for node in self.snapshot.of_kind("Node"):
            found = known.get(str((node.get("metadata") or {}).get("name")))
            if found is not None and found.node is node:
                facts[found.name] = found
                continue
            try:
                item = NodeFacts.of(node)
            except (QuantityError, ValueError, TypeError, AttributeError) as exc:  # malformed node in the snapshot
                self.queue.skipped.append(f"node {(node.get('metadata') or {}).get('name')} left out: {exc}")
                continue
            facts[item.name] = item
        return facts

    def _wants_devices(self) -> bool:
        """Whether some queued pod has claims or requests a resource DRA may serve (DRAExtendedResource), or a group
        has claims. When none does, the DynamicResources plugin skips every pod (PreFilter: Skip) and what the
        snapshot's claims hold matters to nobody: the device inventory and usage are not built."""
        if any(self.queue.group_claims.values()):
            return True
        entries = list(self.entries)
        while entries:
            entry = entries.pop()
            if any(pod.claims_or_extended for pod in entry.pods):
                return True
            entries.extend(entry.children)
        return False

    def _any_claims(self) -> bool:
        return any((p.get("spec") or {}).get("resourceClaims") for p in self.snapshot.of_kind("Pod"))

    def _resolve(self, pod: PodInfo) -> Any:
        cached = self._claims_cache.get(id(pod))
        if cached is None:
            group_claims = self.queue.group_claims.get(f"{pod.namespace}/{pod.group}", ()) if pod.group else ()
            cached = resolve_claims(pod, self.snapshot, group_claims, self.extended, self.advertised)
            self._claims_cache[id(pod)] = (pod, cached)  # keep pod alive so id() stays unique
            return cached
        return cached[1]

    def run(self, only: Collection[tuple[str, str, str]] | None = None, *, stop: bool = False,
            progress: Callable[[str], None] | None = None, first_fit: bool = False) -> list[GroupResult]:
        """Results of every entry in queue order (or only those whose (kind, namespace, name) is in `only`); with
        `stop`, entries queued after the last wanted one are not simulated (they cannot change its result);
        `progress` is told which entry is placed (the CLI's status line); with `first_fit` (and `stop`), the last
        wanted entry, a topology-constrained group, stops at the first domain it fits in instead of scoring every
        one: a what-if asks whether the group fits, and nothing after it is simulated."""
        results: list[GroupResult] = []
        waiting: list[tuple[int, int]] = []  # failed 1.36 groups: (result index, state version then)
        remaining = len(only) if only is not None else -1
        for index, entry in enumerate(self.entries, 1):
            if progress is not None:
                progress(f"simulating {entry.kind} {entry.namespace}/{entry.name} ({index:,} of {len(self.entries):,})")
            wanted = only is None or (entry.kind, entry.namespace, entry.name) in only
            self.state.first_fit = first_fit and stop and wanted and remaining == 1
            self.requeue.land(results)
            result = self._place_guarded(entry)
            self.state.first_fit = False
            results.append(result)
            self.requeue.track(results, len(results) - 1, self.evict)
            if _retried(result):
                waiting.append((len(results) - 1, self.state.version))
            if only is not None and (entry.kind, entry.namespace, entry.name) in only:
                remaining -= 1
                if stop and remaining == 0:
                    break
        self._settle(results)
        if not (stop and remaining == 0):
            for index, version in waiting:
                if version != self.state.version:  # something was placed after it: kube-scheduler tried it again
                    self._retry_messages(results[index])
        return [r for r in results if only is None or (r.entry.kind, r.entry.namespace, r.entry.name) in only]

    def _settle(self, results: list[GroupResult]) -> None:
        """The pods moved back to the queue by victims' deletions are tried again, in queue order (they wait out
        their backoff while other pods are active); their retries may preempt in turn."""
        for _ in range(MAX_SETTLE_ROUNDS):
            self.requeue.land(results, force=True)
            if not self.requeue.retry:
                return
            todo, self.requeue.retry = sorted(self.requeue.retry), set()
            for index in todo:
                self.requeue.land(results)
                self._retry_one(results, index)
                self.requeue.track(results, index, self.evict)

    def _retry_one(self, results: list[GroupResult], index: int) -> None:
        """Try results[index] again. A nominated preemptor is tried on its nominated node first and binds there when it
        fits (schedule_one.go evaluateNominatedNode), keeping its preemption as its result; otherwise it is scheduled
        afresh and may preempt again (its earlier victims stay its own). Lower-priority nominations do not count for
        the pod (framework.go addGENominatedPods adds only pods of equal or higher priority)."""
        entry = results[index].entry
        pod = entry.pods[0]
        nominee = self.requeue.nominees.pop(index, None)
        if nominee is not None:
            self.state.remove_pods(nominee[1], [nominee[0]])
        hidden = [n for n in self.requeue.nominees.values() if n[0].priority < pod.priority]
        for other, node in hidden:
            self.state.remove_pods(node, [other])
        try:
            if nominee is not None and self._fits_on(entry, nominee[1]):
                return
            before = results[index].extra.get("preemption")
            results[index] = self._place_guarded(entry)
            answer = results[index].extra.get("preemption")
            if nominee is not None and before is not None and answer is not None and answer.helps:
                answer.victims = [*before.victims, *answer.victims]
        finally:
            for other, node in hidden:
                self.state.add_pod(other, node)

    def _fits_on(self, entry: Entry, node: str) -> bool:
        """Place a single pod on `node` when it passes the filters there (no preemption tried); False leaves the
        state as it was."""
        mark = self.state.begin()
        preemption, self.preemption = self.preemption, False
        try:
            result = self.place(entry, self.state, nodes=(node,))
        finally:
            self.preemption = preemption
        if result.fits:
            self.state.commit(mark)
            return True
        self.state.rollback(mark)
        return False

    def _conditions(self, result: GroupResult, outcome: Outcome) -> None:
        """1.36: the PodScheduled message of each unbound pod and the group's PodGroupScheduled message."""
        entry = result.entry
        gang = entry.group is not None and bool(entry.group.gang)
        result.pod_messages, result.message_alternatives = group_messages(outcome.chosen, outcome.attempts,
                                                                          entry.pods, gang)
        if outcome.chosen is None and outcome.attempts:
            result.group_condition = group_condition(len(outcome.attempts), self.gates.enabled(admission.TOPOLOGY_GATE))

    def _retry_messages(self, result: GroupResult) -> None:
        """The PodScheduled messages of a 1.36 group that failed, as its last retry words them. A failed group does
        not rest among the unschedulable pods: its pods come back through the backoff queue (events that arrived
        during the cycle, its own condition updates, pods re-added without a rejecting plugin: scheduling_queue.go
        AddUnschedulableIfNotPresent) or are activated again (gangscheduling.go Permit), each one pulling the whole
        group into another cycle (schedule_one_podgroup.go podGroupInfoForPod), until the queue settles; with the
        oracle, s00244's two failed gangs ran 21 and 22 cycles. So the cycle runs again over the cluster as the queue
        leaves it. A retry that would fit keeps the first messages (the simulation does not bind it)."""
        entry, state = result.entry, self.state
        mark = state.begin()
        try:
            with state.unrecorded():  # per-plugin results are those of the cycle explained
                outcome = schedule_group(entry.pods, entry.min_count, tuple(entry.running), state, entry.key,
                                         entry.topology_key, keep=False, post_filter=self._group_post_filter(entry))
        finally:
            state.rollback(mark)
        if outcome.chosen is None:
            gang = entry.group is not None and bool(entry.group.gang)
            result.pod_messages, result.message_alternatives = group_messages(None, outcome.attempts, entry.pods, gang)

    def place_more(self, entry: Entry) -> GroupResult:
        """Place one more entry after the queue in the simulation's state (capacity's copies), guarded as the queue's
        own entries are: it keeps its placements when it fits."""
        return self._place_guarded(entry)

    def _place_guarded(self, entry: Entry) -> GroupResult:
        """place() in a transaction: an entry whose objects hold a malformed field (a list where a map belongs, a
        string count) is left out with a note, everything it changed is undone, and the queue goes on."""
        mark = self.state.begin()
        try:
            result = self.place(entry, self.state)
        except MALFORMED as exc:
            self.state.rollback(mark)
            note = f"{entry.kind} {entry.namespace}/{entry.name} left out: malformed field ({type(exc).__name__}: {exc})"
            self.queue.skipped.append(note)
            return GroupResult(entry, fits=False, message=note, notices=list(entry.notices), state=self.state)
        self.state.commit(mark)
        return result

    def place(self, entry: Entry, state: SchedState, **changes: Any) -> GroupResult:
        """Schedule one entry in `state` (which keeps its placements when it fits); `changes` may restrict `nodes`."""
        if entry.kind == "CompositePodGroup":
            from kubectl_wasdra.sched.composite import place_composite

            return place_composite(self, entry, state)
        result = GroupResult(entry, fits=False, notices=list(entry.notices), state=state)
        if entry.kind != "Pod":
            _remember_before(result, state)
        if entry.blocked is not None:
            result.message = entry.blocked.message
            _remember_before(result, state)
            return result
        pods = entry.pods
        per_pod = entry.kind in GROUP_ENTRY_KINDS and state.explain and self.gates.release.minor == PER_POD_POST_FILTER_MINOR
        outcome = schedule_group(pods, entry.min_count, tuple(entry.running), state, entry.key, entry.topology_key,
                                 changes.get("nodes"), post_filter=self._group_post_filter(entry) if per_pod else None,
                                 first_fit=state.first_fit)
        result.outcome, result.message = outcome, outcome.message
        chosen = outcome.chosen
        if chosen is None:
            _remember_before(result, state)
        else:
            result.fits = True
            result.placement = dict(chosen.placed)
            result.domain = dict([chosen.domain]) if chosen.domain else None
            result.claims = {"/".join(key): devices for key, devices in sorted(chosen.devices.items())}
        best = outcome.best
        if best is not None:
            result.pod_errors = dict(best.failed)
        if per_pod:
            self._conditions(result, outcome)
        with state.unrecorded():  # preemption's trial cycles are not the pods' own
            self._post_place(entry, result, state)
        return result

    def _post_place(self, entry: Entry, result: GroupResult, state: SchedState) -> None:
        """PostFilter: preemption for a pod or group that does not fit, its answer joined to the message."""
        if entry.kind == "Pod" and result.pod_errors and state.explain:
            self._pod_post_filter(result, state)
        elif entry.kind in GROUP_ENTRY_KINDS and not result.fits and self.preemption and state.explain:
            self._preempt_group(entry, result, state)

    def _pod_post_filter(self, result: GroupResult, state: SchedState) -> None:
        """A single pod that fits nowhere: its message with the PostFilter tail, its preemption (the pod is nominated
        when preemption helps)."""
        pod = result.entry.pods[0]
        error = next(iter(result.pod_errors.values()))
        if error.pre_filter_error or not self.preemption:  # a scheduling error runs no PostFilter; --no-preemption
            result.message = error.message()
            return
        tail, answer = self._post_filter(pod, error, state)
        result.message = f"{error.message()} {tail}" if tail else error.message()
        result.extra["preemption"] = answer
        if answer.helps and self.evict:
            self.requeue.nominate(pod, answer, state)

    def _post_filter(self, pod: PodInfo, error: Any, state: SchedState) -> tuple[str, Any]:
        """post_filter_message, shared by identical pods that failed with one diagnosis over unchanged usage (a dry
        run that is rolled back changes nothing) when preemption does not help them, so a queue of such pods runs
        preemption once, not once per pod."""
        key = (pod.signature, pod.priority, pod.preemption_policy, id(error.statuses), state.version)
        found = self._preempted.get(key)
        if found is not None and found[0] is error.statuses:
            return found[1]
        answer = post_filter_message(pod, error, state, self.preemption_context)
        if answer[1] is None or not answer[1].helps:  # an answer that helps names this pod's nominated node
            self._preempted[key] = (error.statuses, answer)
        return answer

    def _group_post_filter(self, entry: Entry) -> Callable[[PodInfo, FitError, SchedState], str | None]:
        """The PostFilter text of a pod of `entry` that fits nowhere in its group's cycle (1.36): DynamicResources',
        then DefaultPreemption's, which declines for a group with scheduling constraints or with workload-aware
        preemption on (plugins/defaultpreemption/default_preemption.go PostFilter) and otherwise preempts for the pod
        alone; "" when that preemption would make room, None with --no-preemption (no PostFilter text)."""
        constrained = entry.group is not None and isinstance(entry.group.spec, Mapping) \
            and entry.group.spec.get("schedulingConstraints") is not None and self.gates.enabled(admission.TOPOLOGY_GATE)
        declined = PLACEMENT_LIMITATION if constrained else WAP_ENABLED if self.gates.enabled(admission.WAP_GATE_1_36) \
            else ""

        def post_filter(pod: PodInfo, error: FitError, state: SchedState) -> str | None:
            if not self.preemption:
                return None
            if declined:
                return f"{claims_post_filter(pod, state)}, {declined}"
            return self._post_filter(pod, error, state)[0]

        return post_filter

    @functools.cached_property
    def preemption_context(self) -> Context:
        """PodGroup priorities and disruption modes, and the PodDisruptionBudgets (read on first preemption)."""
        return read_context(self.snapshot, self.queue.groups.values(), self.queue.priorities)

    def _preempt_group(self, entry: Entry, result: GroupResult, state: SchedState) -> None:
        """Workload-aware preemption (GenericWorkload): on failure its reason joins the group message, as
        schedule_one_podgroup.go does; on success the message stays and the group waits on preemption."""
        minor = self.gates.release.minor
        if not self.gates.enabled(admission.GENERIC_WORKLOAD) or minor < 36 or (
                minor == 36 and not self.gates.enabled(admission.WAP_GATE_1_36)):
            return
        answer = preempt_group(entry, state, self.preemption_context, self.gates.enabled(admission.POLICY_GATE))
        result.extra["preemption"] = answer
        if not answer.helps:
            result.message = f"{result.message}, {answer.message}"


def _retried(result: GroupResult) -> bool:
    """A group that failed with 1.36 per-pod messages: kube-scheduler tries it again (Simulation._retry_messages)."""
    return not result.fits and bool(result.pod_messages)


def _remember_before(result: GroupResult, state: SchedState) -> None:
    """Keep who had placed pods where and which devices were taken, as they were before this entry (explanations
    only). Entries that meet the same state (`version` unchanged: nothing placed or freed since) share one copy, so a
    queue of pods that do not fit costs linear time and memory, not a copy per pod."""
    if not state.explain:
        return
    cached = state.before_copy
    if cached is None or cached[0] != state.version:
        cached = (state.version, {node: owners for node, owners in state.placed_by.items() if owners},
                  dict(state.dra.devices) if state.dra is not None else {})
        state.before_copy = cached
    result.placed_by_before, result.devices_before = cached[1], cached[2]


def simulate(snapshot: ClusterSnapshot, groups: Collection[tuple[str, str, str]] | None = None,
             release: Release = NEWEST, gates: Gates | Mapping[str, bool] | None = None) -> list[GroupResult]:
    """Results for every queue entry of `snapshot` (or the (kind, namespace, name) entries in `groups`)."""
    if not isinstance(gates, Gates):
        gates = admission.make_gates(release, gates or {})
    return Simulation(snapshot, gates).run(groups)
