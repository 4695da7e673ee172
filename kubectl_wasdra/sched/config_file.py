"""--scheduler-config FILE: a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) read into SchedulerConfig.

Upstream: kubernetes/kubernetes pkg/scheduler/apis/config/v1 (defaults, mergePlugins), pkg/scheduler/apis/config/
validation (validation.go, validation_pluginargs.go) and pkg/scheduler/framework/runtime/framework.go (multiPoint
expansion: plugins enabled at a specific extension point run first, then the multiPoint ones), release-1.37.

Errors name `file:line:col`, what is wrong and how to fix it (exit 2), as kube-scheduler refuses to start on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load import Path
from kubectl_wasdra.load.document import Document, format_path
from kubectl_wasdra.sched import plugin_args
from kubectl_wasdra.sched.profiles import (
    DEFAULT_FILTERS,
    DEFAULT_SCORES,
    KNOWN_PLUGINS,
    OUT_OF_TREE_FILTERS,
    Profile,
    SchedulerConfig,
)

API_VERSION: Final = "kubescheduler.config.k8s.io/v1"
KIND: Final = "KubeSchedulerConfiguration"
TOP_LEVEL: Final = frozenset({"apiVersion", "kind", "parallelism", "leaderElection", "clientConnection",
                              "healthzBindAddress", "metricsBindAddress", "debuggingConfiguration",
                              "percentageOfNodesToScore", "podInitialBackoffSeconds", "podMaxBackoffSeconds",
                              "profiles", "extenders", "delayCacheUntilActive"})
PROFILE_KEYS: Final = frozenset({"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"})
EXTENSION_POINTS: Final = ("multiPoint", "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore",
                           "score", "reserve", "permit", "preBind", "bind", "postBind", "placementGenerate",
                           "placementScore")


class ConfigError(UsageError):
    """The scheduler configuration file is invalid (kube-scheduler would not start)."""


class Reader:
    """Reads one KubeSchedulerConfiguration document; `fail` raises with the position of a field."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def fail(self, path: Path, message: str, hint: str) -> ConfigError:
        line, column = self.document.position(path)
        return ConfigError(message, where=f"{self.document.file}:{line}:{column}", hint=hint)

    def mapping(self, path: Path, allowed: frozenset[str] | None = None) -> Mapping[str, Any]:
        value = self.document.get(path)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise self.fail(path, f"{format_path(path)} must be an object, not {type(value).__name__}", "fix its shape")
        for key in value if allowed is not None else ():
            if key not in allowed:
                raise self.fail((*path, key), f'unknown field "{format_path((*path, key))}"',
                                f"use one of {', '.join(sorted(allowed))}")
        return value

    def sequence(self, path: Path) -> list[Any]:
        value = self.document.get(path)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(path, f"{format_path(path)} must be a list", "write it as a YAML list")
        return value

    def integer(self, path: Path, low: int, high: int | None = None) -> int | None:
        value = self.document.get(path)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise self.fail(path, f"{format_path(path)}: {value!r} must be an integer {bound}", f"use a value {bound}")
        return value


def load_scheduler_config(file: str) -> SchedulerConfig:
    """The profiles of a KubeSchedulerConfiguration file; ConfigError (or LoadError) when kube-scheduler would reject it."""
    from kubectl_wasdra.errors import LoadError
    from kubectl_wasdra.load.files import load_file

    loaded, problems = load_file(file)
    if problems:
        problem = problems[0]
        raise LoadError(problem.message, where=f"{problem.file}:{problem.line}:{problem.column}",
                        hint=problem.hint or "fix the scheduler configuration file")
    documents = [d for d in loaded if d.kind == KIND]
    if len(documents) != 1:
        raise ConfigError(f"expected one {KIND} document, found {len(documents)}", where=file,
                          hint=f"put exactly one {KIND} ({API_VERSION}) in the file")
    return read_config(Reader(documents[0]))


def read_config(reader: Reader) -> SchedulerConfig:
    """SchedulerConfig from a parsed document (validated as kube-scheduler does at start-up)."""
    document = reader.document
    if document.api_version != API_VERSION:
        raise reader.fail(("apiVersion",), f'apiVersion "{document.api_version}" is not supported',
                          f"use {API_VERSION} (v1beta3 was removed in 1.29)")
    reader.mapping((), TOP_LEVEL)
    percentage = reader.integer(("percentageOfNodesToScore",), 0, 100)
    entries = reader.sequence(("profiles",))
    profiles = [_profile(reader, index, percentage) for index in range(len(entries))] or [
        Profile(percentage_of_nodes_to_score=percentage)]
    seen: dict[str, int] = {}
    for index, profile in enumerate(profiles):
        if profile.scheduler_name in seen:
            raise reader.fail(("profiles", index, "schedulerName"),
                              f'duplicate profile with schedulerName "{profile.scheduler_name}"',
                              "give every profile its own schedulerName")
        seen[profile.scheduler_name] = index
    return SchedulerConfig(tuple(profiles), document.file)


