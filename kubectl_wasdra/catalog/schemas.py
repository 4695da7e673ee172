"""Versioned JSON schemas: one validator per (release, apiVersion/kind), compiled on first use with jsonschema-rs.

Built-in kinds come from schemas/k8s-<release>.json (tools/gen_schemas.py); custom resources from
`--schema-location` (catalog/user_schemas.py). Every error of a document is reported, each as a `Violation` whose
path points at the offending key (unknown and missing fields) or value (types, enums, other constraints).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.catalog.data import data_path, read_data
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.catalog.spelling import closest_name, did_you_mean
from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.load.document import value_at

_DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
_SHOWN_FIELDS: Final = 8


@dataclass(frozen=True)
class Violation:
    """One schema error: category ("type", "unknown", "required", "enum", "other", "skipped"), field path, message,
    hint, and whether the position is the key or the value."""

    category: str
    path: tuple[str | int, ...]
    message: str
    hint: str | None = None
    at: str = "key"
    subject: tuple[str | int, ...] | None = None  # the value at fault when reported elsewhere (a missing field)


@dataclass(frozen=True)
class SchemaSet:
    """One release's schemas: "apiVersion/Kind" -> definition name, and the definitions."""

    release: Release
    kinds: Mapping[str, str]
    definitions: Mapping[str, Any]


@functools.cache
def schema_set(release: Release) -> SchemaSet:
    """The release's schema file; through its index (catalog/schema_index.py) only the definitions the checked kinds
    reach are read and parsed. Without an index that matches the file, the whole file is parsed."""
    from kubectl_wasdra.catalog.schema_index import Definitions, map_file

    name = f"schemas/k8s-{release}.json"
    try:
        index = json.loads(read_data(f"schemas/k8s-{release}.index.json"))
    except WasdraError:
        index = None
    data = map_file(data_path(name)) if index is not None else None
    if data is None or index["size"] != len(data):
        raw = json.loads(read_data(name))
        return SchemaSet(release, raw["kinds"], raw["$defs"])
    return SchemaSet(release, index["kinds"], Definitions(data, index["spans"]))


def type_key(data: Mapping[str, Any]) -> str | None:
    api_version, kind = data.get("apiVersion"), data.get("kind")
    return f"{api_version}/{kind}" if isinstance(api_version, str) and isinstance(kind, str) else None


@dataclass(frozen=True)
class CompiledSchema:
    """A validator plus the schema it was built from (to look up allowed field names for did-you-mean), or what makes
    that schema: a built-in kind is compiled from its raw JSON text and parsed only when an error is described."""

    validator: Any
    source: Mapping[str, Any] | Callable[[], Mapping[str, Any]]

    @functools.cached_property
    def schema(self) -> Mapping[str, Any]:
        return self.source() if callable(self.source) else self.source

    def violations(self, data: Any) -> Iterator[Violation]:
        if self.validator.is_valid(data):
            return
        for error in self.validator.iter_errors(data):
            yield from describe(error, self.schema, data)


def _closure(definitions: Mapping[str, Any], root: str) -> dict[str, Any]:
    """The definitions reachable from `root`, parsed."""
    return {name: definitions[name] for name in _closure_names(definitions, root)}


def _closure_names(definitions: Mapping[str, Any], root: str) -> list[str]:
    """The names of the definitions reachable from `root`, `root` first. Through the schema index
    (catalog/schema_index.py) each definition's references are read off its raw JSON; a Pod's 139 definitions took
    2.3 ms to walk, half of it outside parsing."""
    read_references = getattr(definitions, "references", None)
    found: dict[str, None] = {}
    pending = [root]
    while pending:
        name = pending.pop()
        if name in found:
            continue
        found[name] = None
        pending.extend(read_references(name) if read_references is not None else _references(definitions[name]))
    return list(found)


