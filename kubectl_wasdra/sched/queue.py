"""The scheduling queue: pending pods grouped into queue entries (single pods, pod groups, composite roots),
each with what admission and PreEnqueue did to it, sorted as kube-scheduler pops them (priority, then age).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/queuesort/priority_sort.go and
pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go (PreEnqueue texts), release-1.37.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot, object_key
from kubectl_wasdra.kube.quantity import QuantityError
from kubectl_wasdra.kube.resources import is_terminal
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched import admission, hierarchy, runtime_class
from kubectl_wasdra.sched.admission import Gates
from kubectl_wasdra.sched.groups import GroupSpec, base_group_name, read_composites, read_groups
from kubectl_wasdra.sched.podinfo import PodInfo, build_pod_info
from kubectl_wasdra.sched.priorities import Priorities
from kubectl_wasdra.sched.profile_plugins import attach
from kubectl_wasdra.sched.profiles import DEFAULT_CONFIG, SchedulerConfig

WAITING_GROUP: Final = 'waiting for pods\'s pod group "{name}" to appear in scheduling queue'  # sic, gangscheduling.go
WAITING_MIN_COUNT: Final = "waiting for minCount pods from a gang to appear in scheduling queue"
WAITING_TREE: Final = 'waiting for composite pod group "{name}" tree to meet quorum'  # gangscheduling.go, CPG PreEnqueue
FIRST_ATTEMPT_ORDER_MINOR: Final = 36  # the release whose group cycle orders pods by their first attempt
LATE: Final = "~"  # objects without creationTimestamp (new manifests) sort after everything already in the cluster


@dataclass(frozen=True)
class Notice:
    """A group-level finding: a reason code, its message and JSON-scalar details."""

    reason: Reason
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Entry:
    """One queue entry: a single pod, a pod group, or a composite root with child entries."""

    kind: str
    namespace: str
    name: str
    priority: int
    created: str
    pods: list[PodInfo] = field(default_factory=list)
    running: list[str] = field(default_factory=list)  # nodes of members already bound
    group: GroupSpec | None = None
    children: list[Entry] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    blocked: Notice | None = None
    topology_key: str | None = None
    min_count: int = 1
    order: int = 0  # when the entry joined the queue among objects created by `kubectl apply -f` (creation_order)
    queue_priority: int | None = None  # the priority the queue sorts by, when not the group's (1.36: its pods')

    @property
    def key(self) -> str:
        """"namespace/name"."""
        return f"{self.namespace}/{self.name}"

    def sort_key(self) -> tuple[int, str, int, str, str, str]:
        """Queue order: higher priority first, then older first; objects without a creationTimestamp in the order
        `kubectl apply -f` creates them (document order, then file order), never by name."""
        priority = self.priority if self.queue_priority is None else self.queue_priority
        return (-priority, self.created or LATE, self.order, self.kind, self.namespace, self.name)


def _pod_order(pod: PodInfo) -> tuple[int, str, int, str]:
    """Order in which a group cycle tries its pods (1.37): framework/types.go PodGroupMemberPodsOrderingFunc, higher
    priority first, then more attempts (equal in a first cycle), then the earlier time the pod was added to the queue
    (its creation: age, then the order `kubectl apply -f` creates manifests in), then the name."""
    return (-pod.priority, pod.created or LATE, pod.order, pod.name)


def _creation(pod: PodInfo) -> tuple[str, int, str]:
    return (pod.created or LATE, pod.order, pod.name)


def first_attempt_order(pods: list[PodInfo], group: GroupSpec, group_order: int, running: int) -> list[PodInfo]:
    """Order in which a 1.36 group cycle tries a gang's pods: schedule_one_podgroup.go podGroupInfoForPod (1.36.2)
    sorts by priority, then InitialAttemptTimestamp, which is set when a pod first enters the active queue
    (scheduling_queue.go moveToActiveQ). GangScheduling's PreEnqueue holds every pod until the group has minCount
    pods (running ones included), so the pod that completes minCount enters first and the pods it released follow
    (in Go map order; kept here in creation order). When the group object itself came last, every pod waited for it
    and the order is Go map order: creation order is kept."""
    needed = group.min_count - running
    created = sorted(pods, key=_creation)
    if needed <= 1 or needed > len(created):
        return pods
    completing = created[needed - 1]
    if (group.created or LATE, group_order) > (completing.created or LATE, completing.order):
        return pods
    return sorted(pods, key=lambda p: (-p.priority, p is not completing, _creation(p)))


def _joined(group_order: int, pods: list[PodInfo], running: int, min_count: int) -> int:
    """When a group's entry joins the queue: once its object exists and PreEnqueue lets it in (the minCount-th pod,
    running members counting as there already; a basic group with its first pod)."""
    needed = max(min_count - running, 1)
    orders = sorted(p.order for p in pods)
    return max(group_order, orders[min(needed, len(orders)) - 1] if orders else 0)


def _first_member(group_order: int, pods: list[PodInfo]) -> int:
    """When a group's entry is tried if every object existed before the scheduler started: the active queue sorts
    pods by priority, then QueuedPodInfo.Timestamp, which is set when the pod is added and kept while GangScheduling's
    PreEnqueue holds it (backend/queue/scheduling_queue.go, plugins/gangscheduling), so the group's first pod decides."""
    return min((p.order for p in pods), default=group_order)


