"""FitError: per-node statuses of one pod aggregated into kube-scheduler's "0/N nodes are available: ..." line.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/types.go (FitError.Error, Diagnosis), release-1.37:
each reason of each rejecting node counts once; "<count> <reason>" strings are sorted as strings and joined by ", ".
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.status import Status

NO_NODES: Final = "no nodes available to schedule pods"  # ErrNoNodesAvailable


@dataclass(frozen=True)
class ReasonCount:
    """One distinct per-node reason: how many nodes gave it, and the details of the first such node (by name)."""

    reason: Reason
    message: str
    count: int
    details: Mapping[str, Any]
    nodes: tuple[str, ...]


@dataclass(frozen=True)
class FitError:
    """Why one pod fits none of `num_all_nodes` nodes; `statuses` maps every rejecting node to its status."""

    pod: str
    num_all_nodes: int
    statuses: Mapping[str, Status]
    pre_filter_msg: str = ""
    pre_filter_error: bool = False  # PreFilter failed with an Error: the message is the error itself, no "0/N"

    def histogram(self) -> tuple[ReasonCount, ...]:
        """Distinct reasons with node counts, in kube-scheduler's order (sorted "<count> <message>" strings)."""
        return self._histogram

    @functools.cached_property
    def _histogram(self) -> tuple[ReasonCount, ...]:  # computed once: messages and diagnoses all read it
        seen: dict[str, list[Any]] = {}
        for node in sorted(self.statuses):
            for status in self.statuses[node].all_reasons():
                entry = seen.setdefault(status.message, [status, []])
                entry[1].append(node)
        counts = [ReasonCount(s.reason, message, len(nodes), s.details, tuple(nodes)) for message, (s, nodes) in seen.items()]
        return tuple(sorted(counts, key=lambda c: f"{c.count} {c.message}"))

    def for_pod(self, pod: str) -> FitError:
        """The same diagnosis for another pod of the same signature (statuses and histogram shared, not copied)."""
        if pod == self.pod:
            return self
        other = replace(self, pod=pod)
        if "_histogram" in self.__dict__:
            other.__dict__["_histogram"] = self._histogram
        return other

    def shares_statuses(self, other: FitError | None) -> bool:
        """True when both are one diagnosis given to two pods (for_pod): whatever is derived from one holds for both."""
        return other is not None and self.statuses is other.statuses and self.num_all_nodes == other.num_all_nodes

    def message(self) -> str:
        """The FailedScheduling text without a PostFilter (preemption) tail, as pods of a pod group get it."""
        if self.pre_filter_error:
            return self.pre_filter_msg
        if self.num_all_nodes == 0:
            return NO_NODES
        text = f"0/{self.num_all_nodes} nodes are available:"
        if self.pre_filter_msg:
            return f"{text} {self.pre_filter_msg}."
        parts = ", ".join(f"{c.count} {c.message}" for c in self.histogram())
        return f"{text} {parts}." if parts else text
