"""Client key material the kubernetes client library writes to temporary files does not outlive the process, even
when it is stopped with SIGTERM in the middle of a read."""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _key_pair(where: Path) -> tuple[bytes, bytes]:
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(where / "k.pem"), "-out",
                    str(where / "c.pem"), "-days", "1", "-subj", "/CN=test"], check=True, capture_output=True, timeout=60)
    return (where / "c.pem").read_bytes(), (where / "k.pem").read_bytes()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a key pair")
def test_client_key_files_are_removed_on_sigterm(tmp_path: Path) -> None:
    cert, key = _key_pair(tmp_path)
    temp = tmp_path / "temp"
    temp.mkdir()
    with socket.socket() as silent:  # accepts connections (the kernel's backlog) and never answers the TLS handshake
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
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
            for _ in range(200):
                if any(key in path.read_bytes() for path in temp.iterdir() if path.is_file()):
                    break
                time.sleep(0.05)
            else:
                pytest.fail("the client library never wrote the key to a temporary file")
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert code == 128 + signal.SIGTERM
    leftovers = [path.name for path in temp.iterdir() if path.is_file() and key in path.read_bytes()]
    assert leftovers == [], "the client key must not stay on disk"
