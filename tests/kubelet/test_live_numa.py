"""Live read of NodeResourceTopology objects and each node's configz against a local fake API server (GET only)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cluster"))

from fake_apiserver import RESOURCES, FakeApiServer, Fault, serve, write_kubeconfig

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.live import LiveOptions, read_live
from kubectl_wasdra.kubelet.facts import facts_of

CLUSTER = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "numa-gpu"
NRT_GROUP = {("topology.node.k8s.io", "v1alpha2"): [("noderesourcetopologies", "NodeResourceTopology", False)]}


def _configz(snapshot) -> dict[str, object]:
    return {f"/api/v1/nodes/{o['metadata']['name']}/proxy/configz": {"kubeletconfig": o["kubeletconfig"]}
            for o in snapshot.of_kind("KubeletConfigz")}


def test_topologies_and_configz_are_read_and_a_403_is_a_gap(tmp_path: Path) -> None:
    offline, problems = load_snapshot([str(CLUSTER)])
    assert problems == ()
    objects = {k: v for k, v in offline.objects.items() if k != "KubeletConfigz"}
    server = FakeApiServer(objects=objects, resources={**RESOURCES, **NRT_GROUP}, paths=_configz(offline),
                           faults={"/api/v1/nodes/numa-dp-2/proxy/configz": Fault(status=403, times=9)})
    kubeconfig = tmp_path / "kubeconfig"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, "token")
        live = read_live(LiveOptions(kubeconfig=str(kubeconfig), context="fake", sleep=lambda _s: None))
    assert {m for m, _p in server.requests} == {"GET"}
    assert live.of_kind("NodeResourceTopology") == offline.of_kind("NodeResourceTopology")
    assert [o["metadata"]["name"] for o in live.of_kind("KubeletConfigz")] == [
        "numa-dp-0", "numa-dp-1", "numa-dra-0", "numa-dra-1"]
    gap = live.header.gaps["KubeletConfigz"]
    assert gap.startswith("kubelet config of 1 of 5 node(s) not read: numa-dp-2: 403 Forbidden")
    facts = facts_of(live, "numa-dp-0")
    assert facts is not None and (facts.topology_policy, facts.cpu_policy) == ("single-numa-node", "static")
    assert facts_of(live, "numa-dp-2").sources[-1].startswith("assumed")  # NRT attributes only


def test_unserved_topology_group_is_a_gap_and_configz_is_not_asked(tmp_path: Path) -> None:
    offline, _ = load_snapshot([str(CLUSTER)])
    server = FakeApiServer(objects={"Node": offline.of_kind("Node")})
    kubeconfig = tmp_path / "kubeconfig"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, "token")
        live = read_live(LiveOptions(kubeconfig=str(kubeconfig), context="fake", sleep=lambda _s: None))
    assert live.header.gaps["NodeResourceTopology"].startswith("not served")
    assert "KubeletConfigz" not in live.header.gaps
    assert not any(path.endswith("/configz") for _m, path in server.requests)


def test_configz_keeps_only_the_numa_fields() -> None:
    from kubectl_wasdra.cluster.live_numa import configz_object

    body = {"kubeletconfig": {"cpuManagerPolicy": "static", "staticPodURLHeader": {"Authorization": ["Bearer x"]},
                              "tlsPrivateKeyFile": "/var/lib/kubelet/pki/kubelet.key", "featureGates": {"A": True}}}
    assert configz_object("n1", body)["kubeletconfig"] == {"cpuManagerPolicy": "static", "featureGates": {"A": True}}
    assert configz_object("n1", {"kind": "Status"}) is None


def test_anonymized_snapshot_keeps_numa_facts_with_their_node() -> None:
    from kubectl_wasdra.cluster.anonymize import anonymize

    offline, _ = load_snapshot([str(CLUSTER)])
    anonymous = anonymize(offline)
    names = {o["metadata"]["name"] for o in anonymous.of_kind("Node")}
    assert {o["metadata"]["name"] for o in anonymous.of_kind("NodeResourceTopology")} == names
    assert {o["metadata"]["name"] for o in anonymous.of_kind("KubeletConfigz")} == names
    assert all(facts_of(anonymous, name) is not None for name in names)
