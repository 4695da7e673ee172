"""Builders for DRA objects in the resource.k8s.io/v1 shape (slices, devices, classes, claims) used by the dra tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

DRIVER = "gpu.example.com"


def device(name: str, *, attributes: Mapping[str, Any] | None = None, capacity: Mapping[str, Any] | None = None,
           **fields: Any) -> dict[str, Any]:
    """A device; attribute values are typed from Python (int, bool, str) unless given as dicts."""
    attrs = {}
    for key, value in (attributes or {}).items():
        if isinstance(value, dict):
            attrs[key] = value
        elif isinstance(value, bool):
            attrs[key] = {"bool": value}
        elif isinstance(value, int):
            attrs[key] = {"int": value}
        else:
            attrs[key] = {"string": value}
    caps = {key: value if isinstance(value, dict) else {"value": value} for key, value in (capacity or {}).items()}
    out: dict[str, Any] = {"name": name, **fields}
    if attrs:
        out["attributes"] = attrs
    if caps:
        out["capacity"] = caps
    return out


def resource_slice(name: str, devices: Sequence[Mapping[str, Any]] = (), *, node: str | None = "node-1",
                   driver: str = DRIVER, pool: str | None = None, generation: int = 1, count: int = 1,
                   **spec: Any) -> dict[str, Any]:
    """A ResourceSlice; `node=None` with `allNodes=True` or `nodeSelector=...` in `spec` for shared slices."""
    body: dict[str, Any] = {"driver": driver, "pool": {"name": pool or node or name, "generation": generation,
                                                       "resourceSliceCount": count}, **spec}
    if node is not None:
        body["nodeName"] = node
    if devices:
        body["devices"] = list(devices)
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": name}, "spec": body}


def device_class(name: str, *expressions: str, **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selectors": [{"cel": {"expression": e}} for e in expressions], **spec}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": name}, "spec": body}


def request(name: str, device_class_name: str = "gpu", count: int | None = None, *, selectors: Iterable[str] = (),
            **fields: Any) -> dict[str, Any]:
    """An `exactly` request (fields go into `exactly`)."""
    exactly: dict[str, Any] = {"deviceClassName": device_class_name, **fields}
    if count is not None:
        exactly["count"] = count
    if selectors:
        exactly["selectors"] = [{"cel": {"expression": e}} for e in selectors]
    return {"name": name, "exactly": exactly}


def first_available(name: str, *subrequests: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": name, "firstAvailable": list(subrequests)}


def subrequest(name: str, device_class_name: str = "gpu", count: int = 1, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deviceClassName": device_class_name, "count": count, **fields}


def claim(name: str, *requests: Mapping[str, Any], constraints: Sequence[Mapping[str, Any]] = (),
          namespace: str = "default", config: Sequence[Mapping[str, Any]] = (), results: Sequence[Mapping[str, Any]] = ()
          ) -> dict[str, Any]:
    devices: dict[str, Any] = {"requests": list(requests)}
    if constraints:
        devices["constraints"] = list(constraints)
    if config:
        devices["config"] = list(config)
    out: dict[str, Any] = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                           "metadata": {"name": name, "namespace": namespace}, "spec": {"devices": devices}}
    if results:
        out["status"] = {"allocation": {"devices": {"results": list(results)}}}
    return out


def allocated(*device_names: str, pool: str = "node-1", driver: str = DRIVER, **fields: Any) -> list[dict[str, Any]]:
    """Allocation results for `device_names` (for a claim that is already allocated)."""
    return [{"request": "r", "driver": driver, "pool": pool, "device": name, **fields} for name in device_names]


def node(name: str = "node-1", **labels: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": dict(labels)}}


GPU_CLASS = device_class("gpu", f'device.driver == "{DRIVER}"')
