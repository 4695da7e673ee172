"""With --live (or a snapshot with a header) the release, served group/versions and gates are the server's unless a
flag overrides them, and the output says which came from where (cluster/target.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run
from fake_apiserver import RESOURCES, FakeApiServer, serve, write_kubeconfig

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cluster.snapshot import SnapshotHeader
from kubectl_wasdra.cluster.target import resolve_target
from kubectl_wasdra.errors import UsageError

# what a 1.36 kube-apiserver started with --runtime-config scheduling.k8s.io/v1alpha2=true serves
V1ALPHA2 = {("scheduling.k8s.io", "v1alpha2"): [("podgroups", "PodGroup", True), ("workloads", "Workload", True)]}
METRICS = ('kubernetes_feature_enabled{name="GenericWorkload",stage="ALPHA"} 1\n'
           'kubernetes_feature_enabled{name="DRAConsumableCapacity",stage="BETA"} 1\n'
           'kubernetes_feature_enabled{name="SomeGateThisToolDoesNotKnow",stage="ALPHA"} 1\n')
GANG = """\
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: train, namespace: default}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
"""
POD = """\
---
apiVersion: v1
kind: Pod
metadata: {name: train-%d, namespace: default}
spec:
  schedulingGroup: {podGroupName: train}
  containers:
  - name: c
    image: x
    resources: {requests: {cpu: 100m}}
