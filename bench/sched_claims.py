"""Benchmark (a): kube-scheduler's SchedulingWithResourceClaimTemplate 5000pods_500nodes shape.

500 nodes with 10 devices each, 5,000 pending pods with one single-device claim from a template; reports pods placed
per second for the whole queue (kube-scheduler's own figure for this shape: about 711 pods/s).

    python bench/sched_claims.py [--nodes 500] [--pods 5000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sched_synthetic import claim_pod, cluster, template, timed_run, to_snapshot


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--pods", type=int, default=5000)
    args = parser.parse_args()
    objects = [*cluster(args.nodes, 10), template("one-gpu", 1, numa=False)]
    objects += [claim_pod(f"pod-{i:05d}", "one-gpu") for i in range(args.pods)]
    results, prepare, schedule = timed_run(to_snapshot(objects))
    placed = sum(1 for r in results if r.fits)
    print(f"nodes={args.nodes} pods={args.pods} placed={placed} prepare={prepare:.2f}s "
          f"schedule={schedule:.2f}s -> {placed / schedule:.0f} pods/s "
          f"({placed / (prepare + schedule):.0f} pods/s including preparation)")


if __name__ == "__main__":
    main()
