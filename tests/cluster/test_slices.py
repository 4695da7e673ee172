"""A big List decoded a slice of items at a time (cluster/slices.py) equals the whole text decoded at once, and every
shape it does not prove falls back to the whole decode (None)."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
import yaml_rs

from kubectl_wasdra.cluster import decode
from kubectl_wasdra.cluster.decode import DecodeError, decode_json, decode_yaml
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.slices import decode_json_list, decode_yaml_list

ROOT = Path(__file__).resolve().parents[2]
SMALL = 300  # characters per slice: every test text is cut into many slices


def _items() -> list[dict[str, Any]]:
    """The generated benchmark cluster (small) and every object of the fixture clusters: many shapes of object."""
    spec = importlib.util.spec_from_file_location("gen_cluster", ROOT / "bench" / "gen_cluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    items = module.generate(nodes=6, devices=4, pods_per_node=3, fill=0.5, racks=3)
    for path in sorted((ROOT / "fixtures" / "clusters").rglob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if isinstance(document, dict):
                items.extend(document.get("items", [document]) if document.get("kind", "").endswith("List") else [document])
    return items


ITEMS = _items()
LIST = {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": ITEMS}
LIST_FIRST = {"apiVersion": "v1", "items": ITEMS, "kind": "List", "metadata": {"resourceVersion": ""}}  # kubectl's order


class _NoAliases(yaml.SafeDumper):
    """kubectl never writes anchors; PyYAML would, for the dicts the generator shares."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _kubectl_yaml(data: Any, **options: Any) -> str:
    return yaml.dump(data, Dumper=_NoAliases, sort_keys=False, **options)


def _yaml_whole(text: str) -> list[Any]:
    return [yaml_rs.loads(text, parse_datetime=False)]


@pytest.mark.parametrize("text", [
    json.dumps(LIST_FIRST, indent=4),  # kubectl get -o json
    orjson.dumps(LIST, option=orjson.OPT_INDENT_2).decode(),
    json.dumps(LIST_FIRST, indent=1, ensure_ascii=False),
], ids=["kubectl", "orjson-indent-2", "indent-1"])
def test_json_list_in_slices_equals_whole(text: str) -> None:
    sliced = decode_json_list(text, SMALL)
    assert sliced is not None
    assert sliced == [orjson.loads(text)]
    assert len(sliced[0]["items"]) == len(ITEMS) > 50


@pytest.mark.parametrize("text", [
    _kubectl_yaml(LIST_FIRST),  # `- ` at column 0, as kubectl writes
    yaml_rs.dumps(LIST),  # `  - ` under `items:`
    "# exported\n---\n" + _kubectl_yaml(LIST_FIRST, indent=4, width=40),  # folded long strings
], ids=["column-0", "indented", "marker-and-folded"])
def test_yaml_list_in_slices_equals_whole(text: str) -> None:
    sliced = decode_yaml_list(text, SMALL)
    assert sliced is not None
    assert sliced == _yaml_whole(text)
    first, last = sliced[0]["items"][0], sliced[0]["items"][-1]
    assert next(iter(first)) is next(iter(last))  # "apiVersion" is one string for every item


YAML_EDGES = """apiVersion: v1
items:
- kind: A
  text: |+
    kept trailing lines

# a comment at column 0 between entries
- kind: B
  quoted: "two
    lines"
  plain: one
    two
  flow: {a: [1, 2], b: c}
- kind: C
  big: 123456789012345678901234567890
  float: 1.5e3
  none: null
-
  kind: D
kind: List
metadata: {}
"""


def test_yaml_edges_keep_their_meaning_across_slice_boundaries() -> None:
    for size in (1, 10, 40, 80):
        assert decode_yaml_list(YAML_EDGES, size) == _yaml_whole(YAML_EDGES)


@pytest.mark.parametrize("value", ["1e999", ".inf", "-.Inf", ".NaN"])
def test_yaml_floats_json_cannot_hold_stay_floats(value: str) -> None:
    text = YAML_EDGES.replace("1.5e3", value)
    [sliced] = decode_yaml_list(text, 10)
    number = sliced["items"][2]["float"]
    assert isinstance(number, float) and not math.isfinite(number)


