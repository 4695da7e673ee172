"""Read `.wasdra.yaml`: every key checked against config/keys.py with its position, so a wrong key or value is exit 2
with `file:line:col` and a did-you-mean, never a silent default.

Scalars are read from the source text (`k8sVersion: 1.30` stays "1.30", not the float 1.3).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from kubectl_wasdra.catalog.spelling import did_you_mean
from kubectl_wasdra.config.keys import BY_NAME, KEYS, TOP_LEVEL, Key
from kubectl_wasdra.errors import UsageError, UsageErrors
from kubectl_wasdra.load.bounded import read_text_capped
from kubectl_wasdra.load.depth import too_deep_documents
from kubectl_wasdra.load.parse import MAX_DEPTH, TOO_DEEP_LEVELS
from kubectl_wasdra.load.stream import document_span

if TYPE_CHECKING:
    import yaml

_BOOL_TAG = "tag:yaml.org,2002:bool"
_TRUE_WORDS = frozenset({"true", "yes", "on", "y"})


@dataclass(frozen=True)
class Setting:
    """One key's checked value (plain data: str, bool, list, dict) and where it was written (`file:line:col`)."""

    key: str
    value: Any
    where: str


@dataclass(frozen=True)
class ProjectConfig:
    """A parsed config file: its top-level settings and its named cluster descriptions."""

    path: str
    settings: Mapping[str, Setting]
    clusters: Mapping[str, Mapping[str, Setting]]

    @property
    def directory(self) -> str:
        return os.path.dirname(os.path.abspath(self.path))

    def resolved(self, cluster: str | None) -> dict[str, Setting]:
        """The settings with cluster `cluster` laid over them (its gates and runtime config merged into the top-level
        ones, its other keys replacing them); UsageError with a suggestion for an unknown cluster name."""
        result = dict(self.settings)
        if cluster is None:
            return result
        if cluster not in self.clusters:
            names = ", ".join(f'"{name}"' for name in self.clusters) or "none"
            raise UsageError(f'no cluster "{cluster}" in {self.path}', where="--config-cluster",
                             hint=did_you_mean(cluster, self.clusters) or f"clusters defined: {names}")
        for name, setting in self.clusters[cluster].items():
            base = result.get(name)
            if base is not None and isinstance(setting.value, dict):
                setting = Setting(name, {**base.value, **setting.value}, setting.where)
            result[name] = setting
        return result


def read_config(path: str) -> ProjectConfig:
    """Parse and check the config file at `path`; UsageError (exit 2) naming `file:line:col` for anything wrong."""
    try:
        text = read_text_capped(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the config file: {getattr(exc, 'strerror', None) or exc}", where=path,
                         hint="check the path given to --config or WASDRA_CONFIG") from None
    root = _compose(path, text)
    reader = _Reader(path)
    if root is None:
        return ProjectConfig(path, MappingProxyType({}), MappingProxyType({}))
    items = reader.mapping(root, "the config file")
    settings: dict[str, Setting] = {}
    clusters: dict[str, Mapping[str, Setting]] = {}
    errors: list[UsageError] = []   # every bad key of the file in one pass, not one per run
    for key_node, value_node in items:
        try:
            name = reader.key_name(key_node, TOP_LEVEL)
            if name == "clusters":
                clusters = reader.clusters(value_node, errors)
            else:
                settings[name] = reader.setting(BY_NAME[name], value_node)
        except UsageError as exc:
            errors.append(exc)
    if errors:
        raise errors[0] if len(errors) == 1 else UsageErrors(errors)
    return ProjectConfig(path, MappingProxyType(settings), MappingProxyType(clusters))


