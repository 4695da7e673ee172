"""Small builders for Kubernetes objects in API shape (plain dicts), shared by the scheduler and explain tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot


def node(name: str, *, cpu: str = "8", memory: str = "32Gi", pods: int = 110, labels: Mapping[str, str] | None = None,
         taints: Iterable[Mapping[str, Any]] = (), unschedulable: bool = False, extra: Mapping[str, str] | None = None) -> dict:
    """A Ready node with allocatable cpu/memory/pods (plus `extra` resources)."""
    allocatable = {"cpu": cpu, "memory": memory, "pods": str(pods), **(extra or {})}
    spec: dict[str, Any] = {}
    if taints:
        spec["taints"] = list(taints)
    if unschedulable:
        spec["unschedulable"] = True
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": dict(labels or {})},
            "spec": spec, "status": {"allocatable": allocatable, "capacity": dict(allocatable)}}


def pod(name: str, *, namespace: str = "default", cpu: str | None = "1", memory: str | None = None, node_name: str = "",
        group: str | None = None, tolerations: Iterable[Mapping[str, Any]] = (), claims: Iterable[Mapping[str, Any]] = (),
        node_selector: Mapping[str, str] | None = None, priority: int | None = None, created: str = "",
        labels: Mapping[str, str] | None = None, extra: Mapping[str, str] | None = None, phase: str | None = None,
        **spec_fields: Any) -> dict:
    """A pod with one container requesting `cpu`/`memory`/`extra`; `group` sets spec.schedulingGroup.podGroupName."""
    requests = {k: v for k, v in (("cpu", cpu), ("memory", memory)) if v is not None} | dict(extra or {})
    claims = list(claims)
    container: dict[str, Any] = {"name": "main", "image": "busybox", "resources": {"requests": requests}}
    if claims:
        container["resources"]["claims"] = [{"name": c["name"]} for c in claims]
    spec: dict[str, Any] = {"containers": [container], **spec_fields}
    for key, value in (("nodeName", node_name), ("tolerations", list(tolerations)), ("resourceClaims", claims),
                       ("nodeSelector", dict(node_selector or {})), ("priority", priority)):
        if value or (value == 0 and key == "priority"):
            spec[key] = value
    if group:
        spec["schedulingGroup"] = {"podGroupName": group}
    meta: dict[str, Any] = {"name": name, "namespace": namespace, "labels": dict(labels or {})}
    if created:
        meta["creationTimestamp"] = created
    out = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    if phase or node_name:
        out["status"] = {"phase": phase or "Running"}
    return out


def pod_group(name: str, *, namespace: str = "default", min_count: int | None = None, topology_key: str | None = None,
              api_version: str = "scheduling.k8s.io/v1beta1", claims: Iterable[Mapping[str, Any]] = (),
              parent: str | None = None, created: str = "", priority: int | None = None) -> dict:
    """A PodGroup: gang with minCount, or basic when min_count is None."""
    spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": min_count}} if min_count else {"basic": {}}}
    if topology_key:
        spec["schedulingConstraints"] = {"topology": [{"key": topology_key}]}
    if claims:
        spec["resourceClaims"] = list(claims)
    if parent:
        spec["parentCompositePodGroupName"] = parent
    if priority is not None:
        spec["priority"] = priority
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if created:
        meta["creationTimestamp"] = created
    return {"apiVersion": api_version, "kind": "PodGroup", "metadata": meta, "spec": spec}


def device_class(name: str, driver: str, *, extended_resource: str | None = None) -> dict:
    """A DeviceClass selecting every device of `driver` (CEL)."""
    spec: dict[str, Any] = {"selectors": [{"cel": {"expression": f'device.driver == "{driver}"'}}]}
    if extended_resource:
        spec["extendedResourceName"] = extended_resource
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": name}, "spec": spec}


def resource_slice(node_name: str, driver: str, count: int, *, numa_split: int | None = None,
                   taints: Mapping[int, Mapping[str, Any]] | None = None, pool: str | None = None) -> dict:
    """A node-local slice of `count` devices gpu-0.. with a numaNode attribute (two halves when numa_split is given)."""
    devices = []
    for index in range(count):
        numa = index // numa_split if numa_split else 0
        device: dict[str, Any] = {"name": f"gpu-{index}", "attributes": {
            "resource.kubernetes.io/numaNode": {"int": numa}, "index": {"int": index}}}
        if taints and index in taints:
            device["taints"] = [dict(taints[index])]
        devices.append(device)
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": f"{node_name}-{driver}"},
            "spec": {"driver": driver, "nodeName": node_name, "pool": {"name": pool or node_name, "generation": 1,
                                                                          "resourceSliceCount": 1}, "devices": devices}}


def claim_template(name: str, device_class_name: str, count: int = 1, *, namespace: str = "default",
                   match_attribute: str | None = None, first_available: Iterable[Mapping[str, Any]] = ()) -> dict:
    """A ResourceClaimTemplate with one request `gpu` (exactly count, or firstAvailable subrequests)."""
    first = list(first_available)
    request: dict[str, Any] = {"name": "gpu"}
    if first:
        request["firstAvailable"] = first
    else:
        request["exactly"] = {"deviceClassName": device_class_name, "count": count}
    devices: dict[str, Any] = {"requests": [request]}
    if match_attribute:
        devices["constraints"] = [{"requests": ["gpu"], "matchAttribute": match_attribute}]
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
            "metadata": {"name": name, "namespace": namespace}, "spec": {"spec": {"devices": devices}}}


def priority_class(name: str, value: int, *, default: bool = False, preemption_policy: str | None = None) -> dict:
    """A PriorityClass (preemptionPolicy left unset unless given: the API server defaults it)."""
    out = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": value,
           "globalDefault": default}
    if preemption_policy is not None:
        out["preemptionPolicy"] = preemption_policy
    return out


def snapshot(*objects: Mapping[str, Any]) -> ClusterSnapshot:
    """A ClusterSnapshot of the given objects (grouped by kind, sorted by namespace/name)."""
    by_kind: dict[str, list] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    def key(o: Mapping[str, Any]) -> tuple[str, str]:
        return (o["metadata"].get("namespace", ""), o["metadata"]["name"])
    return ClusterSnapshot(objects=MappingProxyType({k: tuple(sorted(v, key=key)) for k, v in by_kind.items()}))


def taint(key: str, value: str = "", effect: str = "NoSchedule") -> dict:
    """A taint."""
    return {"key": key, "value": value, "effect": effect}


def run_all(cluster: ClusterSnapshot, *objects: Mapping[str, Any], gates: Any = None) -> dict[str, Any]:
    """{entry name: GroupResult} of every queue entry after overlaying `objects` (every workload gate on by default)."""
    from kubectl_wasdra.catalog.releases import NEWEST
    from kubectl_wasdra.sched.admission import all_on
    from kubectl_wasdra.sched.simulation import Simulation

    results = Simulation(cluster.overlay([dict(o) for o in objects]), gates or all_on(NEWEST)).run()
    return {r.name: r for r in results}


def fixture_cluster(name: str) -> ClusterSnapshot:
    """A fixture cluster from fixtures/clusters/<name>, loaded as `--snapshot` would."""
    from kubectl_wasdra.cluster.files import load_snapshot

    snapshot_, problems = load_snapshot([str(Path(__file__).resolve().parents[1] / "fixtures" / "clusters" / name)])
    assert not problems, problems
    return snapshot_


def capacity_claim(name: str, device_class_name: str, capacity: Mapping[str, str] | None = None,
                   request: str = "nic") -> dict:
    """A ResourceClaim with one `exactly` request for one device of the class, optionally with capacity requests."""
    exactly: dict[str, Any] = {"deviceClassName": device_class_name}
    if capacity:
        exactly["capacity"] = {"requests": dict(capacity)}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name, "namespace": "default"},
            "spec": {"devices": {"requests": [{"name": request, "exactly": exactly}]}}}


def write_failing_selector_case(folder: Path, devices: int) -> tuple[Path, Path]:
    """(snapshot, manifest) written into `folder`: one node whose slice has `devices` devices, a DeviceClass whose
    selector `1 / 0 == 1` errors at runtime on every device, and a pod with a claim of that class."""
    import json

    slice_devices = [{"name": f"d{i}", "attributes": {"index": {"int": i}}} for i in range(devices)]
    items = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
              "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "110"}}},
             {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}},
             {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
              "spec": {"selectors": [{"cel": {"expression": "1 / 0 == 1"}}]}},
             {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s1"},
              "spec": {"driver": "gpu.example.com", "nodeName": "n1",
                       "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1}, "devices": slice_devices}}]
    snapshot_path = folder / "snap.json"
    snapshot_path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    manifest = folder / "claim.yaml"
    manifest.write_text(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n"
        "  devices:\n    requests: [{name: g, exactly: {deviceClassName: gpu}}]\n---\napiVersion: v1\nkind: Pod\n"
        "metadata: {name: p, namespace: default}\nspec:\n  resourceClaims: [{name: g, resourceClaimName: c}]\n"
        "  containers: [{name: c, image: i, resources: {claims: [{name: g}]}}]\n")
    return snapshot_path, manifest
