"""Label selectors and node selectors (nodeSelector, required node affinity, NodeSelector of DRA slices/rules).

Upstream: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/labels/selector.go and
staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (release-1.37).
Objects are plain dicts in API shape; a missing selector matches as upstream says (documented per function).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def labels_of(obj: Mapping[str, Any]) -> Mapping[str, str]:
    """metadata.labels of an object, or an empty mapping."""
    return (obj.get("metadata") or {}).get("labels") or {}


def _requirement_matches(labels: Mapping[str, str], key: str, operator: str, values: Sequence[str]) -> bool:
    """One requirement: In, NotIn, Exists, DoesNotExist, Gt, Lt (Gt/Lt compare integers, node selectors only)."""
    present = key in labels
    if operator == "In":
        return present and labels[key] in values
    if operator == "NotIn":
        return not present or labels[key] not in values
    if operator == "Exists":
        return present
    if operator == "DoesNotExist":
        return not present
    if operator in ("Gt", "Lt"):
        if not present or len(values) != 1:
            return False
        try:
            actual, bound = int(labels[key]), int(values[0])
        except ValueError:
            return False
        return actual > bound if operator == "Gt" else actual < bound
    return False


def _requirements_match(labels: Mapping[str, str], expressions: Sequence[Mapping[str, Any]]) -> bool:
    """Every requirement (key, operator, values) of a matchExpressions / matchFields list holds (ANDed)."""
    for expr in expressions:
        if not _requirement_matches(labels, expr.get("key", ""), expr.get("operator", ""), expr.get("values") or ()):
            return False
    return True


def matches_label_selector(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """metav1.LabelSelector semantics: None matches nothing, {} matches everything, terms are ANDed."""
    if selector is None:
        return False
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    return _requirements_match(labels, selector.get("matchExpressions") or ())


def _term_matches(term: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
    """A NodeSelectorTerm: matchExpressions on labels AND matchFields on metadata.name; an empty term matches nothing."""
    expressions = term.get("matchExpressions") or ()
    fields = term.get("matchFields") or ()
    if not expressions and not fields:
        return False
    if not _requirements_match(labels_of(node), expressions):
        return False
    return not fields or _requirements_match({"metadata.name": (node.get("metadata") or {}).get("name", "")}, fields)


def matches_node_selector(selector: Mapping[str, Any] | None, node: Mapping[str, Any]) -> bool:
    """core/v1 NodeSelector: terms are ORed; None matches every node; no terms matches none."""
    if selector is None:
        return True
    return any(_term_matches(term, node) for term in selector.get("nodeSelectorTerms") or ())


def matches_pod_node_constraints(pod_spec: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
    """spec.nodeSelector AND requiredDuringSchedulingIgnoredDuringExecution node affinity (the NodeAffinity filter)."""
    labels = labels_of(node)
    for key, value in (pod_spec.get("nodeSelector") or {}).items():
        if labels.get(key) != value:
            return False
    affinity = ((pod_spec.get("affinity") or {}).get("nodeAffinity") or {})
    required = affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
    return matches_node_selector(required, node)
