"""The e2e suite's cluster: a real kube-apiserver and etcd on 127.0.0.1 (tools/e2e/apiserver.py), loaded once per
session (tools/e2e/workload.py). Every test skips, with the reason, when kube-apiserver, etcd or openssl is missing.

Run it: `.venv/bin/python -m pytest tests/e2e` with a kube-apiserver binary in WASDRA_E2E_APISERVER (or in
~/.cache/kubectl-wasdra-e2e/bin/kube-apiserver) and etcd on PATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "e2e"))

from apiserver import TOKENS, ApiServer, audit_events, missing_binaries  # noqa: E402
from workload import load_cluster  # noqa: E402


@dataclass
class Cluster:
    """The running server, what was loaded into it, and a folder for kubeconfigs and plugin files."""

    server: ApiServer
    loaded: dict[str, int]
    folder: Path

    def kubeconfig(self, name: str, user: dict[str, Any] | None = None, **extra: Any) -> str:
        """A kubeconfig file for one of apiserver.TOKENS' users (by name) or a kubeconfig `user` entry."""
        entry = user if user is not None else {"token": TOKENS[name][0]}
        return str(self.server.kubeconfig(self.folder / f"{name}.kubeconfig", entry, **extra))

    def audit(self) -> list[dict[str, Any]]:
        return audit_events(self.server.audit_log)

    def list_count(self, path: str) -> int:
        """How many objects an unpaged admin LIST of `path` returns."""
        return len(self.server.request("GET", path)["items"])


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory):
    reason = missing_binaries()
    if reason:
        pytest.skip(f"e2e: {reason}")
    folder = tmp_path_factory.mktemp("e2e")
    server = ApiServer(folder / "server")
    try:
        server.start()
        loaded = load_cluster(server)
        yield Cluster(server, loaded, folder)
    finally:
        server.stop()


def wasdra(*args: str, env: dict[str, str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """`kubectl-wasdra ARGS` in a subprocess (KUBECONFIG unset unless `env` sets it)."""
    base = {k: v for k, v in os.environ.items() if k != "KUBECONFIG"}
    return subprocess.run([sys.executable, "-m", "kubectl_wasdra", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**base, **(env or {})}, timeout=timeout, check=False)


def wasdra_json(*args: str, **kwargs: Any) -> tuple[int, Any]:
    done = wasdra(*args, "-o", "json", **kwargs)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else done.stderr
