"""PodDisruptionBudgets as preemption reads them: which victims would violate a budget.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/preemption/util.go (FilterVictimsWithPDBViolation,
podMatchesPDB), release-1.37. Every budget starts at status.disruptionsAllowed; walking the victims most-important
first, each pod matching a budget (same namespace, a non-empty selector that matches, not already in
status.disruptedPods) takes one from it, and a budget going below 0 makes the pod violating. Pods without labels never
violate, and an empty or missing selector matches nothing (the 1.37 behaviour; a later master changes both).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_wasdra.kube.labels import Selector, parse_label_selector
from kubectl_wasdra.sched.podinfo import PodInfo


@dataclass(frozen=True)
class Budget:
    """One policy/v1 PodDisruptionBudget: what it protects and how many disruptions it still allows."""

    namespace: str
    name: str
    selector: Selector | None  # None: empty, missing or unparsable (matches nothing)
    allowed: int
    disrupted: frozenset[str]

    def matches(self, pod: PodInfo) -> bool:
        """podMatchesPDB: same namespace, a selector that selects the pod's labels, not already disrupted."""
        return (pod.namespace == self.namespace and self.selector is not None and bool(pod.labels)
                and pod.name not in self.disrupted and self.selector.matches(pod.labels))


def _budget(obj: Mapping[str, Any]) -> Budget:
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), Mapping) else {}
    spec = obj.get("spec") if isinstance(obj.get("spec"), Mapping) else {}
    status = obj.get("status") if isinstance(obj.get("status"), Mapping) else {}
    parsed = parse_label_selector(spec.get("selector")) if spec.get("selector") else None
    selector = parsed if isinstance(parsed, Selector) and not parsed.empty else None
    allowed = status.get("disruptionsAllowed")
    disrupted = status.get("disruptedPods")
    return Budget(namespace=str(meta.get("namespace") or "default"), name=str(meta.get("name") or ""),
                  selector=selector, allowed=allowed if isinstance(allowed, int) and not isinstance(allowed, bool) else 0,
                  disrupted=frozenset(disrupted) if isinstance(disrupted, Mapping) else frozenset())


def read_budgets(objects: Iterable[Mapping[str, Any]]) -> tuple[Budget, ...]:
    """Every PodDisruptionBudget of a snapshot (a malformed field reads as absent)."""
    return tuple(_budget(obj) for obj in objects if isinstance(obj, Mapping))


def violations(units: Iterable[tuple[PodInfo, ...]], budgets: tuple[Budget, ...]) -> list[tuple[PodInfo, ...]]:
    """For units of victim pods sorted most-important first: the pods of each unit whose eviction violates a budget
    (a unit with any is a violating unit; upstream counts its pods as ViolateCount)."""
    left = [b.allowed for b in budgets]
    out = []
    for pods in units:
        violating = []
        for pod in pods:
            for index, budget in enumerate(budgets):
                if budget.matches(pod):
                    left[index] -= 1
                    if left[index] < 0:
                        violating.append(pod)
                        break
        out.append(tuple(violating))
    return out
