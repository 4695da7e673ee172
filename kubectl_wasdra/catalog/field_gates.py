"""Manifest fields that need a feature gate, per release and (group, version, kind), with pod-template projections.

Paths use `[]` for any list item and `{}` for any map value. Pod spec gates also apply to the pod templates of
workload kinds (Deployment, Job, CronJob, ...). Lookups are precomputed per (release, apiVersion, kind) so a check
walks only the few gated paths of that kind, and only through fields that exist.
Upstream: kubernetes/api `+featureGate=` markers in */types.go; kubernetes/kubernetes pkg/api/pod/util.go
(dropDisabledFields). Data: rules/field-gates.yaml.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.catalog.data import read_yaml
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.load.document import value_at

DATA_FILE: Final = "rules/field-gates.yaml"
ANY_ITEM: Final = "[]"
ANY_VALUE: Final = "{}"
# Effects for which a field in a manifest changes nothing on create; the check skips them.
CREATE_NEUTRAL_EFFECTS: Final = frozenset({"status", "update-only", "behaviour", "not-served"})

# (group, kind) -> where the pod template's metadata/spec sit; Pod gates are projected under these prefixes.
POD_TEMPLATE_PREFIXES: Final[Mapping[tuple[str, str], tuple[str, ...]]] = {
    ("apps", "Deployment"): ("spec", "template"),
    ("apps", "StatefulSet"): ("spec", "template"),
    ("apps", "DaemonSet"): ("spec", "template"),
    ("apps", "ReplicaSet"): ("spec", "template"),
    ("batch", "Job"): ("spec", "template"),
    ("batch", "CronJob"): ("spec", "jobTemplate", "spec", "template"),
    ("", "ReplicationController"): ("spec", "template"),
    ("", "PodTemplate"): ("template",),
}

PathPattern = tuple[str, ...]
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class FieldGate:
    """One gated field of one kind in one release: the pattern to look for and what the gate decides."""

    pattern: PathPattern
    gate: str
    gates_all: tuple[str, ...]       # every gate that must be on (usually just `gate`)
    effect: str                      # dropped | rejected | not-served | status | update-only | behaviour
    note: str
    when_value: Any = None           # the gate matters only when the field has this value
    template_of: str | None = None   # "Pod" when projected from a Pod field into a pod template

    @property
    def display(self) -> str:
        return format_pattern(self.pattern)


def parse_pattern(text: str) -> PathPattern:
    """"spec.devices.requests[].firstAvailable" -> ("spec", "devices", "requests", "[]", "firstAvailable")."""
    parts: list[str] = []
    for segment in text.split("."):
        while segment.endswith(ANY_ITEM) or segment.endswith(ANY_VALUE):
            marker = segment[-2:]
            segment = segment[:-2]
            parts.extend((segment, marker) if segment else (marker,))
            segment = ""
        if segment:
            parts.append(segment)
    return tuple(parts)


def format_pattern(pattern: PathPattern) -> str:
    text = ""
    for part in pattern:
        text += part if part in (ANY_ITEM, ANY_VALUE) else (f".{part}" if text else part)
    return text


def split_api_version(api_version: str) -> tuple[str, str]:
    """"resource.k8s.io/v1" -> ("resource.k8s.io", "v1"); "v1" -> ("", "v1")."""
    group, _, version = api_version.rpartition("/")
    return group, version


@functools.cache
def _raw_fields() -> tuple[Mapping[str, Any], ...]:
    return tuple(read_yaml(DATA_FILE))  # type: ignore[arg-type]


def _to_field_gate(raw: Mapping[str, Any], prefix: PathPattern = (), template_of: str | None = None) -> FieldGate:
    pattern = ("*",) if raw["path"] == "*" else prefix + parse_pattern(raw["path"])
    return FieldGate(pattern=pattern, gate=raw["gate"], gates_all=tuple(raw.get("gates_all") or (raw["gate"],)),
                     effect=raw.get("effect", "dropped"), note=raw.get("note", ""), when_value=raw.get("when_value"),
                     template_of=template_of)


@functools.cache
def gated_fields(release: Release, api_version: str, kind: str) -> tuple[FieldGate, ...]:
    """Every gated field of `kind` in `api_version` for `release` (pod template fields included), in data order."""
    group, version = split_api_version(api_version)
    minor = str(release)
    result: list[FieldGate] = []
    template_prefix = POD_TEMPLATE_PREFIXES.get((group, kind))
    for raw in _raw_fields():
        versions = (raw.get("releases") or {}).get(minor) or ()
        if raw["group"] == group and raw["kind"] == kind and version in versions:
            result.append(_to_field_gate(raw))
        elif (template_prefix is not None and raw["group"] == "" and raw["kind"] == "Pod" and "v1" in versions
              and raw["path"].startswith("spec.")):
            result.append(_to_field_gate(raw, template_prefix, template_of="Pod"))
    return tuple(result)


@functools.cache
def kind_gates(release: Release, api_version: str, kind: str) -> tuple[FieldGate, ...]:
    """Gates that the whole kind needs (`path: "*"`) in `release`."""
    return tuple(f for f in gated_fields(release, api_version, kind) if f.pattern == ("*",))


@functools.cache
def checked_fields(release: Release, api_version: str, kind: str) -> tuple[FieldGate, ...]:
    """The gated fields whose presence in a manifest matters on create (what the GATE rules walk)."""
    return tuple(f for f in gated_fields(release, api_version, kind)
                 if f.effect not in CREATE_NEUTRAL_EFFECTS and f.pattern != ("*",))


def find_present(data: Any, pattern: PathPattern) -> Iterator[Path]:
    """Concrete paths in `data` matching `pattern`, walking only through fields that exist (a null value counts)."""
    yield from _walk(data, pattern, 0, ())


def find_governed(data: Any, field: FieldGate) -> Iterator[Path]:
    """The paths of `data` where `field` is set as its gate governs it: present, and holding its when_value if it has
    one (HPA minReplicas is gated only at 0)."""
    for path in find_present(data, field.pattern):
        if field.when_value is None or value_at(data, path) == field.when_value:
            yield path


def _walk(node: Any, pattern: PathPattern, depth: int, path: Path) -> Iterator[Path]:
    if depth == len(pattern):
        yield path
        return
    step = pattern[depth]
    if step == ANY_ITEM:
        if isinstance(node, list):
            for index, item in enumerate(node):
                yield from _walk(item, pattern, depth + 1, (*path, index))
    elif step == ANY_VALUE:
        if isinstance(node, dict):
            for key, value in node.items():
                yield from _walk(value, pattern, depth + 1, (*path, str(key)))
    elif isinstance(node, dict) and step in node:
        yield from _walk(node[step], pattern, depth + 1, (*path, step))