def is_pending(pod: Mapping[str, Any], any_scheduler: bool = False) -> bool:
    """Not bound, not terminal, not being deleted, not held by scheduling gates, and for the default scheduler (or
    any scheduler: members of a pod group are validated together, whatever scheduler they name)."""
    spec, meta = pod.get("spec") or {}, pod.get("metadata") or {}
    return (not spec.get("nodeName") and not is_terminal(pod) and not meta.get("deletionTimestamp")
            and not spec.get("schedulingGates")
            and (any_scheduler or (spec.get("schedulerName") or "default-scheduler") == "default-scheduler"))


def _group_entry(group: GroupSpec, gates: Gates, priorities: Priorities) -> Entry:
    entry = Entry(group.kind, group.namespace, group.name, priorities.resolve(group.spec), group.created, group=group,
                  min_count=group.min_count if group.gang else 1)
    if group.topology_keys:
        if gates.enabled(admission.TOPOLOGY_GATE):
            entry.topology_key = group.topology_keys[0]
        else:
            entry.notices.append(Notice(Reason.FEATURE_GATE_DISABLED,
                                        f"schedulingConstraints.topology is dropped: feature gate {admission.TOPOLOGY_GATE} "
                                        f"is off in Kubernetes {gates.release}; the group is scheduled without it",
                                        {"gate": admission.TOPOLOGY_GATE, "field": "spec.schedulingConstraints.topology"}))
    if group.resource_claims and not gates.enabled(admission.CLAIMS_GATE):
        entry.notices.append(Notice(Reason.FEATURE_GATE_DISABLED,
                                    f"spec.resourceClaims is dropped: feature gate {admission.CLAIMS_GATE} is off in "
                                    f"Kubernetes {gates.release}; each pod gets its own claim",
                                    {"gate": admission.CLAIMS_GATE, "field": "spec.resourceClaims"}))
    return entry


def _check_quorum(root: Entry) -> None:
    """PreEnqueue of a composite tree: at least minGroupCount children must be ready (a child is ready when it has
    minCount pods, or one pod for a basic group); a child's own count no longer holds its pods back."""
    ready = 0
    for child in root.children:
        if child.blocked is not None and child.blocked.reason is Reason.GANG_TOO_FEW_PODS:
            child.blocked = None
        if len(child.pods) + len(child.running) >= max(child.min_count, 1):
            ready += 1
    if ready < root.min_count:
        root.blocked = Notice(Reason.GANG_TOO_FEW_PODS, WAITING_TREE.format(name=root.name),
                              {"minGroupCount": root.min_count, "readyGroups": ready})