def _references(value: Any) -> Iterator[str]:
    """The definition names `value` refers to ("$ref": "#/$defs/<name>") anywhere inside it."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                yield ref[len("#/$defs/"):]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


# Integer fields are Go int32/int64, so no value beyond their range decodes: tools/gen_schemas.py gives every integer
# of the built-in schemas these bounds (tests/catalog/test_schema_index.py checks each one)
_INT64: Final = (-(2**63), 2**63 - 1)
_INT32: Final = (-(2**31), 2**31 - 1)


def compile_schema(schema: Mapping[str, Any]) -> CompiledSchema:
    """jsonschema-rs validator for `schema` (draft 2020-12 unless it says otherwise)."""
    from kubectl_wasdra.catalog.validator_import import load_jsonschema_rs

    jsonschema_rs = load_jsonschema_rs()
    if "$schema" in schema:
        return CompiledSchema(jsonschema_rs.validator_for(dict(schema)), schema)
    return CompiledSchema(jsonschema_rs.Draft202012Validator(dict(schema)), schema)


@functools.lru_cache(maxsize=512)
def builtin_validator(release: Release, key: str) -> CompiledSchema | None:
    """The compiled schema of a built-in "apiVersion/Kind" in `release`, or None when the release has none. Through
    the schema index the validator is built from the definitions' raw JSON text, which jsonschema-rs parses itself:
    parsing each definition here and handing the values over cost a Deployment or a Pod 0.6 ms more."""
    schemas = schema_set(release)
    root = schemas.kinds.get(key)
    if root is None:
        return None
    definitions = schemas.definitions

    def parsed() -> dict[str, Any]:
        return {"$schema": _DRAFT, "$ref": f"#/$defs/{root}", "$defs": _closure(definitions, root)}

    raw = getattr(definitions, "raw", None)
    if raw is None:
        return compile_schema(parsed())
    from kubectl_wasdra.catalog.validator_import import load_jsonschema_rs

    entries = ",".join(f'"{name}":{raw(name)}' for name in _closure_names(definitions, root))
    text = f'{{"$schema":"{_DRAFT}","$ref":"#/$defs/{root}","$defs":{{{entries}}}}}'
    return CompiledSchema(load_jsonschema_rs().Draft202012Validator(text), parsed)


def releases_with_field(key: str, path: tuple[str | int, ...]) -> tuple[Release, ...]:
    """The supported releases whose schema of built-in "apiVersion/Kind" `key` defines the field at `path` (its last
    step is the field name): asked only for an unknown field, to say "added in 1.37" rather than guess a neighbour."""
    from kubectl_wasdra.catalog.releases import SUPPORTED

    found = []
    for release in SUPPORTED:
        compiled = builtin_validator(release, key)
        if compiled is not None and path and path[-1] in properties_at(compiled.schema, path[:-1]):
            found.append(release)
    return tuple(found)


def is_builtin_group(api_version: str) -> bool:
    """True when the group of `api_version` belongs to Kubernetes itself (in any supported release)."""
    from kubectl_wasdra.catalog.apis import builtin_groups

    group = api_version.rpartition("/")[0]
    return group in builtin_groups()


def validate_document(release: Release, data: Mapping[str, Any], schema_locations: tuple[str, ...] = ()) -> Iterator[Violation]:
    """Every violation of `data` against its kind's schema in `release`. A custom resource without a schema gives
    one "skipped" violation; a built-in apiVersion the release does not serve gives none (API rules report it)."""
    key = type_key(data)
    if key is None:
        return
    compiled = None
    if schema_locations:
        from kubectl_wasdra.catalog.user_schemas import user_validator

        compiled = user_validator(schema_locations, key)
    if compiled is None:
        compiled = builtin_validator(release, key)
    if compiled is not None:
        yield from compiled.violations(data)
    elif not is_builtin_group(data["apiVersion"]):
        yield _skipped(data["apiVersion"], data["kind"])


def _skipped(api_version: str, kind: str) -> Violation:
    """No schema: a component's configuration file says what reads it; a custom resource points at its CRD."""
    from kubectl_wasdra.catalog.component_configs import component_config

    config = component_config(api_version)
    if config is not None:
        return Violation("skipped", ("kind",), f"{api_version} {kind} is {config.what}, not an object of the "
                         "Kubernetes API: schema validation skipped", config.how, at="value")
    return Violation("skipped", ("kind",), f"no schema for {api_version} {kind}: schema validation skipped",
                     _skipped_hint(api_version), at="value")


def _skipped_hint(api_version: str) -> str:
    """A typo'd built-in group gets a suggestion; otherwise point at --schema-location."""
    from kubectl_wasdra.catalog.apis import builtin_groups

    group = api_version.rpartition("/")[0]
    close = closest_name(group, (g for g in builtin_groups() if g), cutoff=0.85) if group else None
    if close is not None:
        return f'did you mean the built-in group "{close}"?'
    return "pass its CRD or JSON schema with --schema-location DIR"


