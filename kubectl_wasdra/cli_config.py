"""Where flag defaults come from: one click hook gives flags > WASDRA_* environment > `.wasdra.yaml` > defaults.

`ConfiguredCommand` sets an environment variable on every configurable flag (click reads it after the command line)
and, before parsing, reads the project config into the context's `default_map` (click reads it after the
environment). `ctx.get_parameter_source` then tells where each value came from (`kubectl wasdra config`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final

import click

from kubectl_wasdra.config.discover import find_config
from kubectl_wasdra.config.keys import BY_PARAM, CLUSTER_ENV, CONFIG_ENV, OLD_CLUSTER_ENV, env_var
from kubectl_wasdra.errors import UsageError

META_KEY: Final = "wasdra.config"


class ConfigState:
    """The config file a command ran with (None: none found or --no-config), the cluster chosen, and the settings
    that applied (`config.file.Setting` by key name)."""

    __slots__ = ("cluster", "path", "settings")

    def __init__(self, path: str | None, cluster: str | None, settings: dict[str, Any]) -> None:
        self.path, self.cluster, self.settings = path, cluster, settings


def config_state(ctx: click.Context) -> ConfigState:
    return ctx.meta.get(META_KEY) or ConfigState(None, None, {})


class ConfiguredCommand(click.Command):
    """A command whose configurable flags read WASDRA_* variables and the project config file."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            key = BY_PARAM.get(param.name or "")
            if key is not None and param.envvar is None and (self.name == "check" or not key.check_only):
                param.envvar = env_var(key.param)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing and not {"-h", "--help"} & set(args):
            state, defaults = _project_defaults(self, args)
            ctx.meta[META_KEY] = state
            if defaults:
                ctx.default_map = {**defaults, **(ctx.default_map or {})}
        return super().parse_args(ctx, args)


def _project_defaults(command: click.Command, args: Sequence[str]) -> tuple[ConfigState, dict[str, Any]]:
    explicit, disabled, cluster, kube_cluster = _scan(args)
    path = None if disabled else explicit or os.environ.get(CONFIG_ENV) or find_config()
    if path is None:
        if cluster:
            raise UsageError(f'--config-cluster "{cluster}" needs a config file, and none was found',
                             where="--config-cluster",
                             hint="create .wasdra.yaml (kubectl wasdra config --init) or pass --config FILE")
        return ConfigState(None, None, {}), {}
    from kubectl_wasdra.config.defaults import flag_defaults
    from kubectl_wasdra.config.file import read_config

    config = read_config(path)
    if kube_cluster and kube_cluster in config.clusters and cluster is None:
        _refuse_old_cluster_flag(kube_cluster, config.path, args)
    settings = config.resolved(cluster)
    params = {p.name for p in command.params if p.name}
    defaults = flag_defaults(settings, config.directory, params, check=command.name == "check")
    return ConfigState(path, cluster, settings), defaults


def _refuse_old_cluster_flag(name: str, path: str, args: Sequence[str]) -> None:
    """`--cluster NAME` once chose a cluster description of the config file; it now names a kubeconfig cluster, as in
    kubectl. A NAME the config file describes and no kubeconfig defines is the old spelling: exit 2 with the new
    name, rather than guessing which of the two was meant."""
    import contextlib

    from kubectl_wasdra.cluster.kubeconfig import kubeconfig_files, merged_kubeconfig

    kubeconfig, clusters = _scan_value(args, "--kubeconfig"), []
    with contextlib.suppress(UsageError):
        files = kubeconfig_files(kubeconfig, os.environ.get("KUBECONFIG"))
        clusters = [entry.get("name") for entry in merged_kubeconfig(files).get("clusters", ())] if files else []
    if name not in clusters:
        raise UsageError(f'--cluster names a kubeconfig cluster, as in kubectl, and no kubeconfig defines "{name}"; '
                         f'"{name}" is a cluster description of {path}', where="--cluster",
                         hint=f"choose the description with --config-cluster {name} (env WASDRA_CONFIG_CLUSTER)")


def _scan_value(args: Sequence[str], flag: str) -> str | None:
    """The value of `flag` among raw arguments (`--flag V` or `--flag=V`), None when absent."""
    items = list(args)
    for index, arg in enumerate(items):
        if arg == "--":
            break
        name, sep, value = arg.partition("=")
        if name == flag:
            return (value if sep else items[index + 1] if index + 1 < len(items) else "") or None
    return None


def _scan(args: Sequence[str]) -> tuple[str | None, bool, str | None, str | None]:
    """(--config FILE, --no-config, --config-cluster NAME, --cluster NAME) from the raw arguments, before click
    parses them; the environment (WASDRA_CONFIG_CLUSTER, or the older WASDRA_CLUSTER with a warning) supplies the
    config cluster when the flag is absent."""
    config, disabled, cluster, kube_cluster = None, False, None, None
    items = list(args)
    for index, arg in enumerate(items):
        if arg == "--":
            break
        name, sep, value = arg.partition("=")
        if not sep and index + 1 < len(items):
            value = items[index + 1]
        if name == "--config":
            config = value or None
        elif name == "--config-cluster":
            cluster = value or None
        elif name == "--cluster":
            kube_cluster = value or None
        elif arg == "--no-config":
            disabled = True
    return config, disabled, cluster or _env_cluster(), kube_cluster


