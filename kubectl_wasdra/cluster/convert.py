"""Conversion of resource.k8s.io v1beta1, v1beta2 and v1alpha3 objects to the resource.k8s.io/v1 shape.

Upstream: kubernetes/kubernetes pkg/apis/resource/v1beta1/conversion.go (Device.Basic and flat DeviceRequest fields),
staging/src/k8s.io/api/resource/{v1alpha3,v1beta1,v1beta2,v1}/types.go (release-1.37).

What differs from v1:
- v1beta1 and v1alpha3 ResourceSlice devices keep their fields under `basic` (v1: directly on the device);
  v1alpha3 `basic.capacity` maps to a bare Quantity (v1: `{value: Quantity}`).
- v1beta1 and v1alpha3 claim requests carry deviceClassName/selectors/allocationMode/count/adminAccess/tolerations/capacity
  at the top level (v1: inside `exactly`); `firstAvailable` is the same in every version.
- v1beta2 already has the v1 shape. DeviceTaintRule is only renamed (the class and CEL selector fields of v1alpha3 were
  tombstoned in 1.35 and are kept as read; the scheduler ignores them since then).
Conversion never mutates its input: changed parts are copied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

GROUP: Final = "resource.k8s.io"
V1: Final = f"{GROUP}/v1"
OLD_VERSIONS: Final = frozenset({f"{GROUP}/v1beta1", f"{GROUP}/v1beta2", f"{GROUP}/v1alpha3"})
# Fields of a v1beta1/v1alpha3 DeviceRequest that move under `exactly` in v1 (v1 ExactDeviceRequest, in its order);
# kubectl_wasdra/convert/resource.py moves the same fields in manifests.
EXACT_FIELDS: Final = ("deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity",
                       "derivedAttributes")
_FLAT_REQUEST_VERSIONS: Final = frozenset({f"{GROUP}/v1beta1", f"{GROUP}/v1alpha3"})


def needs_conversion(obj: Mapping[str, Any]) -> bool:
    """True for a resource.k8s.io object in an older version than v1."""
    return obj.get("apiVersion") in OLD_VERSIONS


def to_v1(obj: dict[str, Any]) -> dict[str, Any]:
    """The object in resource.k8s.io/v1 shape; objects of other groups and v1 objects come back unchanged (same dict)."""
    version = obj.get("apiVersion")
    if version not in OLD_VERSIONS:
        return obj
    out = dict(obj)
    out["apiVersion"] = V1
    if version not in _FLAT_REQUEST_VERSIONS:
        return out
    kind = obj.get("kind")
    if kind == "ResourceSlice":
        out["spec"] = _slice_spec(obj.get("spec"))
    elif kind == "ResourceClaim":
        out["spec"] = _claim_spec(obj.get("spec"))
    elif kind == "ResourceClaimTemplate":
        spec = obj.get("spec")
        if isinstance(spec, Mapping):
            out["spec"] = {**spec, "spec": _claim_spec(spec.get("spec"))}
    return out


def _slice_spec(spec: Any) -> Any:
    if not isinstance(spec, Mapping) or not isinstance(spec.get("devices"), list):
        return spec
    return {**spec, "devices": [_device(device) for device in spec["devices"]]}


def _device(device: Any) -> Any:
    """v1beta1/v1alpha3 Device {name, basic: {...}} -> v1 Device {name, ...}."""
    if not isinstance(device, Mapping) or not isinstance(device.get("basic"), Mapping):
        return device
    out = {key: value for key, value in device.items() if key != "basic"}
    out.update(device["basic"])
    capacity = out.get("capacity")
    if isinstance(capacity, Mapping):
        out["capacity"] = {name: _capacity(value) for name, value in capacity.items()}
    return out


def _capacity(value: Any) -> Any:
    """v1alpha3 capacity is a bare Quantity; v1beta1 and later wrap it as {value: Quantity, requestPolicy?}."""
    return value if isinstance(value, Mapping) else {"value": value}


def _claim_spec(spec: Any) -> Any:
    if not isinstance(spec, Mapping):
        return spec
    devices = spec.get("devices")
    if not isinstance(devices, Mapping) or not isinstance(devices.get("requests"), list):
        return spec
    return {**spec, "devices": {**devices, "requests": [_request(request) for request in devices["requests"]]}}


def _request(request: Any) -> Any:
    """v1beta1 DeviceRequest -> v1 DeviceRequest: the flat fields move under `exactly` whenever one of them is set,
    beside firstAvailable too (Convert_v1beta1_DeviceRequest_To_v1_DeviceRequest, hasAnyMainRequestFieldsSet in
    staging/src/k8s.io/dynamic-resource-allocation/api/v1beta1/conversion.go): an invalid mix stays for validation to
    report, as convert/resource.py keeps it in manifests."""
    if not isinstance(request, Mapping) or "exactly" in request:
        return request
    out = {key: value for key, value in request.items() if key not in EXACT_FIELDS}
    exactly = {key: request[key] for key in EXACT_FIELDS if key in request}
    if exactly:
        out["exactly"] = exactly
    return out
