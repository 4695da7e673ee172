"""Pod and group priority as the Priority admission plugin sets it: spec.priority, else the named PriorityClass's
value, else the globalDefault class, else 0.

Upstream: kubernetes/kubernetes plugin/pkg/admission/priority/admission.go (release-1.37).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot


class Priorities:
    """PriorityClass values of one snapshot."""

    def __init__(self, snapshot: ClusterSnapshot) -> None:
        self.values: dict[str, int] = {}
        self.default = 0
        for cls in snapshot.of_kind("PriorityClass"):
            name = (cls.get("metadata") or {}).get("name", "")
            value = cls.get("value") if isinstance(cls.get("value"), int) else 0
            self.values[name] = value
            if cls.get("globalDefault"):
                self.default = value

    def resolve(self, spec: Mapping[str, Any]) -> int:
        """The priority number a pod or group spec ends up with."""
        if not isinstance(spec, Mapping):
            return self.default
        if isinstance(spec.get("priority"), int):
            return int(spec["priority"])
        name = spec.get("priorityClassName")
        if name and isinstance(name, str):
            return self.values.get(name, self.default)
        return self.default
