"""Hover and completion from the release schemas (schemas/k8s-<release>.json), their field descriptions
(schemas/field-docs.json, tools/gen_field_docs.py), the field-gate table (rules/field-gates.yaml) and the enumerated
values the validation rules accept (enums.py)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.catalog.schemas import resolve_ref
from kubectl_wasdra.lint.pipeline import CheckOptions
from kubectl_wasdra.lsp.yaml_path import ancestors, entries, key_at, type_of

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Field:
    """A schema node reached by a path: the definition that declares the field (for its description), the field's
    name, the node itself and the name of the definition it is (None when inline)."""

    owner: str | None
    name: str | int | None
    node: Mapping[str, Any]
    definition: str | None
    definitions: Mapping[str, Any]


@dataclass(frozen=True)
class Completion:
    label: str
    detail: str
    documentation: str
    is_field: bool
    insert: str


@functools.cache
def _field_docs() -> Mapping[str, Mapping[str, str]]:
    from kubectl_wasdra.catalog.data import read_data
    from kubectl_wasdra.errors import WasdraError

    try:
        return json.loads(read_data("schemas/field-docs.json"))["definitions"]
    except WasdraError:
        return {}


def field_at(release: Release, api_version: str, kind: str, path: Path) -> Field | None:
    """The schema of `path` in `kind` for `release`; None when the release does not know the kind or the field."""
    from kubectl_wasdra.catalog.schemas import schema_set

    schemas = schema_set(release)
    current = schemas.kinds.get(f"{api_version}/{kind}")
    if current is None:
        return None
    node: Mapping[str, Any] = schemas.definitions.get(current, {})
    owner: str | None = None
    for step in path:
        if isinstance(step, int):
            current, node = resolve_ref(node.get("items", {}), schemas.definitions)
            continue
        properties = node.get("properties", {})
        extra = node.get("additionalProperties")
        if step not in properties and not isinstance(extra, Mapping):
            return None
        owner = current
        current, node = resolve_ref(properties.get(step, extra), schemas.definitions)
    return Field(owner, path[-1] if path else None, node, current, schemas.definitions)


def allowed_values(release: Release, field: Field, path: Path) -> list[Any]:
    """The values an enumerated field takes in `release`: the schema's enum, else the validation rules' set (enums.py)."""
    from kubectl_wasdra.lsp.enums import enum_values

    values = [v for v in (field.node.get("enum") or []) if v is not None]
    return values or list(enum_values(release, field.owner, field.name, path))


def _type_text(node: Mapping[str, Any], definitions: Mapping[str, Any], definition: str | None = None) -> str:
    kinds = node.get("type") or ("object" if node.get("properties") else "")
    kinds = [k for k in (kinds if isinstance(kinds, list) else [kinds]) if k and k != "null"]
    if "array" in kinds:
        ref, items = resolve_ref(node.get("items", {}), definitions)
        return f"array of {_type_text(items, definitions, ref)}"
    return (definition.rpartition(".")[2] + " (object)") if definition else " or ".join(kinds) or "any"


def _releases_with(api_version: str, kind: str, path: Path) -> list[Release]:
    return [release for release in SUPPORTED if field_at(release, api_version, kind, path) is not None]


def _gated(release: Release, api_version: str, kind: str, path: Path) -> list[Any]:
    """The field-gate entries (rules/field-gates.yaml) that govern `path` in `release`."""
    from kubectl_wasdra.catalog.field_gates import ANY_ITEM, ANY_VALUE, gated_fields

    def matches(pattern: tuple[str, ...]) -> bool:
        return len(pattern) == len(path) and all(
            (part == ANY_ITEM and isinstance(step, int)) or (part == ANY_VALUE and isinstance(step, str)) or part == step
            for part, step in zip(pattern, path, strict=True))

    return [field for field in gated_fields(release, api_version, kind) if matches(field.pattern)]


def describe_field(lines: list[str], row: int, column: int, options: CheckOptions) -> str | None:
    """Markdown for the field under the cursor: description, type, allowed values, the releases that have it and
    the feature gates that govern it; None when the cursor is not on a known field."""
    found = key_at(lines, row, column)
    api_version, kind = type_of(lines, row)
    if found is None or api_version is None or kind is None:
        return None
    path = found[0]
    release = options.releases[-1]
    field = field_at(release, api_version, kind, path)
    if field is None:
        return None
    description = _field_docs().get(field.owner or "", {}).get(found[1], "")
    type_text = _type_text(field.node, field.definitions, field.definition)
    lines_out = [f"**{found[1]}**: `{type_text}` ({kind} {api_version})", ""]
    lines_out += [description, ""] if description else []
    values = allowed_values(release, field, path)
    if values:
        lines_out.append("- Allowed values: " + ", ".join(f"`{v}`" for v in values))
    present = _releases_with(api_version, kind, path)
    span = f"{present[0]}-{present[-1]}" if len(present) > 1 else str(present[0])
    lines_out.append(f"- In Kubernetes {span}" + (f" (added in {present[0]})" if present[0] != SUPPORTED[0] else ""))
    for gated in _gated(release, api_version, kind, path):
        lines_out += [f"- {_gate_line(gate, release, options)}" for gate in gated.gates_all]
        lines_out.append(f"  - with the gate off: {gated.effect}" + (f" ({gated.note})" if gated.note else ""))
    return "\n".join(lines_out).strip()   # a Markdown list: one fact per item


def _gate_line(gate: str, release: Release, options: CheckOptions) -> str:
    """"Feature gate `X` (beta since 1.36, on by default): on with these settings"."""
    from kubectl_wasdra.catalog.gates import gate_table

    info = gate_table(release).get(gate)
    state = "on" if options.context(release).gate_enabled(gate) else "off"
    about = f" ({info.since}, {'on' if info.default else 'off'} by default in {release})" if info is not None else ""
    return f"Feature gate `{gate}`{about}: {state} with these settings"


def complete(lines: list[str], row: int, column: int, options: CheckOptions) -> list[Completion]:
    """Field names valid at the cursor (those not yet set in the object) or, after `key: `, the field's enum values,
    for the configured (newest) release."""
    api_version, kind = type_of(lines, row)
    if row >= len(lines):
        return []
    release = options.releases[-1]
    line = lines[row][:column]
    keyed = [e for e in entries(line) if e.type == "key"]
    if keyed and (keyed[0].value_column is not None or line.endswith(": ")):
        path = (*ancestors(lines, row, keyed[0].column), keyed[0].key or "")
        if path in (("apiVersion",), ("kind",)):
            return _type_values(release, str(path[0]), api_version)
        if api_version is None or kind is None:
            return []
        field = field_at(release, api_version, kind, path)
        values = allowed_values(release, field, path) if field else []
        return [Completion(str(v), f"{keyed[0].key} value in Kubernetes {release}", "", False, str(v)) for v in values]
    if api_version is None or kind is None:
        return []
    start = len(line) - len(line.lstrip(" -"))
    parent = ancestors(lines, row, start)
    field = field_at(release, api_version, kind, parent)
    if field is None:
        return []
    taken = _siblings(lines, row, start)
    docs = _field_docs().get(field.definition or "", {})
    items = []
    for name, sub in sorted(field.node.get("properties", {}).items()):
        if name not in taken:
            ref, node = resolve_ref(sub, field.definitions)
            items.append(Completion(name, _type_text(node, field.definitions, ref), docs.get(name, ""), True, f"{name}: "))
    return items


def _type_values(release: Release, key: str, api_version: str | None) -> list[Completion]:
    """apiVersion: the group/versions the release serves; kind: the kinds of the document's apiVersion (all kinds when
    it has none yet)."""
    from kubectl_wasdra.catalog.schemas import schema_set

    served = [type_key.rpartition("/") for type_key in schema_set(release).kinds]
    if key == "apiVersion":
        values = sorted({version for version, _, _ in served})
    else:
        values = sorted({kind for version, _, kind in served if api_version in (None, version)})
    return [Completion(value, f"{key} served by Kubernetes {release}", "", False, value) for value in values]


def _siblings(lines: list[str], row: int, column: int) -> set[str]:
    """Keys already set at `column` in the mapping that holds `row` (above and below it)."""
    taken: set[str] = set()
    for step in (-1, 1):
        current = row + step
        while 0 <= current < len(lines) and not lines[current].startswith("---"):
            found = entries(lines[current])
            if found and min(e.column for e in found) < column:
                break
            taken.update(e.key for e in found if e.type == "key" and e.column == column and e.key)
            current += step
    return taken
