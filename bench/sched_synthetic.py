"""Synthetic clusters and workloads for the scheduler benchmarks (not a test)."""

from __future__ import annotations

import time
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

GPU = "gpu.example.com"


def node(name: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    """A node of 128 cpu, 1Ti of memory and 110 pods."""
    allocatable = {"cpu": "128", "memory": "1Ti", "pods": "110"}
    metadata: dict[str, Any] = {"name": name, "labels": labels} if labels else {"name": name}
    return {"apiVersion": "v1", "kind": "Node", "metadata": metadata, "spec": {},
            "status": {"allocatable": allocatable, "capacity": allocatable}}


def gpu_node(name: str, rack: str) -> dict[str, Any]:
    return node(name, {"example.com/rack": rack})


def resource_slice(name: str, node: str, driver: str, devices: list[dict[str, Any]]) -> dict[str, Any]:
    """The one slice of a node-local pool named after the node."""
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": name},
            "spec": {"driver": driver, "nodeName": node, "pool": {"name": node, "generation": 1, "resourceSliceCount": 1},
                     "devices": devices}}


def gpu_slice(node: str, count: int, numa_size: int) -> dict[str, Any]:
    devices = [{"name": f"gpu-{i}", "attributes": {"resource.kubernetes.io/numaNode": {"int": i // numa_size}}}
               for i in range(count)]
    return resource_slice(f"{node}-gpus", node, GPU, devices)


def device_class(driver: str = GPU) -> dict[str, Any]:
    """A class selecting every device of `driver`, named after it."""
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": driver},
            "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{driver}"'}}]}}


def template(name: str, count: int, numa: bool) -> dict[str, Any]:
    devices: dict[str, Any] = {"requests": [{"name": "gpu", "exactly": {"deviceClassName": GPU, "count": count}}]}
    if numa:
        devices["constraints"] = [{"requests": ["gpu"], "matchAttribute": "resource.kubernetes.io/numaNode"}]
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
            "metadata": {"name": name, "namespace": "default"}, "spec": {"spec": {"devices": devices}}}


def claim_pod(name: str, template_name: str, group: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "100m"},
                                                                                     "claims": [{"name": "gpu"}]}}],
                            "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": template_name}]}
    if group:
        spec["schedulingGroup"] = {"podGroupName": group}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def pod_group(name: str, min_count: int, rack: bool) -> dict[str, Any]:
    spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": min_count}}}
    if rack:
        spec["schedulingConstraints"] = {"topology": [{"key": "example.com/rack"}]}
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


def cluster(nodes: int, devices: int, *, numa_size: int = 4, racks: int = 1) -> list[dict[str, Any]]:
    """`nodes` GPU nodes spread over `racks` racks, each with `devices` GPUs (NUMA nodes of `numa_size`)."""
    per_rack = max(nodes // racks, 1)
    out: list[dict[str, Any]] = [device_class()]
    for index in range(nodes):
        name = f"node-{index:05d}"
        out += [gpu_node(name, f"r{index // per_rack:03d}"), gpu_slice(name, devices, numa_size)]
    return out


def to_snapshot(objects: list[dict[str, Any]]) -> ClusterSnapshot:
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    return ClusterSnapshot(objects=MappingProxyType({kind: tuple(objs) for kind, objs in by_kind.items()}))


def timed_run(snapshot: ClusterSnapshot) -> tuple[list[Any], float, float]:
    """A whole-queue simulation with all of the newest release's gates on: (results, preparation s, scheduling s)."""
    from kubectl_wasdra.catalog.releases import NEWEST
    from kubectl_wasdra.sched.admission import all_on
    from kubectl_wasdra.sched.simulation import Simulation

    start = time.perf_counter()
    sim = Simulation(snapshot, all_on(NEWEST))
    prepared = time.perf_counter()
    results = sim.run()
    return results, prepared - start, time.perf_counter() - prepared
