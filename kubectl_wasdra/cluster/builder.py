"""Assembles a ClusterSnapshot from objects read one by one (from files or from a live cluster)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.cluster.convert import needs_conversion, to_v1
from kubectl_wasdra.cluster.header import merge_headers
from kubectl_wasdra.cluster.shape import Problem, shape_problem
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot, SnapshotHeader, object_key, with_default_namespace
from kubectl_wasdra.cluster.sound import sound
from kubectl_wasdra.load.document import LoadProblem


@dataclass
class SnapshotBuilder:
    """Objects by kind then (namespace, name), later ones replacing earlier ones; conversions counted per old version."""

    objects: dict[str, dict[tuple[str, str], dict[str, Any]]] = field(default_factory=dict)
    problems: list[LoadProblem] = field(default_factory=list)
    converted: Counter[str] = field(default_factory=Counter)
    header: SnapshotHeader = field(default_factory=SnapshotHeader)
    read_order: dict[tuple[str, str, str], int] = field(default_factory=dict)  # ClusterSnapshot.read_order
    read_count: int = 0

    def add(self, obj: Any) -> Problem | None:
        """Add one object, converting DRA objects to resource.k8s.io/v1; a malformed one (shape.shape_problem: kind,
        apiVersion or metadata.name not a string, ...) is left out and its problem returned for the caller to report."""
        problem = None if sound(obj) else shape_problem(obj)  # sound.py: a quick yes for the many sound objects
        if problem is not None:
            return problem
        if needs_conversion(obj):
            self.converted[obj["apiVersion"]] += 1
            obj = to_v1(obj)
        obj = with_default_namespace(obj)
        key = object_key(obj)
        self.objects.setdefault(obj["kind"], {})[key] = obj
        self.read_count += 1
        self.read_order[(obj["kind"], *key)] = self.read_count
        return None

    def add_header(self, header: SnapshotHeader) -> None:
        self.header = merge_headers(self.header, header)

    def build(self) -> ClusterSnapshot:
        """The snapshot: objects sorted by (namespace, name) per kind, header with the conversion counts."""
        header = self.header
        if self.converted:
            header = merge_headers(header, SnapshotHeader(converted=MappingProxyType(dict(self.converted))))
        keys = {kind: sorted(by_key) for kind, by_key in sorted(self.objects.items())}
        objects = {kind: tuple(map(self.objects[kind].__getitem__, sorted_keys)) for kind, sorted_keys in keys.items()}
        snapshot = ClusterSnapshot(objects=MappingProxyType(objects), header=header,
                                   read_order=MappingProxyType(self.read_order))
        snapshot.__dict__["_kind_keys"] = keys  # ClusterSnapshot._keys_of: what an overlay merges into
        return snapshot
