"""Offline snapshot loading: Lists, multi-document YAML, JSON, directories, conversion, broken objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_wasdra.cluster.files import load_snapshot, read_snapshot
from kubectl_wasdra.errors import LoadError, SnapshotError

NODES_YAML = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    labels: {example.com/rack: r0}
  status:
    allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
  status:
    allocatable: {cpu: "8", memory: oops}
metadata:
  resourceVersion: ""
"""

SLICE_V1BETA1 = """\
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: n1-gpu}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    basic:
      attributes: {model: {string: a100}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ignored, namespace: default}
---
apiVersion: v1
kind: Service
metadata: {name: also-ignored}
"""


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_list_with_broken_item_reports_position_and_loads_the_rest(tmp_path: Path) -> None:
    file = _write(tmp_path, "nodes.yaml", NODES_YAML)
    snapshot, problems = load_snapshot([file])
    assert [n["metadata"]["name"] for n in snapshot.of_kind("Node")] == ["n1"]
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.file, problem.line, problem.column) == (file, 16, 29)
    assert 'Node "n2"' in problem.message and '"oops" is not a quantity' in problem.message


def test_read_snapshot_stops_at_the_first_problem_with_its_position(tmp_path: Path) -> None:
    file = _write(tmp_path, "nodes.yaml", NODES_YAML)
    with pytest.raises(LoadError) as caught:
        read_snapshot([file])
    assert caught.value.where == f"{file}:16:29" and '"oops" is not a quantity' in str(caught.value)
    good = _write(tmp_path, "good/nodes.yaml", NODES_YAML.replace("memory: oops", "memory: 1Gi"))
    assert [n["metadata"]["name"] for n in read_snapshot([good]).of_kind("Node")] == ["n1", "n2"]


def test_multi_document_conversion_and_ignored_kinds(tmp_path: Path) -> None:
    snapshot, problems = load_snapshot([_write(tmp_path, "slices.yaml", SLICE_V1BETA1)])
    assert problems == ()
    (slice_,) = snapshot.of_kind("ResourceSlice")
    assert slice_["apiVersion"] == "resource.k8s.io/v1"
    assert slice_["spec"]["devices"][0] == {"name": "gpu-0", "attributes": {"model": {"string": "a100"}}}
    assert dict(snapshot.header.converted) == {"resource.k8s.io/v1beta1": 1}
    assert set(snapshot.objects) == {"ResourceSlice"}


def test_directory_json_and_typed_list_items(tmp_path: Path) -> None:
    pods = {"apiVersion": "v1", "kind": "PodList", "items": [
        {"metadata": {"name": "p", "namespace": "ml"}, "spec": {"containers": [{"name": "c"}]}}]}
    _write(tmp_path, "d/pods.json", json.dumps(pods))
    _write(tmp_path, "d/sub/nodes.yml", NODES_YAML)
    _write(tmp_path, "d/readme.txt", "not read")
    snapshot, problems = load_snapshot([str(tmp_path / "d")])
    assert snapshot.get("Pod", "p", "ml")["kind"] == "Pod"
    assert snapshot.get("Node", "n1") is not None
    assert len(problems) == 1


def test_concatenated_json_and_header(tmp_path: Path) -> None:
    header = {"apiVersion": "kubectl-wasdra.io/v1", "kind": "WasdraSnapshotHeader", "metadata": {"name": "snapshot"},
              "serverVersion": "v1.36.2", "served": ["resource.k8s.io/v1"], "gaps": {"PodGroup": "not served"}}
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "x"}}
    snapshot, problems = load_snapshot([_write(tmp_path, "s.json", json.dumps(header) + "\n" + json.dumps(node))])
    assert problems == ()
    assert snapshot.header.server_version == "v1.36.2"
    assert dict(snapshot.header.gaps) == {"PodGroup": "not served"}
    assert snapshot.get("Node", "x") == node


def test_yaml_syntax_error_in_one_document_keeps_the_others(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: [b\n---\n" \
           "apiVersion: v1\nkind: Node\nmetadata: {name: c}\n"
    snapshot, problems = load_snapshot([_write(tmp_path, "n.yaml", text)])
    assert [n["metadata"]["name"] for n in snapshot.of_kind("Node")] == ["a", "c"]
    assert len(problems) == 1 and problems[0].line >= 7


def test_yaml11_scalars_resolved_like_kubernetes(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  labels: {gpu: yes}\n  creationTimestamp: 2024-01-01T00:00:00Z\n" \
           "status: {allocatable: {pods: 0110}}\n"
    snapshot, problems = load_snapshot([_write(tmp_path, "n.yaml", text)])
    assert problems == ()
    node = snapshot.get("Node", "a")
    assert node["metadata"]["labels"]["gpu"] is True
    assert node["metadata"]["creationTimestamp"] == "2024-01-01T00:00:00Z"
    assert node["status"]["allocatable"]["pods"] == 72


@pytest.mark.parametrize(("text", "fragment"), [
    ("- just\n- strings\n", "expected an object"),
    ("kind: Node\nmetadata: {name: a}\n", "apiVersion is missing"),
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: d}\nspec: {containers: 3}\n", "spec.containers must be a list"),
    ("apiVersion: v1\nmetadata: {name: a}\n", "kind is missing"),
], ids=["not-objects", "no-apiversion", "containers-not-list", "no-kind"])
def test_broken_objects_are_reported(tmp_path: Path, text: str, fragment: str) -> None:
    snapshot, problems = load_snapshot([_write(tmp_path, "x.yaml", text)])
    assert snapshot.objects == {} or all(not v for v in snapshot.objects.values())
    assert problems and fragment in problems[0].message


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError):
        load_snapshot([str(tmp_path / "nope")])


def test_endless_snapshot_file_is_capped(tmp_path, monkeypatch) -> None:
    """A snapshot path that never ends (/dev/zero, an endless pipe) is read up to the cap and reported, never whole."""
    from kubectl_wasdra.cluster import files

    monkeypatch.setattr(files, "MAX_SNAPSHOT_FILE_BYTES", 1 << 20)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    _snapshot, problems = files.load_snapshot([str(link)])
    (problem,) = problems
    assert problem.message == "larger than the cap of 1 MiB for one snapshot file"
    assert "one file per kind" in problem.hint
