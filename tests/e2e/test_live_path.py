"""The live commands against a real kube-apiserver (1.36, see tests/e2e/conftest.py): what they read and how, as the
server's own audit log records it, and how they behave with partial permissions, merged kubeconfigs, exec plugins,
client certificates and priority-and-fairness 429s."""

from __future__ import annotations

import base64
import json
import os
import socket
import sys
import threading
import time
import urllib.error
from collections import Counter
from pathlib import Path

from conftest import ROOT, wasdra, wasdra_json

LIST_PATHS = {
    "Node": "/api/v1/nodes", "Pod": "/api/v1/pods", "Namespace": "/api/v1/namespaces",
    "PriorityClass": "/apis/scheduling.k8s.io/v1/priorityclasses",
    "DeviceClass": "/apis/resource.k8s.io/v1/deviceclasses", "ResourceSlice": "/apis/resource.k8s.io/v1/resourceslices",
    "ResourceClaim": "/apis/resource.k8s.io/v1/resourceclaims",
    "ResourceClaimTemplate": "/apis/resource.k8s.io/v1/resourceclaimtemplates",
    "PodGroup": "/apis/scheduling.k8s.io/v1alpha2/podgroups",
    "Event": "/api/v1/events?fieldSelector=reason%3DFailedScheduling",
}
GANG = str(ROOT / "tests" / "e2e" / "explain" / "gang-136.yaml")
MANIFESTS = ROOT / "tests" / "e2e" / "manifests"


def _ours(cluster, user: str | None = None) -> list[dict]:
    """Completed requests the tool made (its User-Agent), optionally of one user."""
    return [e for e in cluster.audit() if e.get("stage") == "ResponseComplete"
            and str(e.get("userAgent", "")).startswith("kubectl-wasdra/")
            and (user is None or e.get("user", {}).get("username") == user)]


def _snapshot(cluster, tmp_path: Path, kubeconfig: str, *extra: str, env: dict | None = None):
    out = tmp_path / "snapshot.json"
    done = wasdra("snapshot", "--kubeconfig", kubeconfig, "--output-file", str(out), *extra, env=env)
    items = json.loads(out.read_text())["items"] if out.exists() else []
    return done, items


def test_snapshot_reads_every_kind_in_pages_with_get_and_list_only(cluster, tmp_path: Path) -> None:
    done, items = _snapshot(cluster, tmp_path, cluster.kubeconfig("reader"))
    assert done.returncode == 0, done.stderr
    header, counts = items[0], Counter(item["kind"] for item in items[1:])
    for kind, path in LIST_PATHS.items():
        assert counts[kind] == cluster.list_count(path), kind
    assert counts["Pod"] > 500 and counts["PodGroup"] >= 1 and counts["Event"] == 2
    assert header["serverVersion"] == "v1.36.2" and header["featureGates"]["GenericWorkload"] is True
    assert "scheduling.k8s.io/v1alpha2" in header["served"] and not header["gaps"].get("Pod")
    ours = _ours(cluster, "reader")
    assert ours and {event["verb"] for event in ours} <= {"get", "list"}, Counter(e["verb"] for e in ours)
    assert not [e for e in ours if "/secrets" in e["requestURI"] or "/configmaps" in e["requestURI"]]
    pages = [e["requestURI"] for e in ours if e["requestURI"].startswith("/api/v1/pods?")]
    assert len(pages) >= 2 and any("continue=" in uri for uri in pages), pages


def test_claims_allocated_through_status_are_read_as_allocated(cluster, tmp_path: Path) -> None:
    """The four claims two-racks has allocated are read with their allocation, reserved for the live pods' UIDs."""
    _done, items = _snapshot(cluster, tmp_path, cluster.kubeconfig("reader"))
    allocated = {(c["metadata"]["namespace"], c["metadata"]["name"]): c["status"] for c in items
                 if c["kind"] == "ResourceClaim" and (c.get("status") or {}).get("allocation")}
    assert sorted(name for _, name in allocated) == ["busy-gpu-r0-n3", "busy-gpu-r1-n2", "busy-gpu-r1-n2-nic",
                                                     "infer-r1-n3"]
    pods = {(p["metadata"]["namespace"], p["metadata"]["name"]): p["metadata"].get("uid") for p in items
            if p["kind"] == "Pod"}
    for (namespace, _), status in allocated.items():
        for entry in status["reservedFor"]:
            assert entry["uid"] == pods[(namespace, entry["name"])], entry


