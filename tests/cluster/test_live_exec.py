"""Exec credential plugins and TLS against an https fake API server: the cluster info kubectl sends, a failing plugin's
own words on one line, one plugin run per command, one-line TLS errors, at most one InsecureRequestWarning."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fake_apiserver import FakeApiServer, serve

from kubectl_wasdra.cluster.live import LiveOptions, read_live
from kubectl_wasdra.errors import ClusterReadError

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = """\
import json, os, sys
with open({log!r}, "a") as log:
    log.write(os.environ["KUBERNETES_EXEC_INFO"] + "\\n")
{body}
"""
PRINT_TOKEN = ('print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", '
               '"status": {"token": "exec-token"}}))')
EXTENSION = {"audience": "wasdra-test", "nested": {"list": [1, 2]}}


def _kubeconfig(tmp_path: Path, url: str, tls_files: dict[str, str], body: str = PRINT_TOKEN, *,
                ca: bool = True, insecure: bool = False) -> tuple[str, Path]:
    log = tmp_path / "plugin-runs.log"
    cluster: dict = {"server": url, "extensions": [
        {"name": "client.authentication.k8s.io/exec", "extension": EXTENSION},
        {"name": "other.example.com/ext", "extension": {"ignored": True}}]}
    if ca:
        cluster["certificate-authority"] = tls_files["ca"]
    if insecure:
        cluster["insecure-skip-tls-verify"] = True
    config = {"apiVersion": "v1", "kind": "Config", "current-context": "c",
              "clusters": [{"name": "k", "cluster": cluster}],
              "users": [{"name": "u", "user": {"exec": {
                  "apiVersion": "client.authentication.k8s.io/v1", "command": sys.executable,
                  "args": ["-c", PLUGIN.format(log=str(log), body=body)], "provideClusterInfo": True,
                  "interactiveMode": "Never"}}}],
              "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u", "namespace": "default"}}]}
    path = tmp_path / "kubeconfig"
    path.write_text(json.dumps(config))
    return str(path), log


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kubectl_wasdra", *args], capture_output=True, text=True, cwd=ROOT,
                          check=False, timeout=120)


def test_exec_plugin_gets_the_cluster_info_kubectl_sends(tmp_path: Path, tls_files) -> None:
    server = FakeApiServer(objects={})
    with serve(server, tls=(tls_files["cert"], tls_files["key"])) as url:
        config, log = _kubeconfig(tmp_path, url, tls_files)
        snapshot = read_live(LiveOptions(kubeconfig=config, kinds=("Node",)))
    (info,) = [json.loads(line) for line in log.read_text().splitlines()]
    ca = base64.b64encode(Path(tls_files["ca"]).read_bytes()).decode()
    assert info["spec"]["cluster"] == {"server": url, "certificate-authority-data": ca, "config": EXTENSION}
    assert info["spec"]["interactive"] is False
    assert "credentials" not in snapshot.header.gaps and "authorization" in server.headers


def test_a_failing_plugin_says_why_on_one_line(tmp_path: Path, tls_files) -> None:
    body = "sys.stderr.write(\"error: token expired, run 'login'\\n\"); sys.exit(3)"
    server = FakeApiServer(objects={})
    with serve(server, tls=(tls_files["cert"], tls_files["key"])) as url:
        config, _ = _kubeconfig(tmp_path, url, tls_files, body)
        with pytest.raises(ClusterReadError) as info:
            read_live(LiveOptions(kubeconfig=config, kinds=("Node",)))
        done = _cli("snapshot", "--kubeconfig", config)
    assert "exec: executable" in str(info.value)
    assert "failed with exit code 3: error: token expired, run 'login'" in str(info.value)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "token expired, run 'login'" in done.stderr and "ERROR:root" not in done.stderr
    assert server.requests == [], "no request without credentials"


@pytest.mark.parametrize("body", [
    'print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {}}))',
], ids=["no-token"])
def test_a_plugin_that_prints_no_credential_is_a_failure(tmp_path: Path, tls_files, body: str) -> None:
    server = FakeApiServer(objects={})
    with serve(server, tls=(tls_files["cert"], tls_files["key"])) as url:
        config, _ = _kubeconfig(tmp_path, url, tls_files, body)
        done = _cli("snapshot", "--kubeconfig", config)
    assert done.returncode == 2 and "neither a token nor clientCertificateData" in done.stderr
    assert "ERROR:root" not in done.stderr


def test_the_plugin_runs_once_per_command(tmp_path: Path, tls_files) -> None:
    manifest = ROOT / "fixtures" / "lint" / "VALID013" / "good-podgroup-136.yaml"
    server = FakeApiServer(objects={}, version="v1.36.2")
    with serve(server, tls=(tls_files["cert"], tls_files["key"])) as url:
        config, log = _kubeconfig(tmp_path, url, tls_files)
        explained = _cli("explain", "-f", str(manifest), "--live", "--kubeconfig", config, "--k8s-version", "auto",
                         "--no-suggestions", "--fail-on", "never")
        runs_explain = len(log.read_text().splitlines())
        checked = _cli("check", str(manifest), "--live", "--kubeconfig", config, "--k8s-version", "auto")
    assert explained.returncode == 0, explained.stderr
    assert checked.returncode in (0, 1), checked.stderr
    assert runs_explain == 1, "explain --live --k8s-version auto: the plugin runs once"
    assert len(log.read_text().splitlines()) == 2, "and once for check"


def test_a_tls_error_is_one_line(tmp_path: Path, tls_files) -> None:
    server = FakeApiServer(objects={})
    with serve(server, tls=(tls_files["cert"], tls_files["key"])) as url:
        config, _ = _kubeconfig(tmp_path, url, tls_files, ca=False)
        done = _cli("snapshot", "--kubeconfig", config)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "certificate verify failed" in done.stderr, done.stderr


def test_insecure_skip_tls_verify_warns_at_most_once(tmp_path: Path, tls_files) -> None:
    from fake_apiserver import RESOURCES

    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1"}}}
    server = FakeApiServer(objects={"Node": [node]}, resources=dict(RESOURCES))
    with serve(server, tls=(tls_files["cert"], tls_files["key"])) as url:
        config, _ = _kubeconfig(tmp_path, url, tls_files, ca=False, insecure=True)
        done = _cli("snapshot", "--kubeconfig", config, "-o", "json")
    assert done.returncode == 0, done.stderr
    assert len(server.requests) > 10, "many requests, each of which urllib3 warns about"
    assert done.stderr.count("InsecureRequestWarning") <= 1, done.stderr
