"""What preemption reads (PodGroup facts, PodDisruptionBudgets) and what it answers (victims, nominated nodes).

The answer is the `preemption` object of `explain -o json` (docs/explain.md, "Preemption"): it never changes the simulated
cluster; it says who kube-scheduler 1.37 would evict for an entry that does not fit, or why it would not preempt.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.sched.groups import GroupSpec
from kubectl_wasdra.sched.pdb import Budget, read_budgets
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.priorities import Priorities
from kubectl_wasdra.sched.victims import GroupFacts, Selection, Unit, disruption_whole


@dataclass(frozen=True)
class Context:
    """PodGroups by "namespace/name" and the snapshot's PodDisruptionBudgets."""

    groups: Mapping[str, GroupFacts] = field(default_factory=dict)
    budgets: tuple[Budget, ...] = ()


def read_context(snapshot: ClusterSnapshot, groups: Iterable[GroupSpec], priorities: Priorities) -> Context:
    """PodGroup priorities (spec.priority, else priorityClassName) and disruption modes of `groups` (the queue's),
    and every PDB."""
    facts = {group.key: GroupFacts(priorities.resolve(group.spec), disruption_whole(group.spec)) for group in groups}
    return Context(facts, read_budgets(snapshot.of_kind("PodDisruptionBudget")))


@dataclass(frozen=True)
class Victim:
    """One pod preemption would evict."""

    namespace: str
    name: str
    node: str
    priority: int  # the priority preemption compared (the PodGroup's for a grouped pod)
    group: str | None  # the pod's scheduling group
    whole_group: bool  # evicted because its disruptionMode `all` group is
    violates_pdb: bool

    def json(self) -> dict[str, Any]:
        """The victim object of docs/explain.md ("Preemption")."""
        return {"namespace": self.namespace, "name": self.name, "node": self.node, "priority": self.priority,
                "podGroup": self.group, "wholeGroup": self.whole_group, "violatesPDB": self.violates_pdb}


@dataclass
class Preemption:
    """Preemption's answer for one entry: `nominated` (pod -> node) empty means it would not help (see `message`)."""

    nominated: dict[str, str] = field(default_factory=dict)
    victims: list[Victim] = field(default_factory=list)
    spared: list[str] = field(default_factory=list)  # "namespace/name" of lower-priority pods it need not evict
    message: str = ""  # kube-scheduler's PostFilter text when preemption does not help or is not tried
    attempted: bool = True  # False: 1.37 does not preempt for this entry (message says why)

    @property
    def helps(self) -> bool:
        """True when the entry fits after evicting the victims."""
        return bool(self.nominated)

    def summary(self) -> str:
        """"fits only by preempting N pod(s) of priority <= P on node(s) ..." (check's FIT004 warning)."""
        top = max((v.priority for v in self.victims), default=0)
        nodes = sorted({v.node for v in self.victims})
        shown = ", ".join(nodes[:4]) + (" ..." if len(nodes) > 4 else "")
        return f"fits only by preempting {len(self.victims)} pod(s) of priority <= {top} on node(s) {shown}"

    def json(self) -> dict[str, Any]:
        """The `preemption` object of docs/explain.md ("Preemption")."""
        return {"helps": self.helps, "attempted": self.attempted, "nominatedNodes": dict(self.nominated),
                "victims": [v.json() for v in self.victims], "pdbViolations": sum(v.violates_pdb for v in self.victims),
                "spared": list(self.spared), "message": self.message}


def victims_of(selection: Selection, nodes: Collection[str]) -> tuple[list[Victim], list[str]]:
    """Victim records of a selection, and the spared pods on `nodes` (the nominated ones)."""
    bad = {id(p) for p in selection.violating}

    def record(unit: Unit, pod: PodInfo) -> Victim:
        return Victim(pod.namespace, pod.name, pod.node_name, unit.priority, pod.group, unit.group is not None,
                      id(pod) in bad)

    victims = [record(unit, pod) for unit in selection.victims for pod in unit.pods]
    return victims, [pod.key for unit in selection.spared for pod in unit.pods if pod.node_name in nodes]
