"""The kubeconfig kubectl would use, merged from its files by kubectl's rules, as one dict the client library loads.

- `--kubeconfig FILE`: that file alone (it must exist); else the files of `KUBECONFIG` (separated by os.pathsep; files
  that do not exist are skipped, a file listed twice is read once); else ~/.kube/config.
- Each named cluster, user and context comes whole from the first file that defines it; `current-context` (and
  `preferences`) from the first file that sets it.
- Relative paths in an entry (a cluster's certificate-authority; a user's client-certificate, client-key, tokenFile,
  and an exec command that contains a "/") are resolved against the directory of the file that holds the entry.
The client library's own merge lets the last file's current-context win and resolves a user's files against the
cluster's file, so it gets the merged dict, never the file list.
Upstream: kubernetes/kubernetes staging/src/k8s.io/client-go/tools/clientcmd/loader.go (Load, ResolveLocalPaths,
GetClusterFileReferences, GetAuthInfoFileReferences), release-1.37.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.errors import UsageError

ENTRY_LISTS: Final = (("clusters", "cluster"), ("users", "user"), ("contexts", "context"))
CLUSTER_FILES: Final = ("certificate-authority",)
USER_FILES: Final = ("client-certificate", "client-key", "tokenFile")
DEFAULT_FILE: Final = os.path.join("~", ".kube", "config")


def kubeconfig_files(explicit: str | None, env: str | None) -> list[str]:
    """The files to merge, first one strongest: --kubeconfig, else KUBECONFIG's existing files, else ~/.kube/config."""
    if explicit:
        return [explicit]
    if env:
        seen: list[str] = []
        for path in env.split(os.pathsep):
            if path and path not in seen and os.path.exists(path):
                seen.append(path)
        return seen
    default = os.path.expanduser(DEFAULT_FILE)
    return [default] if os.path.exists(default) else []


def merged_kubeconfig(files: Sequence[str]) -> dict[str, Any]:
    """One kubeconfig dict from `files` by kubectl's rules, every relative file path made absolute. UsageError when
    a file cannot be read or is not a kubeconfig, or when there are no files."""
    if not files:
        raise UsageError("no kubeconfig: neither --kubeconfig, KUBECONFIG nor ~/.kube/config names a file",
                         where="--kubeconfig", hint="pass --kubeconfig FILE or set KUBECONFIG")
    merged: dict[str, Any] = {"apiVersion": "v1", "kind": "Config", "clusters": [], "users": [], "contexts": []}
    for path in files:
        config = _read(path)
        base = os.path.dirname(os.path.abspath(path))
        for key, field in ENTRY_LISTS:
            known = {entry["name"] for entry in merged[key]}
            for entry in _entries(config.get(key), path, key):
                if entry["name"] not in known:
                    known.add(entry["name"])
                    merged[key].append(_resolved(entry, field, base))
        for key in ("current-context", "preferences"):
            if config.get(key) and key not in merged:
                merged[key] = config[key]
    return merged


def _read(path: str) -> Mapping[str, Any]:
    """One file's Config, checked before the client library meets it (cluster/kubeconfig_file.py)."""
    from kubectl_wasdra.cluster.kubeconfig_file import read_kubeconfig_file

    return read_kubeconfig_file(path)


def _entries(value: Any, path: str, key: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(e, dict) and isinstance(e.get("name"), str) for e in value):
        raise UsageError(f"{path}: {key} must be a list of entries with a name", where="--kubeconfig",
                         hint="fix the file (kubectl config view --kubeconfig FILE)")
    return value


