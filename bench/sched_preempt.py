"""Benchmark (d): workload-aware preemption on the 500-node shape with a full cluster.

500 nodes of 8 cpu, each full with 8 one-cpu pods of priority 0 (half of them in disruptionMode `all` groups of 8 pods
spread over 8 nodes, the rest standalone), and one pending gang of 64 pods of 4 cpu at priority 1000: the simulation
of the gang including its preemption (which victims, which nodes), timed. Target: under 2 s.

    python bench/sched_preempt.py [--nodes 500] [--gang 64]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sched_synthetic import timed_run, to_snapshot


def _pod(name: str, cpu: str, priority: int, node: str = "", group: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": cpu}}}],
                            "priority": priority}
    if node:
        spec["nodeName"] = node
    if group:
        spec["schedulingGroup"] = {"podGroupName": group}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec,
            "status": {"phase": "Running" if node else "Pending"}}


def _group(name: str, priority: int, min_count: int | None = None, whole: bool = False) -> dict[str, Any]:
    spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": min_count}} if min_count else {"basic": {}},
                            "priority": priority}
    if whole:
        spec["disruptionMode"] = {"all": {}}
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


def objects(nodes: int, gang: int) -> list[dict[str, Any]]:
    """The full cluster and the pending gang."""
    out: list[dict[str, Any]] = []
    for index in range(nodes):
        out.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{index:05d}"},
                    "status": {"allocatable": {"cpu": "8", "memory": "64Gi", "pods": "110"}}})
    for block in range(nodes // 8):  # 8 nodes per block: slot 0-3 in all groups spanning the block, 4-7 standalone
        for slot in range(8):
            group = f"batch-{block:04d}-{slot}" if slot < 4 else None
            if group:
                out.append(_group(group, 0, whole=True))
            for offset in range(8):
                node = f"node-{block * 8 + offset:05d}"
                out.append(_pod(f"p-{block:04d}-{slot}-{offset}", "1", 0, node, group))
    for index in range(nodes // 8 * 8, nodes):  # nodes outside a block: standalone pods only
        out += [_pod(f"p-rest-{index}-{slot}", "1", 0, f"node-{index:05d}") for slot in range(8)]
    out.append(_group("train", 1000, min_count=gang))
    out += [_pod(f"train-{i:03d}", "4", 1000, group="train") for i in range(gang)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--gang", type=int, default=64)
    args = parser.parse_args()
    results, prepare, elapsed = timed_run(to_snapshot(objects(args.nodes, args.gang)))
    result = next(r for r in results if r.name == "train")
    answer = result.extra["preemption"]
    print(f"nodes={args.nodes} gang={args.gang} fits={result.fits} preemption helps={answer.helps} "
          f"victims={len(answer.victims)} nominated nodes={len(set(answer.nominated.values()))} "
          f"prepare={prepare:.2f}s schedule+preempt={elapsed:.2f}s")


if __name__ == "__main__":
    main()