@pytest.mark.parametrize("text", [
    '{"items": [{"a": 1}, {"b": 2}]}',  # compact: no layout to cut by
    '{\n "metadata": {\n  "items": [\n   {"a": 1},\n   {"b": 2}\n  ]\n },\n "items": []\n}',  # nested first
    '{\n "items": [\n  {"a": 1},\n  {"b": 2}\n ],\n "items": []\n}',  # a later duplicate wins
    '{\n "items": [\n  {"a": 1},\n  {"b": 2}\n ]\n}\n{"kind": "List"}',  # two values
    '{\n "items": [\n  {"a": 1},\n  {"b": }\n ]\n}',  # a syntax error
    '{\n "items": [\n  {"a": "\\ud800"},\n  {"b": 2}\n ]\n}',  # a lone surrogate (decode_json's own path)
    '[\n {"items": [\n  {"a": 1},\n  {"b": 2}\n ]}\n]',  # not an object at the top
])
def test_json_shapes_not_proven_are_decoded_whole(text: str) -> None:
    assert decode_json_list(text, 10) is None


@pytest.mark.parametrize("text", [
    "a: 1\nitems: [{a: 1}, {b: 2}]\n",  # flow sequence
    "metadata:\n  items:\n  - a: 1\n  - b: 2\n",  # not at the top
    "items:\n- &x {a: 1}\n- *x\n",  # an anchor used in another slice
    "%YAML 1.2\n---\nitems:\n- a: 1\n- b: 2\n",  # a directive
    "items:\n- a: 1\n- b: [1,\n- c: 3\n",  # a syntax error
    "items:\n- a: 1\n- b: 'x\n- y'\n",  # a quoted scalar cut by the layout
    "items:\n- a: 1\nkind: List\nextra:\n- z\n",  # entries of another key after the list
    "items:\n  - a: 1\nkind: List\nextra:\n  - z\n",
])
def test_yaml_shapes_not_proven_are_decoded_whole(text: str) -> None:
    assert decode_yaml_list(text, 4) is None


def test_several_documents_are_decoded_whole(monkeypatch) -> None:
    monkeypatch.setattr(decode, "SLICE_CHARS", 4)
    text = "items:\n- a: 1\n- b: 2\n---\nitems:\n- c: 3\n"
    assert decode_yaml(text) == [{"items": [{"a": 1}, {"b": 2}]}, {"items": [{"c": 3}]}]


def test_small_texts_are_not_sliced() -> None:
    text = json.dumps(LIST_FIRST, indent=4)
    assert decode_json_list(text, len(text)) is None
    assert decode_yaml_list(yaml_rs.dumps(LIST), 1 << 30) is None


@pytest.mark.parametrize(("decoder", "text"), [
    (decode_yaml, "apiVersion: v1\nitems:\n- kind: A\n- kind: [B\n- kind: C\nkind: List\n"),
    (decode_yaml, "items:\n- kind: A\n- kind: B\n  x: 1\n   y: 2\n- kind: C\n"),
    (decode_json, '{\n "items": [\n  {"a": 1},\n  {"b": }\n ]\n}'),
    (decode_json, '{\n "items": [\n  {"a": 1},\n  {"b": 2}\n ]\n}}'),
], ids=["yaml-flow", "yaml-indent", "json-value", "json-trailing"])
def test_errors_in_a_sliced_file_are_those_of_the_whole_decode(monkeypatch, decoder, text: str) -> None:
    errors = []
    for size in (10, 1 << 30):
        monkeypatch.setattr(decode, "SLICE_CHARS", size)
        with pytest.raises(DecodeError) as info:
            decoder(text)
        errors.append(info.value)
    assert errors[0] == errors[1] and errors[0].line > 1


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_snapshot_file_loads_the_same_sliced_or_whole(tmp_path: Path, monkeypatch, suffix: str) -> None:
    """A List big enough to be sliced, with one malformed pod: same objects, same problem at the same position."""
    items = ITEMS * 30  # ~3 MiB: above the slicing threshold
    pod = next(i for i, item in enumerate(items) if item.get("kind") == "Pod" and i > len(items) // 2)
    items[pod] = {**items[pod], "spec": {**items[pod]["spec"], "containers": 5}}
    document = {**LIST_FIRST, "items": items}
    text = json.dumps(document, indent=4) if suffix == ".json" else _kubectl_yaml(document)
    path = tmp_path / f"cluster{suffix}"
    path.write_text(text, encoding="utf-8")
    sliced, sliced_problems = load_snapshot([str(path)])
    monkeypatch.setattr(decode, "SLICE_CHARS", len(text))
    whole, whole_problems = load_snapshot([str(path)])
    assert sliced.objects == whole.objects
    assert sliced.read_order == whole.read_order
    assert sliced_problems == whole_problems and len(whole_problems) == 1
    assert decode_json_list(text) if suffix == ".json" else decode_yaml_list(text)  # it was sliced
