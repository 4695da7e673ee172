"""No verdict on a cluster that could not be read: with nodes and pods forbidden (or every list redirected) explain,
explain-pending, check --live and snapshot say what they could not read and exit 2 instead of answering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_apiserver import FakeApiServer, Fault, serve, write_kubeconfig

from kubectl_wasdra.cli import cli

ROOT = Path(__file__).resolve().parents[2]
POD = """apiVersion: v1
kind: Pod
metadata: {name: wants-a-label, namespace: default}
spec:
  nodeSelector: {example.com/rack: r0}
  containers: [{name: c, image: busybox}]
"""
FORBIDDEN = {path: Fault(status=403, times=999) for path in ("/api/v1/nodes", "/api/v1/pods")}
REDIRECTED = {path: Fault(redirect="http://127.0.0.1:9/", times=999) for path in ("/api/v1/nodes", "/api/v1/pods")}



def _run(tmp_path: Path, offline, faults: dict[str, Fault], args: list[str]):
    server = FakeApiServer(objects=offline.objects, faults={k: Fault(**vars(v)) for k, v in faults.items()})
    kubeconfig = tmp_path / "kubeconfig"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, "t")
        return CliRunner().invoke(cli, [*args, "--live", "--kubeconfig", str(kubeconfig), "--context", "fake"],
                                  standalone_mode=False)


@pytest.mark.parametrize("faults", [FORBIDDEN, REDIRECTED], ids=["forbidden", "redirected"])
def test_explain_gives_no_verdict_on_unread_nodes(tmp_path: Path, offline, faults) -> None:
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD)
    result = _run(tmp_path, offline, faults, ["explain", "-f", str(manifest)])
    assert result.return_value == 2, result.output
    assert "does NOT fit" not in result.output and "fits" not in result.output.split("unknown")[0]
    assert "not read from the cluster: Node:" in result.output
    assert "Pod default/wants-a-label — unknown: Node could not be read from the cluster" in result.output
    data = json.loads(_run(tmp_path, offline, faults, ["explain", "-f", str(manifest), "-o", "json"]).output)
    (group,) = data["groups"]
    assert group["fits"] is None and group["reasons"] == [] and group["unknown"].startswith("Node could not be read")
    assert {k: v for k, v in next(
        g for g in data["gaps"] if g["kind"] == "Node").items() if k != "reason"} == {"kind": "Node", "blocksVerdicts": True}


def test_explain_pending_does_not_say_nothing_is_pending(tmp_path: Path, offline) -> None:
    result = _run(tmp_path, offline, FORBIDDEN, ["explain-pending", "-A"])
    assert isinstance(result.exception, Exception) and "nothing is Pending" not in result.output
    assert "cannot tell what is Pending: Pods could not be read from the cluster (403 Forbidden" in str(result.exception)


def test_check_live_reports_gaps_instead_of_fit_findings(tmp_path: Path, offline) -> None:
    bad = str(ROOT / "fixtures" / "lint" / "FIT004" / "bad.yaml")
    result = _run(tmp_path, offline, FORBIDDEN, ["check", bad])
    assert result.return_value == 2 and " FIT004 " not in result.output
    assert "not read from the cluster: Node: 403 Forbidden" in result.output
    data = json.loads(_run(tmp_path, offline, FORBIDDEN, ["check", bad, "-o", "json"]).output)
    assert {g["kind"] for g in data["gaps"] if g["blocksVerdicts"]} == {"Node", "Pod"}
    sarif = json.loads(_run(tmp_path, offline, FORBIDDEN, ["check", bad, "-o", "sarif"]).output)
    (invocation,) = sarif["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    errors = [n["message"]["text"] for n in invocation["toolExecutionNotifications"] if n["level"] == "error"]
    assert errors == ["not read from the cluster: Node: 403 Forbidden: injected 403",
                      "not read from the cluster: Pod: 403 Forbidden: injected 403"]


def test_snapshot_of_nothing_but_the_header_fails(tmp_path: Path, offline) -> None:
    everything = {path: Fault(status=403, times=999) for path in (
        "/api/v1/nodes", "/api/v1/pods", "/api/v1/namespaces", "/api/v1/events", "/apis/scheduling.k8s.io/v1/priorityclasses",
        "/apis/batch/v1/jobs", *(f"/apis/resource.k8s.io/v1/{r}" for r in (
            "resourceslices", "resourceclaims", "resourceclaimtemplates", "deviceclasses", "devicetaintrules")))}
    result = _run(tmp_path, offline, everything, ["snapshot", "--output-file", str(tmp_path / "s.yaml")])
    assert result.return_value == 2
    assert "nothing could be read from the cluster" in result.output


VOLUME_POD = """apiVersion: v1
kind: Pod
metadata: {name: wants-a-volume, namespace: default}
spec:
  containers: [{name: c, image: busybox}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
"""


def test_explain_gives_no_verdict_on_a_volume_whose_kinds_were_not_read(tmp_path: Path) -> None:
    """A forbidden PersistentVolumeClaim list leaves the claim unknown: "not found" would be a guess."""
    header = {"apiVersion": "kubectl-wasdra.io/v1", "kind": "WasdraSnapshotHeader", "metadata": {"name": "snapshot"},
              "serverVersion": "v1.37.0", "gaps": {"PersistentVolumeClaim": "403 Forbidden: no list"}}
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}
    cluster, manifest = tmp_path / "cluster.json", tmp_path / "pod.yaml"
    cluster.write_text(json.dumps(header) + "\n" + json.dumps(node))
    manifest.write_text(VOLUME_POD)
    data = json.loads(CliRunner().invoke(cli, ["explain", "-f", str(manifest), "--snapshot", str(cluster), "-o", "json"],
                                         standalone_mode=False).output)
    (group,) = data["groups"]
    assert group["fits"] is None and group["unknown"].startswith("PersistentVolumeClaim could not be read")
    assert [g["blocksVerdicts"] for g in data["gaps"]] == [True]
    manifest.write_text(POD.replace("nodeSelector: {example.com/rack: r0}", "nodeSelector: {}"))
    (group,) = json.loads(CliRunner().invoke(cli, ["explain", "-f", str(manifest), "--snapshot", str(cluster), "-o",
                                                   "json"], standalone_mode=False).output)["groups"]
    assert group["fits"] is True  # a pod without volumes does not depend on them


GUARANTEED_POD = """apiVersion: v1
kind: Pod
metadata: {name: pinned, namespace: default}
spec:
  containers:
  - name: c
    image: busybox
    resources: {requests: {cpu: "2", memory: 1Gi}, limits: {cpu: "2", memory: 1Gi}}
"""


@pytest.mark.parametrize(("why", "unknown"), [("403 Forbidden: no list", True), ("not served by this cluster", False)])
def test_an_unread_node_topology_leaves_aligned_pods_unknown(tmp_path: Path, why: str, unknown: bool) -> None:
    """Without the NodeResourceTopology a Guaranteed pod's kubelet admission (Topology Manager) cannot be answered;
    a BestEffort pod does not depend on it, and a cluster that does not serve the kind has no topology to read."""
    header = {"apiVersion": "kubectl-wasdra.io/v1", "kind": "WasdraSnapshotHeader", "metadata": {"name": "snapshot"},
              "serverVersion": "v1.37.0", "gaps": {"NodeResourceTopology": why}}
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}
    cluster, manifest = tmp_path / "cluster.json", tmp_path / "pod.yaml"
    cluster.write_text(json.dumps(header) + "\n" + json.dumps(node))

    def explain(text: str) -> dict:
        manifest.write_text(text)
        output = CliRunner().invoke(cli, ["explain", "-f", str(manifest), "--snapshot", str(cluster), "-o", "json"],
                                    standalone_mode=False).output
        return json.loads(output)["groups"][0]

    pinned = explain(GUARANTEED_POD)
    assert (pinned["fits"] is None) is unknown
    assert not unknown or pinned["unknown"].startswith("NodeResourceTopology could not be read")
    assert explain(GUARANTEED_POD.replace('    resources: {requests: {cpu: "2", memory: 1Gi}, limits: {cpu: "2", '
                                          'memory: 1Gi}}\n', ""))["fits"] is True
    if unknown:   # check's cluster checks do not run the kubelet stage: the same gap does not hold them back
        result = CliRunner().invoke(cli, ["check", str(manifest), "--snapshot", str(cluster), "-o", "json"])
        assert result.exit_code in (0, 1) and json.loads(result.output)["gaps"][0]["blocksVerdicts"] is False
