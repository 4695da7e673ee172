"""The settings the language server checks with: `.wasdra.yaml` (found as `check` finds it, from the workspace folder
upward), the WASDRA_* environment, then the client's settings on top, each the way `check` reads its flags.

Client settings (initializationOptions or the `wasdra` section of workspace/configuration) use the config file's key
names: `k8sVersion`, `featureGates`, `runtimeConfig`, `profile`, `select`, `ignore`, `snapshot`, `schemaLocations`,
plus `config` (a config file to use instead of the one found). They become `check` flags, so they win over the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.lint.pipeline import CheckOptions

# client setting -> check flag; list values repeat the flag, mappings become Name=true,Other=false
_FLAGS: Final = {"k8sVersion": "--k8s-version", "featureGates": "--feature-gates", "runtimeConfig": "--runtime-config",
                 "profile": "--profile", "select": "--select", "ignore": "--ignore", "snapshot": "--snapshot",
                 "schemaLocations": "--schema-location"}


@dataclass(frozen=True)
class Settings:
    """What one workspace folder is checked with: `check`'s options (without paths), the config file read (None: none)
    and the excludes that leave files out of the workspace, as `check DIR` leaves them out."""

    options: CheckOptions
    config_path: str | None
    excludes: Any  # load.excludes.Excludes
    gitignore: bool = True   # the folder's files are those git lists (as `check DIR` walks it)

    def excluded(self, path: str) -> bool:
        return bool(self.excludes.patterns) and self.excludes.matches(path)


def check_arguments(client: Mapping[str, Any], config_path: str | None) -> list[str]:
    """The `check` command line that client settings and a config file amount to."""
    args = ["--config", config_path] if config_path else ["--no-config"]
    for key, flag in _FLAGS.items():
        value = client.get(key)
        if value is None or value == "" or value == [] or value == {}:
            continue
        if isinstance(value, Mapping):
            value = ",".join(f"{name}={str(bool(on)).lower()}" for name, on in value.items())
        for item in value if isinstance(value, list | tuple) else [value]:
            args += [flag, str(item)]
    return args


def resolve_settings(root: str | None, client: Mapping[str, Any], *, use_config: bool = True) -> Settings:
    """Settings for the workspace folder `root` (None: no folder, only open files). UsageError/WasdraError on a bad
    value, with check's own message."""
    from kubectl_wasdra.config.discover import find_config

    explicit = client.get("config")
    config_path = os.path.abspath(explicit) if explicit else find_config(root) if root else None
    config_path = config_path if use_config else None
    return _settings(check_arguments(client, config_path), config_path, root)


def _settings(args: list[str], config_path: str | None, root: str | None) -> Settings:
    from kubectl_wasdra.cli import check_command
    from kubectl_wasdra.cli_check import check_snapshot, resolve_auto
    from kubectl_wasdra.cli_options import build_common, build_project
    from kubectl_wasdra.load.default_excludes import DEFAULT_EXCLUDES
    from kubectl_wasdra.load.excludes import Excludes

    ctx = check_command.make_context("check", [*args, root or "."])
    params = dict(ctx.params)
    common = build_common(params)
    project = build_project(params)
    snapshot, left_out = check_snapshot(common) if common.snapshot else (None, ())
    common, _ = resolve_auto(common, snapshot)  # the notes of where settings came from are for check's report
    options = CheckOptions(paths=(), releases=common.releases or (common.release,), feature_gates=common.feature_gates,
                           runtime_config=common.runtime_config, profile=common.profile, select=common.select,
                           ignore=common.ignore, schema_locations=common.schema_locations, snapshot=snapshot,
                           snapshot_problems=tuple(left_out), per_file_ignores=project.per_file_ignores,
                           report_unused_ignores=project.report_unused_ignores, baseline=project.baseline)
    for release in options.releases:
        _ = options.context(release).gates  # unknown or conflicting feature gates fail here, as in check
    excludes = Excludes.of(DEFAULT_EXCLUDES if project.default_excludes else (), project.exclude, base=root or "")
    return Settings(options, config_path, excludes, project.gitignore)
