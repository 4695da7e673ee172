"""The API server's feature gates: /metrics parsing, the snapshot header, FIT006 on a live cluster, `--k8s-version auto`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_apiserver import FakeApiServer, serve, write_kubeconfig

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cli import cli
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.header import server_release
from kubectl_wasdra.cluster.metrics import parse_feature_gates
from kubectl_wasdra.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "fixtures" / "lint" / "FIT006" / "bad.yaml"
METRICS = """\
# HELP apiserver_request_total [STABLE] Counter of apiserver requests
apiserver_request_total{code="200",verb="LIST"} 12
# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.
# TYPE kubernetes_feature_enabled gauge
kubernetes_feature_enabled{name="DRAConsumableCapacity",stage="BETA"} 0
kubernetes_feature_enabled{name="DRADeviceTaints",stage="BETA"} 1
kubernetes_feature_enabled{stage="",name="DynamicResourceAllocation"} 1
not_kubernetes_feature_enabled{name="Decoy",stage="ALPHA"} 1
kubernetes_feature_enabled{name="Broken",stage="ALPHA"} x
"""


def test_metrics_parse_only_the_gate_gauge() -> None:
    assert parse_feature_gates(METRICS) == {"DRAConsumableCapacity": False, "DRADeviceTaints": True,
                                            "DynamicResourceAllocation": True}
    assert parse_feature_gates("kubernetes_feature_enabled{name=\"A\"} 1") == {"A": True}
    assert parse_feature_gates("") == {}


@pytest.mark.parametrize(("version", "expected"), [
    ("v1.36.2-eks-f69f56f", Release(1, 36)), ("v1.33.0", Release(1, 33)), ("v1.37.1", NEWEST), ("", None), (None, None),
], ids=["vendor-suffix", "oldest", "newest", "empty", "missing"])
def test_server_release(version: str | None, expected: Release | None) -> None:
    assert server_release(version) == expected


@pytest.mark.parametrize(("version", "hint"), [("v1.30.4", "1.33"), ("v1.41.0", "1.37")], ids=["older", "newer"])
def test_server_release_outside_the_supported_ones_is_refused(version: str, hint: str) -> None:
    """Not simulated as another release: a clear refusal naming the server's release and the flag to choose one."""
    with pytest.raises(UsageError, match=rf"runs Kubernetes {version[1:5]} \({version}\), which this tool does not "
                                         rf"model .*--k8s-version {hint}"):
        server_release(version)


def _kubeconfig(tmp_path: Path, url: str) -> str:
    path = tmp_path / "kubeconfig"
    write_kubeconfig(str(path), url, "token")
    return str(path)


def test_snapshot_records_gates_and_check_auto_uses_them(tmp_path: Path) -> None:
    """`snapshot --live` writes the gates into the header; `check --live` targets the server's release and gates and
    reports the field whose gate the server runs with off as the release would (GATE001), saying where the gates came
    from; a --feature-gates that turns it on again leaves FIT006 (the flag says on, the server off)."""
    server = FakeApiServer(objects={}, metrics=METRICS, version="v1.36.3")
    out = tmp_path / "cluster.json"
    with serve(server) as url:
        kubeconfig = _kubeconfig(tmp_path, url)
        written = CliRunner().invoke(cli, ["snapshot", "--live", "--kubeconfig", kubeconfig, "--context", "fake",
                                           "--output-file", str(out)], standalone_mode=False)
        checked = CliRunner().invoke(cli, ["check", str(BAD), "--live", "--kubeconfig", kubeconfig, "--context", "fake",
                                           "--k8s-version", "auto", "-o", "json", "--select", "FIT006,GATE"],
                                     standalone_mode=False)
        overridden = CliRunner().invoke(cli, ["check", str(BAD), "--live", "--kubeconfig", kubeconfig, "--context",
                                              "fake", "--feature-gates", "DRAConsumableCapacity=true", "-o", "json",
                                              "--select", "FIT006,GATE"], standalone_mode=False)
    assert written.exception is None, written.output
    assert "feature gates" not in written.output, "a readable /metrics is no gap"
    header = json.loads(out.read_text())["items"][0]
    assert header["featureGates"] == {"DRAConsumableCapacity": False, "DRADeviceTaints": True,
                                      "DynamicResourceAllocation": True}
    again, problems = load_snapshot([str(out)])
    assert problems == () and again.header.feature_gates["DRAConsumableCapacity"] is False
    assert checked.exception is None, checked.output
    report = json.loads(checked.output)
    assert report["k8sVersion"] == "1.36", "auto = the server's release"
    found = sorted((f["rule"], f["line"]) for f in report["findings"])
    assert found == [("GATE001", 16), ("GATE001", 21)], found
    assert "feature gates: the API server's /metrics (3 gates; against the 1.36 defaults: DRAConsumableCapacity=false" \
        in "\n".join(report["cluster"]), report["cluster"]
    assert overridden.exception is None, overridden.output
    again = json.loads(overridden.output)
    assert again["k8sVersion"] == "1.36", "the default --k8s-version gives way to the server's release"
    assert sorted((f["rule"], f["line"]) for f in again["findings"]) == [("FIT006", 16), ("FIT006", 21)]
    assert any("--feature-gates sets DRAConsumableCapacity=true (over the server's DRAConsumableCapacity)" in note
               for note in again["cluster"]), again["cluster"]
    assert {method for method, _ in server.requests} == {"GET"}


def test_header_gates_survive_merge_and_anonymize(tmp_path: Path) -> None:
    from kubectl_wasdra.cluster.anonymize import anonymize

    snapshot, problems = load_snapshot([str(ROOT / "fixtures" / "lint" / "FIT006" / "cluster"),
                                        str(ROOT / "fixtures" / "clusters" / "dra-basic")])
    assert problems == ()
    assert snapshot.header.feature_gates["DRAConsumableCapacity"] is False
    assert anonymize(snapshot).header.feature_gates == snapshot.header.feature_gates


def test_malformed_gate_value_is_reported_and_ignored(tmp_path: Path) -> None:
    path = tmp_path / "h.yaml"
    path.write_text("apiVersion: kubectl-wasdra.io/v1\nkind: WasdraSnapshotHeader\nmetadata: {name: snapshot}\n"
                    "featureGates: {A: true, B: 'yes'}\n")
    snapshot, problems = load_snapshot([str(path)])
    assert dict(snapshot.header.feature_gates) == {"A": True}
    assert len(problems) == 1 and "featureGates[B] must be true or false" in problems[0].message
