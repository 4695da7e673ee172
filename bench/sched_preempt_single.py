"""Benchmark: single pods preempting one after another, and what follows (victims deleted, failed pods retried).

500 nodes of 8 cpu, each full with 8 one-cpu pods of priority 0, and a queue of 200 pods of 4 cpu at priority 1000
(each preempts four pods on its own node) followed by 1,000 pods of 1 cpu at priority 0 with preemptionPolicy Never
(none fits until victims are deleted; each deletion sends the failed ones back to the queue). CPU time (user+sys) of
the simulation is printed, since wall time is noisy on a shared machine.

    python bench/sched_preempt_single.py [--nodes 500] [--preemptors 200] [--followers 1000]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sched_preempt import _pod
from sched_synthetic import timed_run, to_snapshot


def objects(nodes: int, preemptors: int, followers: int) -> list[dict[str, Any]]:
    """The full cluster, the preemptors and the followers."""
    out: list[dict[str, Any]] = []
    for index in range(nodes):
        name = f"node-{index:05d}"
        out.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
                    "status": {"allocatable": {"cpu": "8", "memory": "64Gi", "pods": "110"}}})
        out += [_pod(f"b-{index:05d}-{slot}", "1", 0, name) for slot in range(8)]
    out += [_pod(f"urgent-{i:04d}", "4", 1000) for i in range(preemptors)]
    for i in range(followers):
        follower = _pod(f"after-{i:05d}", "1", 0)
        follower["spec"]["preemptionPolicy"] = "Never"
        out.append(follower)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--preemptors", type=int, default=200)
    parser.add_argument("--followers", type=int, default=1000)
    args = parser.parse_args()
    snapshot = to_snapshot(objects(args.nodes, args.preemptors, args.followers))
    before = os.times()
    results, prepare, elapsed = timed_run(snapshot)
    after = os.times()
    cpu = after.user + after.system - before.user - before.system
    nominated = sum(1 for r in results if (a := r.extra.get("preemption")) is not None and a.helps)
    placed = sum(1 for r in results if r.fits)
    print(f"nodes={args.nodes} preemptors={args.preemptors} followers={args.followers} nominated={nominated} "
          f"placed={placed} prepare={prepare:.2f}s schedule+preempt={elapsed:.2f}s cpu={cpu:.2f}s "
          f"(rerun: python bench/sched_preempt_single.py)")


if __name__ == "__main__":
    main()
