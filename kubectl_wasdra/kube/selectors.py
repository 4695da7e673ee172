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


def matches_label_selector(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """metav1.LabelSelector semantics: None matches nothing, {} matches everything, terms are ANDed."""
    if selector is None:
        return False
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expr in selector.get("matchExpressions") or ():
        if not _requirement_matches(labels, expr.get("key", ""), expr.get("operator", ""), expr.get("values") or ()):
            return False
    return True


def _term_matches(term: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
    """A NodeSelectorTerm: matchExpressions on labels AND matchFields on metadata.name; an empty term matches nothing."""
    expressions = term.get("matchExpressions") or ()
    fields = term.get("matchFields") or ()
    if not expressions and not fields:
        return False
    labels = labels_of(node)
    for expr in expressions:
        if not _requirement_matches(labels, expr.get("key", ""), expr.get("operator", ""), expr.get("values") or ()):
            return False
    name_fields = {"metadata.name": (node.get("metadata") or {}).get("name", "")}
    for expr in fields:
        if not _requirement_matches(name_fields, expr.get("key", ""), expr.get("operator", ""), expr.get("values") or ()):
            return False
    return True


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
