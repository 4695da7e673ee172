"""SchedState: what is in use in one simulation (requests and pods per node, device usage, allocated claims).

Trials (a gang in one topology domain, a suggestion) work on `copy()`, which is shallow and copy-on-write per node;
the snapshot itself is never copied or changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_wasdra.sched.nodeinfo import NodeFacts, NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo

PODS = "pods"


class SchedState:
    """Mutable usage ledger over shared, immutable NodeFacts."""

    def __init__(self, facts: Mapping[str, NodeFacts], dra: Any = None, minor: int = 37) -> None:
        self.facts = facts
        self.minor = minor  # the target release's minor version: some messages changed between releases
        self.domains: dict[str, dict[str, tuple[str, ...]]] = {}  # label key -> value -> nodes; static, shared
        self.node_names: tuple[str, ...] = tuple(sorted(facts))
        self.requested: dict[str, dict[str, int]] = {name: {} for name in facts}
        self.pod_count: dict[str, int] = dict.fromkeys(facts, 0)
        self.pods: dict[str, tuple[tuple[str, Mapping[str, str]], ...]] = dict.fromkeys(facts, ())
        self.placed_by: dict[str, tuple[str, ...]] = dict.fromkeys(facts, ())
        self.dra = dra  # DraState from filters/dynamic_resources.py, or None when no DRA objects exist
        self.cursors: dict[tuple[bytes, int], int] = {}
        self.static_cache: dict[bytes, dict[str, Any]] = {}  # static filter failures per pod signature; shared
        self._views: dict[str, NodeInfo] = {}

    def copy(self) -> SchedState:
        """An independent trial state sharing facts; inner per-node values are replaced, never mutated, on assume."""
        other = SchedState.__new__(SchedState)
        other.facts, other.node_names, other.minor, other.domains = self.facts, self.node_names, self.minor, self.domains
        other.requested, other.pod_count = dict(self.requested), dict(self.pod_count)
        other.pods, other.placed_by = dict(self.pods), dict(self.placed_by)
        other.dra = self.dra.copy() if self.dra is not None else None
        other.cursors = dict(self.cursors)
        other.static_cache = self.static_cache
        other._views = {}
        return other

    def domain_index(self, key: str) -> dict[str, tuple[str, ...]]:
        """Nodes per value of label `key` (nodes without the label are in no domain), sorted; computed once."""
        index = self.domains.get(key)
        if index is None:
            groups: dict[str, list[str]] = {}
            for name in self.node_names:
                value = self.facts[name].labels.get(key)
                if value is not None:
                    groups.setdefault(value, []).append(name)
            index = self.domains[key] = {value: tuple(nodes) for value, nodes in sorted(groups.items())}
        return index

    def node(self, name: str) -> NodeInfo:
        """The NodeInfo view of `name` in this state (cached until the node changes)."""
        view = self._views.get(name)
        if view is None:
            view = NodeInfo(self.facts[name], self.requested[name], self.pod_count[name], self.pods[name], self)
            self._views[name] = view
        return view

    def pre_filter(self, pod: PodInfo) -> Any:
        """The PreFilter status that keeps `pod` off every node (claims that cannot be found), or None."""
        return self.dra.pre_filter(pod) if self.dra is not None and pod.claims_or_extended else None

    def assume(self, pod: PodInfo, node_name: str, owner: str | None = None) -> None:
        """Place `pod` on `node_name` in this state: resources, pod labels, and the devices the filter found."""
        self.add_pod(pod, node_name, owner)
        if self.dra is not None:
            self.dra.assume(pod, node_name)

    def add_pod(self, pod: PodInfo, node_name: str, owner: str | None = None) -> None:
        """Count a pod on a node (a bound pod from the snapshot, or an assumed placement) and note who placed it."""
        if node_name not in self.facts:
            return
        requested = dict(self.requested[node_name])
        for resource, value in pod.requests.items():
            requested[resource] = requested.get(resource, 0) + value
        self.requested[node_name] = requested
        self.pod_count[node_name] += 1
        self.pods[node_name] = (*self.pods[node_name], (pod.namespace, pod.labels))
        if owner is not None and owner not in self.placed_by[node_name]:
            self.placed_by[node_name] = (*self.placed_by[node_name], owner)
        self._views.pop(node_name, None)
