"""resource.k8s.io: v1alpha3 / v1beta1 (flat requests, `basic` devices) <-> v1beta2 / v1 (the hub: `exactly`, flat devices).

Upstream: kubernetes/kubernetes pkg/apis/resource/v1beta1/conversion.go: Convert_v1beta1_DeviceRequest_To_resource_
DeviceRequest moves deviceClassName ... capacity under Exactly when any of them is set (hasAnyMainRequestFieldsSet),
Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest lifts them back, Convert_v1beta1_Device_To_resource_Device lifts
Basic into the device; pkg/apis/resource/v1alpha3/conversion.go of release-1.32/1.33 does the same with
BasicDevice.capacity as bare Quantities, wrapped into DeviceCapacity{Value}; zz_generated.conversion.go of v1alpha3,
v1beta1 and v1beta2 maps the other fields one to one (DeviceClass, DeviceTaintRule, status.allocation)."""

from __future__ import annotations

from typing import Any, Final

from kubectl_wasdra.cluster.convert import EXACT_FIELDS
from kubectl_wasdra.convert.edit import ConversionError, lift_from, mapping, mappings, move_into, same_shape

GROUP: Final = "resource.k8s.io"
HUB: Final = "v1"
FLAT: Final = frozenset({"v1alpha3", "v1beta1"})
KINDS: Final = frozenset({"ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceClass", "DeviceTaintRule"})


def _claim_spec(obj: dict[str, Any], kind: str) -> dict[str, Any] | None:
    return mapping(obj, "spec", "spec") if kind == "ResourceClaimTemplate" else mapping(obj, "spec")


def nest_request(request: dict[str, Any]) -> None:
    """v1beta1 DeviceRequest -> v1: the exact-request fields go under `exactly` whenever one of them is set, beside
    firstAvailable too (hasAnyMainRequestFieldsSet in conversion.go: an invalid mix stays for validation to report)."""
    if "exactly" not in request:
        move_into(request, EXACT_FIELDS, "exactly")


def _flatten_requests(spec: dict[str, Any] | None, path: str) -> None:
    for index, request in mappings(spec, "devices", "requests"):
        if "exactly" in request and "firstAvailable" in request:
            raise ConversionError(f"{path}.devices.requests[{index}]", "both exactly and firstAvailable are set",
                                  "keep one of them")
        lift_from(request, "exactly")


def _flatten_devices(spec: dict[str, Any] | None, version: str) -> None:
    """v1 Device -> v1beta1 Device{name, basic{...}} (v1alpha3: capacity values as bare quantities)."""
    for index, device in mappings(spec, "devices"):
        keys = [k for k in device if k != "name"]
        if not keys:
            continue
        if version == "v1alpha3":
            _unwrap_capacity(device, index)
        move_into(device, keys, "basic")


def _unwrap_capacity(device: dict[str, Any], index: int) -> None:
    for name, value in (mapping(device, "capacity") or {}).items():
        if isinstance(value, dict):
            if set(value) - {"value"}:
                raise ConversionError(f"spec.devices[{index}].capacity.{name}", "v1alpha3 capacities are plain quantities",
                                      "drop requestPolicy or target a release that serves resource.k8s.io/v1beta1 or newer")
            device["capacity"][name] = value.get("value")


def _lift_devices(spec: dict[str, Any] | None, version: str) -> None:
    for _, device in mappings(spec, "devices"):
        lift_from(device, "basic")
        capacity = mapping(device, "capacity")
        if version == "v1alpha3" and capacity:
            for name, value in list(capacity.items()):
                if not isinstance(value, dict):
                    wrapped = same_shape(capacity)
                    wrapped["value"] = value
                    capacity[name] = wrapped


def _taint_selector(obj: dict[str, Any]) -> None:
    """DeviceTaintSelector lost deviceClassName and selectors in 1.35 (v1alpha3 types.go; absent from v1beta2 and v1)."""
    selector = mapping(obj, "spec", "deviceSelector") or {}
    for field in ("deviceClassName", "selectors"):
        if field in selector:
            raise ConversionError(f"spec.deviceSelector.{field}", f"DeviceTaintSelector has no {field} since Kubernetes 1.35",
                                  "select the devices by driver, pool and device name, or taint them in the ResourceSlice")


def _counters_apart(obj: dict[str, Any]) -> None:
    """From 1.35 a ResourceSlice holds sharedCounters or devices, not both (KEP-4815; pkg/apis/resource/validation
    validateResourceSliceSpec): the counters need a slice of their own, whose name the file does not give."""
    spec = mapping(obj, "spec") or {}
    if spec.get("sharedCounters") and spec.get("devices"):
        raise ConversionError("spec.sharedCounters", "from Kubernetes 1.35 a ResourceSlice holds sharedCounters or "
                              "devices, not both", "move sharedCounters into a ResourceSlice of their own in the same pool "
                              "(and count it in pool.resourceSliceCount)")


def up(obj: dict[str, Any], kind: str, version: str) -> list[dict[str, Any]]:
    """`version` -> v1, in place."""
    if kind == "DeviceTaintRule":
        _taint_selector(obj)
    if kind == "ResourceSlice":
        _counters_apart(obj)
    if version not in FLAT:
        return []
    if kind in ("ResourceClaim", "ResourceClaimTemplate"):
        for _, request in mappings(_claim_spec(obj, kind), "devices", "requests"):
            nest_request(request)
    elif kind == "ResourceSlice":
        _lift_devices(mapping(obj, "spec"), version)
    return []


def down(obj: dict[str, Any], kind: str, version: str) -> None:
    """v1 -> `version`, in place; ConversionError for what `version` cannot hold."""
    if version not in FLAT:
        return
    if kind in ("ResourceClaim", "ResourceClaimTemplate"):
        _flatten_requests(_claim_spec(obj, kind), "spec.spec" if kind == "ResourceClaimTemplate" else "spec")
    elif kind == "ResourceSlice":
        _flatten_devices(mapping(obj, "spec"), version)
