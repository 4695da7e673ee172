"""Credentials for a live read, handled as kubectl 1.37 handles them, within the read's time limit.

- An exec credential plugin runs with a timeout (a plugin that never returns cannot hang the read), gets no standard
  input unless it may be interactive, and one that must be interactive (`interactiveMode: Always`) is refused when
  standard input is not a terminal.
- Over plain http:// no credential is sent: no Authorization header, no basic auth, and the exec plugin is not run.
- Client keys the client library writes to temporary files are removed as soon as the read ends (and at exit, which
  the CLI also reaches on SIGTERM).
Upstream: kubernetes/kubernetes staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go (interactive mode,
"exec plugin cannot support interactive mode: standard input is not a terminal").
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any, Final

import kubernetes
from kubernetes.config import kube_config
from kubernetes.config.exec_provider import ExecProvider

from kubectl_wasdra.cluster.exec_output import PluginOutputTooLarge, run_plugin_capped
from kubectl_wasdra.cluster.memory_files import credentials_in_memory

NOT_A_TERMINAL: Final = "exec plugin cannot support interactive mode: standard input is not a terminal"


class ExecFailures(list[str]):
    """What went wrong running exec plugins during one read (the client library only logs it); `withheld` when a
    plugin was not run because the server is plain http://."""

    withheld: bool = False


def _is_plain_http(cluster: Any) -> bool:
    server = cluster.safe_get("server") if cluster is not None and hasattr(cluster, "safe_get") else None
    return isinstance(server, str) and server.lower().startswith("http://")


def _provider_class(timeout: float | None, failures: ExecFailures) -> type[ExecProvider]:
    """An ExecProvider that runs the plugin with `timeout`, records failures in `failures` and refuses plain http."""

    class BoundedExecProvider(ExecProvider):
        def __init__(self, exec_config: Any, cwd: Any, cluster: Any = None) -> None:
            super().__init__(exec_config, cwd, cluster)
            self.plain_http = _is_plain_http(cluster)
            self.mode = exec_config.safe_get("interactiveMode") or "IfAvailable"

        def run(self, previous_response: Any = None) -> Any:
            if self.plain_http:
                failures.withheld = True
                raise kubernetes.config.ConfigException("exec plugin not run: the server is plain http://")
            try:
                return _run_plugin(self, timeout)
            except kubernetes.config.ConfigException as exc:
                failures.append(str(exc))
                raise

    return BoundedExecProvider


def _run_plugin(provider: Any, timeout: float | None) -> Any:
    """Run an exec plugin as client-go does (KUBERNETES_EXEC_INFO, interactive only on a terminal), within `timeout`."""
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if provider.mode == "Always" and not terminal:
        raise kubernetes.config.ConfigException(NOT_A_TERMINAL)
    interactive = terminal and provider.mode != "Never"
    info: dict[str, Any] = {"apiVersion": provider.api_version, "kind": "ExecCredential",
                            "spec": {"interactive": interactive}}
    if provider.cluster:
        info["spec"]["cluster"] = provider.cluster.value
    env = {**provider.env, "KUBERNETES_EXEC_INFO": json.dumps(info)}
    command = provider.args[0]
    try:
        done = run_plugin_capped(provider.args, stdin=None if interactive else subprocess.DEVNULL, cwd=provider.cwd,
                                 env=env, timeout=timeout)
    except PluginOutputTooLarge as exc:
        raise kubernetes.config.ConfigException(f"exec plugin {command!r} {exc}: stopped") from None
    except subprocess.TimeoutExpired:
        raise kubernetes.config.ConfigException(f"exec plugin {command!r} did not return within {timeout:g}s") from None
    except OSError as exc:
        raise kubernetes.config.ConfigException(f"exec plugin {command!r} cannot run: {exc.strerror}") from None
    if done.returncode != 0:
        raise kubernetes.config.ConfigException(f"exec: process returned {done.returncode}")
    return _status(done.stdout, provider.api_version)


def _status(stdout: str, api_version: str) -> Any:
    """The `status` of an ExecCredential printed by a plugin."""
    try:
        data = json.loads(stdout)
    except ValueError as exc:
        raise kubernetes.config.ConfigException(f"exec: failed to decode process output: {exc}") from None
    if not isinstance(data, dict) or data.get("apiVersion") != api_version or not isinstance(data.get("status"), dict):
        raise kubernetes.config.ConfigException("exec: the plugin printed no ExecCredential of its apiVersion")
    return data["status"]


@contextlib.contextmanager
def bounded_credentials(timeout: float | None) -> Iterator[ExecFailures]:
    """While open, exec plugins run as BoundedExecProvider; on leaving, the client library's temporary credential
    files are removed. Yields the list that collects exec plugin failures."""
    failures = ExecFailures()
    original = kube_config.ExecProvider
    kube_config.ExecProvider = _provider_class(timeout, failures)
    try:
        with credentials_in_memory(kube_config, remove_temp_credentials):  # no client key on disk: memory_files.py
            yield failures
    finally:
        kube_config.ExecProvider = original
        remove_temp_credentials()


def remove_temp_credentials() -> None:
    """Delete the files the client library wrote client certificates and keys to (it only does so at exit)."""
    files = getattr(kube_config, "_temp_files", None)
    if not isinstance(files, dict):
        return
    for name in list(files.values()):
        with contextlib.suppress(OSError):
            os.remove(name)
    files.clear()


def withhold_over_http(configuration: Any) -> bool:
    """Drop every credential from a client configuration whose server is plain http://; True when one was dropped."""
    if not str(configuration.host or "").lower().startswith("http://"):
        return False
    had = bool(configuration.api_key or configuration.username or configuration.password)
    configuration.api_key = {}
    configuration.api_key_prefix = {}
    configuration.refresh_api_key_hook = None
    configuration.username = configuration.password = None
    return had
