"""Flags shared by commands, in the Kubernetes components' and kubectl's syntax, collected into one CommonOptions value.

Each command declares only the flags it honours (`@common_options` for check, `@explain_options`,
`@pending_options`); each passes `common: CommonOptions`. Single flags are available for commands that need only a
few (`K8S_VERSION_OPTION` ...). --context, --kubeconfig and --cluster typed on the command line read the cluster, as
in kubectl;
the other cluster-access flags without a cluster to read are exit 2.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypeVar

import click
from click.core import ParameterSource

from kubectl_wasdra.catalog.releases import NEWEST, Release, parse_release_list
from kubectl_wasdra.cli_output import COLOR_MODES
from kubectl_wasdra.config.keys import FAIL_ON, OUTPUT_FORMATS, PROFILES
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.kube.durations import parse_duration

F = TypeVar("F", bound=Callable[..., Any])
TEXT_OR_JSON: Final = ("text", "json")
# explain and explain-pending: kubectl's -o forms beside text and JSON (wide: text with every domain and node listed)
EXPLAIN_FORMATS: Final = ("text", "json", "yaml", "wide", "name", "html")
# strconv.ParseBool, which component-base uses for --feature-gates values
_TRUE: Final = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE: Final = frozenset({"0", "f", "F", "FALSE", "false", "False"})


def _frozen(mapping: Mapping[str, bool] | None = None) -> Mapping[str, bool]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class CommonOptions:
    """The shared flags, parsed. `releases` is None for `--k8s-version auto` (live mode: the server's version)."""

    releases: tuple[Release, ...] | None = (NEWEST,)
    feature_gates: Mapping[str, bool] = field(default_factory=_frozen)
    runtime_config: Mapping[str, bool] = field(default_factory=_frozen)
    profile: str = "default"
    output: str = "text"
    fail_on: str = "error"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    schema_locations: tuple[str, ...] = ()
    snapshot: tuple[str, ...] = ()
    live: bool = False
    kubeconfig: str | None = None
    context: str | None = None
    cluster: str | None = None  # kubectl's --cluster: a kubeconfig cluster (the config file's are --config-cluster)
    namespace: str | None = None
    all_namespaces: bool = False
    request_timeout: float | None = 30.0  # seconds per request to a cluster (None: no limit); cluster/timeouts.py
    read_deadline: float | None = 300.0  # seconds for one whole cluster read (None: no limit); cluster/timeouts.py
    max_objects: int = 250_000  # objects read of one kind (cluster/live_limits.py)
    release_given: bool = True  # False: --k8s-version was left at its default, which a cluster's server version replaces
    color: str = "auto"  # --color: auto (a TTY, FORCE_COLOR, CLICOLOR_FORCE, never with NO_COLOR), always, never

    @property
    def release(self) -> Release:
        """The single target release (the newest of a list; NEWEST for auto until the server says otherwise)."""
        return self.releases[-1] if self.releases else NEWEST


def parse_feature_gates(values: tuple[str, ...] | str | None) -> Mapping[str, bool]:
    """`Name=true,Other=false` (repeatable) -> {Name: True, Other: False}, as component-base parses --feature-gates."""
    gates: dict[str, bool] = {}
    for item in _items(values):
        name, sep, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name or raw not in _TRUE | _FALSE:
            raise UsageError(f'invalid feature gate "{item}"', where="--feature-gates",
                             hint="use Name=true or Name=false, comma-separated")
        gates[name] = raw in _TRUE
    return _frozen(gates)


def _items(values: tuple[str, ...] | str | None) -> list[str]:
    if not values:
        return []
    if isinstance(values, str):
        values = (values,)
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _releases(text: str) -> tuple[Release, ...] | None:
    return None if text.strip().lower() == "auto" else parse_release_list(text)


def build_common(kwargs: dict[str, Any]) -> CommonOptions:
    """Pop the shared flags out of a command's kwargs and parse them (UsageError on bad values). A flag the command
    does not declare keeps CommonOptions' default."""
    from kubectl_wasdra.catalog.apis import parse_runtime_config

    default = CommonOptions()
    return CommonOptions(
        releases=_releases(kwargs.pop("k8s_version", str(NEWEST))),
        feature_gates=parse_feature_gates(kwargs.pop("feature_gates", ())),
        runtime_config=_frozen(parse_runtime_config(_items(kwargs.pop("runtime_config", ())))),
        profile=kwargs.pop("profile", default.profile), output=kwargs.pop("output", default.output),
        fail_on=kwargs.pop("fail_on", default.fail_on),
        select=tuple(_items(kwargs.pop("select", ()))), ignore=tuple(_items(kwargs.pop("ignore", ()))),
        schema_locations=tuple(kwargs.pop("schema_location", ())), snapshot=tuple(kwargs.pop("snapshot", ())),
        live=kwargs.pop("live", False), kubeconfig=kwargs.pop("kubeconfig", None), context=kwargs.pop("context", None),
        cluster=kwargs.pop("cluster", None), namespace=kwargs.pop("namespace", None),
        all_namespaces=kwargs.pop("all_namespaces", False),
        color=kwargs.pop("color", default.color), **cluster_timeouts(kwargs), release_given=_given("k8s_version"),
    )


def _given(param: str) -> bool:
    """The flag was set (command line, WASDRA_* or .wasdra.yaml), not left at its default."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return True
    return ctx.get_parameter_source(param) not in (None, ParameterSource.DEFAULT)


# flags that only mean something when a cluster is read (--live); on the command line without it they are exit 2
LIVE_ONLY: Final = {"request_timeout": "--request-timeout", "read_deadline": "--read-deadline",
                     "max_objects": "--max-objects"}
# flags that choose a cluster, as in kubectl: typed on the command line they mean "read the cluster" (--live implied)
CLUSTER_CHOICE: Final = {"kubeconfig": "--kubeconfig", "context": "--context", "cluster": "--cluster"}


def _two_sources(flag: str) -> UsageError:
    return UsageError(f"{flag} reads a cluster and --snapshot reads files: give one of them", where=flag,
                      hint=f"drop {flag} to use the snapshot, or drop --snapshot to read the cluster")


def imply_live(common: CommonOptions) -> CommonOptions:
    """--kubeconfig, --context or --cluster typed on the command line reads that cluster, as kubectl would, without --live; with
    --snapshot as well it is exit 2 (one source of cluster state at a time). Values from .wasdra.yaml or WASDRA_* never
    count, since one config file serves live and offline runs."""
    ctx = click.get_current_context(silent=True)
    if common.live or ctx is None:
        return common
    typed = [flag for name, flag in CLUSTER_CHOICE.items() if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
    if not typed:
        return common
    if common.snapshot:
        raise _two_sources(typed[0])
    import dataclasses

    return dataclasses.replace(common, live=True)


def require_live_for(flags: Mapping[str, str], live: bool) -> None:
    """Exit 2 (UsageError) for a cluster-access flag typed on the command line without a cluster to read (--live,
    --context, --kubeconfig or --cluster); values from a config file (click's default_map) are left alone, since one file serves
    live and offline runs."""
    ctx = click.get_current_context(silent=True)
    if live or ctx is None:
        return
    for name, flag in flags.items():
        if ctx.get_parameter_source(name) is not ParameterSource.COMMANDLINE:
            continue
        if name in CLUSTER_CHOICE:  # reached only beside --snapshot: alone, they read the cluster
            raise _two_sources(flag)
        raise UsageError(f"{flag} applies to reading a cluster, so it needs --live (or --context, --kubeconfig, --cluster)",
                         where=flag, hint=f"add --live to read the cluster of the kubeconfig, or drop {flag}")


def complete_releases(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for --k8s-version: the supported releases, and "auto" where the command can read a cluster."""
    from kubectl_wasdra.catalog.releases import SUPPORTED

    auto = ("auto",) if any(p.name == "live" for p in ctx.command.params) else ()
    return [value for value in (*(str(r) for r in SUPPORTED), *auto) if value.startswith(incomplete)]


def complete_gates(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for --feature-gates: `Name=` for the gates of the newest release, then `=true`/`=false`."""
    from kubectl_wasdra.catalog.gates import gate_table

    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    name, sep, _ = last.partition("=")
    if sep:
        return [f"{prefix}{name}={value}" for value in ("true", "false")]
    return [f"{prefix}{gate}=" for gate in gate_table(NEWEST).gates if gate.startswith(name)]


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for rule selections: rule IDs and families."""
    from kubectl_wasdra.lint.registry import rule_infos

    infos = rule_infos()
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    names = sorted({info.family for info in infos} | {info.id for info in infos})
    return [f"{prefix}{name}" for name in names if name.startswith(last.upper())]


def _kubeconfig_names(key: str) -> Callable[[click.Context, click.Parameter, str], list[str]]:
    """Shell completion for --context and --cluster: the names of the kubeconfig's contexts or clusters (--kubeconfig
    when typed before, else KUBECONFIG, else ~/.kube/config), as kubectl completes them; none when it does not load."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        import os

        from kubectl_wasdra.cluster.kubeconfig import kubeconfig_files, merged_kubeconfig

        try:
            files = kubeconfig_files(ctx.params.get("kubeconfig"), os.environ.get("KUBECONFIG"))
            entries = merged_kubeconfig(files).get(key, ()) if files else ()
        except UsageError:
            return []
        return [name for entry in entries if isinstance(name := entry.get("name"), str) and name.startswith(incomplete)]

    return complete


K8S_VERSION_OPTION: Final = click.option(
    "--k8s-version", default=str(NEWEST), show_default=True, metavar="VERSION[S]", shell_complete=complete_releases,
    help='Target Kubernetes release 1.33-1.37; a list "1.35,1.37" or range "1.33..1.37" checks several; "auto" = the server\'s.')
FEATURE_GATES_OPTION: Final = click.option(
    "--feature-gates", multiple=True, metavar="NAME=BOOL,...", shell_complete=complete_gates,
    help="Feature gates set on the cluster (component syntax).")
RUNTIME_CONFIG_OPTION: Final = click.option(
    "--runtime-config", multiple=True, metavar="GROUP/VERSION=BOOL,...",
    help="API versions enabled on kube-apiserver, e.g. scheduling.k8s.io/v1beta1=true (kube-apiserver syntax).")
PROFILE_OPTION: Final = click.option(
    "--profile", type=click.Choice(PROFILES), default="default", show_default=True, help="Severity profile.")
OUTPUT_OPTION: Final = click.option(
    "-o", "--output", type=click.Choice(OUTPUT_FORMATS), default="text", show_default=True, help="Output format.")
TEXT_OR_JSON_OPTION: Final = click.option(  # the catalogue commands (gates, rules ...)
    "-o", "--output", type=click.Choice(TEXT_OR_JSON), default="text", show_default=True, help="Output format.")
EXPLAIN_OUTPUT_OPTION: Final = click.option(
    "-o", "--output", type=click.Choice(EXPLAIN_FORMATS), default="text", show_default=True,
    help="Output format: text; wide (text with every domain and node); json or yaml (the same document); name "
         "(kind/namespace/name of each group that does not fit, as kubectl's -o name); html (one self-contained page, "
         "docs/html-report.md).")
COLOR_OPTION: Final = click.option(
    "--color", type=click.Choice(COLOR_MODES), default="auto", show_default=True,
    help="Colour text output: auto = on a terminal, or with FORCE_COLOR / CLICOLOR_FORCE set (never with NO_COLOR).")
FAIL_ON_OPTION: Final = click.option(
    "--fail-on", type=click.Choice(FAIL_ON), default="error", show_default=True,
    help="Exit 1 when a finding has at least this severity.")
SELECT_OPTION: Final = click.option(
    "--select", multiple=True, metavar="RULES", shell_complete=complete_rules,
    help="Only these rules: ALL, a family (GATE), an ID (GATE001) or a name.")
IGNORE_OPTION: Final = click.option("--ignore", multiple=True, metavar="RULES", shell_complete=complete_rules,
                                    help="Skip these rules (same forms as --select).")
SCHEMA_LOCATION_OPTION: Final = click.option(
    "--schema-location", multiple=True, metavar="DIR", type=click.Path(exists=True, file_okay=True),
    help="Extra schemas: {kind}_{version}.json files (kubeconform naming) or CRD YAML files.")
SNAPSHOT_OPTION: Final = click.option(
    "--snapshot", multiple=True, metavar="PATH", type=click.Path(exists=True), help="Cluster snapshot file or directory.")
LIVE_OPTION: Final = click.option("--live", is_flag=True, help="Read the cluster (read-only: list/get only).")
KUBECONFIG_OPTION: Final = click.option("--kubeconfig", metavar="FILE",
                                        help="Path to the kubeconfig file; reads the cluster (implies --live).")
CONTEXT_OPTION: Final = click.option("--context", metavar="NAME", shell_complete=_kubeconfig_names("contexts"),
                                     help="kubeconfig context; reads its cluster (implies --live).")
CLUSTER_OPTION: Final = click.option(
    "--cluster", metavar="NAME", shell_complete=_kubeconfig_names("clusters"),
    help="kubeconfig cluster to read instead of the context's, as in kubectl (implies --live); a cluster description "
         "of .wasdra.yaml is --config-cluster.")
NAMESPACE_OPTION: Final = click.option("-n", "--namespace", metavar="NS", help="Namespace (with --live).")
ALL_NAMESPACES_OPTION: Final = click.option("-A", "--all-namespaces", is_flag=True, help="All namespaces (with --live).")
EXPLAIN_K8S_VERSION_OPTION: Final = click.option(
    "--k8s-version", default=str(NEWEST), show_default=True, metavar="VERSION", shell_complete=complete_releases,
    help='The one Kubernetes release 1.33-1.37 to simulate; "auto" = the snapshot\'s or server\'s.')
EXPLAIN_FAIL_ON_OPTION: Final = click.option(
    "--fail-on", type=click.Choice(("unschedulable", "never")), default="unschedulable", show_default=True,
    help="Exit 1 when a group does not fit (unschedulable), or 0 whenever the dry run completes (never).")
EXPLAIN_NAMESPACE_OPTION: Final = click.option(
    "-n", "--namespace", metavar="NS",
    help="With --live: namespace of the manifests that name none (default: the kubeconfig context's).")
CHECK_NAMESPACE_OPTION: Final = click.option(
    "-n", "--namespace", metavar="NS",
    help="Namespace of the namespaced objects that name none, as `kubectl apply -n NS` creates them (default: such "
         "objects match a reference from any namespace).")
PENDING_NAMESPACE_OPTION: Final = click.option(
    "-n", "--namespace", metavar="NS",
    help="Only this namespace (default with --live: the kubeconfig context's; with --snapshot: all).")
PENDING_ALL_NAMESPACES_OPTION: Final = click.option("-A", "--all-namespaces", is_flag=True, help="Every namespace.")

# Time limits of cluster reads (cluster/timeouts.py), on every command that reads a cluster.
REQUEST_TIMEOUT_OPTION: Final = click.option(
    "--request-timeout", default="30s", show_default=True, metavar="DURATION",
    help='How long one request to the cluster may take before it is given up (kubectl syntax: "0" = no limit, "30s", '
         '"1m"); a connection is given at most 3s to open.')
READ_DEADLINE_OPTION: Final = click.option(
    "--read-deadline", default="5m", show_default=True, metavar="DURATION",
    help='How long the whole cluster read may take; kinds not read by then are reported as gaps ("0" = no limit).')
MAX_OBJECTS_OPTION: Final = click.option(
    "--max-objects", default=250_000, show_default=True, metavar="N", type=click.IntRange(min=1),
    help="Most objects read of one kind from the cluster; a kind with more is reported as a gap.")
CLUSTER_TIMEOUT_OPTIONS: Final = (REQUEST_TIMEOUT_OPTION, READ_DEADLINE_OPTION, MAX_OBJECTS_OPTION)


def cluster_timeouts(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Pop --request-timeout and --read-deadline out of a command's kwargs, parsed to seconds (None: no limit), and
    --max-objects; a command that does not declare them keeps CommonOptions' defaults."""
    limits: dict[str, Any] = {name: parse_duration(kwargs.pop(name), flag=flag) for name, flag in
                              (("request_timeout", "--request-timeout"), ("read_deadline", "--read-deadline"))
                              if name in kwargs}
    if "max_objects" in kwargs:
        limits["max_objects"] = kwargs.pop("max_objects")
    return limits


def with_options(fn: F, options: tuple[Callable[[Any], Any], ...]) -> F:
    """`fn` decorated with each of `options`, which then show in --help in the order given."""
    for option in reversed(options):
        fn = option(fn)
    return fn


def cluster_timeout_options(fn: F) -> F:
    """Add --request-timeout and --read-deadline to a command that declares its flags one by one (snapshot)."""
    return with_options(fn, CLUSTER_TIMEOUT_OPTIONS)


SCHEDULER_CONFIG_OPTION: Final = click.option(
    "--scheduler-config", metavar="FILE", type=click.Path(exists=True, dir_okay=False),
    help="KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) of the cluster's kube-scheduler: profiles by "
         "schedulerName, enabled plugins, plugin args (read from the file, also with --live).")
NO_PREEMPTION_OPTION: Final = click.option(
    "--no-preemption", is_flag=True,
    help="Simulate without preemption: do not work out which lower-priority pods kube-scheduler would evict.")

TARGET_OPTIONS: Final = (FEATURE_GATES_OPTION, RUNTIME_CONFIG_OPTION)
LIVE_READ_OPTIONS: Final = (SNAPSHOT_OPTION, LIVE_OPTION, KUBECONFIG_OPTION, CONTEXT_OPTION, CLUSTER_OPTION,
                             *CLUSTER_TIMEOUT_OPTIONS)
COMMON_OPTIONS: Final = (
    K8S_VERSION_OPTION, *TARGET_OPTIONS, PROFILE_OPTION, OUTPUT_OPTION, FAIL_ON_OPTION,
    SELECT_OPTION, IGNORE_OPTION, SCHEMA_LOCATION_OPTION, *LIVE_READ_OPTIONS, CHECK_NAMESPACE_OPTION, COLOR_OPTION,
)
EXPLAIN_OPTIONS: Final = (EXPLAIN_K8S_VERSION_OPTION, *TARGET_OPTIONS, EXPLAIN_OUTPUT_OPTION, EXPLAIN_FAIL_ON_OPTION,
                          *LIVE_READ_OPTIONS,
                          EXPLAIN_NAMESPACE_OPTION, COLOR_OPTION)
PENDING_OPTIONS: Final = (EXPLAIN_K8S_VERSION_OPTION, *TARGET_OPTIONS, EXPLAIN_OUTPUT_OPTION, *LIVE_READ_OPTIONS,
                          PENDING_NAMESPACE_OPTION, PENDING_ALL_NAMESPACES_OPTION, COLOR_OPTION)


# capacity: text, wide (every domain and node), json and html
CAPACITY_FORMATS: Final = ("text", "wide", "json", "html")
CAPACITY_OUTPUT_OPTION: Final = click.option(
    "-o", "--output", type=click.Choice(CAPACITY_FORMATS), default="text", show_default=True,
    help="Output format: text; wide (text with every domain and node); json (docs/capacity.md); html (one "
         "self-contained page, docs/html-report.md).")
CAPACITY_OPTIONS: Final = (EXPLAIN_K8S_VERSION_OPTION, *TARGET_OPTIONS, CAPACITY_OUTPUT_OPTION, *LIVE_READ_OPTIONS,
                           EXPLAIN_NAMESPACE_OPTION)


def option_set(options: tuple[Callable[[Any], Any], ...], live_only: Mapping[str, str]) -> Callable[[F], F]:
    """A decorator adding `options` to a click command, which then receives them parsed as `common: CommonOptions`;
    the `live_only` flags typed without --live are exit 2."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            common = imply_live(build_common(kwargs))
            require_live_for(live_only, common.live)
            return fn(*args, common=common, **kwargs)

        return with_options(wrapper, options)  # type: ignore[return-value]

    return decorate


common_options: Final = option_set(COMMON_OPTIONS, LIVE_ONLY)  # check
explain_options: Final = option_set(EXPLAIN_OPTIONS, {**LIVE_ONLY, "namespace": "-n/--namespace"})
pending_options: Final = option_set(PENDING_OPTIONS, LIVE_ONLY)  # -n/-A also filter a snapshot
capacity_options: Final = option_set(CAPACITY_OPTIONS, {**LIVE_ONLY, "namespace": "-n/--namespace"})


# kubectl's way of naming manifests: -f/--filename (repeatable) beside positional paths, -R for subdirectories
FILENAME_OPTION: Final = click.option(
    "-f", "--filename", "filenames", multiple=True, metavar="PATH", type=click.Path(),
    help="Manifests: a file, a directory, a glob, or - for stdin (repeatable; same as a PATH argument).")
RECURSIVE_OPTION: Final = click.option(
    "--recursive/--no-recursive", "-R", default=True, show_default=True,  # not "-R" first: click would show "[default: R]"
    help="Read directories with their subdirectories (kubectl's -R, on by default as linters walk trees); "
         "--no-recursive reads only a directory's own files, as `kubectl apply -f DIR` does.")


def manifest_paths(paths: tuple[str, ...], filenames: tuple[str, ...], recursive: bool) -> tuple[str, ...]:
    """The inputs of check/explain from positional PATHs and -f: directories with every level (the default), or only
    their own manifest files with --no-recursive. Empty when nothing is named (check may still have -k or --helm)."""
    given = (*paths, *filenames)
    return given if recursive else tuple(item for path in given for item in _top_level(path))


def _top_level(path: str) -> list[str]:
    """A directory's own manifest files (as the loader picks them, without subdirectories), or the path itself."""
    import os

    from kubectl_wasdra.load.files import directory_manifests

    if path == "-" or not os.path.isdir(path):
        return [path]
    found = directory_manifests(path, recursive=False)
    if not found:
        raise UsageError(f"{path}: no .yaml, .yml or .json file in this directory", where="PATH",
                         hint="leave out --no-recursive to read its subdirectories too")
    return found


SNAPSHOT_FORMATS: Final = ("yaml", "json")


def _snapshot_format(ctx: click.Context | None, param: Any, value: str | None) -> str | None:
    """-o is a format, as in kubectl; a file name there (the old meaning) gets a pointer to --output-file."""
    if value is None or value in SNAPSHOT_FORMATS:
        return value
    raise click.BadParameter(f'"{value}" is not an output format (yaml, json); to write a file use --output-file {value}'
                             f" or redirect: -o yaml > {value}")


SNAPSHOT_OUTPUT_OPTION: Final = click.option(
    "-o", "--output", metavar="[yaml|json]", default=None, callback=_snapshot_format,
    help="Output format, written to stdout (default yaml).")


# ---- project configuration, suppressions, excludes, baselines, rendered inputs -----------------------------------
CONFIG_OPTIONS: Final = (
    click.option("--config", "config_file", metavar="FILE", type=click.Path(dir_okay=False), expose_value=False,
                 help="Project config file (default: .wasdra.yaml found upward to the repository root; env WASDRA_CONFIG)."),
    click.option("--no-config", is_flag=True, expose_value=False, help="Ignore .wasdra.yaml and WASDRA_CONFIG."),
    click.option("--config-cluster", "config_cluster", metavar="NAME", expose_value=False,
                 help="Use the cluster description NAME of the config file's `clusters` (env WASDRA_CONFIG_CLUSTER)."),
)


def config_options(fn: F) -> F:
    """Add --config, --no-config and --config-cluster (read by cli_config.ConfiguredCommand before parsing, not passed on)."""
    return with_options(fn, CONFIG_OPTIONS)


@dataclass(frozen=True)
class ProjectOptions:
    """`check`'s flags for excludes, suppressions, baselines and rendered inputs, parsed."""

    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    show_suppressed: bool = False
    report_unused_ignores: bool = False
    default_excludes: bool = True
    baseline: str | None = None
    write_baseline: str | None = None
    kustomize: tuple[str, ...] = ()
    helm: str | None = None
    values: tuple[str, ...] = ()
    set_values: tuple[str, ...] = ()
    gitignore: bool = True
    repo_context: bool = True


def _per_file_ignores(items: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    result = []
    for item in items:
        pattern, sep, rules = item.rpartition("=")
        if not sep or not pattern.strip() or not rules.strip():
            raise UsageError(f'invalid per-file ignore "{item}"', where="--per-file-ignores",
                             hint="use GLOB=RULE,RULE (e.g. legacy/**=SCHEMA002,REF003)")
        from kubectl_wasdra.lint.registry import select_rules

        for rule_key in _items(rules):
            try:
                select_rules([rule_key])
            except UsageError as exc:
                raise UsageError(exc.message, where="--per-file-ignores", hint=exc.hint) from None
        result.append((pattern.strip(), tuple(_items(rules))))
    return tuple(result)


PROJECT_OPTIONS: Final = (
    *CONFIG_OPTIONS,
    click.option("--exclude", multiple=True, metavar="GLOB", envvar="WASDRA_EXCLUDE",
                 help="Leave out files matching GLOB (repeatable; adds to the config's exclude and the defaults)."),
    click.option("--config-exclude", "config_exclude", multiple=True, hidden=True,
                 help="The config file's exclude (set from .wasdra.yaml; --exclude adds to it)."),
    click.option("--default-excludes/--no-default-excludes", default=True, show_default=True,
                 help="Leave out well-known non-manifests (Chart.yaml, values*.yaml, kustomization.yaml, .github/ ...)."),
    click.option("--gitignore/--no-gitignore", default=True, show_default=True,
                 help="Walk directories as git does: leave out what .gitignore and .git/info/exclude ignore."),
    click.option("--repo-context/--no-repo-context", default=True, show_default=True, envvar="WASDRA_REPO_CONTEXT",
                 help="Resolve references against every manifest under the project root (where .wasdra.yaml is, "
                      "else the git work tree), reporting findings only for the files given."),
    click.option("--per-file-ignores", multiple=True, metavar="GLOB=RULES", help="Skip RULES in files matching GLOB."),
    click.option("--show-suppressed", is_flag=True, help="List suppressed findings too (marked as such)."),
    click.option("--report-unused-ignores", is_flag=True,
                 help="Report suppressions (annotations, comments) that matched no finding (CONF002)."),
    click.option("--baseline", metavar="FILE", type=click.Path(dir_okay=False),
                 help="Fail only on findings that are not in this baseline file."),
    click.option("--write-baseline", metavar="FILE", type=click.Path(dir_okay=False),
                 help="Record the current findings in FILE (then exit 0)."),
    click.option("-k", "--kustomize", multiple=True, metavar="DIR", type=click.Path(exists=True, file_okay=False),
                 help="Check what `kubectl kustomize DIR` renders (kubectl's -k)."),
    click.option("--helm", metavar="CHART", type=click.Path(exists=True, file_okay=False),
                 help="Check what `helm template CHART` renders."),
    click.option("--values", multiple=True, metavar="FILE", type=click.Path(exists=True, dir_okay=False),
                 help="With --helm: a values file (repeatable, later ones win)."),
    click.option("--set", "set_values", multiple=True, metavar="KEY=VALUE", help="With --helm: set a value (repeatable)."),
)


def build_project(kwargs: dict[str, Any]) -> ProjectOptions:
    """Pop the project flags out of a command's kwargs and parse them (UsageError on bad values)."""
    return ProjectOptions(
        exclude=tuple(kwargs.pop("config_exclude")) + tuple(kwargs.pop("exclude")),
        per_file_ignores=_per_file_ignores(kwargs.pop("per_file_ignores")),
        show_suppressed=kwargs.pop("show_suppressed"), report_unused_ignores=kwargs.pop("report_unused_ignores"),
        default_excludes=kwargs.pop("default_excludes"), baseline=kwargs.pop("baseline"),
        write_baseline=kwargs.pop("write_baseline"), kustomize=tuple(kwargs.pop("kustomize")),
        helm=kwargs.pop("helm"), values=tuple(kwargs.pop("values")), set_values=tuple(kwargs.pop("set_values")),
        gitignore=kwargs.pop("gitignore"), repo_context=kwargs.pop("repo_context"))


def project_options(fn: F) -> F:
    """Add the project flags to a command; it receives them parsed as `project: ProjectOptions`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, project=build_project(kwargs), **kwargs)

    return with_options(wrapper, PROJECT_OPTIONS)  # type: ignore[return-value]
