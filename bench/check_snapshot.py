#!/usr/bin/env python3
"""Wall-clock time of `kubectl-wasdra check --snapshot` (references, fit and --simulate) on the benchmark corpus.

Generates the 2,000-document corpus of bench/check_throughput.py under bench/out/snapshot-corpus and a 500-node cluster with
bench/gen_cluster.py (8 GPUs and 10 pods per node, half the GPUs allocated) under bench/out/cluster-500.json, then
times (best of --repeat):
  kubectl-wasdra check bench/out/snapshot-corpus --snapshot bench/out/cluster-500.json -o json                 (simulate on)
  kubectl-wasdra check bench/out/snapshot-corpus --snapshot bench/out/cluster-500.json -o json --no-simulate
  kubectl-wasdra check bench/out/snapshot-corpus -o json                                                    (no snapshot)
and prints the seconds, the finding counts per family and the commands. Target: under 10 s with the simulation.

The corpus's claims ask for model "H100" (the cluster has "X100") and align on an attribute no device publishes, so
FIT001 proves them unsatisfiable and the simulation leaves their pods out. `--satisfiable` adds a run on a copy
(bench/out/satisfiable-corpus) asking for "X100" and aligning on resource.kubernetes.io/numaNode, where the
simulation really places the 400 claim-using pods (slow: one DRA allocation per pod and node).

    python bench/check_snapshot.py
    python bench/check_snapshot.py --nodes 500 --repeat 3 --satisfiable
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out"


def _module(name: str) -> Any:
    """A sibling bench script loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prepare(nodes: int) -> tuple[Path, Path]:
    """The corpus directory and the cluster file, generated deterministically."""
    corpus = OUT / "snapshot-corpus"
    _module("check_throughput").generate(corpus)
    cluster = OUT / f"cluster-{nodes}.json"
    _module("gen_cluster").main(["--nodes", str(nodes), "--devices-per-node", "8", "--pods-per-node", "10",
                                 "--fill", "0.5", "--racks", str(max(nodes // 16, 1)), "-o", str(cluster)])
    return corpus, cluster


def timed(command: list[str], repeat: int) -> tuple[float, dict]:
    """Best wall-clock seconds of `repeat` runs, and the JSON report of the last run."""
    best, report = float("inf"), {}
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        best = min(best, time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.stderr.write(done.stderr)
            raise SystemExit(f"command failed with exit {done.returncode}: {' '.join(command)}")
        report = json.loads(done.stdout)
    return best, report


def _shown(path: Path) -> str:
    return str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


def families(report: dict) -> str:
    counts = Counter(f["rule"].rstrip("0123456789") for f in report.get("findings", []))
    return ", ".join(f"{family} {count}" for family, count in sorted(counts.items())) or "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=500, help="nodes in the fixture cluster (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--satisfiable", action="store_true", help="also time a corpus whose claims the cluster can satisfy")
    args = parser.parse_args()
    corpus, cluster = prepare(args.nodes)
    documents = sum(1 for path in corpus.glob("*.yaml") for line in path.read_text().splitlines() if line == "---") + \
        len(list(corpus.glob("*.yaml")))
    base = ["kubectl-wasdra", "check", _shown(corpus), "-o", "json"]
    snapshot = ["--snapshot", _shown(cluster)]
    runs = [("check --snapshot (simulate)", base + snapshot), ("check --snapshot --no-simulate", [*base, *snapshot,
                                                                                                  "--no-simulate"]),
            ("check without snapshot", base)]
    if args.satisfiable:
        satisfiable = OUT / "satisfiable-corpus"
        satisfiable.mkdir(exist_ok=True)
        for path in corpus.glob("*.yaml"):
            text = path.read_text().replace('"H100"', '"X100"').replace("gpu.example.com/numa", "resource.kubernetes.io/numaNode")
            (satisfiable / path.name).write_text(text)
        runs.append(("check --snapshot, satisfiable claims", [*base[:2], _shown(satisfiable), *base[3:], *snapshot]))
    print(f"corpus: {documents} documents in {len(list(corpus.glob('*.yaml')))} files; cluster: {args.nodes} nodes")
    for label, command in runs:
        seconds, report = timed(command, args.repeat)
        print(f"{label:34s} {seconds:6.2f} s   findings: {families(report)}")
        print(f"    {' '.join(command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
