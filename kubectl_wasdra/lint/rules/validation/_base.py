"""What a VALID check yields (a Violation of one kind) and small helpers shared by the per-kind validators."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

Path = tuple[str | int, ...]
# resource.k8s.io versions whose device requests are flat (v1beta2 and v1 nest them under `exactly`)
FLAT_VERSIONS: Final = frozenset({"v1alpha3", "v1beta1"})


class Check(StrEnum):
    """The kind of API-server validation that failed; each maps to one VALID rule in lint/rules/validation/rules.py."""

    ONE_OF = "one-of"
    LIMIT = "limit"
    MINIMUM = "minimum"
    NAME = "name"
    QUALIFIED_NAME = "qualified-name"
    REQUEST_REFERENCE = "request-reference"
    ALLOCATION_MODE = "allocation-mode"
    CAPACITY_POLICY = "capacity-policy"
    COUNTER_REFERENCE = "counter-reference"
    QUANTITY = "quantity"
    REQUIRED = "required"
    DUPLICATE = "duplicate"
    ENUM = "enum"
    ATTRIBUTE_VALUE = "attribute-value"
    INVALID_VALUE = "invalid-value"
    UNINTENDED = "unintended"


@dataclass(frozen=True)
class Violation:
    """One validation error as kube-apiserver would report it, at `path` inside the document."""

    check: Check
    path: Path
    message: str
    hint: str | None = None
    at: str = "key"
    covers: tuple[Path, ...] = ()   # other fields whose findings this one explains (lint/overlap.py)


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_str(value: Any) -> str | None:
    """A name or other string field; any other type counts as absent (SCHEMA001 reports it)."""
    return value if isinstance(value, str) else None


def too_many(items: Any, limit: int, path: Path, what: str) -> Violation | None:
    """Kubernetes' field.TooMany: at most `limit` entries."""
    if isinstance(items, (list, dict)) and len(items) > limit:
        return Violation(Check.LIMIT, path, f"must have at most {limit} {what}, has {len(items)}",
                         hint=f"split or reduce to {limit} or fewer")
    return None


def one_of(parent: dict[str, Any], fields: Sequence[str], path: Path, *, required: bool = True,
           present: Any = None) -> Iterator[Violation]:
    """Exactly one (or, with required=False, at most one) of `fields` set. `present(name, value)` decides "set"."""
    is_set = present or (lambda _name, value: value is not None)
    chosen = [f for f in fields if f in parent and is_set(f, parent[f])]
    names = ", ".join(f"`{f}`" for f in fields)
    if len(chosen) > 1:
        both = " and ".join(f"`{f}`" for f in chosen)
        yield Violation(Check.ONE_OF, (*path, chosen[1]), f"exactly one of {names} is required, but {both} are set",
                        hint=f"keep only one of {', '.join(chosen)}")
    elif not chosen and required:
        yield Violation(Check.ONE_OF, path, f"exactly one of {names} is required, but none is set",
                        hint=f"set one of {', '.join(fields)}")


def duplicates(items: Sequence[Any], key: Any, path: Path, what: str) -> Iterator[Violation]:
    """field.Duplicate for list entries whose `key(item)` repeats; a key that is not a string counts as absent
    (SCHEMA001 reports its type)."""
    seen: set[str] = set()
    for index, item in enumerate(items):
        value = key(item)
        if not isinstance(value, str):
            continue
        if value in seen:
            yield Violation(Check.DUPLICATE, (*path, index), f'duplicate {what} "{value}"',
                            hint=f"give each {what} a unique value")
        seen.add(value)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
