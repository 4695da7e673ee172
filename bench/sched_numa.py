"""Benchmark: one gang of N pods on N 2-socket nodes, every pod asking through DRA for 4 GPUs, 1 RDMA NIC and 16 CPUs
(the CPUs from a CPU DRA driver's per-NUMA device with consumable capacity), all aligned on one NUMA node by
`matchAttribute: resource.kubernetes.io/numaNode`; the full explanation (simulation, diagnosis, NUMA placement,
kubelet stage, suggestions). The target is under 3 s for 1,024 pods on 1,024 nodes.

    python bench/sched_numa.py [--sizes 256,1024]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sched_synthetic import device_class, node, pod_group, resource_slice, to_snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.explain.run import explain_results
from kubectl_wasdra.sched.admission import all_on

GPU, NIC, CPU = "gpu.example.com", "rdma.example.com", "dra.cpu"
NUMA = "resource.kubernetes.io/numaNode"


def node_objects(name: str) -> list[dict[str, Any]]:
    gpus = [{"name": f"gpu-{i}", "attributes": {NUMA: {"int": i // 4}}} for i in range(8)]
    nics = [{"name": f"nic-{i}", "attributes": {NUMA: {"int": i // 2}}} for i in range(4)]
    cpus = [{"name": f"cpus-{n}", "allowMultipleAllocations": True, "attributes": {NUMA: {"int": n}},
             "capacity": {f"{CPU}/cpu": {"value": "62"}}} for n in (0, 1)]
    return [node(name)] + [resource_slice(f"{name}-{driver}", name, driver, devices)
                           for driver, devices in ((GPU, gpus), (NIC, nics), (CPU, cpus))]


def template() -> dict[str, Any]:
    requests = [{"name": "gpus", "exactly": {"deviceClassName": GPU, "count": 4}},
                {"name": "nic", "exactly": {"deviceClassName": NIC}},
                {"name": "cpus", "exactly": {"deviceClassName": CPU, "capacity": {"requests": {f"{CPU}/cpu": "16"}}}}]
    devices = {"requests": requests, "constraints": [{"requests": ["gpus", "nic", "cpus"], "matchAttribute": NUMA}]}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
            "metadata": {"name": "numa-aligned", "namespace": "default"}, "spec": {"spec": {"devices": devices}}}


def pod(name: str) -> dict[str, Any]:
    container = {"name": "c", "image": "x", "resources": {"requests": {"cpu": "16"}, "claims": [{"name": "devices"}]}}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": {"containers": [container], "schedulingGroup": {"podGroupName": "train"},
                     "resourceClaims": [{"name": "devices", "resourceClaimTemplateName": "numa-aligned"}]}}


def measure(size: int) -> tuple[float, bool, int]:
    manifests = [template(), pod_group("train", size, False)] + [pod(f"train-{i:05d}") for i in range(size)]
    overlay = build_overlay(manifests)
    objects = [device_class(d) for d in (GPU, NIC, CPU)] + [o for i in range(size) for o in node_objects(f"node-{i:05d}")]
    snapshot = to_snapshot(objects + list(overlay.objects))
    start = time.perf_counter()
    (diagnosis,) = explain_results(snapshot, all_on(NEWEST), overlay)
    elapsed = time.perf_counter() - start
    aligned = sum(1 for values in diagnosis.claim_numa.values() if len(set(values)) == 1 and len(values) == 6)
    return elapsed, diagnosis.fits, aligned


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="256,1024")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        elapsed, fits, aligned = measure(size)
        print(f"nodes={size} pods={size} fits={fits} NUMA-aligned claims={aligned} full explanation={elapsed:.2f}s")


if __name__ == "__main__":
    main()
