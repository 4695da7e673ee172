"""Volumes through the whole simulation: unbound immediate claims, WaitForFirstConsumer local volumes bound one claim at a
time, ReadWriteOncePod claims in use, disk conflicts, and volumes pinning pods to a node."""

from __future__ import annotations

from builders import node, pod, pod_group, snapshot
from builders import run_all as run

WAIT = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "local"},
        "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer"}
FAST = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "fast"},
        "provisioner": "pd.csi.storage.gke.io"}


def claim(name: str, storage_class: str | None = "local", volume: str | None = None, modes: tuple = ("ReadWriteOnce",)) -> dict:
    spec: dict = {"accessModes": list(modes), "resources": {"requests": {"storage": "10Gi"}}}
    if storage_class:
        spec["storageClassName"] = storage_class
    if volume:
        spec["volumeName"] = volume
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


def local_volume(name: str, host: str) -> dict:
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name},
            "spec": {"storageClassName": "local", "capacity": {"storage": "100Gi"}, "accessModes": ["ReadWriteOnce"],
                     "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                         {"key": "kubernetes.io/hostname", "operator": "In", "values": [host]}]}]}}},
            "status": {"phase": "Available"}}


def with_claims(name: str, *claims: str, **fields: object) -> dict:
    volumes = [{"name": f"data-{i}", "persistentVolumeClaim": {"claimName": c}} for i, c in enumerate(claims)]
    return pod(name, volumes=volumes, **fields)


NODES = [node("node-a", labels={"kubernetes.io/hostname": "node-a"}),
         node("node-b", labels={"kubernetes.io/hostname": "node-b"})]


def test_unbound_immediate_claim_is_a_prefilter_verdict() -> None:
    results = run(snapshot(*NODES, FAST, claim("data", "fast")), with_claims("trainer", "data"))
    assert not results["trainer"].fits
    assert results["trainer"].message.startswith("0/2 nodes are available: pod has unbound immediate "
                                                 "PersistentVolumeClaims.")


def test_local_volumes_bind_one_claim_each_and_pin_the_pods() -> None:
    cluster = snapshot(*NODES, WAIT, local_volume("pv-b", "node-b"), claim("data-0"), claim("data-1"))
    results = run(cluster, with_claims("first", "data-0", created="2026-01-01T00:00:00Z"),
                  with_claims("second", "data-1", created="2026-01-01T00:00:01Z"))
    assert results["first"].placement == {"default/first": "node-b"}
    assert not results["second"].fits  # the only local volume went to data-0
    assert results["second"].message.startswith(
        "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind.")


def test_bound_volume_node_affinity() -> None:
    cluster = snapshot(*NODES, WAIT, local_volume("pv-a", "node-a"), claim("data", volume="pv-a"))
    assert run(cluster, with_claims("p", "data"))["p"].placement == {"default/p": "node-a"}


def test_read_write_once_pod_claim_in_use_rejects_every_node() -> None:
    cluster = snapshot(*NODES, FAST, claim("solo", "fast", volume="pv-x", modes=("ReadWriteOncePod",)),
                       {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-x"},
                        "spec": {"storageClassName": "fast", "capacity": {"storage": "10Gi"}}},
                       with_claims("holder", "solo", node_name="node-a"))
    results = run(cluster, with_claims("second", "solo"))
    assert not results["second"].fits
    assert results["second"].message.startswith("0/2 nodes are available: 2 node has pod using PersistentVolumeClaim "
                                                 "with the same name and ReadWriteOncePod access mode.")


def test_same_gce_disk_read_write_conflicts_on_its_node() -> None:
    disk = [{"name": "d", "gcePersistentDisk": {"pdName": "shared"}}]
    cluster = snapshot(NODES[0], pod("holder", volumes=disk, node_name="node-a"))
    results = run(cluster, pod("second", volumes=disk))
    assert results["second"].message.startswith("0/1 nodes are available: 1 node(s) had no available disk.")
    read_only = [{"name": "d", "gcePersistentDisk": {"pdName": "shared", "readOnly": True}}]
    cluster = snapshot(NODES[0], pod("holder", volumes=read_only, node_name="node-a"))
    assert run(cluster, pod("second", volumes=read_only))["second"].fits


