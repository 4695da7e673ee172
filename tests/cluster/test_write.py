"""Writing snapshots (YAML and JSON round trips), anonymization, and the `snapshot` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_wasdra.cli import cli
from kubectl_wasdra.cluster.anonymize import anonymize
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.cluster.write import render_snapshot, write_snapshot

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"


@pytest.fixture(scope="module")
def snapshot() -> ClusterSnapshot:
    loaded, problems = load_snapshot([str(FIXTURE)])
    assert problems == ()
    return loaded


@pytest.mark.parametrize("name", ["out.yaml", "out.json"])
def test_round_trip(tmp_path: Path, snapshot: ClusterSnapshot, name: str) -> None:
    path = tmp_path / name
    write_snapshot(snapshot, str(path))
    again, problems = load_snapshot([str(path)])
    assert problems == ()
    assert dict(again.objects) == dict(snapshot.objects)
    assert path.read_bytes().lstrip().startswith(b"{" if name.endswith(".json") else b"apiVersion")


def test_yaml11_ambiguous_strings_are_quoted(tmp_path: Path) -> None:
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {
        "a": "y", "b": "no", "c": "0755", "d": "1_000", "e": "on", "f": "2024-01-01", "g": "12:30"}}}
    data = render_snapshot(ClusterSnapshot(objects={"Node": (node,)}), as_json=False)
    path = tmp_path / "s.yaml"
    path.write_bytes(data)
    again, _ = load_snapshot([str(path)])
    assert again.get("Node", "n")["metadata"]["labels"] == node["metadata"]["labels"]


def test_anonymize_is_consistent(snapshot: ClusterSnapshot) -> None:
    anon = anonymize(snapshot)
    assert anon.header.anonymized
    text = render_snapshot(anon, as_json=True).decode()
    for secret in ("gpu-r0-n3", "busy-gpu-r0-n3\"", '"ml"', '"r0"', "registry.example.com", "zone-a"):
        assert secret not in text, secret
    # references still line up: each allocated claim, the pod it is reserved for, that pod's node and the slice pools
    allocated = [c for c in anon.of_kind("ResourceClaim") if "allocation" in c.get("status", {})]
    assert len(allocated) == 4
    for claim in allocated:
        (reserved,) = claim["status"]["reservedFor"]
        pod = anon.get("Pod", reserved["name"], claim["metadata"]["namespace"])
        node_name = pod["spec"]["nodeName"]
        assert anon.node(node_name) is not None
        assert claim["metadata"]["name"] in {c.get("resourceClaimName") for c in pod["spec"]["resourceClaims"]}
        assert claim["status"]["allocation"]["devices"]["results"][0]["pool"] == node_name
        assert claim["status"]["allocation"]["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]["values"] == [node_name]
        assert any(s["spec"]["nodeName"] == node_name for s in anon.of_kind("ResourceSlice"))
    assert sorted(anon.allocated.exclusive) != sorted(snapshot.allocated.exclusive)
    assert len(anon.allocated.exclusive) == len(snapshot.allocated.exclusive)
    assert sorted(anon.free_resources(n)["cpu"] for n in anon.node_index.nodes) == \
        sorted(snapshot.free_resources(n)["cpu"] for n in snapshot.node_index.nodes)
    pending = anon.pending_pods()[0]
    generated = pending["status"]["resourceClaimStatuses"][0]["resourceClaimName"]
    assert anon.get("ResourceClaim", generated, pending["metadata"]["namespace"]) is not None
    assert not any("example.com/" in key for n in anon.of_kind("Node") for key in n["metadata"]["labels"])
    rack_keys = {key for n in anon.of_kind("Node") for key, value in n["metadata"]["labels"].items()
                 if key.startswith("anon.example/") and value != "true"}  # the private rack key, renamed
    assert len(rack_keys) == 1
    racks = {n["metadata"]["labels"].get(*rack_keys) for n in anon.of_kind("Node")} - {None}
    assert len(racks) == 2 and not racks & {"r0", "r1"}
    rule = anon.of_kind("DeviceTaintRule")[0]
    assert anon.pools[(rule["spec"]["deviceSelector"]["driver"], rule["spec"]["deviceSelector"]["pool"])].complete
    assert anonymize(snapshot).objects == anon.objects, "deterministic"


def test_snapshot_command_reexports_anonymized_json(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = CliRunner().invoke(cli, ["snapshot", "--snapshot", str(FIXTURE), "--anonymize", "--output-file", str(out)],
                                standalone_mode=False)
    assert result.exception is None, result.output
    document = json.loads(out.read_text())
    assert document["kind"] == "List" and document["items"][0]["kind"] == "WasdraSnapshotHeader"
    assert document["items"][0]["anonymized"] is True
    assert len(document["items"]) == 1 + sum(1 for _ in document["items"][1:])


def test_snapshot_command_takes_one_source() -> None:
    result = CliRunner().invoke(cli, ["snapshot", "--live", "--snapshot", str(FIXTURE)], standalone_mode=False)
    assert result.exception is not None and "--live" in str(result.exception)


def test_anonymize_keeps_templates_selectors_and_namespace_labels_consistent() -> None:
    term = {"labelSelector": {"matchLabels": {"app": "x"}}, "namespaces": ["ml"], "topologyKey": "example.com/rack"}
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "ml", "labels": {"app": "x"}},
           "spec": {"selector": {"matchLabels": {"app": "x"}}, "template": {
               "metadata": {"labels": {"app": "x"}},
               "spec": {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}}}}}
    namespace = {"apiVersion": "v1", "kind": "Namespace",
                 "metadata": {"name": "ml", "labels": {"kubernetes.io/metadata.name": "ml"}}}
    anon = anonymize(ClusterSnapshot(objects={"Job": (job,), "Namespace": (namespace,)}))
    (new_job,), (new_namespace,) = anon.of_kind("Job"), anon.of_kind("Namespace")
    new_name = new_namespace["metadata"]["name"]
    assert new_name != "ml" and new_namespace["metadata"]["labels"]["kubernetes.io/metadata.name"] == new_name
    value = new_job["spec"]["selector"]["matchLabels"]["app"]
    assert value != "x" and new_job["spec"]["template"]["metadata"]["labels"]["app"] == value
    new_term = new_job["spec"]["template"]["spec"]["affinity"]["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
    assert new_term["labelSelector"]["matchLabels"]["app"] == value and new_term["namespaces"] == [new_name]


def test_anonymize_keeps_what_the_volume_filters_read() -> None:
    """A local volume pinned to a node by hostname and the pod claiming it still meet after anonymizing: claim volumes
    stay on pods, node names in the volume's node affinity follow the node, other volume contents go."""
    from kubectl_wasdra.catalog.releases import NEWEST
    from kubectl_wasdra.sched.simulation import simulate

    objects = [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-7", "labels": {"kubernetes.io/hostname": "gpu-7"}},
         "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-8", "labels": {"kubernetes.io/hostname": "gpu-8"}},
         "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}},
        {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "local-7"},
         "spec": {"capacity": {"storage": "10Gi"}, "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
             {"key": "kubernetes.io/hostname", "operator": "In", "values": ["gpu-7"]}]}]}}}},
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "team-a"},
         "spec": {"volumeName": "local-7"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer", "namespace": "team-a"},
         "spec": {"containers": [{"name": "c", "image": "secret/image"}],
                  "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}},
                              {"name": "host", "hostPath": {"path": "/home/alice"}}]}},
    ]
    from types import MappingProxyType

    by_kind: dict[str, tuple] = {}
    for obj in objects:
        by_kind[obj["kind"]] = (*by_kind.get(obj["kind"], ()), obj)
    original = ClusterSnapshot(objects=MappingProxyType(by_kind))
    anon = anonymize(original)
    pod = anon.of_kind("Pod")[0]
    assert pod["spec"]["volumes"] == [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]
    before = {r.entry.name: r.placement for r in simulate(original, release=NEWEST)}
    after = {r.entry.name: r.placement for r in simulate(anon, release=NEWEST)}
    assert list(before.values()) == [{"team-a/trainer": "gpu-7"}]
    (placement,) = after.values()
    assert list(placement.values()) == [anon.of_kind("Node")[0]["metadata"]["name"]]


