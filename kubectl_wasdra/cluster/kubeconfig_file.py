"""Each kubeconfig file is checked before the client library reads it: at most 32 MiB, nested at most 200 levels,
plain YAML (a `!!python/object` tag is refused, never executed) and a mapping. Anything else is "not a kubeconfig",
exit 2, instead of the library's TypeError or RecursionError."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, Final

import yaml

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load.bounded import read_text_capped
from kubectl_wasdra.load.depth import too_deep_documents
from kubectl_wasdra.load.parse import MAX_DEPTH

HINT = "check KUBECONFIG and --kubeconfig (kubectl config view)"


def kubeconfig_files(explicit: str | None) -> Iterator[str]:
    """The files kubectl would read: --kubeconfig, else each existing file of KUBECONFIG, else ~/.kube/config."""
    if explicit:
        yield explicit
        return
    listed = [p for p in os.environ.get("KUBECONFIG", "").split(os.pathsep) if p]
    for path in listed or [os.path.expanduser("~/.kube/config")]:
        if os.path.exists(path):
            yield path


def check_kubeconfig(explicit: str | None) -> None:
    """UsageError naming the file when a kubeconfig kubectl would read is not one (a missing --kubeconfig is left to
    the client library's own message)."""
    for path in kubeconfig_files(explicit):
        if not os.path.exists(path):
            continue
        try:
            text = read_text_capped(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the kubeconfig: {getattr(exc, 'strerror', None) or exc}", where=path,
                             hint=HINT) from None
        if too_deep_documents(text, MAX_DEPTH):
            raise UsageError(f"not a kubeconfig: nested more than {MAX_DEPTH} levels", where=path, hint=HINT)
        try:
            data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except (yaml.YAMLError, RecursionError, ValueError) as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else path
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise UsageError(f"not a kubeconfig: {problem}", where=where, hint=HINT) from None
        if data is not None and not isinstance(data, dict):
            raise UsageError(f"not a kubeconfig: the file holds a {type(data).__name__}, not a Config mapping",
                             where=path, hint=HINT)
        problem = config_problem(data or {})
        if problem is not None:
            raise UsageError(f"not a kubeconfig: {problem}", where=path, hint=HINT)


# Field types of client-go's clientcmd/api/v1 types.go (Config, NamedCluster, Cluster, NamedAuthInfo, AuthInfo,
# NamedContext, Context): what the client library reads without checking. Fields not listed are left to it.
_ENTRIES: Final = {"clusters": "cluster", "users": "user", "contexts": "context"}
_STRINGS: Final = {
    "cluster": ("server", "tls-server-name", "certificate-authority", "certificate-authority-data", "proxy-url"),
    "user": ("client-certificate", "client-certificate-data", "client-key", "client-key-data", "token", "tokenFile",
             "as", "username", "password"),
    "context": ("cluster", "user", "namespace"),
}
_MAPPINGS: Final = {"cluster": (), "user": ("exec", "auth-provider"), "context": ()}


def config_problem(data: dict[str, Any]) -> str | None:
    """What makes `data` no Config the client library can read safely, or None."""
    if not isinstance(data.get("current-context", ""), str):
        return "current-context must be a string"
    if not isinstance(data.get("preferences", {}) or {}, dict):
        return "preferences must be a mapping"
    for listed, field in _ENTRIES.items():
        entries = data.get(listed) or []
        if not isinstance(entries, list):
            return f"{listed} must be a list"
        for index, entry in enumerate(entries):
            where = f"{listed}[{index}]"
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                return f"{where} must be a mapping with a name"
            problem = _entry_problem(entry.get(field), field, f"{where}.{field}")
            if problem is not None:
                return problem
    return None


def _entry_problem(value: Any, field: str, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        return f"{where} must be a mapping"
    for name in _STRINGS[field]:
        if value.get(name) is not None and not isinstance(value[name], str):
            return f"{where}.{name} must be a string"
    for name in _MAPPINGS[field]:
        if value.get(name) is not None and not isinstance(value[name], dict):
            return f"{where}.{name} must be a mapping"
    if field == "cluster" and not isinstance(value.get("insecure-skip-tls-verify", False), bool):
        return f"{where}.insecure-skip-tls-verify must be true or false"
    return None
