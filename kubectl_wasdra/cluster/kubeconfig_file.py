"""One kubeconfig file read as the client library can safely use it: at most 32 MiB, nested at most 200 levels,
plain YAML (a `!!python/object` tag is refused, never executed), a mapping, and its entries of the types client-go's
clientcmd v1 gives them. Anything else is "not a kubeconfig", exit 2, instead of the library's TypeError,
AttributeError or RecursionError."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load.bounded import read_text_capped
from kubectl_wasdra.load.depth import too_deep_documents
from kubectl_wasdra.load.parse import MAX_DEPTH

HINT: Final = "fix the file (kubectl config view --kubeconfig FILE)"


def _not_a_kubeconfig(path: str, why: str) -> UsageError:
    return UsageError(f"{path}: not a kubeconfig: {why}", where="--kubeconfig", hint=HINT)


def read_kubeconfig_file(path: str) -> Mapping[str, Any]:
    """The file's Config mapping ({} for an empty file, as kubectl reads it); UsageError naming the file otherwise."""
    import yaml

    try:
        text = read_text_capped(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the kubeconfig {path}: {getattr(exc, 'strerror', None) or exc}",
                         where="--kubeconfig", hint="check KUBECONFIG and --kubeconfig") from None
    if too_deep_documents(text, MAX_DEPTH):
        raise _not_a_kubeconfig(path, f"nested more than {MAX_DEPTH} levels")
    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or (str(exc).splitlines() or [type(exc).__name__])[0]
        raise _not_a_kubeconfig(path, f"{problem}{where}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _not_a_kubeconfig(path, f"a {type(data).__name__}, not a mapping")
    problem = config_problem(data)
    if problem is not None:
        raise _not_a_kubeconfig(path, problem)
    return data


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


def config_problem(data: Mapping[str, Any]) -> str | None:
    """What makes `data` no Config the client library can read safely, or None."""
    if not isinstance(data.get("current-context", ""), str | None):
        return "current-context must be a string"
    if not isinstance(data.get("preferences") or {}, dict):
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
