"""Benchmark (b): one gang of N pods, each with an 8-GPU NUMA-aligned claim, with a rack constraint, on N nodes of
8 GPUs (16 racks): the full explanation (simulation, diagnosis, suggestions re-simulated, placement map), at three
sizes to show how time grows with nodes and pods. With the rack constraint no rack can hold the gang.

    python bench/sched_gang.py [--sizes 256,512,1024] [--racks 16]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sched_synthetic import claim_pod, cluster, pod_group, template, to_snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.explain.run import explain_results
from kubectl_wasdra.sched.admission import all_on


def measure(size: int, racks: int, rack: bool) -> tuple[float, float, bool, int]:
    manifests = [template("gpu-8", 8, numa=True), pod_group("train", size, rack)]
    manifests += [claim_pod(f"train-{i:05d}", "gpu-8", "train") for i in range(size)]
    overlay = build_overlay(manifests)
    snapshot = to_snapshot(cluster(size, 8, numa_size=8, racks=racks) + list(overlay.objects))
    start = time.perf_counter()
    bare = explain_results(snapshot, all_on(NEWEST), overlay, with_suggestions=False)
    middle = time.perf_counter()
    full = explain_results(snapshot, all_on(NEWEST), overlay)
    end = time.perf_counter()
    return middle - start, end - middle, full[0].fits, len(full[0].suggestions) + 0 * len(bare)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="256,512,1024")
    parser.add_argument("--racks", type=int, default=16)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        for rack in (True, False):
            diagnosis, full, fits, suggestions = measure(size, args.racks, rack)
            print(f"nodes={size} pods={size} rack={'yes' if rack else 'no '} fits={fits!s:<5} "
                  f"diagnosis={diagnosis:.2f}s full explanation={full:.2f}s ({suggestions} verified suggestions)")


if __name__ == "__main__":
    main()
