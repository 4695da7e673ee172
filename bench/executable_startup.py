#!/usr/bin/env python3
"""Start-up of the shipped executable against the virtual-environment installs: `--version` and `check` of one
ConfigMap, in CPU seconds (user + sys of the process and its children), median of --repeat runs after one warm-up.

Programs measured (each only when present):
  onedir     the one-folder release archive dist/kubectl-wasdra_<os>_<arch>.tar.gz (tools/build_executable.py),
             unpacked under bench/out/executable and run through a symbolic link, as krew installs it
  venv       kubectl-wasdra beside this interpreter (a normal `pip install .`, as the README's set-up makes it; with
             an editable install this measures the editable import hook instead)
  NAME=PATH  any other, e.g. an editable install or an older single-file build: --program onefile=/tmp/kubectl-wasdra

    .venv/bin/python tools/build_executable.py && .venv/bin/python bench/executable_startup.py
    python bench/executable_startup.py --program editable=/path/to/editable/.venv/bin/kubectl-wasdra --repeat 20

CPU time rather than wall time: the machine is shared and wall time moves with its load; CPU seconds move less, but
still do (a busy machine slows caches), so compare programs measured in one run, side by side.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "executable"
sys.path.insert(0, str(ROOT / "tools"))
from build_executable import platform_name  # noqa: E402

CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: prod\n"


def cpu_seconds(command: list[str]) -> float:
    """user + sys CPU seconds of one run of `command` (children of this process counted by difference)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=dict(os.environ, NO_COLOR="1"))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def unpacked_onedir() -> Path | None:
    """The release archive of this platform unpacked under bench/out/executable, reached through a link; None when
    no archive was built."""
    system, arch = platform_name()
    archive = ROOT / "dist" / f"kubectl-wasdra_{system}_{arch}.tar.gz"
    if not archive.exists():
        return None
    target = OUT / "onedir"
    if not target.exists() or target.stat().st_mtime < archive.stat().st_mtime:
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tf:
            tf.extractall(target)  # our own archive, just built
    link = OUT / "bin" / "kubectl-wasdra"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.is_symlink():
        link.symlink_to(target / "kubectl-wasdra")
    return link


def programs(extra: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    onedir = unpacked_onedir()
    if onedir is not None:
        found["onedir"] = str(onedir)
    beside = Path(sys.executable).parent / "kubectl-wasdra"
    if beside.exists():
        found["venv"] = str(beside)
    for item in extra:
        name, _, path = item.partition("=")
        found[name] = path
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", action="append", default=[], metavar="NAME=PATH", help="another program to time")
    parser.add_argument("--repeat", type=int, default=10, help="runs per program and scenario (median reported)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    small = OUT / "configmap.yaml"
    small.write_text(CONFIGMAP)
    scenarios = {"--version": ["--version"], "check one ConfigMap": ["check", str(small)]}
    found = programs(args.program)
    if not found:
        print("nothing to measure: build the archive (tools/build_executable.py) or pass --program NAME=PATH")
        return 2
    print(f"CPU seconds (user+sys), median of {args.repeat} runs after one warm-up; shared machine, so compare rows "
          "of one run")
    print(f"{'program':<10} {'scenario':<22} {'median':>8} {'min':>8} {'max':>8}")
    for name, path in found.items():
        if not os.access(path, os.X_OK):
            print(f"{name:<10} (not found: {path})")
            continue
        for scenario, tail in scenarios.items():
            cpu_seconds([path, *tail])  # warm-up: page cache, the dataclass code cache
            times = [cpu_seconds([path, *tail]) for _ in range(args.repeat)]
            print(f"{name:<10} {scenario:<22} {statistics.median(times):8.3f} {min(times):8.3f} {max(times):8.3f}")
    print(f"rerun: {Path(sys.executable).name} bench/executable_startup.py --repeat {args.repeat}"
          + "".join(f" --program {p}" for p in args.program))
    return 0


if __name__ == "__main__":
    sys.exit(main())
