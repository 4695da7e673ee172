"""GroupResult: what the simulation says about one queue entry (a pod, a pod group, a composite group)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.queue import Entry, Notice
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.topology import Outcome


@dataclass
class GroupResult:
    """Fit or not, the placement (pod -> node, claim -> devices, domain), kube-scheduler's message, per-pod FitErrors,
    group-level notices, every attempt made, the simulation state (for its static parts: nodes, labels, domains) and,
    from just before this entry was placed, which entries had placed pods on each node and the devices they took."""

    entry: Entry
    fits: bool
    message: str = ""
    placement: dict[str, str] = field(default_factory=dict)
    claims: dict[str, tuple[Mapping[str, str], ...]] = field(default_factory=dict)
    domain: dict[str, str] | None = None
    pod_errors: dict[str, FitError] = field(default_factory=dict)
    # 1.36: the PodScheduled=False message of each unbound pod of a group, as kube-scheduler writes it
    # (sched/pod_conditions.py), and the other messages it may write when the placement it reports is a random one
    pod_messages: dict[str, str] = field(default_factory=dict)
    message_alternatives: dict[str, frozenset[str]] = field(default_factory=dict)
    group_condition: str = ""  # 1.36: the PodGroupScheduled=False message kube-scheduler writes (`message` is ours)
    notices: list[Notice] = field(default_factory=list)
    outcome: Outcome | None = None
    children: list[GroupResult] = field(default_factory=list)
    state: SchedState | None = None
    placed_by_before: dict[str, tuple[str, ...]] = field(default_factory=dict)
    devices_before: dict[tuple[str, str], Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """Pod, PodGroup, Workload (1.35 pod group) or CompositePodGroup."""
        return self.entry.kind

    @property
    def namespace(self) -> str:
        """The entry's namespace."""
        return self.entry.namespace

    @property
    def name(self) -> str:
        """The entry's name."""
        return self.entry.name

    @property
    def pods(self) -> list[PodInfo]:
        """The pods of the entry and, for a CompositePodGroup, of its child groups."""
        return [pod for result in (self, *self.children) for pod in result.entry.pods]
