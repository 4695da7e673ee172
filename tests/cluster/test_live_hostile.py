"""Live reads against hostile servers stay bounded in time and size and end in a gap or one clear error, never a hang
or an internal error. Every server here is the local fake (127.0.0.1), every delay a few seconds at most."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest
from fake_apiserver import FakeApiServer, Fault, serve, write_kubeconfig

from kubectl_wasdra.cluster import body
from kubectl_wasdra.cluster.live import LiveOptions, read_live
from kubectl_wasdra.cluster.live_auth import NOT_A_TERMINAL
from kubectl_wasdra.errors import ClusterReadError

TOKEN = "sekret-token-do-not-print"



def _options(tmp_path: Path, url: str, **extra: object) -> LiveOptions:
    kubeconfig = tmp_path / "kubeconfig"
    write_kubeconfig(str(kubeconfig), url, TOKEN)
    extra.setdefault("sleep", lambda _s: None)
    return LiveOptions(kubeconfig=str(kubeconfig), context="fake", page_size=3, **extra)  # type: ignore[arg-type]


def _read(tmp_path: Path, offline, faults: dict[str, Fault], **extra: object):
    server = FakeApiServer(objects=offline.objects, faults=faults)
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, **extra))
    return live, server


def test_silent_version_ends_after_the_request_timeout(tmp_path: Path, offline) -> None:
    with pytest.raises(ClusterReadError, match="server version"):
        _read(tmp_path, offline, {"/version": Fault(delay=3.0, times=9)}, request_timeout=0.3)


def test_slow_body_becomes_a_gap(tmp_path: Path, offline) -> None:
    live, _ = _read(tmp_path, offline, {"/api/v1/nodes": Fault(trickle=0.05, times=9)}, kinds=("Node", "Namespace"),
                    request_timeout=0.4)
    assert "did not arrive within 0.4s" in live.header.gaps["Node"]
    assert len(live.of_kind("Namespace")) == 2


def test_continue_token_that_never_changes_becomes_a_gap(tmp_path: Path, offline) -> None:
    live, server = _read(tmp_path, offline, {"/api/v1/nodes": Fault(stuck_continue=True, times=10_000)}, kinds=("Node",))
    assert "same continue token twice" in live.header.gaps["Node"]
    assert [path for _, path in server.requests].count("/api/v1/nodes") == 2


def test_connection_reset_mid_body_is_retried(tmp_path: Path, offline) -> None:
    live, _ = _read(tmp_path, offline, {"/api/v1/nodes": Fault(reset=True)}, kinds=("Node",))
    assert "Node" not in live.header.gaps and len(live.of_kind("Node")) == 10


def test_connection_reset_every_time_becomes_a_gap(tmp_path: Path, offline) -> None:
    live, _ = _read(tmp_path, offline, {"/api/v1/nodes": Fault(reset=True, times=99)}, kinds=("Node",), max_attempts=2)
    assert live.header.gaps["Node"].startswith("gave up after 2 attempts: timed out or connection lost")


def test_redirected_lists_are_gaps(tmp_path: Path, offline) -> None:
    live, _ = _read(tmp_path, offline, {"/api/v1/nodes": Fault(redirect="http://127.0.0.1:9/", times=99)}, kinds=("Node",))
    assert live.header.gaps["Node"].startswith("302")


def test_body_above_the_cap_is_a_gap(tmp_path: Path, offline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(body, "MAX_BODY_BYTES", 2000)
    live, _ = _read(tmp_path, offline, {}, kinds=("Node",))
    assert "cap of 2000 bytes" in live.header.gaps["Node"]


def test_whole_read_deadline_turns_the_rest_into_gaps(tmp_path: Path, offline) -> None:
    live, _ = _read(tmp_path, offline, {"/api/v1/nodes": Fault(delay=1.5)}, kinds=("Node", "Namespace"),
                    read_deadline=1.0, request_timeout=None)
    assert "--read-deadline" in live.header.gaps["Namespace"]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_connection_refused_in_kubectls_words_without_retries(tmp_path: Path) -> None:
    port = _closed_port()
    sleeps: list[float] = []
    with pytest.raises(ClusterReadError) as info:
        read_live(_options(tmp_path, f"http://127.0.0.1:{port}", sleep=sleeps.append))
    assert str(info.value).startswith(
        f"The connection to the server 127.0.0.1:{port} was refused - did you specify the right host or port?")
    assert sleeps == [] and TOKEN not in str(info.value)


def _exec_kubeconfig(tmp_path: Path, server: str, code: str, mode: str = "IfAvailable") -> str:
    import json

    config = {"apiVersion": "v1", "kind": "Config", "current-context": "c",
              "clusters": [{"name": "k", "cluster": {"server": server, "insecure-skip-tls-verify": True}}],
              "users": [{"name": "u", "user": {"exec": {
                  "apiVersion": "client.authentication.k8s.io/v1", "command": sys.executable, "args": ["-c", code],
                  "interactiveMode": mode}}}],
              "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}]}
    path = tmp_path / "exec-kubeconfig"
    path.write_text(json.dumps(config))
    return str(path)


def test_exec_plugin_that_never_returns_is_stopped(tmp_path: Path) -> None:
    config = _exec_kubeconfig(tmp_path, f"https://127.0.0.1:{_closed_port()}", "import time; time.sleep(30)")
    with pytest.raises(ClusterReadError, match=r"did not return within 0\.5s"):
        read_live(LiveOptions(kubeconfig=config, request_timeout=0.5))


def test_exec_plugin_printing_without_end_is_stopped_at_the_cap(tmp_path: Path) -> None:
    """2 GB on stdout took 60 s and 5.8 GB: the plugin is stopped past 1 MiB, in well under its timeout."""
    script = "import sys\nwhile True: sys.stdout.write('x' * 65536)"
    config = _exec_kubeconfig(tmp_path, f"https://127.0.0.1:{_closed_port()}", script)
    with pytest.raises(ClusterReadError, match=r"printed more than 1024 KiB: stopped"):
        read_live(LiveOptions(kubeconfig=config, request_timeout=20))


def test_interactive_exec_plugin_without_a_terminal_is_refused(tmp_path: Path) -> None:
    config = _exec_kubeconfig(tmp_path, f"https://127.0.0.1:{_closed_port()}", "print('{}')", mode="Always")
    with pytest.raises(ClusterReadError, match=NOT_A_TERMINAL):
        read_live(LiveOptions(kubeconfig=config))


def test_no_credentials_and_no_exec_plugin_over_plain_http(tmp_path: Path, offline) -> None:
    marker = tmp_path / "plugin-ran"
    server = FakeApiServer(objects=offline.objects, headers=[])
    with serve(server) as url:
        config = _exec_kubeconfig(tmp_path, url, f"open({str(marker)!r}, 'w'); print('{{}}')")
        live = read_live(LiveOptions(kubeconfig=config, kinds=("Node",)))
        token_live = read_live(_options(tmp_path, url, kinds=("Node",)))
    assert not marker.exists(), "the exec plugin must not run for a plain http:// server"
    assert "plain http://" in live.header.gaps["credentials"] and "plain http://" in token_live.header.gaps["credentials"]
    assert "authorization" not in server.headers


@pytest.mark.parametrize("content", [
    "root:x:0:0:root:/root:/bin/bash\n",  # /etc/passwd: TypeError in the client library before
    "a: " + "[" * 100_000 + "]" * 100_000 + "\n",  # RecursionError before
    "apiVersion: v1\nkind: Config\nusers: !!python/object/apply:os.system [\"touch pwned\"]\n",  # never executed
], ids=["passwd", "deep", "python-tag"])
def test_a_file_that_is_no_kubeconfig_is_refused_by_name(content: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_wasdra.errors import UsageError

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "kubeconfig"
    path.write_text(content)
    with pytest.raises(UsageError, match="not a kubeconfig") as caught:
        read_live(LiveOptions(kubeconfig=str(path)))
    assert str(path) in str(caught.value) and not (tmp_path / "pwned").exists()
