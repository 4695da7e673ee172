"""Label selectors and node selectors (nodeSelector, required node affinity, NodeSelector of DRA slices/rules).

Upstream: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/labels/selector.go and
staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (release-1.37).
Objects are plain dicts in API shape; a missing selector matches as upstream says (documented per function).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.kube.labels import invalid, parse_label_selector, requirement_errors, requirement_matches


def labels_of(obj: Mapping[str, Any]) -> Mapping[str, str]:
    """metadata.labels of an object, or an empty mapping."""
    return (obj.get("metadata") or {}).get("labels") or {}


def _requirements_match(labels: Mapping[str, str], expressions: Sequence[Mapping[str, Any]]) -> bool:
    """Every requirement (key, operator, values) of a matchExpressions / matchFields list holds (ANDed)."""
    for expr in expressions:
        if not requirement_matches(labels, expr.get("key", ""), expr.get("operator", ""), expr.get("values") or ()):
            return False
    return True


def matches_label_selector(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """metav1.LabelSelector semantics: None matches nothing, {} matches everything, terms are ANDed; a selector that
    does not parse (kube/labels.py) matches nothing."""
    parsed = parse_label_selector(selector)
    return not isinstance(parsed, str) and parsed.matches(labels)


def _term_matches(term: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
    """A NodeSelectorTerm: matchExpressions on labels AND matchFields on metadata.name; an empty term matches nothing,
    and so does a term with a requirement that does not parse (component-helpers nodeaffinity: LazyErrorNodeSelector
    reports the parse error only when no term matches, and the NodeAffinity filter ignores it)."""
    expressions = term.get("matchExpressions") or ()
    fields = term.get("matchFields") or ()
    if not expressions and not fields:
        return False
    if expressions and not _requirements_match(labels_of(node), expressions):
        return False
    name = (node.get("metadata") or {}).get("name") or ""
    if fields and name and not _requirements_match({"metadata.name": name}, fields):
        return False
    return _parses(term)  # checked last: only a term that would match pays for it


def _parses(term: Mapping[str, Any]) -> bool:
    """node_selector_term_errors(term) is empty, worked out once per distinct term: a term is matched against every
    node, and validating its keys and values costs ten times the match."""
    import orjson

    try:
        key = orjson.dumps(term, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:  # a value JSON cannot hold: not worth a cache entry
        return not node_selector_term_errors(term)
    return _parses_json(key)


@functools.lru_cache(maxsize=4096)
def _parses_json(term: bytes) -> bool:
    import orjson

    return not node_selector_term_errors(orjson.loads(term))


NODE_OPERATORS: Final = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")


def node_selector_term_errors(term: Mapping[str, Any], path: str = "") -> list[str]:
    """Why a NodeSelectorTerm does not parse (nodeSelectorRequirementsAsSelector / ...AsFieldSelector): unknown
    operators, invalid keys or label values, Gt/Lt without one integer, matchFields without exactly one In/NotIn value."""
    errors: list[str] = []
    for i, expr in _requirements(term, "matchExpressions"):
        where = f"{path}matchExpressions[{i}]"
        operator = str(expr.get("operator", ""))
        if operator not in NODE_OPERATORS:
            errors.append(f'{where}.operator: Unsupported value: "{operator}"')
            continue
        errors.extend(requirement_errors(str(expr.get("key", "")), operator, _values(expr), where))
    for i, expr in _requirements(term, "matchFields"):
        where = f"{path}matchFields[{i}]"
        operator = str(expr.get("operator", ""))
        values = _values(expr)
        if operator not in ("In", "NotIn"):
            errors.append(f'{where}.operator: Unsupported value: "{operator}": supported values: "In", "NotIn"')
        elif len(values) != 1:
            errors.append(invalid(f"{where}.values", values, "must have one element"))
    return errors


def _requirements(term: Mapping[str, Any], field: str) -> list[tuple[int, Mapping[str, Any]]]:
    """The requirements of a term's list that are objects (a list or item of the wrong type is a SCHEMA finding)."""
    items = term.get(field)
    return [(i, expr) for i, expr in enumerate(items) if isinstance(expr, dict)] if isinstance(items, list) else []


def _values(expr: Mapping[str, Any]) -> list[Any]:
    values = expr.get("values")
    return list(values) if isinstance(values, list) else []


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
