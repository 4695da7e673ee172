"""Objects whose kind, apiVersion, metadata or metadata.name have the wrong type are skipped and reported with their
file:line:col; the rest of the dump loads and can be written again."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.cli import cli
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.write import render_snapshot

LIST_WITH_LIST_KIND = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: [Pod]
  metadata: {name: a, namespace: d}
  spec: {containers: []}
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
"""


def test_list_kind_is_reported_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "dump.yaml"
    path.write_text(LIST_WITH_LIST_KIND)
    snapshot, problems = load_snapshot([str(path)])
    assert [node["metadata"]["name"] for node in snapshot.of_kind("Node")] == ["n1"]
    assert [(p.file, p.line, p.column, p.path) for p in problems] == [(str(path), 5, 3, ("kind",))]
    assert "kind must be a string, got a list; object skipped" in problems[0].message


def test_snapshot_command_skips_the_object(tmp_path: Path) -> None:
    path = tmp_path / "dump.yaml"
    path.write_text(LIST_WITH_LIST_KIND)
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, ["snapshot", "--snapshot", str(path), "--output-file", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "dump.yaml:5:3" in result.output
    assert [item["kind"] for item in json.loads(out.read_text())["items"][1:]] == ["Node"]


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5),
                     st.sampled_from(["Pod", "Node", "v1", "List", "ResourceSlice", "resource.k8s.io/v1beta1", ""]))
_GARBAGE = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.one_of(st.text(max_size=4), st.integers()), inner, max_size=3)),
    max_leaves=6)
_FIELDS = ("kind", "apiVersion", "metadata", "name")


@st.composite
def _objects(draw: st.DrawFn) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": "v1", "kind": draw(st.sampled_from(["Pod", "Node", "DeviceTaintRule"])),
                           "metadata": {"name": "x", "namespace": "d"}, "spec": {"containers": []}}
    for field in draw(st.sets(st.sampled_from(_FIELDS), min_size=1)):
        value = draw(_GARBAGE)
        if field == "name" and isinstance(obj["metadata"], dict):
            obj["metadata"]["name"] = value
        elif field != "name":
            obj[field] = value
    return obj


@settings(max_examples=50, deadline=None)
@given(items=st.lists(_objects(), min_size=1, max_size=3), as_json=st.booleans())
def test_garbage_identity_fields_never_crash(items: list[dict[str, Any]], as_json: bool) -> None:
    good = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "ok"}}
    document = {"apiVersion": "v1", "kind": "List", "items": [*items, good]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("dump.json" if as_json else "dump.yaml")
        path.write_text(json.dumps(document) if as_json else yaml.safe_dump(document))
        snapshot, problems = load_snapshot([str(path)])
    assert snapshot.get("Node", "ok") is not None
    for kind, objects in snapshot.objects.items():
        assert isinstance(kind, str)
        assert all(isinstance(obj["metadata"]["name"], str) and isinstance(obj["apiVersion"], str) for obj in objects)
    assert all(problem.line >= 1 and problem.column >= 1 for problem in problems)
    render_snapshot(snapshot, as_json=True)
    render_snapshot(snapshot, as_json=False)
    assert snapshot.node_index is not None and snapshot.tainted_slices is not None
