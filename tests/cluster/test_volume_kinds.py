"""Snapshots carry the volume kinds the volume filters read: loaded from files and written back by `snapshot`."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from kubectl_wasdra.cli import cli
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.snapshot import CLUSTER_SCOPED_KINDS, SNAPSHOT_KINDS

VOLUME_KINDS = ("PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode", "CSIDriver")
OBJECTS = [
    {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "ml"},
     "spec": {"storageClassName": "fast"}},
    {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-1"}, "spec": {"capacity": {"storage": "1Gi"}}},
    {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "fast"}, "provisioner": "csi.example.com"},
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n1"},
     "spec": {"drivers": [{"name": "csi.example.com", "nodeID": "n1", "allocatable": {"count": 16}}]}},
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "csi.example.com"}, "spec": {}},
]


def test_volume_kinds_are_snapshot_kinds_and_only_claims_are_namespaced() -> None:
    assert set(VOLUME_KINDS) <= set(SNAPSHOT_KINDS)
    assert set(VOLUME_KINDS) - CLUSTER_SCOPED_KINDS == {"PersistentVolumeClaim"}


def test_volume_kinds_load_and_write_back(tmp_path: Path) -> None:
    source = tmp_path / "cluster.yaml"
    source.write_text(yaml.safe_dump_all(OBJECTS))
    snapshot, problems = load_snapshot([str(source)])
    assert problems == ()
    assert {kind: len(snapshot.of_kind(kind)) for kind in VOLUME_KINDS} == dict.fromkeys(VOLUME_KINDS, 1)
    out = tmp_path / "out.yaml"
    result = CliRunner().invoke(cli, ["snapshot", "--snapshot", str(source), "--output-file", str(out)], standalone_mode=False,
                                catch_exceptions=False)
    assert result.return_value == 0
    again, problems = load_snapshot([str(out)])
    assert problems == () and {k: again.of_kind(k) for k in VOLUME_KINDS} == {k: snapshot.of_kind(k) for k in VOLUME_KINDS}