def test_a_network_volume_bound_by_one_pod_is_gone_for_every_node() -> None:
    shared = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "nfs-1"},
              "spec": {"storageClassName": "local", "capacity": {"storage": "100Gi"}, "accessModes": ["ReadWriteOnce"]},
              "status": {"phase": "Available"}}
    cluster = snapshot(*NODES, WAIT, shared, claim("data-0"), claim("data-1"))
    results = run(cluster, with_claims("first", "data-0", created="2026-01-01T00:00:00Z"),
                  with_claims("second", "data-1", created="2026-01-01T00:00:01Z"))
    assert results["first"].fits and not results["second"].fits
    assert "2 node(s) didn't find available persistent volumes to bind" in results["second"].message


def test_read_write_once_pod_claim_in_use_speaks_after_earlier_filters() -> None:
    """volume_restrictions.go: the claim count is read in VolumeRestrictions' Filter, after NodeResourcesFit, so a
    node without room for the pod says Insufficient cpu."""
    small = node("node-c", cpu="1", labels={"kubernetes.io/hostname": "node-c"})
    cluster = snapshot(*NODES, small, FAST, claim("solo", "fast", volume="pv-x", modes=("ReadWriteOncePod",)),
                       {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-x"},
                        "spec": {"storageClassName": "fast", "capacity": {"storage": "10Gi"}}},
                       with_claims("holder", "solo", node_name="node-a"))
    results = run(cluster, with_claims("second", "solo", cpu="2"))
    assert results["second"].message.startswith("0/3 nodes are available: 1 Insufficient cpu, 2 node has pod using "
                                                "PersistentVolumeClaim with the same name and ReadWriteOncePod access "
                                                "mode.")


def _rwop_cluster(*holders: dict) -> object:
    return snapshot(*NODES, FAST, claim("solo", "fast", volume="pv-x", modes=("ReadWriteOncePod",)),
                    {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-x"},
                     "spec": {"storageClassName": "fast", "capacity": {"storage": "10Gi"}}}, *holders)


def test_read_write_once_pod_claim_held_by_a_lower_priority_pod_is_preempted() -> None:
    """VolumeRestrictions' RemovePod/AddPod keep the claim's users counted in the dry run (volume_restrictions.go):
    without the holder the pod fits on any node, and putting the holder back fails it again, so the holder is the
    victim on its node; the empty node has no victims to offer."""
    result = run(_rwop_cluster(with_claims("holder", "solo", node_name="node-a", priority=0)),
                 with_claims("second", "solo", priority=100))["second"]
    answer = result.extra["preemption"]
    assert answer.nominated == {"default/second": "node-a"}
    assert [(v.name, v.node) for v in answer.victims] == [("holder", "node-a")]


def test_read_write_once_pod_claim_held_by_a_higher_priority_pod_stays() -> None:
    result = run(_rwop_cluster(with_claims("holder", "solo", node_name="node-a", priority=100)),
                 with_claims("second", "solo", priority=0))["second"]
    assert not result.fits and not result.extra["preemption"].helps
    assert result.message.endswith("preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.")


def test_gang_member_preempts_the_lower_priority_holder_of_its_read_write_once_pod_claim() -> None:
    """Group preemption's reprieve re-filters the placed member with the holder back: the claim is in use again, so
    the holder stays a victim."""
    result = run(_rwop_cluster(with_claims("holder", "solo", node_name="node-a", priority=0)),
                 pod_group("g", min_count=1, priority=100), with_claims("m0", "solo", priority=100, group="g"))["g"]
    answer = result.extra["preemption"]
    assert answer.nominated == {"default/m0": "node-a"}
    assert [(v.name, v.node) for v in answer.victims] == [("holder", "node-a")]
