"""ClusterSnapshot: the immutable, indexed view of a cluster that the simulator and cross-object checks read.

Objects are plain dicts in API shape, grouped by kind. DRA kinds are normalized to the resource.k8s.io/v1 shape
(cluster/convert.py) whatever version they were read in; other kinds keep their apiVersion.
Indices are computed on first use and never mutated; `overlay` returns a new snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final

SNAPSHOT_KINDS: Final = (
    "Node", "Pod", "Namespace", "PriorityClass", "Job",
    "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceClass", "DeviceTaintRule",
    "Workload", "PodGroup", "CompositePodGroup",
)
CLUSTER_SCOPED_KINDS: Final = frozenset({"Node", "Namespace", "PriorityClass", "ResourceSlice", "DeviceClass",
                                         "DeviceTaintRule"})


def object_key(obj: Mapping[str, Any]) -> tuple[str, str]:
    """(namespace, name) of an object; namespace is "" for cluster-scoped objects."""
    meta = obj.get("metadata") or {}
    return meta.get("namespace") or "", meta.get("name") or ""


@dataclass(frozen=True)
class SnapshotHeader:
    """Where a snapshot came from: server version, served group/versions, gaps (kind -> why unread), conversions
    (old apiVersion -> objects converted to resource.k8s.io/v1), whether names were anonymized. See cluster/header.py."""

    server_version: str | None = None
    taken_at: str | None = None
    served: tuple[str, ...] = ()
    gaps: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    converted: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    anonymized: bool = False


@dataclass(frozen=True)
class ClusterSnapshot:
    """Objects by kind (sorted by namespace, name) plus lazily built indices."""

    objects: Mapping[str, tuple[dict[str, Any], ...]]
    header: SnapshotHeader = SnapshotHeader()

    def of_kind(self, kind: str) -> tuple[dict[str, Any], ...]:
        """All objects of one kind, sorted by (namespace, name); empty if the kind was not read."""
        return self.objects.get(kind, ())

    @cached_property
    def _by_key(self) -> Mapping[tuple[str, str, str], dict[str, Any]]:
        return MappingProxyType({(kind, *object_key(obj)): obj for kind, objs in self.objects.items() for obj in objs})

    def get(self, kind: str, name: str, namespace: str = "") -> dict[str, Any] | None:
        """One object by kind, name and namespace ("" for cluster-scoped kinds), or None."""
        return self._by_key.get((kind, namespace, name))

    def overlay(self, extra: Iterable[dict[str, Any]]) -> ClusterSnapshot:
        """A new snapshot with `extra` objects added (replacing same kind/namespace/name); self is unchanged."""
        merged: dict[str, dict[tuple[str, str], dict[str, Any]]] = {
            kind: {object_key(obj): obj for obj in objs} for kind, objs in self.objects.items()
        }
        for obj in extra:
            merged.setdefault(obj.get("kind", ""), {})[object_key(obj)] = obj
        return ClusterSnapshot(
            objects=MappingProxyType({kind: tuple(objs[k] for k in sorted(objs)) for kind, objs in merged.items()}),
            header=self.header,
        )


EMPTY_SNAPSHOT: Final = ClusterSnapshot(objects=MappingProxyType({}))
