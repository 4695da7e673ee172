"""dra/cel_types.py: which references a selector's text makes, which are optional, and which checker errors the
Kubernetes runtime would not raise."""

from __future__ import annotations

import pytest

from kubectl_wasdra.dra.cel_types import DeclaredType, _is_runtime_accepted, check_types, references

GPU = 'device.attributes["gpu.example.com"]'
INDEX = {("attributes", "gpu.example.com", "index"): DeclaredType("int", ("s",))}


def test_references_keep_their_exact_span() -> None:
    expression = f' {GPU}["index"] > 1 && device.capacity["gpu.example.com"].memory.isInteger()'
    (first, second), optional = references(expression) or ([], set())
    assert expression[first.start:first.end] == f'{GPU}["index"]' and first.name == "index"
    assert (second.where, second.name) == ("capacity", "memory") and not optional


@pytest.mark.parametrize(("expression", "expected"), [
    (f"has({GPU}.index)", {("attributes", "gpu.example.com", "index")}),
    (f"{GPU}.?index.hasValue()", {("attributes", "gpu.example.com", "index")}),
    (f'{GPU}[?"index"].hasValue()', {("attributes", "gpu.example.com", "index")}),
    (f"{GPU}.index == 1 ? true : false", set()),
], ids=["has", "optional-field", "optional-index", "ternary-is-not-optional"])
def test_optional_accesses(expression: str, expected: set[tuple[str, str, str]]) -> None:
    assert (references(expression) or ([], set()))[1] == expected


@pytest.mark.parametrize("expression", [
    f"[1].exists(device, {GPU}.index > 0)", f"cel.bind(device, 1, {GPU}.index > 0)"])
def test_a_rebound_device_is_not_analysed(expression: str) -> None:
    assert references(expression) is None


def test_method_calls_and_other_receivers_are_not_references() -> None:
    refs, _ = references(f'{GPU}.exists(k, k == "x") && x.device.attributes["d"].y') or ([], set())
    assert refs == []


@pytest.mark.parametrize(("message", "accepted"), [
    ("found no matching overload for '_<_' applied to '(int, double)'", True),
    ("found no matching overload for '_==_' applied to '(uint, int)'", True),
    ("found no matching overload for '_==_' applied to '(int, string)'", False),
    ("found no matching overload for '_+_' applied to '(int, double)'", False),
    ("found no matching overload for 'size' applied to '(int)'", False),
])
def test_only_what_cel_go_accepts_in_kubernetes_is_dropped(message: str, accepted: bool) -> None:
    assert _is_runtime_accepted(message) is accepted


def test_an_expression_that_does_not_compile_untyped_is_left_to_valid031() -> None:
    assert check_types(f'{GPU}.index > "2" && nosuch()', INDEX) is None
    assert check_types(f'{GPU}.index > "2"', INDEX) is not None


def test_an_expression_with_a_comment_is_not_analysed() -> None:
    assert references(f'{GPU}.index > "2" // the driver\'s index') is None
