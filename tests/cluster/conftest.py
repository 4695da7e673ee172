"""Shared fixtures of the cluster tests: the two-racks snapshot the fake API server serves."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.cluster.files import load_snapshot

TWO_RACKS = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"


@pytest.fixture(scope="module")
def offline():
    """The two-racks fixture loaded from files (what a live read of the fake server must equal)."""
    snapshot, problems = load_snapshot([str(TWO_RACKS)])
    assert problems == ()
    return snapshot


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A CA and a server certificate for 127.0.0.1 signed by it, made with openssl (skipped without it):
    {"ca", "cert", "key"} file paths."""
    import shutil
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificates for an https fake API server")
    folder = tmp_path_factory.mktemp("tls")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
            "-subj", "/CN=fake-ca")
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=fake")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.crt", "-days", "2", "-extfile", "ext.cnf")
    return {"ca": str(folder / "ca.crt"), "cert": str(folder / "server.crt"), "key": str(folder / "server.key")}
