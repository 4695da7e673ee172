"""Parsed label selectors and the parse errors apimachinery reports (kube/labels.py)."""

from __future__ import annotations

import pytest

from kubectl_wasdra.kube.labels import EVERYTHING, NOTHING, parse_label_selector
from kubectl_wasdra.kube.selectors import matches_node_selector, node_selector_term_errors


def _expr(key, operator, *values):
    return {"key": key, "operator": operator, "values": list(values)}


def test_nil_selects_nothing_and_empty_selects_everything():
    assert parse_label_selector(None) is NOTHING and not NOTHING.matches({})
    assert parse_label_selector({}) == EVERYTHING and EVERYTHING.matches({"a": "b"}) and EVERYTHING.empty


@pytest.mark.parametrize(("selector", "error"), [
    ({"matchExpressions": [_expr("app", "In")]},
     "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"),
    ({"matchExpressions": [_expr("app", "Exists", "x")]},
     'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist'),
    ({"matchExpressions": [_expr("app", "Gt", "1")]}, '"Gt" is not a valid label selector operator'),
    ({"matchLabels": {"a/b/c": "x"}}, "key: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric "
     "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
     "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
     "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
])
def test_parse_errors(selector, error):
    assert parse_label_selector(selector) == error


def test_requirements_are_anded():
    selector = parse_label_selector({"matchLabels": {"a": "1"}, "matchExpressions": [_expr("b", "NotIn", "2")]})
    assert selector.matches({"a": "1"}) and selector.matches({"a": "1", "b": "3"})
    assert not selector.matches({"a": "1", "b": "2"}) and not selector.matches({"b": "3"})


def _node(name="n", **labels):
    return {"metadata": {"name": name, "labels": labels}}


def _terms(*terms):
    return {"nodeSelectorTerms": list(terms)}


def test_a_term_that_does_not_parse_matches_no_node_but_other_terms_still_do():
    bad = {"matchExpressions": [_expr("zone", "NotIn", "not valid!")]}
    good = {"matchExpressions": [_expr("zone", "In", "a")]}
    assert not matches_node_selector(_terms(bad), _node(zone="a"))
    assert matches_node_selector(_terms(bad, good), _node(zone="a"))
    assert node_selector_term_errors(bad)


@pytest.mark.parametrize(("term", "matches"), [
    ({"matchExpressions": [_expr("gpus", "Gt", "4")]}, True),
    ({"matchExpressions": [_expr("gpus", "Gt", "four")]}, False),  # not an integer: the term does not parse
    ({"matchExpressions": [_expr("gpus", "Lt", "4", "5")]}, False),  # Gt/Lt need exactly one value
    ({"matchFields": [_expr("metadata.name", "In", "n")]}, True),
    ({"matchFields": [_expr("metadata.name", "In", "n", "m")]}, False),  # matchFields take exactly one value
    ({"matchFields": [_expr("metadata.name", "Exists")]}, False),  # only In and NotIn on fields
    ({"matchFields": [_expr("metadata.name", "NotIn", "m")]}, True),
    ({}, False),  # an empty term selects nothing
])
def test_node_selector_terms(term, matches):
    assert matches_node_selector(_terms(term), _node("n", gpus="8")) is matches


@pytest.mark.parametrize("term", [
    {"matchExpressions": [_expr("gpu", "NotIn", "a100\n")]},  # a block scalar's newline
    {"matchExpressions": [_expr("example.com/gpu\n", "DoesNotExist")]},
    {"matchExpressions": [_expr("example.com\n/gpu", "DoesNotExist")]},
    {"matchExpressions": [_expr("gpu-count", "Gt", "4\n")]},
], ids=["value", "name", "prefix", "integer"])
def test_a_trailing_newline_is_no_valid_key_value_or_integer(term):
    """Go's regexp `$` and strconv.ParseInt refuse a final newline: the term does not parse and matches no node."""
    node = {"metadata": {"name": "n1", "labels": {"gpu-count": "8"}}}
    assert node_selector_term_errors(term)
    assert not matches_node_selector({"nodeSelectorTerms": [term]}, node)
