"""Taints and tolerations, shared by node taints (TaintToleration) and DRA device taints.

Upstream: kubernetes/kubernetes staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint) and
staging/src/k8s.io/dynamic-resource-allocation/resourceclaim (device toleration matching), release-1.37.
Taints and tolerations are dicts in API shape: {key, value, effect}, {key, operator, value, effect}.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

SCHEDULING_EFFECTS: Final = frozenset({"NoSchedule", "NoExecute"})


def _compare_numeric(operator: str, taint_value: str, toleration_value: str) -> bool:
    """Gt/Lt toleration operators (extended toleration operators): integers only, anything else fails."""
    try:
        taint_number, bound = int(taint_value), int(toleration_value)
    except ValueError:
        return False
    return taint_number > bound if operator == "Gt" else taint_number < bound


def tolerates(toleration: Mapping[str, Any], taint: Mapping[str, Any]) -> bool:
    """True if one toleration tolerates one taint: an empty effect matches every effect and an empty key every key
    (with Equal, only taints of the same value: DRA accepts such a toleration, Pod validation rejects it)."""
    effect = toleration.get("effect") or ""
    if effect and effect != taint.get("effect"):
        return False
    key = toleration.get("key") or ""
    operator = toleration.get("operator") or "Equal"
    if key and key != taint.get("key"):
        return False
    if operator == "Exists":
        return True
    taint_value = str(taint.get("value") or "")
    toleration_value = str(toleration.get("value") or "")
    if operator == "Equal":
        return taint_value == toleration_value
    if operator in ("Gt", "Lt"):
        return _compare_numeric(operator, taint_value, toleration_value)
    return False


def is_tolerated(taint: Mapping[str, Any], tolerations: Iterable[Mapping[str, Any]]) -> bool:
    """True if any toleration tolerates the taint."""
    return any(tolerates(toleration, taint) for toleration in tolerations)


def first_untolerated(
    taints: Iterable[Mapping[str, Any]],
    tolerations: Iterable[Mapping[str, Any]],
    effects: frozenset[str] = SCHEDULING_EFFECTS,
) -> Mapping[str, Any] | None:
    """The first taint with one of `effects` that no toleration tolerates, or None if all are tolerated."""
    tolerations = tuple(tolerations)
    for taint in taints:
        if taint.get("effect") in effects and not is_tolerated(taint, tolerations):
            return taint
    return None
