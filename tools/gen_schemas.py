#!/usr/bin/env python3
"""Generate schemas/k8s-<release>.json: compact strict JSON schemas of every built-in kind, per release 1.33-1.37.

Source: the `*-local-strict` schemas of the PyPI package kubernetes-validate 1.37.0 (kubernetes-json-schema, built from
each release's OpenAPI; strict = additionalProperties: false). Per release one file: `kinds` maps "apiVersion/Kind" to
a definition name, `$defs` holds the definitions reachable from those kinds with descriptions and x-kubernetes-*
annotations dropped and references made local; `format: int32` / `int64` on integers becomes minimum/maximum
(the API server rejects a value out of the type's range; validators ignore `format`). IntOrString and Quantity
become plain type unions (their upstream `oneOf` of two nullable types rejects null).

    python tools/gen_schemas.py            # rewrite schemas/
    python tools/gen_schemas.py --check    # exit 1 when schemas/ is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.generated import write_or_check

RELEASES = ("1.33", "1.34", "1.35", "1.36", "1.37")
SOURCE_PACKAGE = "kubernetes-validate 1.37.0"
REF_PREFIXES = ("/api/_definitions.json#/$defs/", "_definitions.json#/$defs/", "#/$defs/")
REPLACED = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": ["string", "integer", "null"]},
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": ["string", "number", "null"]},
}
# Fields the OpenAPI lists as required that the API server fills in by defaulting before it validates, so leaving
# them out is accepted (the strict schemas would report them missing). Later releases' OpenAPI already has them optional.
SERVER_DEFAULTED = {
    # pkg/apis/batch/v1/defaults.go SetDefaults_Job: an empty onPodConditions[].status becomes "True"
    "io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern": ("status",),
}
KEEP = ("type", "properties", "additionalProperties", "items", "required", "enum", "oneOf", "anyOf", "allOf", "$ref",
        "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "pattern")
INTEGER_RANGES = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}


def source_dir(release: str) -> Path:
    import kubernetes_validate

    return Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema" / f"v{release}.0-local-strict"


def local_ref(ref: str) -> str:
    for prefix in REF_PREFIXES:
        if ref.startswith(prefix):
            return ref[len(prefix):]
    raise ValueError(f"unexpected $ref {ref!r}")


def compact(node: Any) -> Any:
    """Drop descriptions and annotations, make references local."""
    if isinstance(node, list):
        return [compact(item) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key in KEEP:
        if key not in node:
            continue
        value = node[key]
        if key == "$ref":
            result[key] = "#/$defs/" + local_ref(value)
        elif key == "properties":
            result[key] = {name: compact(sub) for name, sub in value.items()}
        else:
            result[key] = compact(value)
    return {**result, **integer_range(node)}


def integer_range(node: dict[str, Any]) -> dict[str, int]:
    """minimum/maximum for an integer with format int32/int64, keeping any tighter bound the schema states."""
    kinds = node.get("type")
    if node.get("format") not in INTEGER_RANGES or "integer" not in (kinds if isinstance(kinds, list) else [kinds]):
        return {}
    low, high = INTEGER_RANGES[node["format"]]
    return {"minimum": max(low, node.get("minimum", low)), "maximum": min(high, node.get("maximum", high))}


def references(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$ref"), str):
                found.add(item["$ref"].removeprefix("#/$defs/"))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def top_level_kinds(definitions: dict[str, Any]) -> dict[str, str]:
    """"apiVersion/Kind" -> definition name, for objects with ObjectMeta (Lists and meta types left out)."""
    kinds = {}
    for name, schema in definitions.items():
        gvks = schema.get("x-kubernetes-group-version-kind") or []
        metadata_ref = (schema.get("properties", {}).get("metadata") or {}).get("$ref", "")
        if len(gvks) != 1 or not metadata_ref.endswith("meta.v1.ObjectMeta"):
            continue
        gvk = gvks[0]
        api_version = f"{gvk['group']}/{gvk['version']}" if gvk["group"] else gvk["version"]
        kinds[f"{api_version}/{gvk['kind']}"] = name
    return dict(sorted(kinds.items()))


def without_defaulted(name: str, definition: dict[str, Any]) -> dict[str, Any]:
    """The definition less the required fields the server defaults (SERVER_DEFAULTED)."""
    defaulted = SERVER_DEFAULTED.get(name, ())
    if defaulted and "required" in definition:
        definition["required"] = [field for field in definition["required"] if field not in defaulted]
    return definition


def build(release: str) -> dict[str, Any]:
    raw = json.loads((source_dir(release) / "_definitions.json").read_text())["$defs"]
    kinds = top_level_kinds(raw)
    defs: dict[str, Any] = {}
    pending = sorted(set(kinds.values()))
    while pending:
        name = pending.pop()
        if name in defs:
            continue
        defs[name] = REPLACED.get(name) or without_defaulted(name, compact(raw[name]))
        pending.extend(sorted(references(defs[name]) - defs.keys()))
    return {"release": release, "source": f"{SOURCE_PACKAGE} v{release}.0-local-strict", "kinds": kinds,
            "$defs": dict(sorted(defs.items()))}


def render(release: str) -> str:
    return json.dumps(build(release), separators=(",", ":"), sort_keys=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with schemas/")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "schemas"))
    args = parser.parse_args()
    out = Path(args.out)
    outputs = ((out / f"k8s-{release}.json", text, f"{len(json.loads(text)['kinds'])} kinds, {len(text) // 1024} KiB")
               for release, text in ((release, render(release)) for release in RELEASES))
    return write_or_check(outputs, args.check, "python tools/gen_schemas.py")

if __name__ == "__main__":
    sys.exit(main())
