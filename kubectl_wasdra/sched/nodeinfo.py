"""NodeFacts (what never changes during a simulation) and NodeInfo (a node as one simulation state sees it).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/types.go (NodeInfo: Requested, Pods), release-1.37.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kubectl_wasdra.kube.quantity import ceil_value, milli_value
from kubectl_wasdra.kube.resources import node_allocatable
from kubectl_wasdra.sched.podinfo import MILLI_RESOURCES, PodInfo

if TYPE_CHECKING:
    from kubectl_wasdra.sched.state import SchedState


@dataclass(frozen=True, eq=False)
class NodeFacts:
    """Static facts of one node: labels, taints, cordon, allocatable (cpu in millicores, the rest integers)."""

    name: str
    node: Mapping[str, Any]
    labels: Mapping[str, str]
    taints: tuple[Mapping[str, Any], ...]
    unschedulable: bool
    allocatable: Mapping[str, int]

    @classmethod
    def of(cls, node: Mapping[str, Any]) -> NodeFacts:
        """Facts of a core/v1 Node dict."""
        meta = node.get("metadata") or {}
        spec = node.get("spec") or {}
        allocatable = {name: (milli_value(q) if name in MILLI_RESOURCES else ceil_value(q))
                       for name, q in node_allocatable(node).items()}
        return cls(name=meta.get("name") or "", node=node, labels=meta.get("labels") or {},
                   taints=tuple(spec.get("taints") or ()), unschedulable=bool(spec.get("unschedulable")),
                   allocatable=allocatable)


class NodeInfo:
    """One node in one simulation state: static facts plus what is requested on it and which pods run there."""

    __slots__ = ("facts", "pods", "requested", "state")

    def __init__(self, facts: NodeFacts, requested: Mapping[str, int], pods: tuple[PodInfo, ...],
                 state: SchedState) -> None:
        self.facts = facts
        self.requested = requested
        self.pods = pods  # every pod on the node
        self.state = state

    @property
    def name(self) -> str:
        """The node's name."""
        return self.facts.name

    @property
    def pod_count(self) -> int:
        """How many pods run on the node."""
        return len(self.pods)

    def free(self, resource: str) -> int:
        """Allocatable minus requested for one resource (may be negative when the snapshot is over-committed)."""
        return self.facts.allocatable.get(resource, 0) - self.requested.get(resource, 0)
