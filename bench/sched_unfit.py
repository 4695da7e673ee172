#!/usr/bin/env python3
"""Pods that could fit on an empty cluster but fit nowhere now: the cost of proving "no node fits" and explaining it.

The cluster (bench/gen_cluster.py shape: 8 GPUs on two NUMA nodes per node, 10 running pods) has `--fill` of every
node's GPUs allocated (default 0.875: one GPU left per node). `--pods` pending pods each use a ResourceClaim asking
for 2 GPUs on one NUMA node (`matchAttribute`, as bench/check_snapshot.py --satisfiable), five pods per claim, so
every claim has the same shape under a different name. Each pod is a queue entry of its own and is diagnosed on every
node, as `check --snapshot --simulate` and `explain` do. Prints pods/s for the whole queue and the rerun command.

    python bench/sched_unfit.py [--nodes 500] [--pods 400] [--fill 0.875]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_cluster import GPU, generate
from sched_synthetic import timed_run, to_snapshot


def claim(index: int) -> dict[str, Any]:
    """ResourceClaim "gpus-<index>": two GPUs on one NUMA node."""
    request = {"name": "gpu", "exactly": {"deviceClassName": GPU, "count": 2}}
    constraint = {"requests": ["gpu"], "matchAttribute": "resource.kubernetes.io/numaNode"}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": f"gpus-{index}", "namespace": "ml"},
            "spec": {"devices": {"requests": [request], "constraints": [constraint]}}}


def pod(index: int) -> dict[str, Any]:
    """Pending pod "train-<index>" using claim gpus-<index // 5>."""
    container = {"name": "trainer", "image": "registry.example.com/trainer:2.1",
                 "resources": {"requests": {"cpu": "8", "memory": "64Gi"}, "claims": [{"name": "gpus"}]}}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"train-{index}", "namespace": "ml"},
            "spec": {"containers": [container], "resourceClaims": [{"name": "gpus", "resourceClaimName": f"gpus-{index // 5}"}],
                     "tolerations": [{"key": "example.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--pods", type=int, default=400)
    parser.add_argument("--fill", type=float, default=0.875, help="fraction of each node's 8 GPUs already allocated")
    args = parser.parse_args()
    objects = generate(args.nodes, 8, 10, args.fill, max(args.nodes // 16, 1))
    objects += [claim(i) for i in range((args.pods + 4) // 5)] + [pod(i) for i in range(args.pods)]
    results, prepare, schedule = timed_run(to_snapshot(objects))
    pending = [r for r in results if r.entry.kind == "Pod" and r.entry.namespace == "ml"]
    unfit = sum(1 for r in pending if not r.fits)
    print(f"nodes={args.nodes} pods={args.pods} fill={args.fill} unfit={unfit} prepare={prepare:.2f}s "
          f"schedule+diagnose={schedule:.2f}s -> {len(pending) / schedule:.0f} pods/s")
    print(f"  first: {pending[0].message if pending else '-'}")
    print(f"rerun: python bench/sched_unfit.py --nodes {args.nodes} --pods {args.pods} --fill {args.fill}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
