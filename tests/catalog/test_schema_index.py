"""The schema indexes (schemas/k8s-<release>.index.json, catalog/schema_index.py) are fresh, and the definitions read
through them are exactly those of the schema files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_wasdra.catalog import schemas
from kubectl_wasdra.catalog.releases import SUPPORTED
from kubectl_wasdra.catalog.schema_index import Definitions, build_index, render_index

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("release", [str(r) for r in SUPPORTED])
def test_the_index_is_fresh(release: str) -> None:
    """Fails after tools/gen_schemas.py rewrote a schema file: rerun `python tools/gen_schema_index.py`."""
    data = (SCHEMAS / f"k8s-{release}.json").read_bytes()
    assert (SCHEMAS / f"k8s-{release}.index.json").read_text() == render_index(data)


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_definitions_read_through_the_index_are_the_files(release) -> None:
    data = (SCHEMAS / f"k8s-{release}.json").read_bytes()
    whole = json.loads(data)
    index = json.loads((SCHEMAS / f"k8s-{release}.index.json").read_bytes())
    sliced = Definitions(data, index["spans"])
    assert index["kinds"] == whole["kinds"]
    assert {name: sliced[name] for name in sliced} == whole["$defs"]
    assert list(sliced) == list(whole["$defs"])
    assert isinstance(schemas.schema_set(release).definitions, Definitions)


def test_a_definition_is_parsed_once_and_shared() -> None:
    data = b'{"kinds":{"v1/X":"x"},"$defs":{"x":{"type":"object"},"y":{"$ref":"#/$defs/x"}}}'
    definitions = Definitions(data, build_index(data)["spans"])
    assert definitions["y"] == {"$ref": "#/$defs/x"}
    assert definitions["x"] is definitions["x"]
    assert len(definitions) == 2


def test_an_index_of_another_file_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema file rewritten without its index (another size) is parsed whole instead of sliced at stale offsets."""
    data = b'{"kinds":{"v1/X":"x"},"$defs":{"x":{"type":"object"}}}'
    stale = json.dumps({"size": len(data) + 1, "kinds": {}, "spans": {}}).encode()
    monkeypatch.setattr(schemas, "read_data", lambda name: stale if name.endswith(".index.json") else data)
    release = SUPPORTED[0]
    schemas.schema_set.cache_clear()
    try:
        loaded = schemas.schema_set(release)
        assert loaded.kinds == {"v1/X": "x"} and dict(loaded.definitions) == {"x": {"type": "object"}}
    finally:
        schemas.schema_set.cache_clear()


def test_a_file_that_is_not_compact_is_refused() -> None:
    with pytest.raises(ValueError):
        build_index(b'{"kinds": {}, "$defs": {"x": {}}, "extra": {"$defs":{}}}')


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_references_read_off_the_raw_text_are_those_inside_each_definition(release) -> None:
    data = (SCHEMAS / f"k8s-{release}.json").read_bytes()
    whole = json.loads(data)["$defs"]
    sliced = Definitions(data, json.loads((SCHEMAS / f"k8s-{release}.index.json").read_bytes())["spans"])
    for name, value in whole.items():
        assert sorted(sliced.references(name)) == sorted(schemas._references(value)), name
    pod = schemas._closure(sliced, json.loads(data)["kinds"]["v1/Pod"])
    assert pod == schemas._closure(whole, json.loads(data)["kinds"]["v1/Pod"]) and len(pod) > 100


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_every_built_in_integer_carries_its_go_bounds(release) -> None:
    """No value beyond int32/int64 decodes, and the validators take that from the schema text alone."""
    stack = list(json.loads((SCHEMAS / f"k8s-{release}.json").read_bytes())["$defs"].values())
    integers = 0
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            kinds = node.get("type")
            if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds and "string" not in kinds):
                integers += 1
                assert -(2**63) <= node.get("minimum", -(2**64)) <= node.get("maximum", 2**64) <= 2**63 - 1, node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    assert integers > 200
