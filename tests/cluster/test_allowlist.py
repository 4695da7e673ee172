"""Snapshot files keep only what the simulator reads: no environment, secrets, last-applied configuration, token-like
annotations or managedFields, and the verdicts on every fixture are the same before and after."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.cluster.allowlist import allowed_snapshot
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.export import SnapshotOptions, export_snapshot
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.write import render_snapshot
from kubectl_wasdra.explain.diagnose import diagnose
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import Simulation

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_DIRS = sorted([*(p for p in (ROOT / "fixtures" / "sched").iterdir() if (p / "cluster.yaml").is_file()),
                   *(p for p in (ROOT / "fixtures" / "clusters").iterdir() if p.is_dir())])  # the snapshot fixtures
SECRETS = ("s3cr3t-env", "s3cr3t-applied", "s3cr3t-token", "s3cr3t-data", "s3cr3t-field", "10.1.2.3", "registry.corp")
HOSTILE = [
    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"zone": "a"}, "annotations": {
        "node.alpha.kubernetes.io/ttl": "0", "vendor.example/token": "s3cr3t-token"}},
     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}, "capacity": {"cpu": "4"},
                "addresses": [{"type": "InternalIP", "address": "10.1.2.3"}], "nodeInfo": {"machineID": "s3cr3t-field"},
                "images": [{"names": ["registry.corp/app:1"]}]}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": "p", "namespace": "default", "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": '{"env": "s3cr3t-applied"}',
            "resource.kubernetes.io/pod-claim-name": "gpu"},
        "managedFields": [{"manager": "kubectl", "fieldsV1": {"f:s3cr3t-field": {}}}]},
     "spec": {"nodeName": "n1", "containers": [{
         "name": "c", "image": "registry.corp/app:1", "command": ["run", "--password=s3cr3t-field"],
         "env": [{"name": "PASSWORD", "value": "s3cr3t-env"}], "envFrom": [{"secretRef": {"name": "s3cr3t-field"}}],
         "resources": {"requests": {"cpu": "1"}}}],
         "volumes": [{"name": "v", "secret": {"secretName": "s3cr3t-field"}}]},
     "status": {"phase": "Running", "podIP": "10.1.2.3", "hostIP": "10.1.2.3"}},
    {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "default"}, "data": {"k": "s3cr3t-data"}},
]


def test_written_snapshot_keeps_no_credentials(tmp_path: Path) -> None:
    source = tmp_path / "cluster.yaml"
    source.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": HOSTILE}))
    written = export_snapshot(SnapshotOptions(snapshot=[str(source)]))
    text = written.data.decode()
    assert [secret for secret in SECRETS if secret in text] == []
    again, problems = load_snapshot([_write(tmp_path, written.data)])
    assert problems == ()
    (pod,) = again.of_kind("Pod")
    assert pod["spec"]["containers"] == [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]
    assert pod["metadata"]["annotations"] == {"resource.kubernetes.io/pod-claim-name": "gpu"}
    assert again.of_kind("Node")[0]["status"]["allocatable"]["cpu"] == "4"
    assert again.of_kind("Secret") == ()


def _write(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "again.yaml"
    path.write_bytes(data)
    return str(path)


def verdicts(snapshot) -> list[tuple[str, bool, tuple[str, ...]]]:
    """(kind, fits, reason codes) per simulated entry, in queue order."""
    return [(r.kind, r.fits, tuple(item.code for item in diagnose(r).reasons))
            for r in Simulation(snapshot, all_on(NEWEST)).run()]


@pytest.mark.parametrize("fixture", FIXTURE_DIRS, ids=lambda p: p.name)
def test_allow_list_keeps_every_verdict(fixture: Path) -> None:
    snapshot, problems = load_snapshot([str(fixture)])
    assert problems == ()
    assert verdicts(allowed_snapshot(snapshot)) == verdicts(snapshot)


def _volume_pod(name: str, volumes: list[dict], node: str | None = None) -> dict:
    spec = {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}], "volumes": volumes}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": {**spec, **({"nodeName": node} if node else {})},
            "status": {"phase": "Running" if node else "Pending"}}


def test_allow_list_keeps_the_pod_volumes_the_volume_filters_read() -> None:
    """Pod volumes are reduced to what VolumeRestrictions and NodeVolumeLimits compare (disk IDs, CSI drivers, claim
    names), never dropped: without them a disk conflict or a full CSI node would fit."""
    disk = {"name": "d", "gcePersistentDisk": {"pdName": "disk-1", "fsType": "ext4"}}
    inline = {"name": "v", "csi": {"driver": "csi.example.com", "volumeAttributes": {"token": "s3cr3t-field"}}}
    builder = SnapshotBuilder()
    for obj in [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
         "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},
        {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n1"},
         "spec": {"drivers": [{"name": "csi.example.com", "nodeID": "n1", "allocatable": {"count": 1}}]}},
        _volume_pod("running", [disk, inline], "n1"),
        _volume_pod("same-disk", [disk]),
        _volume_pod("second-csi", [inline]),
        _volume_pod("secret-only", [{"name": "s", "secret": {"secretName": "s3cr3t-field"}}]),
    ]:
        builder.add(obj)
    snapshot = builder.build()
    assert verdicts(snapshot) == [("Pod", False, ("VolumeConflict",)), ("Pod", False, ("VolumeLimitExceeded",)),
                                  ("Pod", True, ())]
    kept = allowed_snapshot(snapshot)
    assert verdicts(kept) == verdicts(snapshot)
    volumes = {p["metadata"]["name"]: p["spec"].get("volumes") for p in kept.of_kind("Pod")}
    assert volumes["running"] == [{"name": "d", "gcePersistentDisk": {"pdName": "disk-1"}},
                                  {"name": "v", "csi": {"driver": "csi.example.com"}}]
    assert volumes["secret-only"] is None


def test_allow_list_keeps_what_volume_binding_reads_and_no_storage_parameters() -> None:
    """A StorageClass's parameters (some provisioners take credentials there) and a volume's CSI attributes are not
    written; the claim still binds the volume its claimRef names, on the nodes its affinity allows."""
    builder = SnapshotBuilder()
    for obj in [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"kubernetes.io/hostname": "n1"}},
         "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "local"},
         "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer",
         "parameters": {"restuserkey": "s3cr3t-field"}, "mountOptions": ["password=s3cr3t-field"]},
        {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-1"},
         "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "local",
                  "claimRef": {"namespace": "default", "name": "data"},
                  "csi": {"driver": "csi.example.com", "volumeHandle": "vol-1",
                          "volumeAttributes": {"token": "s3cr3t-field"}},
                  "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                      {"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}]}}},
         "status": {"phase": "Available"}},
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "default"},
         "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "local", "dataSourceRef": {"name": "s3cr3t-field"},
                  "resources": {"requests": {"storage": "1Gi"}}}},
        _volume_pod("binder", [{"name": "v", "persistentVolumeClaim": {"claimName": "data"}}]),
        _volume_pod("other-claim", [{"name": "v", "persistentVolumeClaim": {"claimName": "missing"}}]),
    ]:
        builder.add(obj)
    snapshot = builder.build()
    assert verdicts(snapshot) == [("Pod", True, ()), ("Pod", False, ("VolumeBindingFailed",))]
    kept = allowed_snapshot(snapshot)
    assert verdicts(kept) == verdicts(snapshot)
    text = render_snapshot(kept, as_json=True).decode()
    assert "s3cr3t-field" not in text and "vol-1" in text
