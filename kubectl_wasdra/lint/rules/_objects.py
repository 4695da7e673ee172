"""Finding referenced objects in the manifest set and, when given, the cluster snapshot (REF and GANG families).

A manifest object without metadata.namespace is created in whatever namespace kubectl applies to, so it matches a
reference from any namespace (and a reference from an object without a namespace matches any namespace): that keeps
upstream examples, which often set the namespace on one object only, free of false "not found" findings.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from kubectl_wasdra.lint.copies import CLUSTER_SCOPED, nearest
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._pods import is_builtin
from kubectl_wasdra.load import Document

if TYPE_CHECKING:
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
    from kubectl_wasdra.lint.context import CheckContext


class Found(Enum):
    """Where a reference resolved."""

    MANIFESTS = "manifests"
    CLUSTER = "cluster"
    UNCHECKED = "unchecked"   # not in the manifests; no snapshot (or it did not read that kind) to say more
    NOWHERE = "nowhere"       # neither in the manifests nor in a snapshot that read the kind


@dataclass(frozen=True, eq=False)
class ObjectIndex:
    """Manifest documents by (kind, name) plus the optional snapshot."""

    docs: DocumentSet
    snapshot: ClusterSnapshot | None = None

    @cached_property
    def _by_name(self) -> Mapping[tuple[str, str], tuple[Document, ...]]:
        found: dict[tuple[str, str], list[Document]] = {}
        for document in self.docs:
            if document.kind and document.name and is_builtin(document):
                found.setdefault((document.kind, document.name), []).append(document)
        return {key: tuple(value) for key, value in found.items()}

    def _visible(self, kind: str, name: str, namespace: str | None) -> tuple[Document, ...]:
        return tuple(d for d in self._by_name.get((kind, name), ())
                     if kind in CLUSTER_SCOPED or namespace is None or d.namespace in (None, namespace))

    def in_manifests(self, kind: str, name: str, namespace: str | None, near: Document | None = None) -> Document | None:
        """The manifest object of `kind` named `name` visible from `namespace` (see the module docstring); with
        several copies, the one nearest to the referring document `near` (lint/copies.py), whatever the input order."""
        return nearest(self._visible(kind, name, namespace), near)

    def candidates(self, kind: str, name: str, namespace: str | None, near: Document | None = None
                   ) -> tuple[Mapping[str, Any], ...]:
        """Every definition of the object: the copy nearest to `near` when given, else all matching manifest documents
        (a set may hold alternatives), else the snapshot's object, else nothing."""
        visible = self._visible(kind, name, namespace)
        if near is not None and len(visible) > 1:
            visible = (nearest(visible, near),)
        if visible:
            return tuple(d.data for d in visible)
        obj = self.in_cluster(kind, name, namespace)
        return (obj,) if obj is not None else ()

    @cached_property
    def _names_memo(self) -> dict[tuple[str, str | None], frozenset[str]]:
        return {}

    def names(self, kind: str, namespace: str | None) -> frozenset[str]:
        """Every name a reference of `kind` from `namespace` could resolve to, in the manifests and the snapshot
        (the candidates of a did-you-mean); computed once per kind and namespace."""
        memo = self._names_memo
        if (kind, namespace) not in memo:
            memo[(kind, namespace)] = self._names(kind, namespace)
        return memo[(kind, namespace)]

    def _names(self, kind: str, namespace: str | None) -> frozenset[str]:
        found = {name for of_kind, name in self._by_name if of_kind == kind and self._visible(kind, name, namespace)}
        wanted = _cluster_namespace(kind, namespace)
        for obj in self.snapshot.of_kind(kind) if self.snapshot is not None else ():
            meta = obj.get("metadata")
            if isinstance(meta, dict) and isinstance(meta.get("name"), str) and (meta.get("namespace") or "") == wanted:
                found.add(meta["name"])
        return frozenset(found)

    def in_cluster(self, kind: str, name: str, namespace: str | None) -> dict[str, Any] | None:
        """The snapshot object, or None (also when there is no snapshot)."""
        if self.snapshot is None:
            return None
        return self.snapshot.get(kind, name, _cluster_namespace(kind, namespace))

    def cluster_read(self, kind: str) -> bool:
        """True when the snapshot can vouch for the absence of an object of `kind`: the kind was read (a header
        from `kubectl wasdra snapshot`/--live without a gap for it, or objects of that kind are present)."""
        snapshot = self.snapshot
        if snapshot is None or kind in snapshot.header.gaps:
            return False
        return bool(snapshot.of_kind(kind)) or bool(snapshot.header.served)

    def find(self, kind: str, name: str, namespace: str | None) -> Found:
        """Where `kind`/`name` referenced from `namespace` is."""
        if self.in_manifests(kind, name, namespace) is not None:
            return Found.MANIFESTS
        if self.in_cluster(kind, name, namespace) is not None:
            return Found.CLUSTER
        return Found.NOWHERE if self.cluster_read(kind) else Found.UNCHECKED

    def get(self, kind: str, name: str, namespace: str | None, near: Document | None = None) -> Mapping[str, Any] | None:
        """The object's data from the manifests (the copy nearest to `near`), else from the snapshot, else None."""
        document = self.in_manifests(kind, name, namespace, near)
        if document is not None:
            return document.data
        return self.in_cluster(kind, name, namespace)


@functools.lru_cache(maxsize=4)
def object_index(docs: DocumentSet, ctx: CheckContext) -> ObjectIndex:
    """The ObjectIndex of a check's documents and snapshot, built once and shared by all its set rules."""
    return ObjectIndex(docs, ctx.snapshot)


def _cluster_namespace(kind: str, namespace: str | None) -> str:
    """The namespace the snapshot files an object under: "" for cluster-scoped kinds, "default" when none is given."""
    return "" if kind in CLUSTER_SCOPED else namespace or "default"
