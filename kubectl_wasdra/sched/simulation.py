"""simulate(): place every pending pod and group of a snapshot in queue order against what is already bound.

Earlier entries consume what later ones need; a result remembers which entries had placed pods on each node.
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
from kubectl_wasdra.sched.group_preemption import preempt_group
from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.preemption import post_filter_message
from kubectl_wasdra.sched.preemption_model import Context, read_context
from kubectl_wasdra.sched.profiles import DEFAULT_CONFIG, SchedulerConfig
from kubectl_wasdra.sched.queue import Entry, QueueBuilder
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.topology import schedule_group
from kubectl_wasdra.sched.volumes import VolumeIndex

# what reading a malformed field raises (a list where a map belongs, a string count); SCHEMA findings report the field
MALFORMED: Final = (AttributeError, TypeError, KeyError, ValueError, IndexError, QuantityError)
DRA_KINDS = ("ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceClass")
DRA_STATIC = ("ResourceSlice", "ResourceClaim", "DeviceClass", "DeviceTaintRule")
DRA_INVENTORY = ("ResourceSlice", "DeviceClass", "DeviceTaintRule", "Namespace")  # what dra.Inventory reads
GROUP_ENTRY_KINDS = ("PodGroup", "Workload")  # CompositePodGroup roots: preemption at the root is not modelled
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
                 base: Simulation | None = None, config: SchedulerConfig | None = None) -> None:
        """`explain=False` skips what only explanations need (per-node diagnoses of failed pods); `base` is a simulation
        of a snapshot this one was derived from: its node facts and device inventory are reused when unchanged;
        `config` holds the scheduler profiles (--scheduler-config; default: kube-scheduler's, or `base`'s)."""
        self.snapshot, self.gates = snapshot, gates
        self.config = config or (base.config if base is not None else DEFAULT_CONFIG)
        self.preemption = True  # False (--no-preemption): no PostFilter preemption is simulated
        reuse_infos = base is not None and base.gates is gates and base.config is self.config
        self.queue = QueueBuilder(snapshot, gates, self.config, base.queue.infos if reuse_infos and base else None,
                                  same_priorities=base is not None and _same(base.snapshot, snapshot,
                                                                            ("PriorityClass", "RuntimeClass")))
        self.entries = self.queue.build()
        same_nodes = base is not None and _same(base.snapshot, snapshot, ("Node",))
        facts = base.state.facts if same_nodes and base is not None else self._node_facts(base)
        self.state = SchedState(facts, minor=gates.release.minor)
        self.state.explain = explain
        self.state.snapshot = snapshot
        self.state.namespaces = {str((ns.get("metadata") or {}).get("name") or ""): (ns.get("metadata") or {}).get("labels")
                                 or {} for ns in snapshot.of_kind("Namespace")}
        self._claims_cache: dict[int, Any] = {}
        self._preempted: dict[tuple[Any, ...], tuple[Any, tuple[str, Any]]] = {}  # _post_filter
        if any(snapshot.of_kind(kind) for kind in DRA_KINDS) or self._any_claims():
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
            progress: Callable[[str], None] | None = None) -> list[GroupResult]:
        """Results of every entry in queue order (or only those whose (kind, namespace, name) is in `only`); with
        `stop`, entries queued after the last wanted one are not simulated (they cannot change its result);
        `progress` is told which entry is placed (the CLI's status line)."""
        results = []
        remaining = len(only) if only is not None else -1
        for index, entry in enumerate(self.entries, 1):
            if progress is not None:
                progress(f"simulating {entry.kind} {entry.namespace}/{entry.name} ({index:,} of {len(self.entries):,})")
            result = self._place_guarded(entry)
            if only is None or (entry.kind, entry.namespace, entry.name) in only:
                results.append(result)
                remaining -= 1
                if stop and remaining == 0:
                    break
        return results

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
        outcome = schedule_group(pods, entry.min_count, tuple(entry.running), state, entry.key, entry.topology_key,
                                 changes.get("nodes"))
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
        recorder, state.recorder = state.recorder, None  # preemption's trial cycles are not the pods' own
        try:
            self._post_place(entry, result, state)
        finally:
            state.recorder = recorder
        return result

    def _post_place(self, entry: Entry, result: GroupResult, state: SchedState) -> None:
        """PostFilter: preemption for a pod or group that does not fit, its answer joined to the message."""
        pods = entry.pods
        if entry.kind == "Pod" and result.pod_errors and state.explain:
            error = next(iter(result.pod_errors.values()))
            if error.pre_filter_error or not self.preemption:  # a scheduling error runs no PostFilter; --no-preemption
                result.message = error.message()
                return
            tail, answer = self._post_filter(pods[0], error, state)
            result.message = f"{error.message()} {tail}" if tail else error.message()
            result.extra["preemption"] = answer
        elif entry.kind in GROUP_ENTRY_KINDS and not result.fits and self.preemption and state.explain:
            self._preempt_group(entry, result, state)

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
