"""Node and pod indices of a snapshot: nodes by name and label, pods by node and scheduling group, pending pods, and the
resources still free on each node.

Free = status.allocatable minus the effective requests (kube/resources.py) of every non-terminal pod bound to the node,
and "pods" minus their count, as kube-scheduler's NodeInfo accounts them (pkg/scheduler/framework/types.go, release-1.37).
Built once per snapshot, on first use; everything returned is immutable.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.kube.resources import is_terminal, node_allocatable, pod_requests
from kubectl_wasdra.kube.selectors import labels_of


@dataclass(frozen=True, order=True)
class GroupRef:
    """The scheduling group a pod belongs to.

    1.36+: `spec.schedulingGroup.podGroupName` -> (namespace, pod_group). 1.35: `spec.workloadRef {name, podGroup,
    podGroupReplicaKey}` -> (namespace, pod_group, workload, replica_key), the group being implicit in the Workload.
    """

    namespace: str
    pod_group: str
    workload: str | None = None
    replica_key: str | None = None


def group_ref(pod: Mapping[str, Any]) -> GroupRef | None:
    """The pod's scheduling group, or None for a pod outside any group."""
    spec = pod.get("spec") or {}
    namespace = (pod.get("metadata") or {}).get("namespace") or "default"
    scheduling_group = spec.get("schedulingGroup")
    if isinstance(scheduling_group, Mapping) and scheduling_group.get("podGroupName"):
        return GroupRef(namespace, str(scheduling_group["podGroupName"]))
    workload_ref = spec.get("workloadRef")
    if isinstance(workload_ref, Mapping) and workload_ref.get("name"):
        return GroupRef(namespace, str(workload_ref.get("podGroup") or ""), str(workload_ref["name"]),
                        str(workload_ref.get("podGroupReplicaKey") or "") or None)
    return None


def is_pending(pod: Mapping[str, Any]) -> bool:
    """Waiting for the scheduler: no nodeName, not terminal, not being deleted (the scheduler skips those)."""
    return (not (pod.get("spec") or {}).get("nodeName") and not is_terminal(pod)
            and not (pod.get("metadata") or {}).get("deletionTimestamp"))


def _name(obj: Mapping[str, Any]) -> str:
    return (obj.get("metadata") or {}).get("name") or ""


@dataclass(frozen=True)
class NodeIndex:
    """Nodes, pods and free resources of one snapshot (see module doc)."""

    nodes: Mapping[str, dict[str, Any]]
    by_label: Mapping[str, Mapping[str, tuple[str, ...]]]
    pods_by_node: Mapping[str, tuple[dict[str, Any], ...]]
    pods_by_group: Mapping[GroupRef, tuple[dict[str, Any], ...]]
    pending: tuple[dict[str, Any], ...]
    requested: Mapping[str, Mapping[str, Decimal]]

    def free(self, node_name: str) -> dict[str, Decimal]:
        """Allocatable minus requested per resource (including "pods"); {} for an unknown node. May be negative when
        pods were bound past what is allocatable (static pods, a node that shrank)."""
        node = self.nodes.get(node_name)
        if node is None:
            return {}
        free = node_allocatable(node)
        for name, quantity in self.requested.get(node_name, {}).items():
            free[name] = free.get(name, Decimal(0)) - quantity
        return free


def build_node_index(nodes: Sequence[dict[str, Any]], pods: Sequence[dict[str, Any]]) -> NodeIndex:
    """Index nodes and pods (pods bound to nodes missing from the snapshot are listed but use nothing)."""
    by_name = {_name(node): node for node in nodes}
    labels: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, node in by_name.items():
        for key, value in labels_of(node).items():
            labels[key][str(value)].append(name)
    by_node: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_group: dict[GroupRef, list[dict[str, Any]]] = defaultdict(list)
    pending: list[dict[str, Any]] = []
    requested: dict[str, dict[str, Decimal]] = {}
    for pod in pods:
        ref = group_ref(pod)
        if ref is not None:
            by_group[ref].append(pod)
        node_name = (pod.get("spec") or {}).get("nodeName")
        if not node_name:
            if is_pending(pod):
                pending.append(pod)
            continue
        if is_terminal(pod):
            continue
        by_node[node_name].append(pod)
        if node_name in by_name:
            _add_requests(requested.setdefault(node_name, {}), pod)
    return NodeIndex(
        nodes=MappingProxyType(by_name),
        by_label=MappingProxyType({key: MappingProxyType({value: tuple(names) for value, names in values.items()})
                                   for key, values in labels.items()}),
        pods_by_node=MappingProxyType({name: tuple(items) for name, items in by_node.items()}),
        pods_by_group=MappingProxyType({ref: tuple(items) for ref, items in by_group.items()}),
        pending=tuple(pending),
        requested=MappingProxyType({name: MappingProxyType(values) for name, values in requested.items()}),
    )


def _add_requests(into: dict[str, Decimal], pod: Mapping[str, Any]) -> None:
    for name, quantity in pod_requests(pod).items():
        into[name] = into.get(name, Decimal(0)) + quantity
    into["pods"] = into.get("pods", Decimal(0)) + 1
