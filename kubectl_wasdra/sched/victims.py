"""Preemption victims: the units a preemptor may evict, their importance order, and how to take them out and back.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/preemption/types.go (getCrossNodesVictims, NewPodVictim) and
util.go (MoreImportantVictim, GetPodPriority), release-1.37. A pod of a PodGroup with disruptionMode `all` is evicted
with every scheduled pod of its group (one unit, cluster-wide); any other pod is a unit of its own. A grouped pod's
priority is its PodGroup's. Importance: higher priority; with GenericWorkload a group member before a standalone pod;
between groups more pods; then the earlier start (a pod without status.startTime counts as started now). Units are
sorted as Go's sort.Slice orders them (sort_by_importance), from the order of the node's pods in kube-scheduler's cache.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.sched.groups import base_group_name
from kubectl_wasdra.sched.pdb import Budget, violations
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.state import SchedState

NOW: Final = "~"  # sorts after every RFC 3339 time: a pod that has not started is the newest


@dataclass(frozen=True)
class GroupFacts:
    """What preemption needs of a PodGroup: its priority and whether it is evicted whole (disruptionMode all)."""

    priority: int
    whole: bool


@dataclass(frozen=True, eq=False)
class Unit:
    """Pods evicted together (one pod, or every scheduled pod of an `all` group) with the unit's priority."""

    pods: tuple[PodInfo, ...]
    priority: int
    group: str | None = None  # "namespace/name" of an `all` group
    where: tuple[str, ...] = ()  # the node of each pod (a pod placed by the simulation has no spec.nodeName)

    def placements(self) -> list[tuple[PodInfo, str]]:
        """(pod, the node it is on) for each pod of the unit."""
        return list(zip(self.pods, self.where or [p.node_name for p in self.pods], strict=True))

    @property
    def is_group(self) -> bool:
        """IsPodGroup: the first pod names a scheduling group (a `single` member counts too)."""
        return self.pods[0].group is not None

    @property
    def start(self) -> str:
        """EarliestStartTime of the unit's pods."""
        return min(start_time(p) for p in self.pods)

    @property
    def nodes(self) -> tuple[str, ...]:
        """Every node the unit has pods on, sorted."""
        return tuple(sorted({node for _, node in self.placements()}))


def start_time(pod: PodInfo) -> str:
    """status.startTime, or NOW when the pod has none (util.GetPodStartTime)."""
    status = pod.pod.get("status")
    value = status.get("startTime") if isinstance(status, Mapping) else None
    return str(value) if value else NOW


def disruption_whole(spec: Mapping[str, Any]) -> bool:
    """True for disruptionMode `all` (1.37 union {all: {}}) or the 1.36 string `PodGroup`."""
    mode = spec.get("disruptionMode")
    return (isinstance(mode, Mapping) and "all" in mode) or mode == "PodGroup"


def importance(unit: Unit) -> tuple[int, int, int, str]:
    """Sort key, most important first (MoreImportantVictim)."""
    return (-unit.priority, 0 if unit.is_group else 1, -len(unit.pods) if unit.is_group else 0, unit.start)


def more_important(first: Unit, second: Unit) -> bool:
    """MoreImportantPod / MoreImportantVictim as the sort calls it: by importance, and between units that tie on it and
    have not started, True: a missing status.startTime reads time.Now() (util.GetPodStartTime), the first argument's
    before the second's, so the first looks earlier."""
    a, b = importance(first), importance(second)
    return a < b or (a == b and a[3] == NOW)


def sort_by_importance(units: list[Unit]) -> list[Unit]:
    """sort.Slice(units, more_important) as Go runs it on up to 12 elements (insertionSortLessFunc, sort/zsortfunc.go):
    each unit moves left past every unit it is more important than, so the result is sorted by importance, with units
    that tie and have not started in reverse order and units that tie with a start time in their order. Longer slices
    are sorted the same way here (upstream's pdqsort partitions them first)."""
    ranked = sorted(enumerate(units), key=lambda item: (importance(item[1]), -item[0] if item[1].start == NOW else item[0]))
    return [unit for _, unit in ranked]


def group_key(pod: PodInfo) -> str | None:
    """"namespace/group" of a grouped pod (the 1.35 replica key dropped)."""
    return f"{pod.namespace}/{base_group_name(pod.group)}" if pod.group is not None else None