def _resolved(entry: dict[str, Any], field: str, base: str) -> dict[str, Any]:
    """The entry with its relative file paths joined to `base` (client-go ResolvePaths: empty and absolute paths stay)."""
    body = entry.get(field)
    if not isinstance(body, dict):
        return entry
    body = dict(body)
    for key in {"cluster": CLUSTER_FILES, "user": USER_FILES}.get(field, ()):
        body[key] = _absolute(body.get(key), base)
        if body[key] is None:
            del body[key]
    exec_config = body.get("exec")
    if field == "user" and isinstance(exec_config, dict) and "/" in str(exec_config.get("command") or ""):
        body["exec"] = {**exec_config, "command": _absolute(exec_config["command"], base)}
    return {**entry, field: body}


def _absolute(value: Any, base: str) -> Any:
    if isinstance(value, str) and value and not os.path.isabs(value):
        return os.path.normpath(os.path.join(base, value))  # filepath.Join cleans the path
    return value


def context_entry(config: Mapping[str, Any], context: str | None) -> Mapping[str, Any] | None:
    """The context named `context`, else current-context's; None when it is not defined."""
    name = context or config.get("current-context")
    return next((c for c in config.get("contexts", ()) if c.get("name") == name), None) if name else None


def context_namespace(kubeconfig: str | None, context: str | None, env: str | None = None,
                      cluster: str | None = None) -> str:
    """The namespace of the kubeconfig context in use (--context, else current-context), "default" when it names none:
    the namespace kubectl works in without -n. `env` is KUBECONFIG. UsageError for a kubeconfig or context that does
    not load (with --cluster and no context at all, kubectl works in "default")."""
    chosen = context_entry(merged_kubeconfig(kubeconfig_files(kubeconfig, env)), context)
    if chosen is None and cluster and not context:
        return "default"
    if chosen is None:
        name = f'context "{context}" is' if context else "the current context is"
        raise UsageError(f"{name} not in the kubeconfig", where="--context",
                         hint="list the contexts with kubectl config get-contexts")
    return (chosen.get("context") or {}).get("namespace") or "default"


CLUSTER_CONTEXT: Final = "wasdra:--cluster"  # the context made for --cluster; a name no kubeconfig context can clash with


def with_cluster(config: Mapping[str, Any], context: str | None, cluster: str) -> tuple[dict[str, Any], str]:
    """kubectl's --cluster: the context in use (--context, else current-context; none at all is an empty one) with its
    cluster replaced by `cluster`, its user and namespace kept; (the kubeconfig with that context added, its name).
    UsageError when the kubeconfig defines no cluster `cluster`.
    Upstream: client-go tools/clientcmd/client_config.go (getClusterName: the override wins; getContext merges the
    overrides over the named context), release-1.37."""
    names = [entry.get("name") for entry in config.get("clusters", ())]
    if cluster not in names:
        known = ", ".join(f'"{name}"' for name in names) or "none"
        raise UsageError(f'cluster "{cluster}" is not in the kubeconfig (clusters: {known})', where="--cluster",
                         hint="list the clusters with kubectl config get-clusters")
    chosen = context_entry(config, context)
    if chosen is None and context:
        raise UsageError(f'context "{context}" is not in the kubeconfig', where="--context",
                         hint="list the contexts with kubectl config get-contexts")
    fields = {**((chosen or {}).get("context") or {}), "cluster": cluster}
    contexts = [*config.get("contexts", ()), {"name": CLUSTER_CONTEXT, "context": fields}]
    return {**config, "contexts": contexts}, CLUSTER_CONTEXT


def trim_token(configuration: Any) -> None:
    """A token read from a tokenFile without its surrounding whitespace (the file's final newline would make the
    header invalid), as client-go's cached file token source trims it (k8s.io/client-go/transport/token_source.go)."""
    token = (configuration.api_key or {}).get("BearerToken")
    if isinstance(token, str) and token != token.strip():
        configuration.api_key["BearerToken"] = token.strip()


def user_agent() -> str:
    """kubectl-wasdra/<version>: audit logs then say who read (kubectl sends kubectl/<version> the same way; the
    client library's default names only itself)."""
    from kubectl_wasdra import __version__

    return f"kubectl-wasdra/{__version__}"
