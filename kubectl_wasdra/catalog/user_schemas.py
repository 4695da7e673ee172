"""Schemas given with `--schema-location`: kubeconform-style JSON files and CRD manifests.

A location is a directory or a file. JSON files are named `{kind}_{version}.json` (kind in lower case), optionally
in a `{group}/` subdirectory, as kubeconform expects; any YAML/JSON file holding CustomResourceDefinitions contributes
each served version's `openAPIV3Schema`, converted to a JSON schema with kube-apiserver's structural-schema meaning
(unknown fields are errors unless x-kubernetes-preserve-unknown-fields; x-kubernetes-int-or-string; nullable).
Upstream: k8s.io/apiextensions-apiserver pkg/apiserver/schema (structural schemas, pruning).
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from kubectl_wasdra.catalog.schemas import CompiledSchema, compile_schema
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load.bounded import read_capped

_DROPPED: Final = frozenset({"description", "format", "x-kubernetes-validations", "example", "externalDocs", "default"})
_TYPE_META: Final = {"apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"}}


def crd_to_json_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A CRD version's openAPIV3Schema as a strict JSON schema for the whole object."""
    converted = _convert(copy.deepcopy(dict(schema)))
    properties = converted.setdefault("properties", {})
    for name, sub in _TYPE_META.items():
        properties.setdefault(name, sub)
    converted.setdefault("type", "object")
    return converted


def _convert(node: Any) -> Any:
    if isinstance(node, list):
        return [_convert(item) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED or (key.startswith("x-kubernetes-") and key != "x-kubernetes-preserve-unknown-fields"):
            continue
        if key == "properties":
            result[key] = {name: _convert(sub) for name, sub in value.items()}
        elif key != "nullable":
            result[key] = _convert(value)
    if node.get("x-kubernetes-int-or-string"):
        result["type"] = ["integer", "string"]
    preserve = result.pop("x-kubernetes-preserve-unknown-fields", False) or node.get("x-kubernetes-embedded-resource")
    if "properties" in result and "additionalProperties" not in result and not preserve:
        result["additionalProperties"] = False
    if node.get("nullable") and "type" in result:
        types = result["type"] if isinstance(result["type"], list) else [result["type"]]
        result["type"] = [*types, "null"]
    return result


def _crd_schemas(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The schemas of a CRD's versions; a malformed CRD (wrong types anywhere) gives what is well-formed, if anything."""
    spec = _mapping(document.get("spec"))
    group, kind = spec.get("group"), _mapping(spec.get("names")).get("kind")
    versions = spec.get("versions") if isinstance(spec.get("versions"), list) else []
    found = {}
    for version in versions:
        entry = _mapping(version)
        schema = _mapping(entry.get("schema")).get("openAPIV3Schema")
        if isinstance(group, str) and isinstance(kind, str) and isinstance(entry.get("name"), str) and isinstance(schema, dict):
            found[f"{group}/{entry['name']}/{kind}"] = crd_to_json_schema(schema)
    return found


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _read_crds(path: Path) -> dict[str, dict[str, Any]]:
    from kubectl_wasdra.load import load_file

    documents, _ = load_file(str(path))
    schemas: dict[str, dict[str, Any]] = {}
    for document in documents:
        if document.kind == "CustomResourceDefinition":
            schemas.update(_crd_schemas(document.data))
    return schemas


@functools.cache
def crd_index(locations: tuple[str, ...]) -> Mapping[str, dict[str, Any]]:
    """"apiVersion/Kind" -> JSON schema from every CRD file in `locations` (read once per run)."""
    schemas: dict[str, dict[str, Any]] = {}
    for location in locations:
        root = Path(location)
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file())  # no FIFOs
        for path in files:
            if path.suffix in (".yaml", ".yml") or (path.suffix == ".json" and _mentions_crd(path)):
                schemas.update(_read_crds(path))
    return schemas


def _mentions_crd(path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            return b"CustomResourceDefinition" in stream.read(4096)
    except OSError:
        return False


def _json_file(locations: tuple[str, ...], group: str, version: str, kind: str) -> Path | None:
    name = f"{kind.lower()}_{version}.json"
    for location in locations:
        root = Path(location)
        for candidate in (root / group / name, root / name):
            if root.is_dir() and candidate.is_file():
                return candidate
    return None


@functools.lru_cache(maxsize=256)
def user_validator(locations: tuple[str, ...], key: str) -> CompiledSchema | None:
    """Compiled user schema for "apiVersion/Kind", or None when the locations have none for it."""
    api_version, _, kind = key.rpartition("/")
    group, _, version = api_version.rpartition("/")
    path = _json_file(locations, group, version, kind)
    if path is not None:
        try:
            schema = json.loads(read_capped(str(path)))
        except json.JSONDecodeError as exc:
            raise UsageError(f"schema is not valid JSON: {exc.msg}", where=f"{path}:{exc.lineno}:{exc.colno}",
                             hint="fix the JSON syntax at this place") from exc
        except RecursionError:
            raise UsageError("schema is nested too deeply", where=f"{path}:1:1", hint="pass a JSON schema file") from None
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read schema: {exc}", where=f"{path}:1:1", hint="pass a UTF-8 JSON schema file") from exc
        if not isinstance(schema, dict):
            raise UsageError("schema is not a JSON object", where=f"{path}:1:1", hint="pass a JSON schema file")
        return _compile(schema, str(path))
    crd = crd_index(locations).get(key)
    return _compile(crd, key) if crd is not None else None


def _compile(schema: Mapping[str, Any], where: str) -> CompiledSchema:
    try:
        return compile_schema(schema)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"invalid JSON schema: {exc}", where=where, hint="fix or remove the schema") from exc
