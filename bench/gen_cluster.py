"""Writes a synthetic cluster snapshot of any size for benchmarks (one List, like `kubectl wasdra snapshot -o`).

    python bench/gen_cluster.py --nodes 5000 --devices-per-node 8 --pods-per-node 10 --fill 0.5 --racks 50 -o /tmp/c.json
    python bench/gen_cluster.py --nodes 5000 -o /tmp/c.yaml          # YAML when the name does not end in .json

Every node gets a ResourceSlice with `devices-per-node` GPUs (driver gpu.example.com, two NUMA nodes) and
`pods-per-node` running pods; `fill` is the fraction of each node's GPUs held by those pods through allocated
ResourceClaims. Output is deterministic for the same arguments.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

GPU = "gpu.example.com"


def _node(name: str, rack: int) -> dict[str, Any]:
    resources = {"cpu": "94", "memory": "990Gi", "ephemeral-storage": "1700Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": f"uid-{name}", "labels": {
                "kubernetes.io/hostname": name, "example.com/rack": f"r{rack}",
                "topology.kubernetes.io/zone": f"zone-{rack % 3}", "node.kubernetes.io/instance-type": "x100-8"}},
            "spec": {"taints": [{"key": "example.com/gpu", "value": "present", "effect": "NoSchedule"}] if rack == 0 else []},
            "status": {"allocatable": resources, "capacity": resources,
                       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}}


def _slice(node: str, devices: int) -> dict[str, Any]:
    per_numa = max(devices // 2, 1)
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
            "metadata": {"name": f"{node}-{GPU}", "uid": f"uid-slice-{node}"},
            "spec": {"driver": GPU, "nodeName": node, "pool": {"name": node, "generation": 1, "resourceSliceCount": 1},
                     "devices": [{"name": f"gpu-{i}", "attributes": {
                         "type": {"string": "gpu"}, "model": {"string": "X100"}, "index": {"int": i},
                         "uuid": {"string": f"GPU-{node}-{i}"}, "driverVersion": {"version": "1.4.2"},
                         "resource.kubernetes.io/numaNode": {"int": i // per_numa},
                         "resource.kubernetes.io/pcieRoot": {"string": f"pci0000:{i // per_numa:02x}"}},
                         "capacity": {"memory": {"value": "80Gi"}}} for i in range(devices)]}}


def _pod(name: str, namespace: str, node: str, claim: str | None) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "main", "image": "registry.example.com/app:1",
                                 "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "8Gi"}}}
    spec: dict[str, Any] = {"nodeName": node, "containers": [container], "schedulerName": "default-scheduler",
                            "tolerations": [{"key": "example.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]}
    if claim:
        container["resources"]["claims"] = [{"name": "gpu"}]
        spec["resourceClaims"] = [{"name": "gpu", "resourceClaimName": claim}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace, "uid": f"uid-{name}",
                                                           "labels": {"app": "bench"}},
            "spec": spec, "status": {"phase": "Running", "qosClass": "Burstable"}}


def _claim(name: str, namespace: str, pod: str, node: str, device: int) -> dict[str, Any]:
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": name, "namespace": namespace, "uid": f"uid-{name}"},
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": GPU, "count": 1}}]}},
            "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": GPU, "pool": node,
                                                               "device": f"gpu-{device}"}]},
                                      "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                                          {"key": "metadata.name", "operator": "In", "values": [node]}]}]}},
                       "reservedFor": [{"resource": "pods", "name": pod, "uid": f"uid-{pod}"}]}}


def generate(nodes: int, devices: int, pods_per_node: int, fill: float, racks: int) -> list[dict[str, Any]]:
    """All objects of the synthetic cluster."""
    items: list[dict[str, Any]] = [
        {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": GPU},
         "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{GPU}"'}}]}}]
    node_names = [f"node-{i:05d}" for i in range(nodes)]
    items += [_node(name, i % max(racks, 1)) for i, name in enumerate(node_names)]
    items += [_slice(name, devices) for name in node_names]
    busy = min(round(devices * fill), pods_per_node)
    for i, name in enumerate(node_names):
        namespace = f"team-{i % 20}"
        for j in range(pods_per_node):
            pod = f"{name}-pod-{j}"
            claim = f"{pod}-gpu" if j < busy else None
            items.append(_pod(pod, namespace, name, claim))
            if claim:
                items.append(_claim(claim, namespace, pod, name, j))
    return items


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--devices-per-node", type=int, default=8)
    parser.add_argument("--pods-per-node", type=int, default=10)
    parser.add_argument("--fill", type=float, default=0.5, help="fraction of GPUs allocated (0..1)")
    parser.add_argument("--racks", type=int, default=50)
    parser.add_argument("-o", "--output", required=True, help="file to write (.json = JSON, else YAML)")
    args = parser.parse_args(argv)
    items = generate(args.nodes, args.devices_per_node, args.pods_per_node, args.fill, args.racks)
    document = {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}
    if args.output.endswith(".json"):
        import orjson

        data = orjson.dumps(document, option=orjson.OPT_INDENT_2)
    else:
        import yaml_rs

        data = yaml_rs.dumps(document).encode()
    with open(args.output, "wb") as handle:
        handle.write(data)
    print(f"wrote {args.output}: {len(items)} objects, {len(data) / 2**20:.1f} MiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
