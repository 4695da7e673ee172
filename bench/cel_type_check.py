#!/usr/bin/env python3
"""CPU time of the selector type check of `check --snapshot` (FIT001/FIT002, dra/cel_types.py).

Generates a cluster with bench/gen_cluster.py (default 500 nodes x 8 GPUs = 4,000 devices) under bench/out/, loads it,
and measures (CPU time, user+sys of this process, best of --repeat):
  - declared_types: the attribute/capacity type table built from every device of the snapshot (once per check);
  - check_types: --selectors distinct selectors (half well-typed, half ill-typed) checked against that table, cold
    (no cached environments) - each compiles the selector untyped and once more with typed references.
The machine is shared: numbers are noisy, so CPU time rather than wall time, and the best of the repeats.

    python bench/cel_type_check.py
    python bench/cel_type_check.py --nodes 1000 --selectors 400 --repeat 5
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

GPU = 'device.attributes["gpu.example.com"]'


def _selectors(count: int) -> list[str]:
    """Distinct selectors: even ones type-check, odd ones compare the int index with a string."""
    return [f'{GPU}.index > {i} && {GPU}.model == "X100"' if i % 2 == 0 else f'{GPU}.index > "{i}"'
            for i in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--selectors", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    spec = importlib.util.spec_from_file_location("gen_cluster", BENCH / "gen_cluster.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    cluster = BENCH / "out" / f"cluster-{args.nodes}.json"
    cluster.parent.mkdir(parents=True, exist_ok=True)
    gen.main(["--nodes", str(args.nodes), "--devices-per-node", "8", "-o", str(cluster)])

    from kubectl_wasdra.cluster.files import load_snapshot
    from kubectl_wasdra.dra import cel, cel_types
    from kubectl_wasdra.lint.rules._devices import declared_types

    snapshot, _ = load_snapshot([str(cluster)])
    table_cpu, check_cpu, errors = float("inf"), float("inf"), 0
    for _ in range(args.repeat):
        start = time.process_time()
        declared = declared_types(snapshot)
        table_cpu = min(table_cpu, time.process_time() - start)
        cel._compile.cache_clear()
        cel_types._environment.cache_clear()
        start = time.process_time()
        errors = sum(cel_types.check_types(text, declared) is not None for text in _selectors(args.selectors))
        check_cpu = min(check_cpu, time.process_time() - start)
    devices = sum(1 for pool in snapshot.pools.values() for _ in pool.devices())
    print(f"devices: {devices}, declared names: {len(declared)}")
    print(f"declared_types: {table_cpu * 1000:.1f} ms CPU")
    print(f"check_types: {args.selectors} selectors ({errors} ill-typed) in {check_cpu * 1000:.1f} ms CPU "
          f"= {check_cpu / args.selectors * 1e6:.0f} us per selector")
    print(f"rerun: python bench/cel_type_check.py --nodes {args.nodes} --selectors {args.selectors} --repeat {args.repeat}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