def _env_cluster() -> str | None:
    """WASDRA_CONFIG_CLUSTER, else the variable's former name WASDRA_CLUSTER (kubectl has no such variable, so the
    old name is still unambiguous; it warns)."""
    if os.environ.get(CLUSTER_ENV):
        return os.environ[CLUSTER_ENV]
    old = os.environ.get(OLD_CLUSTER_ENV)
    if old:
        from kubectl_wasdra.cli_output import say_error

        say_error(f"kubectl-wasdra: warning: {OLD_CLUSTER_ENV} is deprecated: use {CLUSTER_ENV}={old}")
    return old or None


def effective_settings(check_ctx: click.Context) -> list[tuple[str, Any, str]]:
    """(key, value, source) for every config key as `check` would run with the context's flags: the source is
    "flag --x", "env WASDRA_X", the config file position, or "default"."""
    from click.core import ParameterSource

    from kubectl_wasdra.config.keys import KEYS

    state = config_state(check_ctx)
    rows = []
    for key in KEYS:
        source = check_ctx.get_parameter_source(key.param)
        if source is ParameterSource.COMMANDLINE:
            where = f"flag {key.flag}"
        elif source is ParameterSource.ENVIRONMENT:
            where = f"env {env_var(key.param)}"
        elif source is ParameterSource.DEFAULT_MAP and key.name in state.settings:
            where = state.settings[key.name].where
        else:
            where = "default"
        value = check_ctx.params.get(key.param)
        rows.append((key.name, list(value) if isinstance(value, tuple) else value, where))
    return rows


def render_effective(check_ctx: click.Context, output: str) -> str:
    """`kubectl wasdra config`: the config file used, then each setting with its value and where it came from."""
    import json

    state = config_state(check_ctx)
    rows = effective_settings(check_ctx)
    if output == "json":
        data = {"config": state.path, "cluster": state.cluster,
                "settings": {name: {"value": value, "source": source} for name, value, source in rows}}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    head = f"config file: {state.path or 'none (no .wasdra.yaml from here up to the repository root)'}"
    lines = [head + (f", cluster {state.cluster}" if state.cluster else "")]
    width = max(len(name) for name, _, _ in rows)
    shown = [(", ".join(map(str, v)) if isinstance(v, list) else "" if v is None else str(v)) or "-" for _, v, _ in rows]
    value_width = max(map(len, shown))
    for (name, _, source), text in zip(rows, shown, strict=True):
        lines.append(f"  {name:<{width}}  {text:<{value_width}}  {source}")
    return "\n".join(lines) + "\n"


def write_starter(directory: str, cluster: tuple[Any, str] | None = None) -> tuple[str, Any]:
    """Write a starter `.wasdra.yaml` into `directory` for the manifests below it, with the release, runtime config
    and gates of `cluster` ((snapshot, description)) when given; (path, what was written). UsageError when the file
    exists."""
    from kubectl_wasdra.config.starter import apply_cluster, detect_needs, starter_text
    from kubectl_wasdra.load import load_paths
    from kubectl_wasdra.load.default_excludes import DEFAULT_EXCLUDES
    from kubectl_wasdra.load.excludes import Excludes

    path = os.path.join(directory, ".wasdra.yaml")
    if os.path.exists(path):
        raise UsageError(f"{path} exists", where="config --init", hint="edit it, or remove it to start over")
    excludes = Excludes.of(DEFAULT_EXCLUDES, base=directory)
    loaded = load_paths([directory], exclude=excludes.matches)
    needs = detect_needs(loaded.documents)
    if cluster is not None:
        needs = apply_cluster(needs, cluster[0].header, cluster[1])
    from kubectl_wasdra.load.safe_write import write_output

    write_output(path, starter_text(needs).encode("utf-8"))
    return path, needs


def init_starter(check_ctx: click.Context) -> int:
    """`config --init`: the starter file at the repository root, from the cluster of --snapshot/--live when given;
    says loudly on stderr when the gates and runtime config could only come from the manifests."""
    from kubectl_wasdra.cli_options import build_common
    from kubectl_wasdra.cli_output import EXIT_OK, PROG, say_error
    from kubectl_wasdra.config.discover import repository_root

    common = build_common(dict(check_ctx.params))
    cluster = None
    if common.snapshot or common.live:
        from kubectl_wasdra.explain.run import load_cluster_leaving_out

        snapshot, _ = load_cluster_leaving_out(common.snapshot, common if common.live else None)
        header = snapshot.header
        if header.server_version or header.served or header.feature_gates:
            where = f"snapshot {', '.join(common.snapshot)}" if common.snapshot else "the live cluster"
            cluster = (snapshot, where)
        else:
            say_error(f"{PROG}: warning: {', '.join(common.snapshot)} has no snapshot header (server version, served "
                      "APIs, gates): write one with `kubectl wasdra snapshot`")
    path, needs = write_starter(repository_root(), cluster)
    say_error(f"wrote {path} (from {needs.documents} manifest(s)); check it with: {PROG} config")
    unchecked = [*needs.unknown_gates, *needs.unknown_runtime] if cluster else [*needs.feature_gates, *needs.runtime_config]
    if unchecked:
        say_error(f"{PROG}: warning: not read from a cluster: {', '.join(sorted(unchecked))} — the manifests need "
                  "them; they are written commented out: enable only what the cluster runs (or rerun with "
                  "--snapshot FILE / --live), or check cannot tell you when the cluster lacks them")
    return EXIT_OK
