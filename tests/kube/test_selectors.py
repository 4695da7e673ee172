"""Label selectors, node selector terms and the pod's node constraints, as apimachinery and nodeaffinity define them."""

from __future__ import annotations

from kubectl_wasdra.kube.selectors import matches_label_selector, matches_node_selector, matches_pod_node_constraints

NODE = {"metadata": {"name": "n1", "labels": {"zone": "a", "gpus": "8"}}}


def _expr(key: str, operator: str, *values: str) -> dict[str, object]:
    return {"key": key, "operator": operator, "values": list(values)}


def test_label_selector_none_empty_labels_and_expressions() -> None:
    labels = NODE["metadata"]["labels"]
    assert not matches_label_selector(None, labels)
    assert matches_label_selector({}, labels)
    assert matches_label_selector({"matchLabels": {"zone": "a"}, "matchExpressions": [_expr("gpus", "Exists")]}, labels)
    assert not matches_label_selector({"matchLabels": {"zone": "a"}, "matchExpressions": [_expr("zone", "NotIn", "a")]},
                                      labels)
    assert not matches_label_selector({"matchLabels": {"zone": "b"}}, labels)


def test_node_selector_terms_are_ored_and_requirements_anded() -> None:
    assert matches_node_selector(None, NODE)
    assert not matches_node_selector({"nodeSelectorTerms": []}, NODE)
    assert not matches_node_selector({"nodeSelectorTerms": [{}]}, NODE), "an empty term matches nothing"
    gt = {"matchExpressions": [_expr("gpus", "Gt", "4"), _expr("zone", "In", "a", "b")]}
    assert matches_node_selector({"nodeSelectorTerms": [gt]}, NODE)
    lt = {"matchExpressions": [_expr("gpus", "Lt", "4")]}
    assert not matches_node_selector({"nodeSelectorTerms": [lt]}, NODE)
    assert matches_node_selector({"nodeSelectorTerms": [lt, gt]}, NODE)


def test_match_fields_select_by_node_name_together_with_expressions() -> None:
    by_name = {"matchFields": [_expr("metadata.name", "In", "n1")]}
    assert matches_node_selector({"nodeSelectorTerms": [by_name]}, NODE)
    other = {"matchFields": [_expr("metadata.name", "In", "n2")]}
    assert not matches_node_selector({"nodeSelectorTerms": [other]}, NODE)
    both = {"matchExpressions": [_expr("zone", "In", "a")], "matchFields": [_expr("metadata.name", "NotIn", "n1")]}
    assert not matches_node_selector({"nodeSelectorTerms": [both]}, NODE)


def test_pod_node_selector_and_required_affinity_both_apply() -> None:
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [_expr("gpus", "Gt", "4")]}]}}}
    assert matches_pod_node_constraints({"nodeSelector": {"zone": "a"}, "affinity": affinity}, NODE)
    assert not matches_pod_node_constraints({"nodeSelector": {"zone": "b"}, "affinity": affinity}, NODE)
    assert matches_pod_node_constraints({}, NODE)
