#!/usr/bin/env python3
"""Generate schemas/field-docs.json: the description of every field of the built-in kinds, for the language server's
hover and completion (schemas/k8s-<release>.json leave descriptions out to stay small).

Source: the same package as tools/gen_schemas.py (kubernetes-validate 1.37.0, each release's OpenAPI). For every
definition that some release's schema holds, from the newest release that has it: the definition's and each
property's description, first paragraph only, cut at 400 characters.

    python tools/gen_field_docs.py            # rewrite schemas/field-docs.json
    python tools/gen_field_docs.py --check    # exit 1 when it is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.gen_schemas import RELEASES, SOURCE_PACKAGE, source_dir
from tools.generated import write_or_check

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "schemas" / "field-docs.json"
LIMIT = 400


def first_paragraph(text: str) -> str:
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    return paragraph if len(paragraph) <= LIMIT else paragraph[:LIMIT - 3].rstrip() + "..."


def describe(definition: dict[str, Any]) -> dict[str, str]:
    docs = {"": first_paragraph(definition.get("description", ""))}
    for name, field in (definition.get("properties") or {}).items():
        if isinstance(field, dict) and field.get("description"):
            docs[name] = first_paragraph(field["description"])
    return {key: value for key, value in docs.items() if value}


def build() -> dict[str, Any]:
    wanted = set()
    for release in RELEASES:
        wanted |= set(json.loads((ROOT / "schemas" / f"k8s-{release}.json").read_text())["$defs"])
    docs: dict[str, dict[str, str]] = {}
    for release in reversed(RELEASES):
        raw = json.loads((source_dir(release) / "_definitions.json").read_text())["$defs"]
        for name in sorted(wanted - docs.keys()):
            if name in raw and (described := describe(raw[name])):
                docs[name] = described
    return {"source": f"{SOURCE_PACKAGE}, releases {RELEASES[0]}-{RELEASES[-1]} (newest first)",
            "definitions": dict(sorted(docs.items()))}


def render() -> str:
    return json.dumps(build(), separators=(",", ":"), ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is out of date")
    text = render()
    count = sum(len(fields) for fields in json.loads(text)["definitions"].values())
    return write_or_check([(TARGET, text, f"{count} descriptions")], parser.parse_args().check,
                          "python tools/gen_field_docs.py")


if __name__ == "__main__":
    sys.exit(main())
