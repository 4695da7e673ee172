#!/usr/bin/env python3
"""What project configuration costs `check` at start-up when no config file exists (target: under 10 ms).

Times, best of --repeat, each in a fresh process run from a directory 12 levels deep with no `.wasdra.yaml` and no
`.git` up to `/` (the longest upward search):
  1. `kubectl-wasdra check small.yaml -o json` with this tree (config hook, default excludes, suppression scan);
  2. the same with `--reference TREE` first on PYTHONPATH (a checkout without the feature, e.g. main before it);
  3. in fresh processes: importing the modules the feature adds to `check` (the others already loaded) and building
     its flags (best of --repeat);
  4. in-process: the config hook alone (argument scan + upward search) and the default-exclude test of one file.
On a busy machine the end-to-end rows (1, 2) move by more than the difference; rows 3 and 4 add up what the feature
costs.

    python bench/config_startup.py --repeat 30
    python bench/config_startup.py --repeat 30 --reference /path/to/checkout-before
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "fixtures" / "manifests" / "check" / "train-job.yaml"


def _env(tree: Path, cache: Path) -> dict[str, str]:
    """Run as users do, with bytecode cached (in `cache`, so neither tree is written to)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(cache))
    for name in ("WASDRA_CONFIG", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    return env


def _wall(trees: list[Path], cwd: Path, manifest: Path, repeat: int) -> list[tuple[float, float]]:
    """(best wall time, best CPU time of the child) per tree, after one warm-up run that caches the bytecode; the
    trees take turns in every round, so load from elsewhere hits both alike, and CPU time is what a busy machine
    disturbs least."""
    command = [sys.executable, "-c", "from kubectl_wasdra.cli import main; main()", "check", str(manifest), "-o", "json"]
    best = [(float("inf"), float("inf"))] * len(trees)
    for tree in trees:
        subprocess.run(command, cwd=cwd, env=_env(tree, cwd / "pycache"), capture_output=True, check=False)
    for _ in range(repeat):
        for index, tree in enumerate(trees):
            env = _env(tree, cwd / "pycache")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            best[index] = (min(best[index][0], wall), min(best[index][1], cpu))
    return best


_IMPORTS = """
import time, click, json
import kubectl_wasdra.lint.pipeline, kubectl_wasdra.lint.profiles, kubectl_wasdra.load
from kubectl_wasdra.cli_options import project_options
start = time.perf_counter()
import kubectl_wasdra.cli_config, kubectl_wasdra.lint.project_report, kubectl_wasdra.load.excludes
import kubectl_wasdra.load.default_excludes, kubectl_wasdra.lint.rules.config
imports = time.perf_counter() - start
start = time.perf_counter()
project_options(lambda **kwargs: None)
print(json.dumps([imports, time.perf_counter() - start]))
"""


def _imports(repeat: int, cache: Path) -> tuple[float, float]:
    """Best (import time of the added modules, time to build the added flags) over fresh processes, bytecode cached."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat + 1):   # the first run caches the bytecode
        result = subprocess.run([sys.executable, "-c", _IMPORTS], env=_env(ROOT, cache),
                                capture_output=True, text=True, check=True)
        imports, flags = json.loads(result.stdout)
        best = (min(best[0], imports), min(best[1], flags))
    return best


def _in_process(cwd: Path, manifest: Path, repeat: int) -> tuple[float, float]:
    sys.path.insert(0, str(ROOT))
    from kubectl_wasdra.cli_config import _scan
    from kubectl_wasdra.config.discover import find_config
    from kubectl_wasdra.load.default_excludes import DEFAULT_EXCLUDES
    from kubectl_wasdra.load.excludes import Excludes

    os.chdir(cwd)
    args = ["check", str(manifest), "-o", "json"]
    start = time.perf_counter()
    for _ in range(repeat * 100):
        _scan(args)
        find_config()
    hook = (time.perf_counter() - start) / (repeat * 100)
    excludes = Excludes(DEFAULT_EXCLUDES)
    start = time.perf_counter()
    for _ in range(repeat * 100):
        excludes.matches(str(manifest))
    return hook, (time.perf_counter() - start) / (repeat * 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--reference", type=Path, help="a checkout without the feature, to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wasdra-bench-") as tmp:
        deep = Path(tmp).joinpath(*(f"d{i}" for i in range(12)))
        deep.mkdir(parents=True)
        manifest = deep / "small.yaml"
        manifest.write_text(SMALL.read_text())
        times = _wall([ROOT, *([args.reference] if args.reference else [])], deep, manifest, args.repeat)
        for label, (wall, cpu) in zip(("this tree", f"reference {args.reference}"), times, strict=False):
            print(f"check, one small file, no config file, {label}: wall {wall * 1000:6.1f} ms, CPU {cpu * 1000:6.1f} ms")
        if args.reference:
            (wall, cpu), (wall_before, cpu_before) = times
            print(f"difference: wall {(wall - wall_before) * 1000:+6.1f} ms, CPU {(cpu - cpu_before) * 1000:+6.1f} ms"
                  " (target < +10 ms)")
        imports, flags = _imports(args.repeat, deep / "pycache")
        print(f"imports the feature adds:                             {imports * 1e3:7.2f} ms")
        print(f"building its flags (--config, --exclude, -k, --helm ...): {flags * 1e3:7.2f} ms")
        hook, exclude = _in_process(deep, manifest, args.repeat)
        print(f"config hook (argument scan + search up 13 directories): {hook * 1e6:7.1f} us")
        print(f"default-exclude test of one file:                     {exclude * 1e6:7.1f} us")
    print(f"rerun: python bench/config_startup.py --repeat {args.repeat}"
          + (f" --reference {args.reference}" if args.reference else ""))


if __name__ == "__main__":
    main()
