"""DocumentSet: all documents of one check, indexed by kind and name, for cross-object (set-scope) rules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from kubectl_wasdra.lint.copies import nearest
from kubectl_wasdra.load import Document


@dataclass(frozen=True, eq=False)
class DocumentSet:
    """The documents of one check in input order."""

    documents: tuple[Document, ...]

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    @cached_property
    def _by_kind(self) -> Mapping[str, tuple[Document, ...]]:
        grouped: dict[str, list[Document]] = {}
        for document in self.documents:
            grouped.setdefault(document.kind or "", []).append(document)
        return MappingProxyType({kind: tuple(docs) for kind, docs in grouped.items()})

    def of_kind(self, kind: str) -> tuple[Document, ...]:
        """Documents of one kind, in input order."""
        return self._by_kind.get(kind, ())

    def get(self, kind: str, name: str, namespace: str | None = None) -> Document | None:
        """The document of `kind` named `name` (in `namespace` when given; "default" matches a missing one); with
        several copies the one whose position sorts last, whatever the input order (lint/copies.py)."""
        return nearest((d for d in self.of_kind(kind) if d.name == name and
                        (namespace is None or (d.namespace or "default") == namespace)), None)
