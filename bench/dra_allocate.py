"""DRA allocator speed: one 8-device claim with a NUMA matchAttribute checked against 1,000 nodes.

Run: python bench/dra_allocate.py [--nodes 1000]
Each node publishes one ResourceSlice with 8 GPUs and 2 NICs (attribute resource.kubernetes.io/numaNode).
Half of all devices are already allocated (by existing claims in the ledger):
- scenario "8 GPUs, one NUMA": GPUs of a node share one NUMA node; on every second node 4 GPUs and 1 NIC are allocated,
  so half the nodes fit and half are rejected by the free-device pruning before any search;
- scenario "4 GPUs + 1 NIC, split NUMA" (GPUs 4+4 per NUMA node, NIC i on NUMA node i, 5 of 10 devices allocated on
  every node): NUMA node 0 is free on even nodes; odd nodes keep 2 GPUs per NUMA node, so the matchAttribute search
  has too few GPUs on any one NUMA node (the constraint pruning rejects it; without it the search backtracks).
Devices with identical content share one CEL result; "unique devices" adds a per-device serial attribute (as real
drivers publish uuid/pciBusID), so only the selector projection (dra/projection.py) lets devices share results.
Prints node-claim checks/s (cold: first pod on a fresh inventory with compiled selectors dropped, so CEL runs; warm:
a second pod with the same claim shape), successful allocations/s and the CEL evaluations the cold pass needed, best
of --repeat fresh runs. One process, one core. Raw CEL speed: bench/cel_eval.py.
Timings are CPU time of this process (time.process_time), so other load on the machine skews them less.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from kubectl_wasdra.dra import Allocation, DeviceUsage, Inventory, allocate_claims

DRIVER = "gpu.example.com"
NUMA = "resource.kubernetes.io/numaNode"
CLASSES = [
    {"metadata": {"name": "gpu"}, "spec": {"selectors": [{"cel": {"expression":
        f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].type == "gpu"'}}]}},
    {"metadata": {"name": "nic"}, "spec": {"selectors": [{"cel": {"expression":
        f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].type == "nic"'}}]}},
]


def node_slice(index: int, split: bool, unique: bool) -> dict[str, Any]:
    name = f"node-{index:04d}"
    gpus = [{"name": f"gpu-{i}", "attributes": {"type": {"string": "gpu"}, NUMA: {"int": i // 4 if split else 0}},
             "capacity": {"memory": {"value": "80Gi"}}} for i in range(8)]
    nics = [{"name": f"nic-{i}", "attributes": {"type": {"string": "nic"}, NUMA: {"int": i}}} for i in range(2)]
    if unique:  # a per-device serial number: no two devices share content, so CEL runs for every device
        for dev in gpus + nics:
            dev["attributes"]["uuid"] = {"string": f"{name}-{dev['name']}"}
    return {"metadata": {"name": f"{name}-{DRIVER}"}, "spec": {"driver": DRIVER, "nodeName": name, "devices": gpus + nics,
                                                               "pool": {"name": name, "generation": 1,
                                                                        "resourceSliceCount": 1}}}


def allocated(index: int, split: bool) -> list[str]:
    if not split:
        return ["gpu-0", "gpu-1", "gpu-2", "gpu-3", "nic-0"] if index % 2 else []
    if index % 2:  # two GPUs free on each NUMA node: the search must try both NUMA nodes and fail
        return ["gpu-0", "gpu-1", "gpu-4", "gpu-5", "nic-0"]
    return ["gpu-4", "gpu-5", "gpu-6", "gpu-7", "nic-1"]  # NUMA node 0 entirely free


def claim(name: str, split: bool) -> dict[str, Any]:
    requests = ([{"name": "gpu", "exactly": {"deviceClassName": "gpu", "count": 4}},
                 {"name": "nic", "exactly": {"deviceClassName": "nic", "count": 1}}] if split
                else [{"name": "gpu", "exactly": {"deviceClassName": "gpu", "count": 8}}])
    return {"metadata": {"name": name, "namespace": "bench"},
            "spec": {"devices": {"requests": requests, "constraints": [{"matchAttribute": NUMA}]}}}


def _one_pass(nodes: int, split: bool, unique: bool) -> tuple[float, float, int, int]:
    """(cold seconds, warm seconds, nodes that fit, CEL evaluations) on a freshly built inventory, compiled selectors
    (and the results they share across devices with the same projection) dropped first."""
    from kubectl_wasdra.dra import cel, requests

    cel._compile.cache_clear()
    requests._compiled.cache_clear()
    slices = [node_slice(i, split, unique) for i in range(nodes)]
    existing = [{"status": {"allocation": {"devices": {"results": [
        {"request": "r", "driver": DRIVER, "pool": f"node-{i:04d}", "device": d} for d in allocated(i, split)]}}}}
        for i in range(nodes)]
    node_objs = [{"metadata": {"name": f"node-{i:04d}"}} for i in range(nodes)]
    inventory = Inventory(slices=slices, classes=CLASSES)
    usage = DeviceUsage.from_claims(existing)
    timings = []
    fits = 0
    for pod in ("pod-a", "pod-b"):  # cold: CEL and candidate lists computed; warm: a second pod, same claim shape
        claims = [claim(pod, split)]
        start = time.process_time()
        fits = sum(isinstance(allocate_claims(claims, n, inventory, usage), Allocation) for n in node_objs)
        timings.append(time.process_time() - start)
    evals = sum(len(view.results) for view in inventory.views.values())
    return timings[0], timings[1], fits, evals


def run(nodes: int, split: bool, unique: bool, repeat: int) -> None:
    passes = [_one_pass(nodes, split, unique) for _ in range(repeat)]
    cold, warm = min(p[0] for p in passes), min(p[1] for p in passes)
    fits, evals = passes[0][2], passes[0][3]
    label = ("4 GPUs + 1 NIC, split NUMA" if split else "8 GPUs, one NUMA") + (", unique devices" if unique else "")
    print(f"{label:44s} cold: {nodes / cold:7,.0f} checks/s, {fits / cold:6,.0f} allocations/s, {evals:5d} CEL evals "
          f"| warm: {nodes / warm:7,.0f} checks/s, {fits / warm:6,.0f} allocations/s ({fits}/{nodes} nodes fit)")


def run_unprojected(nodes: int, repeat: int) -> None:
    """Worst case for CEL: a class selector that iterates the attribute map cannot be projected, so every device of
    the unique-device fleet is evaluated."""
    original = CLASSES[0]["spec"]["selectors"][0]["cel"]["expression"]
    CLASSES[0]["spec"]["selectors"][0]["cel"]["expression"] = (
        f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].exists(k, k == "type") && '
        f'device.attributes["{DRIVER}"].type == "gpu"')
    try:
        passes = [_one_pass(nodes, False, True) for _ in range(repeat)]
    finally:
        CLASSES[0]["spec"]["selectors"][0]["cel"]["expression"] = original
    cold = min(p[0] for p in passes)
    evals = passes[0][3]
    print(f"{'8 GPUs, unique devices, unprojectable class':44s} cold: {nodes / cold:7,.0f} checks/s, "
          f"{evals:5d} CEL evals ({evals / cold:,.0f} evals/s inside allocation)")


def ledger(additions: int = 5000) -> None:
    """Copy-on-write ledger: one 4-device allocation added per pod, every older ledger kept alive."""
    usage, kept = DeviceUsage(), []
    start = time.process_time()
    for i in range(additions):
        usage = usage.with_results([{"driver": DRIVER, "pool": f"node-{i:04d}", "device": f"gpu-{j}"} for j in range(4)],
                                   holder=f"bench/pod-{i}")
        kept.append(usage)
    elapsed = time.process_time() - start
    print(f"ledger: {additions / elapsed:,.0f} allocations applied/s ({len(usage)} devices at the end)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N fresh runs")
    args = parser.parse_args()
    for unique in (False, True):
        run(args.nodes, split=False, unique=unique, repeat=args.repeat)
        run(args.nodes, split=True, unique=unique, repeat=args.repeat)
    run_unprojected(args.nodes, args.repeat)
    ledger()
    print("rerun: python bench/dra_allocate.py --nodes", args.nodes)


if __name__ == "__main__":
    main()
