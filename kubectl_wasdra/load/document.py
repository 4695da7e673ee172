"""Loaded documents and what stopped others from loading.

A `Document` keeps its plain data (parsed fast, without positions) and a handle on its source text; line/column
positions are computed only when something asks (`Document.position`), by re-parsing that file with a composer
that records marks (load/positions.py). Most documents have no findings, so most files are never re-parsed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from kubectl_wasdra.load.positions import SourceText

PathElement = str | int
Path = tuple[PathElement, ...]


class ProblemKind(StrEnum):
    """What went wrong while loading; the lint layer maps each kind to one LOAD rule."""

    SYNTAX = "syntax"
    DUPLICATE_KEY = "duplicate-key"
    MISSING_API_VERSION = "missing-api-version"
    MISSING_KIND = "missing-kind"
    NOT_AN_OBJECT = "not-an-object"
    EMPTY_FILE = "empty-file"
    EMPTY_DOCUMENT = "empty-document"
    NOT_UTF8 = "not-utf8"
    BINARY = "binary"
    TOO_LARGE = "too-large"
    ALIAS_LIMIT = "alias-limit"
    UNREADABLE = "unreadable"
    NOT_A_MANIFEST = "not-a-manifest"   # a Helm template, kustomization, CI config ... (load/classify.py)


@dataclass(frozen=True)
class LoadProblem:
    """Something that stops a document or a whole file from loading (or is wrong with its shape). Positions are 1-based."""

    file: str
    line: int
    column: int
    message: str
    hint: str | None = None
    kind: ProblemKind = ProblemKind.SYNTAX
    path: Path = ()

    @property
    def fatal(self) -> bool:
        """True when the tool could not read the input at all (exit 2), not merely found it wrong."""
        return self.kind is ProblemKind.UNREADABLE


def format_path(path: Path) -> str:
    """("spec", "devices", "requests", 0, "exactly", "count") -> "spec.devices.requests[0].exactly.count"."""
    text = ""
    for step in path:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text += f".{step}" if text else str(step)
    return text


def value_at(data: Any, path: Path, default: Any = None) -> Any:
    """The value at `path` (keys and list indices) inside plain data, or `default` when any step is missing."""
    node: Any = data
    for step in path:
        if isinstance(step, int):
            if not isinstance(node, list) or not -len(node) <= step < len(node):
                return default
        elif not isinstance(node, dict) or step not in node:
            return default
        node = node[step]
    return node


@dataclass(frozen=True, eq=False, slots=True)
class Document:
    """One Kubernetes object from a file: `index` is the document number in the file (0-based); `item` the position
    inside a flattened `List` (None otherwise). The identity fields below are computed once on creation, into slots:
    every rule reads them, and a per-object __dict__ cost 400 bytes a document."""

    file: str
    index: int
    data: dict[str, Any]
    item: int | None = None
    source: SourceText | None = field(default=None, repr=False)
    api_version: str | None = field(init=False, repr=False)
    kind: str | None = field(init=False, repr=False)
    group: str = field(init=False, repr=False)  # API group ("" for the core group) from apiVersion
    version: str = field(init=False, repr=False)
    metadata: Mapping[str, Any] = field(init=False, repr=False)
    name: str | None = field(init=False, repr=False)
    namespace: str | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        data, put = self.data, object.__setattr__
        api_version, kind, meta = data.get("apiVersion"), data.get("kind"), data.get("metadata")
        api_version = api_version if isinstance(api_version, str) else None
        put(self, "api_version", api_version)
        put(self, "kind", kind if isinstance(kind, str) else None)
        group, _, version = (api_version or "").rpartition("/")
        put(self, "group", group)
        put(self, "version", version)
        meta = meta if isinstance(meta, dict) else {}
        put(self, "metadata", meta)
        name, namespace = meta.get("name"), meta.get("namespace")
        put(self, "name", name if isinstance(name, str) else None)
        put(self, "namespace", namespace if isinstance(namespace, str) else None)

    def in_namespace(self, namespace: str) -> Document:
        """This document as `kubectl apply -n NAMESPACE` would create it when it names no namespace: a copy whose
        `namespace` is `namespace`, its data (and so every position and fix) unchanged."""
        import copy

        placed = copy.copy(self)
        object.__setattr__(placed, "namespace", namespace)
        return placed

    @property
    def gvk(self) -> tuple[str, str, str]:
        """(group, version, kind), empty strings where missing."""
        return self.group, self.version, self.kind or ""

    def get(self, path: Path, default: Any = None) -> Any:
        """The value at `path` (keys and list indices), or `default` when any step is missing."""
        return value_at(self.data, path, default)

    def has(self, path: Path) -> bool:
        """True when every step of `path` exists (a present `null` counts)."""
        sentinel = object()
        return self.get(path, sentinel) is not sentinel

    def position(self, path: Path = (), at: Literal["key", "value"] = "key") -> tuple[int, int]:
        """1-based (line, column) of the key (or value) at `path`; for a missing path, the deepest existing ancestor;
        `()` is the document start. Computed on first use by re-parsing the file with positions."""
        if self.source is None:
            return 1, 1
        prefix: Path = ("items", self.item) if self.item is not None else ()
        return self.source.position(self.index, prefix + tuple(path), at)

    @property
    def where(self) -> str:
        """`file:line:col` of the document start, for messages."""
        line, column = self.position()
        return f"{self.file}:{line}:{column}"


@dataclass(frozen=True)
class LoadResult:
    """Everything loaded from the inputs: documents in input order, load problems, and the files read."""

    documents: tuple[Document, ...]
    problems: tuple[LoadProblem, ...]
    files: tuple[str, ...]