"""
NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a", "labels": {"kubernetes.io/hostname": "node-a"}},
        "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}
NAMESPACE = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}}


@pytest.fixture
def manifest(tmp_path: Path) -> str:
    path = tmp_path / "gang.yaml"
    path.write_text(GANG + POD % 0 + POD % 1)
    return str(path)


def _server(version: str = "v1.36.2", metrics: str | None = METRICS) -> FakeApiServer:
    return FakeApiServer(objects={"Node": [NODE], "Namespace": [NAMESPACE]}, version=version, metrics=metrics,
                         resources={**RESOURCES, **V1ALPHA2})


def _live(tmp_path: Path, url: str) -> list[str]:
    kubeconfig = tmp_path / "kubeconfig"
    write_kubeconfig(str(kubeconfig), url, "t")
    return ["--live", "--kubeconfig", str(kubeconfig), "--context", "fake"]


def test_explain_live_takes_the_servers_release_apis_and_gates(tmp_path, manifest, capsys) -> None:
    """The issue's case: a 1.36.2 server serving scheduling.k8s.io/v1alpha2 with GenericWorkload on. No flag: the
    PodGroup is admitted and scheduled as a gang (not APINotServed, not 1.37), and the notes say where it all came from."""
    server = _server()
    with serve(server) as url:
        code, out, err = run(["explain", "-f", manifest, *_live(tmp_path, url), "-o", "json", "--no-suggestions"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["k8sVersion"] == "1.36"
    (group,) = report["groups"]
    assert (group["kind"], group["fits"], group["reasons"]) == ("PodGroup", True, []), group
    notes = "\n".join(report["notes"])
    assert "Kubernetes 1.36: the server's version (v1.36.2)" in notes
    assert "API versions: the server's discovery (on: scheduling.k8s.io/v1alpha2" in notes
    assert "feature gates: the API server's /metrics (3 gates; against the 1.36 defaults: GenericWorkload=true)" in notes


def test_check_live_has_no_api_or_gate_findings_for_what_the_server_accepts(tmp_path, manifest, capsys) -> None:
    server = _server()
    with serve(server) as url:
        code, out, err = run(["check", manifest, *_live(tmp_path, url), "-o", "json", "--no-simulate"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["k8sVersion"] == "1.36"
    assert [f["rule"] for f in report["findings"] if f["rule"].startswith(("API", "GATE"))] == [], report["findings"]
    assert any(note.startswith("Kubernetes 1.36: the server's version") for note in report["cluster"])
    with serve(server) as url:
        _code, text, _err = run(["check", manifest, *_live(tmp_path, url), "--no-simulate"], capsys)
    assert text.startswith("cluster: Kubernetes 1.36: the server's version (v1.36.2)\n"), text


def test_without_metrics_the_gates_served_apis_need_are_on(tmp_path, manifest, capsys) -> None:
    """/metrics forbidden (most users): the gate GenericWorkload is inferred from the served scheduling.k8s.io/v1alpha2,
    and the note says both why /metrics is missing and what was inferred."""
    server = _server(metrics=None)
    with serve(server) as url:
        _code, out, _err = run(["check", manifest, *_live(tmp_path, url), "-o", "json", "--no-simulate"], capsys)
    report = json.loads(out)
    assert [f["rule"] for f in report["findings"] if f["rule"].startswith(("API", "GATE"))] == []
    (note,) = [n for n in report["cluster"] if n.startswith("feature gates")]
    assert note.startswith("feature gates: Kubernetes 1.36 defaults (the server's /metrics: 403 Forbidden")
    assert note.endswith("on because the server serves what needs them: GenericWorkload")


def test_a_typed_release_overrides_the_server_and_says_so(tmp_path, manifest, capsys) -> None:
    server = _server()
    with serve(server) as url:
        _code, out, _err = run(["explain", "-f", manifest, *_live(tmp_path, url), "--k8s-version", "1.37", "-o", "json",
                              "--no-suggestions"], capsys)
    report = json.loads(out)
    assert report["k8sVersion"] == "1.37"
    (group,) = [g for g in report["groups"] if g["kind"] == "PodGroup"]
    assert group["reasons"][0]["code"] == "APINotServed", "1.37 serves no v1alpha2: a what-if"
    assert any("Kubernetes 1.37: from --k8s-version (the server runs v1.36.2; its feature gates and served API versions "
               "are not applied" in note for note in report["notes"])


@pytest.mark.parametrize("version", ["v1.38.0", "v1.32.9"])
def test_a_server_outside_the_supported_releases_is_refused(tmp_path, manifest, capsys, version) -> None:
    server = _server(version=version)
    with serve(server) as url:
        code, out, err = run(["explain", "-f", manifest, *_live(tmp_path, url)], capsys)
        typed, _, _ = run(["explain", "-f", manifest, *_live(tmp_path, url), "--k8s-version", "1.36", "-o", "json"],
                          capsys)
    assert code == 2 and out == ""
    assert f"the cluster runs Kubernetes {version[1:5]} ({version}), which this tool does not model" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert typed in (0, 1), "an explicit --k8s-version judges it as that release (a verdict, not exit 2)"


def test_a_snapshot_with_a_header_decides_like_the_live_read(tmp_path, manifest, capsys) -> None:
    server = _server()
    out_file = tmp_path / "cluster.json"
    with serve(server) as url:
        code, _, err = run(["snapshot", *_live(tmp_path, url), "--output-file", str(out_file)], capsys)
        _, live, _ = run(["explain", "-f", manifest, *_live(tmp_path, url), "-o", "json", "--no-suggestions"], capsys)
    assert code == 0, err
    _, offline, _ = run(["explain", "-f", manifest, "--snapshot", str(out_file), "-o", "json", "--no-suggestions"], capsys)
    assert json.loads(offline) == json.loads(live)


def test_flags_override_gate_by_gate_and_key_by_key() -> None:
    header = SnapshotHeader(server_version="v1.36.2", served=("v1", "scheduling.k8s.io/v1alpha2"),
                            feature_gates={"GenericWorkload": True, "DRAConsumableCapacity": False})
    target = resolve_target(header, Release(1, 37), release_given=False, feature_gates={"GenericWorkload": False},
                            runtime_config={"scheduling.k8s.io/v1alpha2": False})
    assert target.release == Release(1, 36)
    assert target.feature_gates["GenericWorkload"] is False and target.feature_gates["DRAConsumableCapacity"] is False
    assert target.runtime_config["scheduling.k8s.io/v1alpha2"] is False
    assert "--feature-gates sets GenericWorkload=false (over the server's GenericWorkload)" in target.notes
    plain = resolve_target(SnapshotHeader(), Release(1, 37), release_given=False)
    assert (plain.release, plain.notes) == (Release(1, 37), ()), "a snapshot without a header: the default, silently"
    with pytest.raises(UsageError, match=r"1\.39"):
        resolve_target(SnapshotHeader(server_version="v1.39.0"), Release(1, 37), release_given=False)
