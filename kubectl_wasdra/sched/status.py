"""Status: why one pod cannot go to one node (or why a group cannot be placed); success is None.

Upstream: kubernetes/kubernetes staging/src/k8s.io/kube-scheduler/framework/interface.go (Code, Status), release-1.37.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.reasons import Reason


class Code(StrEnum):
    """Upstream status codes: UNSCHEDULABLE may change (capacity freed), UNRESOLVABLE will not on that node."""

    UNSCHEDULABLE = "Unschedulable"
    UNRESOLVABLE = "UnschedulableAndUnresolvable"
    ERROR = "Error"


_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Status:
    """One rejection: code, reason code, kube-scheduler's message, JSON-scalar details; `more` holds further reasons
    the same plugin gave for the same node (NodeResourcesFit reports every insufficient resource)."""

    code: Code
    reason: Reason
    message: str
    details: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    plugin: str = ""
    more: tuple[Status, ...] = ()

    @classmethod
    def unschedulable(cls, reason: Reason, message: str, plugin: str = "", **details: Any) -> Status:
        """A rejection that freeing capacity on the node might lift."""
        return cls(Code.UNSCHEDULABLE, reason, message, MappingProxyType(details), plugin)

    @classmethod
    def unresolvable(cls, reason: Reason, message: str, plugin: str = "", **details: Any) -> Status:
        """A rejection that nothing short of changing the node or the pod lifts."""
        return cls(Code.UNRESOLVABLE, reason, message, MappingProxyType(details), plugin)

    def all_reasons(self) -> tuple[Status, ...]:
        """This status and the further reasons of the same plugin, each counted once per node in FitError."""
        return (self, *self.more)

    def with_more(self, more: tuple[Status, ...]) -> Status:
        """A copy carrying further reasons (the worst code of all wins)."""
        codes = {s.code for s in (self, *more)}
        code = Code.UNRESOLVABLE if Code.UNRESOLVABLE in codes else self.code
        return Status(code, self.reason, self.message, self.details, self.plugin, more)
