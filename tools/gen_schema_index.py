#!/usr/bin/env python3
"""Write schemas/k8s-<release>.index.json beside every schema file (kubectl_wasdra/catalog/schema_index.py): where each
definition sits in the file, so that `check` parses only the schemas of the kinds it meets. Rerun after
tools/gen_schemas.py.

    python tools/gen_schema_index.py            # rewrite the index files
    python tools/gen_schema_index.py --check    # exit 1 when one is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kubectl_wasdra.catalog.schema_index import render_index  # noqa: E402
from tools.generated import write_or_check  # noqa: E402


def schema_files(directory: Path) -> list[Path]:
    """The release schema files (k8s-1.37.json ...), not their indexes."""
    return sorted(p for p in directory.glob("k8s-*.json") if not p.name.endswith(".index.json"))


def index_path(schema: Path) -> Path:
    return schema.with_name(schema.name.removesuffix(".json") + ".index.json")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the index files in schemas/")
    args = parser.parse_args()
    outputs = ((index_path(schema), text, f"{len(text) // 1024} KiB")
               for schema, text in ((schema, render_index(schema.read_bytes())) for schema in schema_files(ROOT / "schemas")))
    return write_or_check(outputs, args.check, "python tools/gen_schema_index.py")

if __name__ == "__main__":
    sys.exit(main())
