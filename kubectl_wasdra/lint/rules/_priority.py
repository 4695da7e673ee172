"""The numeric priority of a pod or pod group as the Priority admission plugin would set it.

Upstream: kubernetes/kubernetes plugin/pkg/admission/priority/admission.go (explicit priority wins over nothing;
priorityClassName resolves to the class value; no class name -> the globalDefault class, else 0) and
pkg/apis/scheduling/types.go (system-cluster-critical 2000000000, system-node-critical 2000001000).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.lint.rules._objects import ObjectIndex
from kubectl_wasdra.lint.rules._pods import of_kind

SYSTEM_CLASSES: Final = {"system-cluster-critical": 2_000_000_000, "system-node-critical": 2_000_001_000}


@dataclass(frozen=True)
class Priority:
    """A resolved priority: the class name written (or None) and its value (None when the class is unknown)."""

    class_name: str | None
    value: int | None

    def text(self) -> str:
        if self.class_name is None:
            return f"{self.value}" if self.value is not None else "unknown"
        value = "unknown value" if self.value is None else str(self.value)
        return f'priorityClassName "{self.class_name}" ({value})'


def _class_value(index: ObjectIndex, name: str) -> int | None:
    if name in SYSTEM_CLASSES:
        return SYSTEM_CLASSES[name]
    obj = index.get("PriorityClass", name, None)
    value = obj.get("value") if obj is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _default_value(index: ObjectIndex) -> int:
    classes = [d.data for d in of_kind(index.docs, "PriorityClass")]
    if index.snapshot is not None:
        classes.extend(index.snapshot.of_kind("PriorityClass"))
    for obj in classes:
        value = obj.get("value")
        if obj.get("globalDefault") is True and isinstance(value, int):
            return value
    return 0


def resolve_priority(spec: Mapping[str, Any], index: ObjectIndex) -> Priority:
    """The priority of a pod spec or a PodGroup spec (both use priorityClassName and priority)."""
    explicit = spec.get("priority")
    name = spec.get("priorityClassName")
    name = name if isinstance(name, str) and name else None
    if isinstance(explicit, int) and not isinstance(explicit, bool):
        return Priority(name, explicit)
    if name is None:
        return Priority(None, _default_value(index))
    return Priority(name, _class_value(index, name))


def differ(first: Priority, second: Priority) -> bool:
    """True when the two may resolve to different numbers: values known and different, or a class whose value is
    unknown on either side and the class names differ."""
    if first.value is not None and second.value is not None:
        return first.value != second.value
    return first.class_name != second.class_name
