"""Scheduling groups read from all three API shapes, normalized to one GroupSpec.

1.35 scheduling.k8s.io/v1alpha1 Workload.spec.podGroups[] (policy) + pod.spec.workloadRef;
1.36 v1alpha2 PodGroup (schedulingPolicy) + pod.spec.schedulingGroup.podGroupName;
1.37 v1beta1 / v1alpha3 PodGroup (workloadRef, parentCompositePodGroupName) and v1alpha3 CompositePodGroup.
Upstream: kubernetes/kubernetes staging/src/k8s.io/api/scheduling/{v1alpha1,v1alpha2,v1beta1,v1alpha3}/types.go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

GROUP_KINDS = ("PodGroup", "CompositePodGroup", "Workload")


@dataclass(frozen=True)
class GroupSpec:
    """One PodGroup (or 1.35 Workload pod group, or CompositePodGroup) as the scheduler reads it."""

    kind: str
    namespace: str
    name: str
    api_version: str
    gang: bool
    min_count: int
    topology_keys: tuple[str, ...] = ()
    resource_claims: tuple[Mapping[str, Any], ...] = ()
    priority_class_name: str | None = None
    priority: int | None = None
    preemption_policy: str | None = None
    parent: str | None = None
    created: str = ""
    obj: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # the spec the fields come from: the object's, or its item of a 1.35 Workload's spec.podGroups
    spec: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def key(self) -> str:
        """"namespace/name"."""
        return f"{self.namespace}/{self.name}"

    @property
    def policy(self) -> str:
        """"gang" or "basic"."""
        return "gang" if self.gang else "basic"


def _map(value: Any) -> Mapping[str, Any]:
    """`value` when it is a mapping, else {}: a malformed field reads as absent (SCHEMA findings report it)."""
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> tuple[Any, ...]:
    """`value` as a tuple when it is a list, else ()."""
    return tuple(value) if isinstance(value, list | tuple) else ()


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _policy(spec: Mapping[str, Any]) -> tuple[bool, int]:
    policy = _map(spec.get("schedulingPolicy")) or _map(spec.get("policy"))
    gang = policy.get("gang")
    if gang is None:
        return False, 1
    gang = _map(gang)
    count = gang.get("minCount", gang.get("minGroupCount", 1))
    return True, count if isinstance(count, int) and not isinstance(count, bool) and count >= 1 else 1


def _topology(spec: Mapping[str, Any]) -> tuple[str, ...]:
    constraints = _map(spec.get("schedulingConstraints"))
    return tuple(str(t.get("key") or t.get("level") or "") for t in _list(constraints.get("topology"))
                 if isinstance(t, Mapping))


def group_from_object(obj: Mapping[str, Any], name: str | None = None, spec: Mapping[str, Any] | None = None) -> GroupSpec:
    """GroupSpec of a PodGroup / CompositePodGroup dict (or of one 1.35 Workload pod group with `name` and `spec`)."""
    meta = _map(obj.get("metadata"))
    spec = _map(spec if spec is not None else obj.get("spec"))
    gang, min_count = _policy(spec)
    priority = spec.get("priority")
    return GroupSpec(
        kind=_text(obj.get("kind")) or "PodGroup", namespace=_text(meta.get("namespace")) or "default",
        name=name or _text(meta.get("name")) or "", api_version=_text(obj.get("apiVersion")) or "", gang=gang,
        min_count=min_count, topology_keys=_topology(spec),
        resource_claims=tuple(c for c in _list(spec.get("resourceClaims")) if isinstance(c, Mapping)),
        priority_class_name=_text(spec.get("priorityClassName")),
        priority=priority if isinstance(priority, int) and not isinstance(priority, bool) else None,
        preemption_policy=_text(spec.get("preemptionPolicy")), parent=_text(spec.get("parentCompositePodGroupName")),
        created=str(meta.get("creationTimestamp") or ""), obj=obj, spec=spec,
    )


def read_groups(snapshot: ClusterSnapshot) -> dict[tuple[str, str], GroupSpec]:
    """Every pod group by (namespace, name): PodGroups, and 1.35 Workload pod groups named "<workload>/<podGroup>"."""
    out: dict[tuple[str, str], GroupSpec] = {}
    for obj in snapshot.of_kind("PodGroup"):
        group = group_from_object(obj)
        out[(group.namespace, group.name)] = group
    for workload in snapshot.of_kind("Workload"):
        name = _text(_map(workload.get("metadata")).get("name")) or ""
        for item in _list(_map(workload.get("spec")).get("podGroups")):
            if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
                continue  # a pod group without a name cannot be referenced
            group = group_from_object(workload, f"{name}/{item['name']}", item)
            out[(group.namespace, group.name)] = group
    return out


def read_composites(snapshot: ClusterSnapshot) -> dict[tuple[str, str], GroupSpec]:
    """CompositePodGroups by (namespace, name); min_count is gang.minGroupCount (basic: 1)."""
    return {(g.namespace, g.name): g for g in map(group_from_object, snapshot.of_kind("CompositePodGroup"))}


def base_group_name(pod_group_name: str) -> str:
    """The group a pod names without the 1.35 replica key ("w/pg/key" -> "w/pg"); 1.36+ names pass through."""
    parts = pod_group_name.split("/")
    return "/".join(parts[:2]) if len(parts) == 3 else pod_group_name
