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

import base64
import contextlib
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any, Final

import kubernetes
from kubernetes.config import kube_config
from kubernetes.config.exec_provider import ExecProvider

from kubectl_wasdra.cluster.exec_output import PluginOutputTooLarge, run_plugin_capped
from kubectl_wasdra.cluster.memory_files import credentials_in_memory
from kubectl_wasdra.load.bounded import read_capped

NOT_A_TERMINAL: Final = "exec plugin cannot support interactive mode: standard input is not a terminal"
EXEC_EXTENSION: Final = "client.authentication.k8s.io/exec"  # the cluster extension passed to plugins as `config`
MAX_STDERR_LINES: Final = 3  # of a failed plugin's stderr, quoted in the error
MAX_STDERR_CHARS: Final = 400


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
                return usable_status(_run_plugin(self, timeout))
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
        info["spec"]["cluster"] = exec_cluster(provider.cluster.value)
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
        raise kubernetes.config.ConfigException(plugin_failure(command, done.returncode, done.stderr))
    return _status(done.stdout, provider.api_version)


def usable_status(status: Any) -> Any:
    """The ExecCredential status when it holds a token or a client certificate with its key; the client library only
    logs the other cases and goes on without credentials, so they are failures here."""
    if isinstance(status, dict) and status.get("token"):
        return status
    if isinstance(status, dict) and status.get("clientCertificateData"):
        if status.get("clientKeyData"):
            return status
        raise kubernetes.config.ConfigException("exec: the plugin printed clientCertificateData without clientKeyData")
    raise kubernetes.config.ConfigException("exec: the plugin printed neither a token nor clientCertificateData")


def _status(stdout: str, api_version: str) -> Any:
    """The `status` of an ExecCredential printed by a plugin."""
    try:
        data = json.loads(stdout)
    except ValueError as exc:
        raise kubernetes.config.ConfigException(f"exec: failed to decode process output: {exc}") from None
    if not isinstance(data, dict) or data.get("apiVersion") != api_version or not isinstance(data.get("status"), dict):
        raise kubernetes.config.ConfigException("exec: the plugin printed no ExecCredential of its apiVersion")
    return data["status"]


def plugin_failure(command: str, code: int, stderr: str | None) -> str:
    """One line for a plugin that failed: client-go's words, then what the plugin said on stderr (kubectl lets it
    through to the terminal; here it is the end of the message, its last lines joined)."""
    said = " / ".join(line.strip() for line in (stderr or "").strip().splitlines()[-MAX_STDERR_LINES:] if line.strip())
    if len(said) > MAX_STDERR_CHARS:
        said = said[:MAX_STDERR_CHARS] + "..."
    return f"exec: executable {command} failed with exit code {code}" + (f": {said}" if said else "")


def exec_cluster(cluster: Mapping[str, Any]) -> dict[str, Any]:
    """The `spec.cluster` client-go gives an exec plugin with provideClusterInfo: the server, TLS settings, the CA as
    certificate-authority-data (read from certificate-authority when only a file is named), and as `config` the
    cluster's `client.authentication.k8s.io/exec` extension; never the raw kubeconfig entry.
    Upstream: k8s.io/client-go/pkg/apis/clientauthentication/v1 types.go (Cluster), rest/exec.go (ConfigToExecCluster),
    tools/clientcmd/client_config.go (the extension becomes ExecProvider.Config)."""
    out: dict[str, Any] = {"server": str(cluster.get("server") or "")}
    for key in ("tls-server-name", "proxy-url"):
        if cluster.get(key):
            out[key] = str(cluster[key])
    for key in ("insecure-skip-tls-verify", "disable-compression"):
        if cluster.get(key) is True:
            out[key] = True
    ca = _ca_data(cluster)
    if ca:
        out["certificate-authority-data"] = ca
    for entry in cluster.get("extensions") or ():
        if isinstance(entry, Mapping) and entry.get("name") == EXEC_EXTENSION and "extension" in entry:
            out["config"] = entry["extension"]
    return out


def _ca_data(cluster: Mapping[str, Any]) -> str | None:
    """The cluster's CA as base64 (the JSON form of client-go's []byte): the -data field, else the file's bytes."""
    data = cluster.get("certificate-authority-data")
    if isinstance(data, str) and data.strip():
        return "".join(data.split())
    path = cluster.get("certificate-authority")
    if isinstance(path, str) and path:
        try:
            return base64.b64encode(read_capped(path)).decode("ascii")
        except OSError:  # TooLarge too: a CA file is a few KiB
            return None
    return None


class _QuietLibrary(logging.Filter):
    """Drops the client library's own `logging.error` lines about exec plugins (they reach the root logger as
    "ERROR:root:..."): the failure is reported once, in the tool's one-line error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.pathname.replace("\\", "/").endswith("kubernetes/config/kube_config.py")


@contextlib.contextmanager
def bounded_credentials(timeout: float | None) -> Iterator[ExecFailures]:
    """While open, exec plugins run as BoundedExecProvider; on leaving, the client library's temporary credential
    files are removed. Yields the list that collects exec plugin failures."""
    failures = ExecFailures()
    original = kube_config.ExecProvider
    kube_config.ExecProvider = _provider_class(timeout, failures)
    quiet = _QuietLibrary()
    logging.getLogger().addFilter(quiet)
    try:
        with credentials_in_memory(kube_config, remove_temp_credentials):  # no client key on disk: memory_files.py
            yield failures
    finally:
        logging.getLogger().removeFilter(quiet)
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
