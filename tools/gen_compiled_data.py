#!/usr/bin/env python3
"""Write rules/compiled/<name>.json for every rules/<name>.yaml (kubectl_wasdra/catalog/data.py read_yaml): the same
value as JSON, stamped with the size and CRC-32 of the YAML it was made from, so a stale twin is never read. Rerun after
editing a data file or after tools/gen_api_versions.py and tools/gen_api_lifecycle.py.

    python tools/gen_compiled_data.py            # rewrite the compiled files
    python tools/gen_compiled_data.py --check    # exit 1 when one is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kubectl_wasdra.catalog.data import compiled_name, render_compiled  # noqa: E402
from tools.generated import write_or_check  # noqa: E402


def data_files() -> list[str]:
    """"rules/<name>.yaml" for every data file read through read_yaml."""
    return sorted(f"rules/{path.name}" for path in (ROOT / "rules").glob("*.yaml"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the files in rules/compiled/")
    args = parser.parse_args()
    outputs = ((ROOT / compiled_name(name), text, f"{len(text) // 1024} KiB")
               for name, text in ((name, render_compiled((ROOT / name).read_bytes())) for name in data_files()))
    return write_or_check(outputs, args.check, "python tools/gen_compiled_data.py")


if __name__ == "__main__":
    sys.exit(main())