def priority_of(pod: PodInfo, groups: Mapping[str, GroupFacts]) -> int:
    """GetPodPriority: the PodGroup's priority for a grouped pod whose group exists, else the pod's own."""
    facts = groups.get(group_key(pod) or "")
    return facts.priority if facts is not None else pod.priority


def whole_group_members(state: SchedState, groups: Mapping[str, GroupFacts]) -> dict[str, list[tuple[PodInfo, str]]]:
    """"namespace/group" -> (pod, node) of every scheduled pod of each disruptionMode `all` group
    (PodGroupState.ScheduledPods)."""
    members: dict[str, list[tuple[PodInfo, str]]] = {}
    if any(facts.whole for facts in groups.values()):
        for name in state.node_names:
            for pod in state.pods[name]:
                key = group_key(pod)
                facts = groups.get(key or "")
                if facts is not None and facts.whole and key is not None:
                    members.setdefault(key, []).append((pod, name))
    return members


def units_of(placed: list[tuple[PodInfo, str]], state: SchedState, groups: Mapping[str, GroupFacts],
             members: Mapping[str, list[tuple[PodInfo, str]]] | None = None) -> list[Unit]:
    """Victim units for the (pod, node) pairs `placed` (each `all` group once, holding all its scheduled pods in the
    cluster; `members` is whole_group_members(state, groups) when the caller has it)."""
    out: list[Unit] = []
    seen: set[str] = set()
    for pod, node in placed:
        key = group_key(pod)
        facts = groups.get(key or "")
        if key is None or facts is None or not facts.whole:
            out.append(Unit((pod,), priority_of(pod, groups), where=(node,)))
            continue
        if key in seen:
            continue
        seen.add(key)
        if members is None:
            members = whole_group_members(state, groups)
        pairs = members.get(key) or [(pod, node)]
        out.append(Unit(tuple(p for p, _ in pairs), facts.priority, key, tuple(n for _, n in pairs)))
    return out


def remove(state: SchedState, unit: Unit) -> None:
    """Take a unit's pods off their nodes (inside a transaction)."""
    by_node: dict[str, list[PodInfo]] = {}
    for pod, node in unit.placements():
        by_node.setdefault(node, []).append(pod)
    for name, pods in by_node.items():
        if name in state.facts:
            state.remove_pods(name, pods)


def add_back(state: SchedState, unit: Unit) -> None:
    """Put a removed unit's pods back on their nodes (inside a transaction)."""
    for pod, node in unit.placements():
        state.add_pod(pod, node)


@dataclass
class Selection:
    """The victims kept evicted (most important first), the PDB-violating pods among them and the units spared."""

    victims: list[Unit]
    violating: tuple[PodInfo, ...]
    spared: list[Unit]

    @property
    def pods(self) -> list[PodInfo]:
        """The victim pods, unit by unit."""
        return [pod for unit in self.victims for pod in unit.pods]


def reprieve(state: SchedState, potential: list[Unit], budgets: tuple[Budget, ...],
             fits: Callable[[Unit], bool]) -> Selection:
    """With every potential victim removed (and the preemptor fitting), add units back most important first, PDB
    violating ones before the others, keeping each whose return still lets `fits(unit)` pass; the rest are victims.
    Upstream: SelectVictimsOnNode (plugins/defaultpreemption) and PodGroupEvaluator.selectVictimsOnDomain."""
    ordered = sort_by_importance(potential)
    bad = violations((u.pods for u in ordered), budgets)
    violating = [(u, v) for u, v in zip(ordered, bad, strict=True) if v]
    clean = [u for u, v in zip(ordered, bad, strict=True) if not v]
    victims: list[Unit] = []
    spared: list[Unit] = []
    violating_pods: list[PodInfo] = []
    for unit, bad_pods in [*violating, *((u, ()) for u in clean)]:
        mark = state.begin()
        add_back(state, unit)
        if fits(unit):
            state.commit(mark)
            spared.append(unit)
        else:
            state.rollback(mark)
            victims.append(unit)
            violating_pods.extend(bad_pods)
    if violating and clean:  # upstream sorts again only then
        victims = sort_by_importance(victims)
    return Selection(victims, tuple(violating_pods), spared)
