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

    @property
    def key(self) -> str:
        """"namespace/name"."""
        return f"{self.namespace}/{self.name}"

    @property
    def policy(self) -> str:
        """"gang" or "basic"."""
        return "gang" if self.gang else "basic"


def _policy(spec: Mapping[str, Any]) -> tuple[bool, int]:
    policy = spec.get("schedulingPolicy") or spec.get("policy") or {}
    gang = policy.get("gang")
    if gang is None:
        return False, 1
    count = gang.get("minCount", gang.get("minGroupCount", 1))
    return True, int(count) if isinstance(count, int) and count >= 1 else 1


def _topology(spec: Mapping[str, Any]) -> tuple[str, ...]:
    constraints = spec.get("schedulingConstraints") or {}
    return tuple(str(t.get("key") or t.get("level") or "") for t in constraints.get("topology") or () if isinstance(t, dict))


def group_from_object(obj: Mapping[str, Any], name: str | None = None, spec: Mapping[str, Any] | None = None) -> GroupSpec:
    """GroupSpec of a PodGroup / CompositePodGroup dict (or of one 1.35 Workload pod group with `name` and `spec`)."""
    meta = obj.get("metadata") or {}
    spec = spec if spec is not None else (obj.get("spec") or {})
    gang, min_count = _policy(spec)
    priority = spec.get("priority")
    return GroupSpec(
        kind=obj.get("kind", "PodGroup"), namespace=meta.get("namespace") or "default", name=name or meta.get("name", ""),
        api_version=obj.get("apiVersion", ""), gang=gang, min_count=min_count, topology_keys=_topology(spec),
        resource_claims=tuple(spec.get("resourceClaims") or ()), priority_class_name=spec.get("priorityClassName"),
        priority=priority if isinstance(priority, int) else None, preemption_policy=spec.get("preemptionPolicy"),
        parent=spec.get("parentCompositePodGroupName"), created=str(meta.get("creationTimestamp") or ""), obj=obj,
    )


def read_groups(snapshot: ClusterSnapshot) -> dict[tuple[str, str], GroupSpec]:
    """Every pod group by (namespace, name): PodGroups, and 1.35 Workload pod groups named "<workload>/<podGroup>"."""
    out: dict[tuple[str, str], GroupSpec] = {}
    for obj in snapshot.of_kind("PodGroup"):
        group = group_from_object(obj)
        out[(group.namespace, group.name)] = group
    for workload in snapshot.of_kind("Workload"):
        meta = workload.get("metadata") or {}
        for item in (workload.get("spec") or {}).get("podGroups") or ():
            group = group_from_object(workload, f"{meta.get('name', '')}/{item.get('name', '')}", item)
            out[(group.namespace, group.name)] = group
    return out


def read_composites(snapshot: ClusterSnapshot) -> dict[tuple[str, str], GroupSpec]:
    """CompositePodGroups by (namespace, name); min_count is gang.minGroupCount (basic: 1)."""
    return {(g.namespace, g.name): g for g in map(group_from_object, snapshot.of_kind("CompositePodGroup"))}


def base_group_name(pod_group_name: str) -> str:
    """The group a pod names without the 1.35 replica key ("w/pg/key" -> "w/pg"); 1.36+ names pass through."""
    parts = pod_group_name.split("/")
    return "/".join(parts[:2]) if len(parts) == 3 else pod_group_name
