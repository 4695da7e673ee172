"""Fast snapshot decoding: yaml-rs when the text reads the same under YAML 1.1, go-yaml v2 resolution otherwise."""

from __future__ import annotations

import pytest

from kubectl_wasdra.cluster.decode import DecodeError, decode_json, decode_yaml, split_yaml_documents


@pytest.mark.parametrize(("text", "expected"), [
    ("a: 1\n", [{"a": 1}]),
    ("---\na: 1\n", [{"a": 1}]),
    ("- a: 1\n- b: 2\n", [[{"a": 1}, {"b": 2}]]),
    ("a: 1\n---\nb: 2\n", [{"a": 1}, {"b": 2}]),
    ("a: 1\n---\n---\nb: 2\n", [{"a": 1}, None, {"b": 2}]),
    ("", []),
    ("a: yes\nb: 'yes'\n", [{"a": True, "b": "yes"}]),
    ("a: [on, off]\n", [{"a": [True, False]}]),
    ("- n\n", [[False]]),
    ("mode: 0755\n", [{"mode": 493}]),
    ("t: 2024-01-01T00:00:00Z\n", [{"t": "2024-01-01T00:00:00Z"}]),
    ("a: yesterday\nb: 1e3\n", [{"a": "yesterday", "b": 1000.0}]),
    ("base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n", [{"base": {"x": 1}, "c": {"x": 1, "true": 2}}]),  # go-yaml v2: key y is true
    ("metadata:\n  labels:\n    on: a\n    N: b\n", [{"metadata": {"labels": {"true": "a", "false": "b"}}}]),
    ("y: 1\n", [{"true": 1}]),
    ("a:\n- off: 1\n", [{"a": [{"false": 1}]}]),
    ("a: {on: 1}\nb: {x: 2, n: 3}\n", [{"a": {"true": 1}, "b": {"x": 2, "false": 3}}]),
    ("1: a\n", [{"1": "a"}]),
    ("on-call: x\nyes-no: y2\n'on': z\n", [{"on-call": "x", "yes-no": "y2", "on": "z"}]),
], ids=["one", "leading-marker", "top-level-sequence", "two", "empty-between", "empty", "yes", "flow-on-off", "n",
        "octal", "timestamp-string", "plain-words", "merge-key", "key-on-and-N", "first-line-key-y", "key-in-sequence",
        "flow-keys", "int-key", "look-alike-keys"])
def test_decode_yaml(text: str, expected: list) -> None:
    assert decode_yaml(text) == expected


def test_decode_yaml_error_has_position() -> None:
    with pytest.raises(DecodeError) as info:
        decode_yaml("a: 1\nb: [1,\n")
    assert info.value.line >= 2


def test_decode_json_concatenated_and_errors() -> None:
    assert decode_json(b'{"a": 1}\n{"b": 2}') == [{"a": 1}, {"b": 2}]
    with pytest.raises(DecodeError) as info:
        decode_json('{"a": 1}\n{"b": }')
    assert info.value.line == 2


def test_split_yaml_documents_keeps_line_numbers() -> None:
    assert split_yaml_documents("a: 1\n---\nb: 2\n---\n---\nc: 3\n") == [(1, "a: 1\n"), (3, "b: 2\n"), (5, ""), (6, "c: 3\n")]


@pytest.mark.parametrize(("text", "expected"), [
    ("a: y\n", True), ("y: 1\n", True), ("a:\n  on: 1\n", True), ("- - off\n", True), ("a: [x, y]\n", True),
    ("a: {b: 1, off: 2}\n", True), ("a: 0755\n", True), ("a: x\r\non: 1\r\n", True), ("1: a\n", True), ("~: a\n", True),
    ("a: b\n", False), ("a: 'y'\n", False), ("on-call: y2\n", False), ("a: [x, yes-no]\n", False),
], ids=lambda value: repr(value) if isinstance(value, str) else None)
def test_manifest_loader_sends_yaml11_words_to_the_yaml11_loader(text: str, expected: bool) -> None:
    """load/parse.py's fast-path test (literal-prefix patterns since the snapshot benchmark) finds the same cases."""
    from kubectl_wasdra.load.parse import needs_yaml11

    assert needs_yaml11(text) is expected
