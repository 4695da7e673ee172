"""Objects defined more than once in one check, and which copy a reference resolves to.

Per-environment folders (`dev/`, `prod/`, overlays) commonly hold the same object with different settings. Every copy
is checked on its own; cross-object rules see every copy. When a reference (a claim template name, a group name, a
controllerRef ...) has several candidate copies, it resolves to the *nearest* one, independently of argument order:
the copy in the same file, else in the same folder, else the one fewest folder steps away, ties broken by file path and
position. Rules that must count an object once (gang membership, the simulation) keep one copy per identity: the
nearest to the object asking, or, with no such object, the copy whose (file, position) sorts last, as `kubectl apply -R`
over the sorted tree would leave it.

Identity is what the API server keys on: API group, kind, namespace (none for cluster-scoped kinds) and name.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from kubectl_wasdra.kube.scope import is_cluster_scoped
from kubectl_wasdra.load import Document

Identity = tuple[str, str, str, str]
T = TypeVar("T")


def identity(document: Document) -> Identity | None:
    """(group, kind, namespace, name) of a named object; None for one without a name (generateName, no metadata)."""
    name, kind = document.name, document.kind
    if not name or not kind:
        return None
    namespace = "" if is_cluster_scoped(document.group or "", kind) else (document.namespace or "")
    return (document.group or "", kind, namespace, name)


@functools.lru_cache(maxsize=4096)
def folder(file: str) -> str:
    """The folder of `file` ("" for stdin), normalised so that `a/./b.yaml` and `a/b.yaml` agree."""
    return "" if file == "-" else os.path.normpath(os.path.dirname(os.path.abspath(file)))


def distance(origin: str, other: str) -> int:
    """How far file `other` is from file `origin`: 0 same file, 1 same folder, else 1 + folder steps between them."""
    if origin == other:
        return 0
    return _folder_distance(folder(origin), folder(other))


@functools.lru_cache(maxsize=65536)
def _folder_distance(a: str, b: str) -> int:
    """distance() between files of folders `a` and `b`: rules ask it for the same few folder pairs again and again
    (gang membership over many copies of one group name: 99,444 calls, 187,320 relpaths on fixtures/)."""
    if a == b:
        return 1
    if not a or not b:
        return 1_000  # stdin is as far from any file as can be
    common = os.path.commonpath([a, b])
    return 1 + _steps(common, a) + _steps(common, b)


def _steps(ancestor: str, path: str) -> int:
    relative = os.path.relpath(path, ancestor)
    return 0 if relative == "." else relative.count(os.sep) + 1


def position_key(document: Document) -> tuple[str, int, int]:
    """(file, document number, List item): a total order of documents that does not depend on argument order."""
    return (document.file, document.index, -1 if document.item is None else document.item)


def nearest(candidates: Iterable[T], origin: Document | None, document_of: Callable[[T], Document] = lambda d: d
            ) -> T | None:
    """The candidate nearest to `origin` (see the module docstring); without an origin, the one that sorts last."""
    found = list(candidates)
    if len(found) < 2:
        return found[0] if found else None
    if origin is None:
        return max(found, key=lambda c: position_key(document_of(c)))
    return min(found, key=lambda c: (distance(origin.file, document_of(c).file), position_key(document_of(c))))


def one_per_identity(items: Iterable[T], origin: Document | None = None,
                     document_of: Callable[[T], Document] = lambda d: d) -> tuple[T, ...]:
    """`items` with one copy per object identity (the nearest to `origin`); unnamed objects are all kept. The order
    is that of position_key, so the result does not depend on argument order."""
    grouped: dict[Identity | int, list[T]] = {}
    for number, item in enumerate(items):
        key = identity(document_of(item))
        grouped.setdefault(number if key is None else key, []).append(item)
    chosen = [nearest(group, origin, document_of) for group in grouped.values()]
    return tuple(sorted((c for c in chosen if c is not None), key=lambda c: position_key(document_of(c))))


def copies(documents: Sequence[Document]) -> Iterator[tuple[Document, ...]]:
    """Each object defined more than once, as its copies sorted by position_key (documents of one file twice, as
    `kubectl apply -f a.yaml -f a.yaml` would, are one copy)."""
    grouped: dict[Identity, dict[tuple[str, int, int], Document]] = {}
    for document in documents:
        key = identity(document)
        if key is not None:
            grouped.setdefault(key, {}).setdefault(position_key(document), document)
    for key in sorted(grouped):
        found = grouped[key]
        if len(found) > 1:
            yield tuple(found[position] for position in sorted(found))


def collide(documents: Sequence[Document]) -> bool:
    """True when two different copies are in one folder: one `kubectl apply -f FOLDER` sends both and the second
    overwrites the first. Identical copies (demos that each carry the same DeviceClass) lose nothing."""
    return any(any(d.data != same[0].data for d in same[1:]) for same in by_folder(documents))


def by_folder(found: Sequence[Document]) -> list[tuple[Document, ...]]:
    """The copies grouped by folder, each group and the groups in the order of `found` (position order)."""
    groups: dict[str, list[Document]] = {}
    for document in found:
        groups.setdefault(folder(document.file), []).append(document)
    return [tuple(group) for group in groups.values()]

