"""Pending pods with preferred pod anti-affinity and a ScheduleAnyway spread constraint on 500 nodes holding 5,000
pods: what the PodTopologySpread and InterPodAffinity scores cost (sched/pod_scores.py).

    python bench/sched_soft_scores.py [PENDING_PODS]      # default 200; prints the CPU seconds (user+sys) of the run

Numbers are noisy on a shared machine; compare CPU time, not wall time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sched_synthetic import node, timed_run, to_snapshot

ZONE = "topology.kubernetes.io/zone"
ANTI = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 50, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "a1"}}, "topologyKey": ZONE}}]}}
SPREAD = [{"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "ScheduleAnyway",
           "labelSelector": {"matchLabels": {"app": "a2"}}}]


def _pod(name: str, app: str, cpu: str, memory: str, **spec: Any) -> dict[str, Any]:
    containers = [{"name": "c", "image": "x", "resources": {"requests": {"cpu": cpu, "memory": memory}}}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default", "labels": {"app": app}},
            "spec": {"containers": containers, **spec}}


def objects(pending: int) -> list[dict[str, Any]]:
    """500 nodes in 5 zones, 5,000 bound pods of 7 apps, `pending` pods with the soft constraints."""
    out = [node(f"n{i:04d}", {ZONE: f"z{i % 5}", "kubernetes.io/hostname": f"n{i:04d}"}) for i in range(500)]
    for i in range(5000):
        bound = _pod(f"b{i:05d}", f"a{i % 7}", "100m", "128Mi", nodeName=f"n{i % 500:04d}")
        bound["metadata"]["creationTimestamp"] = "2026-01-01T00:00:00Z"
        bound["status"] = {"phase": "Running"}
        out.append(bound)
    out += [_pod(f"p{i:05d}", "a2", "500m", "1Gi", affinity=ANTI, topologySpreadConstraints=SPREAD)
            for i in range(pending)]
    return out


def main() -> None:
    pending = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    snapshot = to_snapshot(objects(pending))
    start = time.process_time()
    results, _, _ = timed_run(snapshot)
    cpu = time.process_time() - start
    print(f"{pending} pending pods with preferred anti-affinity and a ScheduleAnyway spread on 500 nodes: "
          f"CPU {cpu:.2f} s ({sum(r.fits for r in results)} fit)")
    print("rerun: python bench/sched_soft_scores.py", pending)


if __name__ == "__main__":
    main()
