"""Suggestions must not grow super-linearly with devices: one node, one ResourceSlice with N devices (each with its own
serial and model attributes), and a pod whose claim matches none of them.

Run: python bench/suggest_devices.py [--devices 20000] [--repeat 2]
Prints the time and the peak RSS of explaining the pod without suggestions and with them, best of --repeat runs, and
the command to rerun. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sched_synthetic import device_class, resource_slice

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.dra.inventory import with_device_selectors
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.explain.run import explain_results
from kubectl_wasdra.sched.admission import all_on

DRIVER = "gpu.example.com"


def cluster(devices: int) -> list[dict[str, Any]]:
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "big", "labels": {"kubernetes.io/hostname": "big"}},
            "status": {"allocatable": {"cpu": "256", "memory": "2Ti", "pods": "110"}}}
    gpus = [{"name": f"gpu-{i}", "attributes": {"model": {"string": f"m{i % 7}"}, "serial": {"string": f"SN{i:08d}"}},
             "capacity": {"memory": {"value": "80Gi"}}} for i in range(devices)]
    return [node, resource_slice("big-gpus", "big", DRIVER, gpus), device_class(DRIVER)]


def manifest() -> list[dict[str, Any]]:
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "none", "namespace": "default"},
                "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                    "deviceClassName": DRIVER,
                    "selectors": [{"cel": {"expression": f'device.attributes["{DRIVER}"].model == "h100"'}}]}}]}}}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wants-h100", "namespace": "default"},
           "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "none"}],
                    "containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}]}}
    return [template, pod]


def run(devices: int, suggestions: bool) -> float:
    builder = SnapshotBuilder()
    for obj in cluster(devices):
        builder.add(obj)
    overlay = build_overlay(manifest())
    snapshot = with_device_selectors(builder.build()).overlay(list(overlay.objects))
    start = time.perf_counter()
    (diagnosis,) = explain_results(snapshot, all_on(NEWEST), overlay, with_suggestions=suggestions)
    elapsed = time.perf_counter() - start
    assert not diagnosis.fits
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    without = min(run(args.devices, False) for _ in range(args.repeat))
    with_ = min(run(args.devices, True) for _ in range(args.repeat))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.devices} devices on one slice, a claim matching none of them:")
    print(f"  explain without suggestions: {without:.2f} s")
    print(f"  explain with suggestions:    {with_:.2f} s")
    print(f"  peak RSS of this process:    {peak:.0f} MiB")
    print(f"rerun: python bench/suggest_devices.py --devices {args.devices} --repeat {args.repeat}", file=sys.stdout)


if __name__ == "__main__":
    main()