def test_live_verdicts_equal_snapshot_verdicts(cluster, tmp_path: Path) -> None:
    reader = cluster.kubeconfig("reader")
    done, _ = _snapshot(cluster, tmp_path, reader)
    assert done.returncode == 0, done.stderr
    snapshot = str(tmp_path / "snapshot.json")
    live = wasdra("explain", "-f", GANG, "--live", "--kubeconfig", reader, "-o", "json")
    offline = wasdra("explain", "-f", GANG, "--snapshot", snapshot, "-o", "json")
    assert live.returncode == offline.returncode and live.stdout == offline.stdout, (live.stderr, offline.stderr)
    report = json.loads(live.stdout)
    assert report["k8sVersion"] == "1.36"
    assert any(note.startswith("Kubernetes 1.36: the server's version (v1.36.2)") for note in report["notes"])
    (group,) = [g for g in report["groups"] if g["kind"] == "PodGroup"]
    assert all(r["code"] != "APINotServed" for r in group["reasons"]), group
    code_live, pending_live = wasdra_json("explain-pending", "-A", "--live", "--kubeconfig", reader)
    code_snap, pending_snap = wasdra_json("explain-pending", "-A", "--snapshot", snapshot)
    assert code_live == code_snap == 1

    def verdicts(report: dict) -> list[tuple]:
        return [(g["kind"], g["namespace"], g["name"], g["fits"], [r["code"] for r in g["reasons"]],
                 [r["message"] for r in g.get("recorded", ())]) for g in report["groups"]]

    assert verdicts(pending_live) == verdicts(pending_snap)
    (gang,) = [g for g in pending_live["groups"] if g["name"] == "gang"]
    assert gang["fits"] is False and len(gang["recorded"]) >= 1, "the FailedScheduling event about the PodGroup"


def test_forbidden_nodes_are_a_gap_and_what_was_read_is_used(cluster) -> None:
    config = cluster.kubeconfig("no-nodes")
    code, report = wasdra_json("check", str(MANIFESTS / "resourceclaim-first-available.yaml"), "--live",
                               "--kubeconfig", config)
    assert code == 2, report
    assert [g["kind"] for g in report["gaps"] if g["blocksVerdicts"]] == ["Node"]
    assert "403" in next(g["reason"] for g in report["gaps"] if g["kind"] == "Node")
    assert [f for f in report["findings"] if f["rule"] in ("REF003", "REF010")] == [], "the DeviceClasses were read"
    code, explained = wasdra_json("explain", "-f", GANG, "--live", "--kubeconfig", config)
    assert code == 2 and all(g["fits"] is None for g in explained["groups"] if g["kind"] == "PodGroup"), explained


def test_without_metrics_the_served_api_says_which_gates_are_on(cluster) -> None:
    code, report = wasdra_json("check", str(MANIFESTS / "pod-scheduling-group.yaml"), "--live", "--kubeconfig",
                               cluster.kubeconfig("no-metrics"), "--no-simulate")
    assert code in (0, 1), report
    (note,) = [n for n in report["cluster"] if n.startswith("feature gates")]
    assert "/metrics: 403 Forbidden" in note and note.endswith("GenericWorkload"), note
    assert [f["rule"] for f in report["findings"] if f["rule"].startswith(("API", "GATE"))] == []


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_merged_kubeconfig_uses_the_first_files_context(cluster, tmp_path: Path) -> None:
    first = cluster.kubeconfig("reader")
    second = tmp_path / "elsewhere.kubeconfig"
    second.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "elsewhere",
        "clusters": [{"name": "elsewhere", "cluster": {"server": f"https://127.0.0.1:{_closed_port()}"}}],
        "users": [{"name": "elsewhere", "user": {"token": "wrong"}}],
        "contexts": [{"name": "elsewhere", "context": {"cluster": "elsewhere", "user": "elsewhere"}}]}))
    done = wasdra("snapshot", "--output-file", str(tmp_path / "a.json"),
                  env={"KUBECONFIG": os.pathsep.join([first, str(second)])})
    assert done.returncode == 0, done.stderr
    other = wasdra("snapshot", "--output-file", str(tmp_path / "b.json"),
                   env={"KUBECONFIG": os.pathsep.join([str(second), first])})
    assert other.returncode == 2 and "was refused" in other.stderr, other.stderr


PLUGIN = """\
import json, os, sys, time
with open({log!r}, "a") as log:
    log.write(os.environ.get("KUBERNETES_EXEC_INFO", "") + "\\n")
mode = {mode!r}
if mode == "fail":
    sys.stderr.write("error: the session expired, run 'e2e-login'\\n")
    sys.exit(3)
if mode == "hang":
    time.sleep(60)
print(json.dumps({{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
                  "status": {{"token": {token!r}}}}}))
"""
EXTENSION = {"audience": "e2e", "scopes": ["read"]}


