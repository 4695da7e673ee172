"""Config settings as flag defaults: each value in the syntax its flag takes, ready for click's `default_map`."""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from typing import Any

from kubectl_wasdra.config.file import Setting
from kubectl_wasdra.config.keys import BY_NAME
from kubectl_wasdra.load.excludes import anchor


def flag_defaults(settings: Mapping[str, Setting], directory: str, params: Collection[str], *,
                  check: bool) -> dict[str, Any]:
    """{click parameter name: default} for the settings whose flag the command has (`params`); keys that only `check`
    reads are left out unless `check`. Globs are anchored at the config file's `directory`."""
    defaults: dict[str, Any] = {}
    for name, setting in settings.items():
        key = BY_NAME[name]
        if key.param in params and (check or not key.check_only):
            defaults[key.param] = _flag_value(key.kind, setting.value, directory)
    return defaults


def _flag_value(kind: str, value: Any, directory: str) -> Any:
    if kind == "gates":
        return (",".join(f"{name}={str(on).lower()}" for name, on in value.items()),) if value else ()
    if kind == "runtime":
        return tuple(f"{name}={str(on).lower()}" for name, on in value.items())
    if kind == "paths":
        return tuple(_relative(path) for path in value)
    if kind == "path":
        return _relative(value)
    if kind == "rules":
        return tuple(value)
    if kind == "globs":
        return tuple(anchor(pattern, directory) for pattern in value)
    if kind == "globmap":
        return tuple(f"{anchor(pattern, directory)}={','.join(rules)}" for pattern, rules in value.items())
    return value


def _relative(path: str) -> str:
    """A path relative to the working directory when it lies below it (shorter file names in findings)."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