def _profile(reader: Reader, index: int, percentage: int | None) -> Profile:
    base: Path = ("profiles", index)
    reader.mapping(base, PROFILE_KEYS)
    name = reader.document.get((*base, "schedulerName"), "default-scheduler")
    if not isinstance(name, str) or not name:
        raise reader.fail((*base, "schedulerName"), "schedulerName must be a non-empty string", "name the profile")
    own = reader.integer((*base, "percentageOfNodesToScore"), 0, 100)
    filters, scores, placement = _plugins(reader, (*base, "plugins"))
    args, unmodelled = plugin_args.read(reader, base)
    profile = Profile(scheduler_name=name, filter_names=filters, score_weights=scores, placement_scores=placement,
                      percentage_of_nodes_to_score=own if own is not None else percentage, **args)
    return replace(profile, unmodelled=(*unmodelled, *_not_simulated(profile)))


def _not_simulated(profile: Profile) -> list[str]:
    """Settings that are read and validated but change nothing in the simulation (yet): said in the output."""
    out = []
    if "NodeResourceTopologyMatch" in profile.filter_names:
        out.append("NodeResourceTopologyMatch scoring and its caches (the filter reads each NodeResourceTopology as the "
                   "snapshot holds it, as with cacheResyncPeriodSeconds 0)")
    if profile.spread_defaulting == "List" and any(c.get("whenUnsatisfiable") == "DoNotSchedule"
                                                   for c in profile.spread_constraints):
        out.append("PodTopologySpread DoNotSchedule defaultConstraints (their selector comes from the Services, "
                   "ReplicaSets, StatefulSets and ReplicationControllers selecting a pod, which snapshots do not hold)")
    return out


def _plugin_list(reader: Reader, path: Path) -> list[tuple[str, int]]:
    """(name, weight) of a plugin set's enabled or disabled list; names are checked against the registry."""
    out = []
    for index in range(len(reader.sequence(path))):
        where = (*path, index)
        item = reader.mapping(where, frozenset({"name", "weight"}))
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise reader.fail(where, "a plugin entry needs a name", "add name: <plugin>")
        if name != "*" and name not in KNOWN_PLUGINS:
            raise reader.fail((*where, "name"), f'plugin "{name}" does not exist',
                              "use a plugin of kube-scheduler's registry (out-of-tree plugins are not simulated)")
        weight = reader.integer((*where, "weight"), 0, 100)
        out.append((name, weight or 0))
    return out


def _point(reader: Reader, plugins: Path, point: str) -> tuple[list[tuple[str, int]], set[str]]:
    base = (*plugins, point)
    reader.mapping(base, frozenset({"enabled", "disabled"}))
    return _plugin_list(reader, (*base, "enabled")), {n for n, _ in _plugin_list(reader, (*base, "disabled"))}


def _plugins(reader: Reader, path: Path) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """Enabled filters (in run order) and score weights after merging the defaults (all multiPoint in v1) with the
    file: a specific extension point's own enabled plugins first, then the multiPoint ones it does not disable."""
    reader.mapping(path, frozenset(EXTENSION_POINTS))
    multi_enabled, multi_disabled = _point(reader, path, "multiPoint")
    default_scores = dict(DEFAULT_SCORES)
    defaults = [] if "*" in multi_disabled else [(n, default_scores.get(n, 0)) for n in
                                                 dict.fromkeys((*DEFAULT_FILTERS, *default_scores))
                                                 if n not in multi_disabled]
    multi = _merge(defaults, multi_enabled)
    filter_enabled, filter_disabled = _point(reader, path, "filter")
    score_enabled, score_disabled = _point(reader, path, "score")
    filters = _expand([n for n, _ in filter_enabled], filter_disabled, [n for n, _ in multi],
                      set(DEFAULT_FILTERS) | OUT_OF_TREE_FILTERS)
    score_names = _expand([n for n, _ in score_enabled], score_disabled, [n for n, _ in multi], set(default_scores))
    weights = {**dict(multi), **dict(score_enabled)}
    scores = tuple((n, weights.get(n) or default_scores.get(n) or 1) for n in score_names)
    placement_enabled, placement_disabled = _point(reader, path, "placementScore")
    placement = _merge([] if "*" in placement_disabled else [(n, 1) for n in ("PodGroupPodsCount", "NodeResourcesFit")
                                                              if n not in placement_disabled], placement_enabled)
    return tuple(filters), scores, tuple((n, w or 1) for n, w in placement)


def _merge(defaults: list[tuple[str, int]], enabled: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """mergePluginSet: defaults in order (an enabled entry of the same name replaces its weight), then the rest."""
    custom = dict(enabled)
    out = [(name, custom.get(name, weight)) for name, weight in defaults]
    names = {name for name, _ in out}
    return out + [(name, weight) for name, weight in enabled if name not in names]


def _expand(specific: list[str], disabled: set[str], multi: list[str], implements: set[str]) -> list[str]:
    """One extension point's plugins: its own enabled ones first, then multiPoint plugins implementing it."""
    if "*" in disabled:
        return [n for n in specific if n in implements]
    out = [n for n in specific if n in implements]
    out += [n for n in multi if n in implements and n not in disabled and n not in out]
    return out