def test_anonymize_keeps_pod_disruption_budgets_matching() -> None:
    from types import MappingProxyType

    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-7", "namespace": "shop", "labels": {"app": "web"}},
           "spec": {"nodeName": "n1", "containers": []}}
    budget = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web", "namespace": "shop"},
              "spec": {"selector": {"matchLabels": {"app": "web"}}},
              "status": {"disruptionsAllowed": 1, "disruptedPods": {"web-7": "2026-01-01T00:00:00Z"}}}
    anon = anonymize(ClusterSnapshot(objects=MappingProxyType({"Pod": (pod,), "PodDisruptionBudget": (budget,)})))
    new_pod, new_budget = anon.of_kind("Pod")[0], anon.of_kind("PodDisruptionBudget")[0]
    assert new_budget["spec"]["selector"]["matchLabels"] == new_pod["metadata"]["labels"] != {"app": "web"}
    assert list(new_budget["status"]["disruptedPods"]) == [new_pod["metadata"]["name"]] != ["web-7"]
    assert new_budget["metadata"]["namespace"] == new_pod["metadata"]["namespace"] != "shop"


def test_allow_list_keeps_what_preemption_reads_of_a_pod_disruption_budget() -> None:
    from kubectl_wasdra.cluster.allowlist import allowed

    budget = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
              "metadata": {"name": "web", "namespace": "shop",
                           "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}},
              "spec": {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": 1, "unhealthyPodEvictionPolicy": "x"},
              "status": {"disruptionsAllowed": 1, "disruptedPods": {"web-1": "t"}, "conditions": [{"type": "DisruptionAllowed"}]}}
    kept = allowed(budget)
    assert kept["spec"] == {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": 1}
    assert kept["status"] == {"disruptionsAllowed": 1, "disruptedPods": {"web-1": "t"}}
    assert "annotations" not in kept["metadata"]
