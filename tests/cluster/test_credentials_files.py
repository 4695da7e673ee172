"""Client key material never reaches the disk: the kubernetes client library's temporary credential files are
anonymous in-memory files (cluster/memory_files.py), so nothing is left whatever signal stops a read (a closed
terminal's SIGHUP, SIGUSR1, SIGALRM, SIGTERM)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _key_pair(where: Path) -> tuple[bytes, bytes]:
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(where / "k.pem"), "-out",
                    str(where / "c.pem"), "-days", "1", "-subj", "/CN=test"], check=True, capture_output=True, timeout=60)
    return (where / "c.pem").read_bytes(), (where / "k.pem").read_bytes()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a key pair")
@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGUSR1, signal.SIGALRM, signal.SIGTERM],
                         ids=lambda n: signal.Signals(n).name)
def test_client_key_never_reaches_the_disk(number: int, tmp_path: Path) -> None:
    cert, key = _key_pair(tmp_path)
    temp = tmp_path / "temp"
    temp.mkdir()
    with socket.socket() as silent:  # accepts the connection and never answers the TLS handshake
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        silent.settimeout(30)
        config = {"apiVersion": "v1", "kind": "Config", "current-context": "c",
                  "clusters": [{"name": "k", "cluster": {"server": f"https://127.0.0.1:{silent.getsockname()[1]}",
                                                         "insecure-skip-tls-verify": True}}],
                  "users": [{"name": "u", "user": {"client-certificate-data": base64.b64encode(cert).decode(),
                                                   "client-key-data": base64.b64encode(key).decode()}}],
                  "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}]}
        (tmp_path / "kubeconfig").write_text(json.dumps(config))
        env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(ROOT)}
        process = subprocess.Popen([sys.executable, "-m", "kubectl_wasdra", "snapshot", "--live", "--kubeconfig",
                                    str(tmp_path / "kubeconfig"), "--request-timeout", "20s"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            connection, _ = silent.accept()  # the read is under way: the key has been loaded by now
            with connection:
                on_disk = [path.name for path in temp.iterdir() if path.is_file() and key in path.read_bytes()]
                process.send_signal(number)
                code = process.wait(timeout=15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert on_disk == [], "the client key must never be written to a file"
    assert code != 0
    assert [path.name for path in temp.iterdir() if path.is_file() and key in path.read_bytes()] == []


FALLBACK = """
import os, signal, sys, time
from types import SimpleNamespace
from kubectl_wasdra.cluster import memory_files
memory_files.has_memfd = lambda: False
marker = sys.argv[1]
with memory_files.credentials_in_memory(SimpleNamespace(), lambda: open(marker, "w").close()):
    print("ready", flush=True)
    time.sleep(30)
"""


@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGUSR1, signal.SIGALRM], ids=lambda n: signal.Signals(n).name)
def test_without_memfd_the_files_are_removed_on_every_terminating_signal(number: int, tmp_path: Path) -> None:
    marker = tmp_path / "cleaned"
    process = subprocess.Popen([sys.executable, "-c", FALLBACK, str(marker)], stdout=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == b"ready"
        process.send_signal(number)
        code = process.wait(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert marker.exists() and code == -number  # cleaned up, then ended by the signal as before
