"""What rules yield (Problem, SetProblem) and what the pipeline makes of them (Finding)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.load.document import format_path as format_path  # where Path lives; lint's importers keep this name

if TYPE_CHECKING:
    from kubectl_wasdra.load import Document, Path


@dataclass(frozen=True)
class Problem:
    """A document rule's verdict: where (field path), what is wrong, how to fix it; `at` picks key or value position."""

    path: Path
    message: str
    hint: str | None = None
    at: str = "key"
    position: tuple[int, int] | None = None   # explicit 1-based (line, column) inside the value, e.g. of a CEL error
    subject: Path | None = None  # the field at fault when it is reported at another path (a missing field: its parent)
    covers: tuple[Path, ...] = ()  # other paths whose problems this one explains (a misplaced sibling field)

    @property
    def cause(self) -> Path:
        """The path of the value this problem is about (lint/overlap.py compares causes across families)."""
        return tuple(self.subject) if self.subject is not None else tuple(self.path)


@dataclass(frozen=True)
class SetProblem:
    """A set rule's verdict about one document of the set."""

    document: Document
    path: Path
    message: str
    hint: str | None = None
    at: str = "key"
    severity: Severity | None = None  # a milder severity than the rule's for this verdict (FIT004: fits by preempting)
    related: tuple[tuple[Document, Path], ...] = ()  # the other objects (and fields) the verdict is about
    position: tuple[int, int] | None = None   # explicit 1-based (line, column) inside the value, e.g. of a CEL error


@dataclass(frozen=True, order=True)
class Finding:
    """A problem stamped with rule, severity, file and 1-based position; sorts by (file, line, column, rule)."""

    file: str
    line: int
    column: int
    rule: str
    name: str
    severity: Severity
    path: str
    message: str
    hint: str | None = None
    object: str = ""
    # other objects a cross-object finding is about (document, field path): editors show them as related places;
    # not part of the finding's identity, order or JSON
    related: tuple[tuple[Document, Path], ...] = field(default=(), compare=False, repr=False)

    def as_dict(self) -> dict[str, object]:
        """DESIGN's JSON shape, keys in a fixed order."""
        return {"rule": self.rule, "severity": str(self.severity), "file": self.file, "line": self.line,
                "column": self.column, "path": self.path, "message": self.message, "hint": self.hint}