def _exec_kubeconfig(cluster, tmp_path: Path, mode: str) -> tuple[str, Path]:
    log = tmp_path / f"{mode}.log"
    script = tmp_path / f"plugin-{mode}.py"
    script.write_text(PLUGIN.format(log=str(log), mode=mode, token="e2e-reader-token"))
    path = Path(cluster.kubeconfig(f"exec-{mode}", {"exec": {
        "apiVersion": "client.authentication.k8s.io/v1", "command": sys.executable, "args": [str(script)],
        "provideClusterInfo": True, "interactiveMode": "Never"}}))
    config = json.loads(path.read_text())
    config["clusters"][0]["cluster"]["extensions"] = [{"name": "client.authentication.k8s.io/exec",
                                                       "extension": EXTENSION}]
    path.write_text(json.dumps(config))
    return str(path), log


def test_exec_plugin_success_runs_once_with_the_cluster_info(cluster, tmp_path: Path) -> None:
    config, log = _exec_kubeconfig(cluster, tmp_path, "ok")
    done = wasdra("explain", "-f", GANG, "--live", "--kubeconfig", config, "--k8s-version", "auto", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    (info,) = [json.loads(line) for line in log.read_text().splitlines()]
    cluster_info = info["spec"]["cluster"]
    assert cluster_info["server"] == cluster.server.url and cluster_info["config"] == EXTENSION
    assert base64.b64decode(cluster_info["certificate-authority-data"]) == cluster.server.ca.read_bytes()


def test_exec_plugin_failure_shows_its_message(cluster, tmp_path: Path) -> None:
    config, _ = _exec_kubeconfig(cluster, tmp_path, "fail")
    done = wasdra("snapshot", "--kubeconfig", config, "-o", "json")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "the session expired, run 'e2e-login'" in done.stderr, done.stderr
    assert "ERROR:root" not in done.stderr


def test_exec_plugin_that_hangs_is_stopped(cluster, tmp_path: Path) -> None:
    config, _ = _exec_kubeconfig(cluster, tmp_path, "hang")
    done = wasdra("snapshot", "--kubeconfig", config, "--request-timeout", "2s", "-o", "json")
    assert done.returncode == 2 and "did not return within 2s" in done.stderr, done.stderr


def test_client_certificate_with_paths_relative_to_the_kubeconfig(cluster, tmp_path: Path) -> None:
    path = cluster.server.kubeconfig(cluster.server.folder / "cert.kubeconfig",
                                     {"client-certificate": "client.crt", "client-key": "client.key"})
    done, _items = _snapshot(cluster, tmp_path, str(path))
    assert done.returncode == 0, done.stderr
    assert _ours(cluster, "cert-reader"), "the requests came as the certificate's user"


def _flood(cluster, stop: threading.Event) -> None:
    """Keep the throttled user's single seat busy with unpaged pod lists."""
    while not stop.is_set():
        try:
            cluster.server.request("GET", "/api/v1/pods", token="e2e-throttled-token", raw=True)
        except (urllib.error.URLError, OSError):
            time.sleep(0.02)


def _stop_after_first_429(cluster, stop: threading.Event, deadline: float) -> None:
    """End the flood once the tool has met a 429 (the audit log is written as requests complete), so that the retry
    it then makes gets through."""
    while not stop.is_set() and time.monotonic() < deadline:
        if any(e.get("responseStatus", {}).get("code") == 429 for e in _ours(cluster, "throttled")):
            break
        time.sleep(0.5)
    stop.set()


def test_priority_and_fairness_429s_are_honoured(cluster, tmp_path: Path) -> None:
    """A real priority level of one seat, kept busy by the same user: the tool's requests get 429 from priority and
    fairness, it waits as told and retries, and the read completes."""
    stop = threading.Event()
    threads = [threading.Thread(target=_flood, args=(cluster, stop), daemon=True) for _ in range(4)]
    threads.append(threading.Thread(target=_stop_after_first_429, args=(cluster, stop, time.monotonic() + 90),
                                    daemon=True))
    for thread in threads:
        thread.start()
    try:
        done, items = _snapshot(cluster, tmp_path, cluster.kubeconfig("throttled"), "--read-deadline", "150s")
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    ours = _ours(cluster, "throttled")
    rejected = [e for e in ours if e.get("responseStatus", {}).get("code") == 429]
    assert rejected, "priority and fairness rejected one of the tool's requests"
    retried = {e["requestURI"] for e in ours if e.get("responseStatus", {}).get("code") == 200}
    assert any(e["requestURI"] in retried for e in rejected), "the rejected request was made again and answered"
    assert done.returncode == 0, done.stderr
    assert Counter(item["kind"] for item in items)["Pod"] == cluster.list_count("/api/v1/pods")