class QueueBuilder:
    """Turns a snapshot into queue entries plus the bound pods the state starts from."""

    def __init__(self, snapshot: ClusterSnapshot, gates: Gates, config: SchedulerConfig = DEFAULT_CONFIG,
                 known: Mapping[int, tuple[Any, ...]] | None = None, same_priorities: bool = False,
                 queued_together: bool = False) -> None:
        """`queued_together`: every pending object existed before the scheduler started (a scheduler starting on a
        cluster with pods pending), so a group queues at its first pod's creation rather than when `kubectl apply`
        creates its minCount-th pod in front of a running scheduler. `known` is the `infos` of a builder with the
        same gates and configuration over a snapshot this one was derived from; with `same_priorities` (the same
        PriorityClass and RuntimeClass objects: what admission reads) the PodInfo of every pod object found there
        unchanged (the same object; an overlay keeps its creation order) is reused instead of built again (what-ifs
        re-run the queue with a few objects changed)."""
        self.snapshot, self.gates, self.config = snapshot, gates, config
        self.queued_together = queued_together
        self.known = known or {}
        self.same_priorities = same_priorities
        self.infos: dict[int, tuple[Any, ...]] = {}  # id(pod object) -> (object, PodInfo)
        self.priorities = Priorities(snapshot)
        self.groups = read_groups(snapshot)
        self.composites = read_composites(snapshot)
        self.rejected: dict[tuple[str, str], str] = {}
        for key, group in {**self.groups, **self.composites}.items():
            why = admission.api_rejection(gates, group.api_version, group.kind if group.kind != "Workload" else "Workload")
            if why:
                self.rejected[(group.kind, *key)] = why
        self.group_claims: dict[str, tuple[Mapping[str, Any], ...]] = {}
        self.bound: list[tuple[PodInfo, str]] = []
        self.entries: list[Entry] = []
        self.skipped: list[str] = []  # objects the simulation leaves out, with why

    def pod_info(self, pod: Mapping[str, Any]) -> PodInfo:
        """PodInfo of the pod as admission leaves it (RuntimeClass overhead and scheduling, PriorityClass priority and
        preemptionPolicy); the group link is dropped when GenericWorkload is off (field gate). A pod object `known`
        from the simulation this one derives from is reused when the admission inputs are the same objects."""
        found = self.known.get(id(pod))
        if found is not None and self.same_priorities and found[0] is pod:
            self.infos[id(pod)] = found
            return found[1]
        original = pod
        pod = runtime_class.admit(pod, self.snapshot)
        spec = pod.get("spec") or {}
        info = build_pod_info(pod, self.priorities.resolve(spec), self.priorities.resolve_policy(spec))
        info.order = self.snapshot.creation_order("Pod", info.namespace, info.name)
        self.infos[id(original)] = (original, info)
        if info.group is not None and not self.gates.enabled(admission.GENERIC_WORKLOAD):
            info.group = None
        if not self.config.is_default:
            attach(info, self.config.profile_for(info.scheduler_name))
        return info

    def _not_ours(self, entry: Entry) -> Entry:
        """Mark an entry whose pods name a scheduler no profile has: this scheduler never picks it up."""
        names = sorted({p.scheduler_name for p in entry.pods if self.config.profile_for(p.scheduler_name) is None})
        if names:
            entry.blocked = Notice(Reason.OTHER_SCHEDULER, self.config.not_scheduled_message(names[0]),
                                   {"schedulerName": names[0]})
        return entry

    def build(self) -> list[Entry]:
        """Every queue entry, sorted in queue order."""
        members: dict[tuple[str, str], list[PodInfo]] = {}
        running: dict[tuple[str, str], list[str]] = {}
        singles: list[PodInfo] = []
        for pod in self.snapshot.of_kind("Pod"):
            try:
                info = self.pod_info(pod)
            except (QuantityError, ValueError, TypeError, AttributeError) as exc:  # malformed pod in the snapshot
                self.skipped.append(f"pod {object_key(pod)[0]}/{object_key(pod)[1]} left out: {exc}")
                continue
            if info.node_name and not is_terminal(pod):
                self.bound.append((info, info.node_name))
                if info.group is not None:
                    running.setdefault((info.namespace, base_group_name(info.group)), []).append(info.node_name)
            # pending, whatever scheduler it names: a pod naming no profile becomes an entry saying it is not
            # scheduled by this scheduler (_not_ours; kube-scheduler would leave it alone, so it never "fits")
            elif is_pending(pod, any_scheduler=True):
                if info.group is None:
                    singles.append(info)
                else:
                    members.setdefault((info.namespace, base_group_name(info.group)), []).append(info)
        self.entries = [self._not_ours(Entry("Pod", p.namespace, p.name, p.priority, p.created, pods=[p], order=p.order))
                        for p in singles]
        group_entries = {}
        for key, pods in sorted(members.items()):
            try:
                group_entries[key] = self._entry_for(key, pods, running.get(key, []))
            except (ValueError, TypeError, AttributeError, KeyError) as exc:  # a malformed group object
                self.skipped.append(f"pod group {key[0]}/{key[1]} left out: malformed field ({type(exc).__name__}: {exc})")
        self.entries.extend(self._roots(group_entries))
        self.entries.sort(key=Entry.sort_key)
        return self.entries

    def _entry_for(self, key: tuple[str, str], pods: list[PodInfo], running: list[str]) -> Entry:
        pods.sort(key=_pod_order)
        group = self.groups.get(key)
        rejected = group is not None and self.rejected.get((group.kind, *key))
        if group is None or rejected:
            entry = Entry("PodGroup", key[0], key[1], pods[0].priority, pods[0].created, pods=pods, running=running,
                          order=_joined(0, pods, len(running), 1))
            if rejected:
                entry.notices.append(Notice(Reason.API_NOT_SERVED, f"{group.kind} rejected by the API server: {rejected}",
                                            {"apiVersion": group.api_version, "kind": group.kind}))
            entry.blocked = Notice(Reason.GROUP_NOT_FOUND, WAITING_GROUP.format(name=key[1]), {"podGroup": key[1]})
            return entry
        entry = _group_entry(group, self.gates, self.priorities)
        group_order = self.snapshot.creation_order(group.kind, *key)
        if self.gates.release.minor == FIRST_ATTEMPT_ORDER_MINOR:
            # 1.36 queues pods, not groups (PrioritySort compares pods): the group's cycle starts when its
            # highest-priority pod is popped (schedule_one_podgroup.go podGroupInfoForPod)
            entry.queue_priority = max((p.priority for p in pods), default=entry.priority)
            if group.gang:
                pods = first_attempt_order(pods, group, group_order, len(running))
        entry.pods, entry.running = pods, running
        entry.order = _first_member(group_order, pods) if self.queued_together \
            else _joined(group_order, pods, len(running), entry.min_count)
        self.group_claims[group.key] = group.resource_claims if self.gates.enabled(admission.CLAIMS_GATE) else ()
        if group.gang and len(pods) + len(running) < group.min_count:
            entry.blocked = Notice(Reason.GANG_TOO_FEW_PODS, WAITING_MIN_COUNT,
                                   {"minCount": group.min_count, "pods": len(pods) + len(running)})
        # schedule_one_podgroup.go validatePodGroup: with PodGroupPreemptionPolicy the pods must match the group's
        # policy; without it they only have to agree with each other
        policy = (group.preemption_policy or "PreemptLowerPriority") if self.gates.enabled(admission.POLICY_GATE) \
            else pods[0].preemption_policy
        invalid = hierarchy.validate_1_36(pods) if self.gates.release.minor == FIRST_ATTEMPT_ORDER_MINOR \
            else hierarchy.validate(pods, group.name, entry.priority, policy)
        if invalid:
            entry.blocked = Notice(Reason.GROUP_INVALID, invalid)
            return entry
        return self._not_ours(entry)

    def _roots(self, entries: dict[tuple[str, str], Entry]) -> list[Entry]:
        """Standalone groups, and composite roots holding their children (CompositePodGroup gate and API permitting)."""
        if not self.gates.enabled(admission.COMPOSITE_GATE):
            return list(entries.values())
        roots: dict[tuple[str, str], Entry] = {}
        out = []
        for key, entry in entries.items():
            parent = entry.group.parent if entry.group is not None else None
            cpg = self.composites.get((key[0], parent)) if parent else None
            if cpg is None or self.rejected.get(("CompositePodGroup", key[0], parent)):
                out.append(entry)
                continue
            root = roots.get((cpg.namespace, cpg.name))
            if root is None:
                root = roots[(cpg.namespace, cpg.name)] = Entry(
                    "CompositePodGroup", cpg.namespace, cpg.name, entry.priority, cpg.created, group=cpg,
                    min_count=cpg.min_count if cpg.gang else 1,
                    topology_key=cpg.topology_keys[0] if cpg.topology_keys and self.gates.enabled(admission.TOPOLOGY_GATE)
                    else None)
            root.children.append(entry)
        for root in roots.values():
            root.children.sort(key=lambda e: (e.created or LATE, e.order, e.name))
            root.order = max((c.order for c in root.children), default=0)
            _check_quorum(root)
        return out + list(roots.values())
