"""Scalars resolve as Kubernetes resolves them (go-yaml v2 via sigs.k8s.io/yaml), on both the fast (yaml-rs) and the
libyaml path, and both paths agree on any document."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.load.parse import _parse_yaml11, needs_yaml11, parse_text

# (plain scalar, value go-yaml v2 gives it)
SCALARS = [
    ("yes", True), ("Yes", True), ("YES", True), ("y", True), ("Y", True), ("on", True), ("On", True), ("ON", True),
    ("no", False), ("No", False), ("n", False), ("N", False), ("off", False), ("OFF", False),
    ("true", True), ("True", True), ("false", False), ("FALSE", False),
    ("0777", 0o777), ("0644", 420), ("0x1F", 31), ("0o17", 15), ("0b101", 5), ("-0x10", -16), ("1_000", 1000),
    ("+12", 12), ("-0", 0), ("42", 42), ("12345678901234567890", 12345678901234567890),
    ("18446744073709551616", 18446744073709551616.0), ("-9223372036854775809", -9223372036854775809.0), ("_1", "_1"),
    ("1_000.5", 1000.5),
    ("1e3", 1000.0), ("1.5", 1.5), (".5", 0.5), ("-2.5e-3", -0.0025), ("1.", 1.0), ("08", 8.0),
    ("~", None), ("null", None), ("Null", None), ("", None),
    ("2024-01-02", "2024-01-02"), ("2024-01-02T10:00:00Z", "2024-01-02T10:00:00Z"),
    ("=", "="), ("1:20", "1:20"), ("yes please", "yes please"), ("0.0.0.0", "0.0.0.0"), ("v1", "v1"), ("100m", "100m"),
    ("1Gi", "1Gi"), ("no-way", "no-way"), ("None", "None"), ("nil", "nil"),
]


def _value(text: str) -> object:
    parsed = parse_text(f"key: {text}\n", is_json=False)
    assert not parsed.issues
    return parsed.documents[0][1]["key"]


@pytest.mark.parametrize(("text", "expected"), SCALARS, ids=[repr(t) for t, _ in SCALARS])
def test_plain_scalar_resolves_like_go_yaml_v2(text: str, expected: object) -> None:
    value = _value(text)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("text", [".inf", "-.Inf", ".NaN"])
def test_special_floats(text: str) -> None:
    value = _value(text)
    assert isinstance(value, float) and (math.isnan(value) or math.isinf(value))


@pytest.mark.parametrize(("text", "expected"), [('"yes"', "yes"), ("'0777'", "0777"), ('"1e3"', "1e3"), ("'~'", "~")])
def test_quoted_scalars_stay_strings(text: str, expected: str) -> None:
    assert _value(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("on: 1\n", {"true": 1}), ("1: a\n", {"1": "a"}), ("n: x\n", {"false": "x"}),
], ids=["on", "int", "n"])
def test_non_string_keys_become_strings(text: str, expected: dict) -> None:
    assert parse_text(text, is_json=False).documents[0][1] == expected


def test_merge_keys_are_expanded() -> None:
    text = "base: &b {cpu: 1, memory: 2Gi}\nlimits:\n  <<: *b\n  cpu: 2\n"
    assert parse_text(text, is_json=False).documents[0][1]["limits"] == {"cpu": 2, "memory": "2Gi"}


WORDS = st.sampled_from([t for t, _ in SCALARS if t] + ["web", "nginx:1.27", "a b", "x-y", "10.0.0.1", "8080", "3.14"])
KEYS = st.sampled_from(["name", "value", "image", "replicas", "mode", "port", "enabled", "x"])


def _render(mapping: dict[str, object], indent: str = "") -> str:
    lines = []
    for key, value in mapping.items():
        if isinstance(value, dict):
            lines.append(f"{indent}{key}:")
            lines.append(_render(value, indent + "  "))
        elif isinstance(value, list):
            lines.append(f"{indent}{key}:")
            lines.extend(f"{indent}- {item}" for item in value)
        else:
            lines.append(f"{indent}{key}: {value}")
    return "\n".join(line for line in lines if line)


DOCS = st.recursive(st.dictionaries(KEYS, WORDS, min_size=1, max_size=4),
                    lambda inner: st.dictionaries(KEYS, inner | st.lists(WORDS, min_size=1, max_size=3), min_size=1, max_size=3),
                    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(DOCS, min_size=1, max_size=3), st.sampled_from(["\n", "\r\n"]))
def test_fast_and_libyaml_paths_agree(documents: list[dict[str, object]], newline: str) -> None:
    text = ("\n---\n".join(_render(d) for d in documents) + "\n").replace("\n", newline)
    fast, slow = parse_text(text, is_json=False), _parse_yaml11(text)
    assert [d for _, d in fast.documents] == [d for _, d in slow.documents]


def test_windows_line_endings() -> None:
    parsed = parse_text("a: yes\r\nb: 0644\r\non: x\r\n", is_json=False)
    assert parsed.documents[0][1] == {"a": True, "b": 420, "true": "x"}


def test_plain_manifests_take_the_fast_path_and_tricky_ones_do_not() -> None:
    assert not needs_yaml11("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n")
    assert needs_yaml11("env:\n- name: A\n  value: yes\n")
    assert needs_yaml11("defaultMode: 0644\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a: 1_000\n", {"a": 1000}), ("a: 0b101\n", {"a": 5}), ("a: {true: x}\n", {"a": {"true": "x"}}),
     ("a: [1, y]\n", {"a": [1, True]})],
    ids=["underscore-int", "binary-int", "flow-bool-key", "flow-bool-value"],
)
def test_snapshot_decoder_and_loader_agree_on_yaml11_scalars(text: str, expected: dict) -> None:
    """Snapshots (cluster/decode.py) and manifests (load/parse.py) share one YAML 1.1 test and read alike."""
    from kubectl_wasdra.cluster.decode import decode_yaml
    from kubectl_wasdra.load.parse import needs_yaml11, parse_text

    assert needs_yaml11(text)
    assert decode_yaml(text) == [expected]
    assert [value for _, value in parse_text(text, is_json=False).documents] == [expected]
