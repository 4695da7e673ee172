"""Pod and group priority and preemption policy as the Priority admission plugin sets them on create:
spec.priority, else the named PriorityClass's value, else the globalDefault class, else 0; spec.preemptionPolicy,
else the class's preemptionPolicy (defaulted to PreemptLowerPriority), else the globalDefault class's.

Upstream: kubernetes/kubernetes plugin/pkg/admission/priority/admission.go (admitPod, establishPriority,
getDefaultPriorityClass: with several globalDefault classes the lowest value wins) and
pkg/apis/scheduling/v1/defaults.go (a class's preemptionPolicy defaults to PreemptLowerPriority), 1.36.2 source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

PREEMPT_LOWER_PRIORITY: Final = "PreemptLowerPriority"  # core/v1 PreemptionPolicy default


class Priorities:
    """PriorityClass values and preemption policies of one snapshot."""

    def __init__(self, snapshot: ClusterSnapshot) -> None:
        self.values: dict[str, int] = {}
        self.policies: dict[str, str] = {}
        self.default = 0
        self.default_policy = PREEMPT_LOWER_PRIORITY
        default_value: int | None = None
        for cls in snapshot.of_kind("PriorityClass"):
            name = (cls.get("metadata") or {}).get("name", "")
            value = cls.get("value") if isinstance(cls.get("value"), int) else 0
            policy = cls.get("preemptionPolicy")
            self.values[name] = value
            self.policies[name] = policy if isinstance(policy, str) and policy else PREEMPT_LOWER_PRIORITY
            if cls.get("globalDefault") is True and (default_value is None or value < default_value):
                default_value, self.default, self.default_policy = value, value, self.policies[name]

    def _class(self, spec: Mapping[str, Any]) -> str | None:
        name = spec.get("priorityClassName")
        return name if isinstance(name, str) and name in self.values else None

    def resolve(self, spec: Mapping[str, Any]) -> int:
        """The priority number a pod or group spec ends up with."""
        if not isinstance(spec, Mapping):
            return self.default
        if isinstance(spec.get("priority"), int):
            return int(spec["priority"])
        name = self._class(spec)
        return self.values[name] if name is not None else self.default

    def resolve_policy(self, spec: Mapping[str, Any]) -> str:
        """The preemptionPolicy a pod spec ends up with: its own, else its class's (the globalDefault class's when it
        names none), which admission copies into the pod."""
        if not isinstance(spec, Mapping):
            return self.default_policy
        own = spec.get("preemptionPolicy")
        if isinstance(own, str) and own:
            return own
        name = self._class(spec)
        return self.policies[name] if name is not None else self.default_policy