def describe(error: Any, schema: Mapping[str, Any], data: Any) -> Iterator[Violation]:
    """A jsonschema-rs error as Violations with Kubernetes-style messages: one per unknown field (each at its own
    key), otherwise one."""
    kind = error.kind
    if getattr(kind, "name", "") == "additionalProperties":
        path = tuple(int(p) if isinstance(p, int) else p for p in error.instance_path)
        for field in kind.unexpected:
            yield _unknown(path, field, schema)
        return
    yield _describe_one(error, schema, data)


def _describe_one(error: Any, schema: Mapping[str, Any], data: Any) -> Violation:
    path = tuple(int(p) if isinstance(p, int) else p for p in error.instance_path)
    kind = error.kind
    name = getattr(kind, "name", "")
    actual = value_at(data, path)
    if isinstance(actual, float) and not math.isfinite(actual):
        return Violation("type", path, f"the number is too large: it reads as {actual}",
                         "use a smaller number, or quote the value if it is meant as a string", at="value")
    if name in ("maximum", "minimum") and (limit := getattr(kind, "limit", None)) in (*_INT64, *_INT32):
        bits = 64 if limit in _INT64 else 32
        return Violation("other", path, f"{error.instance} does not fit in a {bits}-bit integer",
                         "Kubernetes integer fields are int32 or int64; use a smaller value", at="value")
    if name == "required":
        return Violation("required", path, f'missing required field "{kind.property}"',
                         f'add "{kind.property}"' + (f" to {_format(path)}" if path else ""),
                         subject=(*path, kind.property))
    if name == "type":
        return _wrong_type(path, list(kind.types), error.instance)
    if name == "enum":
        options = ", ".join(json.dumps(o) for o in kind.options)
        return Violation("enum", path, f"unsupported value {json.dumps(error.instance)}: supported values: {options}",
                         "use one of the supported values", at="value")
    return Violation("other", path, error.message, None, at="value")


def _unknown(path: tuple[str | int, ...], field: str, schema: Mapping[str, Any]) -> Violation:
    allowed = sorted(properties_at(schema, path))
    message = f'unknown field "{field}"'
    shown = ", ".join(allowed[:_SHOWN_FIELDS]) + (", ..." if len(allowed) > _SHOWN_FIELDS else "")
    hint = did_you_mean(field, allowed) or (f"remove it; known fields here: {shown}" if allowed else "remove it")
    return Violation("unknown", (*path, field), message, hint)


def _wrong_type(path: tuple[str | int, ...], expected: list[str], value: Any) -> Violation:
    wanted = " or ".join(t for t in expected if t != "null") or "null"
    got = _json_type(value)
    shown = json.dumps(value) if got in ("string", "number", "integer", "boolean") else got
    hint = f"use a value of type {wanted}"
    if got == "boolean" and "string" in expected:
        hint = "quote the value: YAML reads unquoted yes/no/on/off/y/n/true/false as booleans"
    elif got in ("number", "integer") and "string" in expected:
        hint = "quote it: unquoted digits are read as a number"
    return Violation("type", path, f"expected {wanted}, got {got} {shown}" if shown != got else f"expected {wanted}, got {got}",
                     hint, at="value")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _format(path: tuple[str | int, ...]) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def properties_at(schema: Mapping[str, Any], path: tuple[str | int, ...]) -> set[str]:
    """Field names the schema allows for the object at `path` (following $ref, properties and items)."""
    definitions = schema.get("$defs", {})
    node = resolve_ref(schema, definitions)[1]
    for step in path:
        if isinstance(step, int) or step.isdigit():
            node = resolve_ref(node.get("items", {}), definitions)[1]
        else:
            properties = node.get("properties", {})
            additional = node.get("additionalProperties")
            node = resolve_ref(properties.get(step, additional if isinstance(additional, dict) else {}), definitions)[1]
    return set(node.get("properties", {}))


def resolve_ref(node: Any, definitions: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any]]:
    """(the name of the last definition followed, None when `node` has no $ref; the node it resolves to, {} when
    that is not an object), following at most 32 `$ref`s (a cycle ends there)."""
    name = None
    for _ in range(32):
        if not isinstance(node, dict) or "$ref" not in node:
            break
        name = node["$ref"].rpartition("/")[2]
        node = definitions.get(name, {})
    return name, node if isinstance(node, dict) else {}
