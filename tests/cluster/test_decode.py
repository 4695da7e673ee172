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
], ids=["one", "leading-marker", "top-level-sequence", "two", "empty-between", "empty", "yes", "flow-on-off", "n",
        "octal", "timestamp-string", "plain-words", "merge-key"])
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
