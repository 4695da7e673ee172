"""Typed reads of API-shaped dicts that tolerate malformed input (a snapshot may hold anything).

A wrong type reads as absent (empty mapping, empty list, the default), so one bad object never crashes a run;
the API server would have rejected such objects, so nothing valid is lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def mapping(value: Any) -> Mapping[str, Any]:
    """`value` if it is a mapping, else {}."""
    if type(value) is dict:  # the common case, without the slower ABC check
        return value
    return value if isinstance(value, Mapping) else {}


def sequence(value: Any) -> Sequence[Any]:
    """`value` if it is a list or tuple, else ()."""
    return value if isinstance(value, list | tuple) else ()


def mappings(value: Any) -> list[Mapping[str, Any]]:
    """The mapping items of a list (others dropped)."""
    return [item for item in sequence(value) if type(item) is dict or isinstance(item, Mapping)]


def integer(value: Any, default: int) -> int:
    """An int field (bools and non-integers read as `default`)."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return default


def text(value: Any, default: str = "") -> str:
    """A string field (other types read as `default`)."""
    return value if isinstance(value, str) else default


def path(obj: Any, *keys: str) -> Any:
    """obj[k1][k2]... through mappings; None when a step is missing or not a mapping."""
    for key in keys:
        if type(obj) is not dict and not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj
