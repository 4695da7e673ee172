"""The explain and explain-pending commands end to end: exit codes, JSON output, usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_wasdra.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DEMO = str(ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml")
CLUSTER = str(ROOT / "fixtures" / "clusters" / "two-racks")
ON = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
      "--runtime-config", "scheduling.k8s.io/v1beta1=true"]


def _invoke(*args):
    return CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)


def test_gang_that_does_not_fit_exits_1_with_json():
    result = _invoke("explain", "-f", DEMO, "--snapshot", CLUSTER, *ON, "-o", "json", "--no-suggestions")
    assert result.return_value == 1
    data = json.loads(result.output)
    assert data["groups"][0]["fits"] is False


def test_without_the_gates_the_pods_run_one_by_one_and_the_group_is_rejected():
    result = _invoke("explain", "-f", DEMO, "--snapshot", CLUSTER, "-o", "json", "--no-suggestions")
    groups = {(g["kind"], g["name"]): g for g in json.loads(result.output)["groups"]}
    assert groups[("PodGroup", "train")]["reasons"][0]["code"] == "APINotServed"
    assert all(groups[("Pod", f"train-{i}")]["fits"] for i in range(6))


def test_fitting_manifest_exits_0(tmp_path):
    manifest = tmp_path / "small.yaml"
    manifest.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: small, namespace: default}\n"
                        "spec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]}\n")
    result = _invoke("explain", "-f", str(manifest), "--snapshot", CLUSTER)
    assert result.return_value == 0
    assert "Pod default/small — fits" in result.output


@pytest.mark.parametrize("args", [("explain", "-f", DEMO),
                                  ("explain", "-f", DEMO, "--snapshot", CLUSTER, "--k8s-version", "1.36,1.37"),
                                  ("explain-pending", "bogus", "--snapshot", CLUSTER)])
def test_usage_errors(args):
    from kubectl_wasdra.errors import UsageError

    with pytest.raises(UsageError):
        _invoke(*args)


def test_explain_pending_shows_the_cluster_record():
    result = _invoke("explain-pending", "pod/pending-8gpu", "-n", "ml", "--snapshot", CLUSTER, "-o", "json")
    (group,) = json.loads(result.output)["groups"]
    assert group["recorded"][0]["source"] == "condition PodScheduled"
    assert group["agree"]["verdict"] in ("yes", "no")


def test_bad_manifest_gets_the_verdict_check_gives_and_the_run_goes_on(tmp_path):
    """One quantity verdict in check and explain: a request that is not a quantity is VALID010 in both (explain
    shows the pod as rejected by the API server, with the rule and its position), and the other pods are explained."""
    manifest = tmp_path / "bad.yaml"
    manifest.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: bad, namespace: default}\nspec:\n  containers:\n"
                        "  - {name: c, image: x, resources: {requests: {cpu: lots}}}\n---\n"
                        "apiVersion: v1\nkind: Pod\nmetadata: {name: worse}\nspec:\n  containers:\n"
                        "  - {name: c, image: x, resources: {requests: {cpu: .inf}}}\n---\n"
                        "apiVersion: v1\nkind: Pod\nmetadata: {name: small, namespace: default}\n"
                        "spec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]}\n")
    result = _invoke("explain", "-f", str(manifest), "--snapshot", CLUSTER)
    assert result.return_value == 1
    assert "Pod default/bad — invalid: the API server rejects it" in result.output
    assert f'"lots" is not a quantity (expected e.g. "100m", "2", "8Gi", "1e3") (VALID010 at {manifest}:6:53)' \
        in result.output
    assert "Pod default/worse — invalid: the API server rejects it" in result.output  # admitted.py: VALID rejects .inf
    assert "Pod default/small — fits" in result.output
    checked = _invoke("check", str(manifest), "-o", "json")
    assert ("VALID010", 6, 53) in {(f["rule"], f["line"], f["column"]) for f in json.loads(checked.output)["findings"]}


def test_explain_pending_agrees_with_the_recorded_event():
    pending = str(ROOT / "fixtures" / "sched" / "pending")
    result = _invoke("explain-pending", "podgroup/train", "-n", "ml", "--snapshot", pending,
                     "--feature-gates", "GenericWorkload=true", "--runtime-config", "scheduling.k8s.io/v1beta1=true",
                     "-o", "json")
    assert result.return_value == 1
    (group,) = json.loads(result.output)["groups"]
    sources = [r["source"] for r in group["recorded"]]
    assert sources == ["condition PodGroupInitiallyScheduled", "condition PodScheduled", "event"]
    assert group["recorded"][2]["time"] == "2026-11-29T21:50:00Z"
    assert group["agree"]["verdict"] == "yes"
    assert group["reasons"][-1]["message"] == "Insufficient cpu" and group["reasons"][-1]["count"] == 2


HOSTILE = ('apiVersion: v1\nkind: Pod\nmetadata: {name: "p\\e[31mRED\\x9b2J", namespace: default}\n'
           "spec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]}\n")


@pytest.mark.parametrize("output", ["text", "json"])
def test_control_characters_in_names_are_escaped(tmp_path, output):
    manifest = tmp_path / "red.yaml"
    manifest.write_text(HOSTILE)
    result = _invoke("explain", "-f", str(manifest), "--snapshot", CLUSTER, "-o", output)
    assert "\x1b" not in result.output and "\x9b" not in result.output
    if output == "text":
        # the name is not a DNS subdomain, so the API server rejects the Pod (explain says so, like check's VALID004)
        assert "Pod default/p\\x1b[31mRED\\x9b2J — invalid: the API server rejects it" in result.output
    else:
        assert json.loads(result.output)["groups"][0]["name"] == "p\x1b[31mRED\x9b2J"


def _cluster_with_header(tmp_path, server_version):
    import shutil

    cluster = tmp_path / "cluster"
    shutil.copytree(CLUSTER, cluster)
    if server_version:
        (cluster / "header.yaml").write_text("apiVersion: kubectl-wasdra.io/v1\nkind: WasdraSnapshotHeader\n"
                                             f"metadata: {{name: snapshot}}\nserverVersion: {server_version}\n")
    return str(cluster)


def test_auto_version_uses_the_snapshot_header(tmp_path):
    cluster = _cluster_with_header(tmp_path, "v1.35.2")
    result = _invoke("explain", "-f", DEMO, "--snapshot", cluster, "--k8s-version", "auto", "-o", "json", "--no-suggestions")
    assert json.loads(result.output)["k8sVersion"] == "1.35"
    result = _invoke("explain-pending", "--snapshot", cluster, "-A", "--k8s-version", "auto", "-o", "json")
    assert json.loads(result.output)["k8sVersion"] == "1.35"


def test_auto_version_without_a_header_says_what_it_assumed(tmp_path):
    cluster = _cluster_with_header(tmp_path, None)
    result = _invoke("explain", "-f", DEMO, "--snapshot", cluster, "--k8s-version", "auto", "--no-suggestions")
    assert result.output.splitlines()[0].startswith("--k8s-version auto: the snapshot records no server version, so "
                                                    "Kubernetes 1.37 is assumed")
    result = _invoke("explain", "-f", DEMO, "--snapshot", cluster, "--no-suggestions")
    assert "assumed" not in result.output


def test_job_parallelism_is_capped_with_a_note(tmp_path, monkeypatch):
    """A Job with parallelism 2147483647 is not expanded until memory runs out: the cap and how to raise it are named."""
    monkeypatch.setenv("WASDRA_MAX_JOB_PODS", "3")
    manifest = tmp_path / "job.yaml"
    manifest.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: big, namespace: default}\nspec:\n"
                        "  parallelism: 2147483647\n  template:\n    spec:\n      restartPolicy: Never\n"
                        "      containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]\n")
    result = _invoke("explain", "-f", str(manifest), "--snapshot", CLUSTER, "-o", "json", "--no-suggestions")
    groups = json.loads(result.output)["groups"]
    assert sorted(g["name"] for g in groups) == ["big-0", "big-1", "big-2"]
    text = _invoke("explain", "-f", str(manifest), "--snapshot", CLUSTER, "--no-suggestions").output
    assert "parallelism 2147483647 is above the cap of 3 pods per Job" in text and "WASDRA_MAX_JOB_PODS" in text
