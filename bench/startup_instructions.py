#!/usr/bin/env python3
"""Start-up of `kubectl-wasdra check` in instructions (valgrind's callgrind), a measure that does not move with how
busy or fast the machine is: the same binary, input and environment give the same count, where CPU seconds of one
machine class were seen to differ by a third from hour to hour.

Measures the installed command on one ConfigMap and on one 10-document file (the inputs of check_vs_peers.py), after
one warm-up run (so the dataclass code cache is filled), with PYTHONHASHSEED=0, next to the interpreter alone.

    python bench/startup_instructions.py                                  # kubectl-wasdra beside this interpreter
    python bench/startup_instructions.py --wasdra /tmp/venv/bin/kubectl-wasdra
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_throughput import ENV, MAKERS, generate
from check_vs_peers import console_script, script_interpreter

OUT = Path(__file__).resolve().parent / "out" / "startup"


def inputs() -> list[tuple[str, Path]]:
    """The ConfigMap and the 10-document file, written under bench/out/startup."""
    (ten,) = generate(OUT / "ten", 1, MAKERS)
    small = OUT / "small.yaml"
    small.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: prod\n")
    return [("one ConfigMap", small), ("one 10-document file", ten)]


def instructions(command: list[str]) -> int:
    """Instructions callgrind counts for `command`, children included."""
    env = dict(ENV, PYTHONHASHSEED="0")
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                            capture_output=True, text=True, env=env, check=False)
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split()[-1])
    raise SystemExit(f"callgrind printed no count for {command}:\n{result.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wasdra", default="kubectl-wasdra", help="the command to measure (default: kubectl-wasdra)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    wasdra = console_script(args.wasdra) or args.wasdra
    interpreter = script_interpreter(wasdra)
    rows = [("interpreter alone (-c pass)", [interpreter, "-c", "pass"]),
            ("kubectl-wasdra --version", [interpreter, wasdra, "--version"])]
    for label, path in inputs():
        command = [interpreter, wasdra, "check", str(path), "-o", "json"]
        subprocess.run(command, capture_output=True, env=ENV, check=False)  # fills the code cache
        rows.append((f"check -o json, {label}", command))
    print(f"measuring: {wasdra}\n\n| run | instructions (millions) |\n|---|---|")
    for label, command in rows:
        print(f"| {label} | {instructions(command) / 1e6:,.1f} |")
    print(f"\ncommand: python bench/startup_instructions.py --wasdra {args.wasdra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