def _compose(path: str, text: str) -> yaml.Node | None:
    import yaml

    deep = too_deep_documents(text, MAX_DEPTH)
    if deep:
        raise UsageError(TOO_DEEP_LEVELS, where=f"{path}:{document_span(text, deep[0])[0] + 1}:1",
                         hint="a config file is a flat mapping of settings")
    try:
        nodes = list(yaml.compose_all(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        raise UsageError(f"the config file is not valid YAML: {exc.problem or exc}", where=where,
                         hint="fix the syntax (indent with spaces)") from None
    except yaml.YAMLError as exc:  # a ReaderError: control characters, which carry a position of their own
        raise UsageError(f"the config file is not valid YAML: {str(exc).splitlines()[0]}", where=path,
                         hint="save it as plain UTF-8 text") from None
    if len(nodes) > 1:
        raise UsageError("the config file holds several YAML documents", where=_where(path, nodes[1]),
                         hint="keep one document (remove the `---`)")
    return nodes[0] if nodes else None


def _where(path: str, node: yaml.Node) -> str:
    return f"{path}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"


class _Reader:
    """Checks nodes of one file and turns them into plain values; every error names the node's position."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.directory = os.path.dirname(os.path.abspath(path))

    def absolute(self, item: str) -> str:
        """A path written in the file, made absolute: relative paths are relative to the file, `~` is the home."""
        return os.path.normpath(os.path.join(self.directory, os.path.expanduser(item)))

    def error(self, node: yaml.Node, message: str, hint: str) -> UsageError:
        return UsageError(message, where=_where(self.path, node), hint=hint)

    def mapping(self, node: yaml.Node, what: str) -> list[tuple[yaml.Node, yaml.Node]]:
        import yaml

        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{what} must be a mapping", "write `key: value` lines")
        seen: set[str] = set()
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.error(key_node, f"a key of {what} is a {key_node.id}, not a name", "write plain `key: value` lines")
            if key_node.value in seen:
                raise self.error(key_node, f'duplicate key "{key_node.value}"', "keep one of them")
            seen.add(key_node.value)
        return list(node.value)

    def key_name(self, node: yaml.Node, allowed: tuple[str, ...], where: str = "") -> str:
        name = str(node.value)
        if name in allowed:
            return name
        close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.5) or \
            [a for a in allowed if a.lower() == name.lower()]
        hint = f'did you mean "{close[0]}"?' if close else f"known keys: {', '.join(allowed)}"
        raise self.error(node, f'unknown key "{name}"{where}', hint)

    def scalar(self, node: yaml.Node, what: str) -> str | bool:
        import yaml

        if not isinstance(node, yaml.ScalarNode) or (node.value == "" and node.tag.endswith(":null")):
            raise self.error(node, f"{what} must be a single value", "write one value after the colon")
        if node.tag == _BOOL_TAG:
            return node.value.lower() in _TRUE_WORDS
        return str(node.value)

    def string(self, node: yaml.Node, what: str) -> str:
        value = self.scalar(node, what)
        if isinstance(value, bool):
            raise self.error(node, f"{what} must be text, not the boolean {str(value).lower()}", "quote it")
        return value

    def strings(self, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node]]:
        """A list of strings, or one string (comma-separated items allowed), each with its node."""
        import yaml

        if isinstance(node, yaml.SequenceNode):
            return [(self.string(item, f"each item of {what}"), item) for item in node.value]
        return [(item.strip(), node) for item in self.string(node, what).split(",") if item.strip()]

    def setting(self, key: Key, node: yaml.Node, prefix: str = "") -> Setting:
        check = _CHECKS[key.kind]
        return Setting(key.name, check(self, key, node, prefix + key.name), _where(self.path, node))

    def clusters(self, node: yaml.Node, errors: list[UsageError]) -> dict[str, Mapping[str, Setting]]:
        """The `clusters` descriptions; a bad key inside one is added to `errors` and reading goes on."""
        allowed = tuple(key.name for key in KEYS if key.cluster)
        clusters: dict[str, Mapping[str, Setting]] = {}
        for name_node, body in self.mapping(node, "clusters"):
            name = self.string(name_node, "a cluster name")
            values = {}
            for key_node, value_node in self.mapping(body, f"cluster {name!r}"):
                try:
                    key = self.key_name(key_node, allowed, f" in cluster \"{name}\"")
                    values[key] = self.setting(BY_NAME[key], value_node, f"clusters.{name}.")
                except UsageError as exc:
                    errors.append(exc)
            clusters[name] = MappingProxyType(values)
        return clusters


def _releases(reader: _Reader, key: Key, node: yaml.Node, what: str) -> str:
    from kubectl_wasdra.catalog.releases import parse_release_list

    text = ",".join(item for item, _ in reader.strings(node, what))
    if text.strip().lower() != "auto":
        try:
            parse_release_list(text)
        except UsageError as exc:
            raise reader.error(node, f"{what}: {exc.message}", exc.hint or "") from None
    return text


def _gates(reader: _Reader, key: Key, node: yaml.Node, what: str) -> dict[str, bool]:
    gates: dict[str, bool] = {}
    known = _known_gates()
    for name_node, value_node in reader.mapping(node, what):
        name = reader.string(name_node, "a feature gate name")
        if name not in known:
            raise reader.error(name_node, f'{what}: unknown feature gate "{name}"',
                               did_you_mean(name, known) or "see `kubectl wasdra gates`")
        value = reader.scalar(value_node, f"{what}.{name}")
        if not isinstance(value, bool):
            raise reader.error(value_node, f'{what}.{name} must be true or false, not "{value}"', "write true or false")
        gates[name] = value
    return gates


def _known_gates() -> frozenset[str]:
    from kubectl_wasdra.catalog.gates import gate_table
    from kubectl_wasdra.catalog.releases import SUPPORTED

    names: set[str] = set()
    for release in SUPPORTED:
        table = gate_table(release)
        names.update(table.gates, table.elsewhere)
    return frozenset(names)


def _runtime(reader: _Reader, key: Key, node: yaml.Node, what: str) -> dict[str, bool]:
    from kubectl_wasdra.catalog.apis import parse_runtime_config

    config: dict[str, bool] = {}
    for name_node, value_node in reader.mapping(node, what):
        name = reader.string(name_node, "a group/version")
        value = reader.scalar(value_node, f"{what}.{name}")
        if not isinstance(value, bool):
            raise reader.error(value_node, f'{what}.{name} must be true or false, not "{value}"', "write true or false")
        try:
            parse_runtime_config([name])
        except UsageError as exc:
            raise reader.error(name_node, f"{what}: {exc.message}", exc.hint or "") from None
        config[name] = value
    return config


def _choice(reader: _Reader, key: Key, node: yaml.Node, what: str) -> str:
    value = reader.string(node, what)
    if value not in key.choices:
        close = difflib.get_close_matches(value, key.choices, n=1, cutoff=0.5)
        raise reader.error(node, f'{what}: "{value}" is not one of {", ".join(key.choices)}',
                           f'did you mean "{close[0]}"?' if close else f"use one of {', '.join(key.choices)}")
    return value


def _rules(reader: _Reader, key: Key, node: yaml.Node, what: str) -> list[str]:
    from kubectl_wasdra.lint.registry import select_rules

    items = reader.strings(node, what)
    for item, item_node in items:
        try:
            select_rules([item])
        except UsageError as exc:
            raise reader.error(item_node, f"{what}: {exc.message}", exc.hint or "") from None
    return [item for item, _ in items]


def _paths(reader: _Reader, key: Key, node: yaml.Node, what: str) -> list[str]:
    found = []
    for item, item_node in reader.strings(node, what):
        path = reader.absolute(item)
        if not os.path.exists(path):
            raise reader.error(item_node, f'{what}: "{item}" does not exist (relative to {reader.directory})',
                               "paths in the config file are relative to the file")
        found.append(path)
    return found


def _path(reader: _Reader, key: Key, node: yaml.Node, what: str) -> str:
    return reader.absolute(reader.string(node, what))


def _globs(reader: _Reader, key: Key, node: yaml.Node, what: str) -> list[str]:
    return [item for item, _ in reader.strings(node, what)]


def _globmap(reader: _Reader, key: Key, node: yaml.Node, what: str) -> dict[str, list[str]]:
    result = {}
    for glob_node, rules_node in reader.mapping(node, what):
        pattern = reader.string(glob_node, "a glob")
        result[pattern] = _rules(reader, key, rules_node, f"{what}[{pattern!r}]")
    return result


_CHECKS: Mapping[str, Callable[[_Reader, Key, Any, str], Any]] = MappingProxyType({
    "releases": _releases, "gates": _gates, "runtime": _runtime, "choice": _choice, "rules": _rules,
    "paths": _paths, "path": _path, "globs": _globs, "globmap": _globmap,
})
