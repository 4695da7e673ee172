"""Which DRA features the allocator honours (the allocator's Features struct, from feature gates).

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/types.go (Features)
and pkg/features/kube_features.go defaults for 1.37 (see shared reference feature-gates.yaml).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Features:
    """Defaults are Kubernetes 1.37's: everything on except fractional capacity ranges and list-typed attributes."""

    admin_access: bool = True
    prioritized_list: bool = True
    partitionable_devices: bool = True
    device_taints: bool = True
    binding_conditions: bool = True
    consumable_capacity: bool = True
    fractional_capacity_range: bool = False
    extended_resource: bool = True
    list_type_attributes: bool = False  # DRAListTypeAttributes (alpha 1.36): set semantics in constraints
    derived_attributes: bool = False  # DRADerivedAttributes (alpha 1.37, KEP-6080): requests' derivedAttributes

    @classmethod
    def from_gates(cls, enabled: Callable[[str], bool]) -> Features:
        """Features from a gate lookup such as `GateState.enabled`."""
        return cls(admin_access=enabled("DRAAdminAccess"), prioritized_list=enabled("DRAPrioritizedList"),
                   partitionable_devices=enabled("DRAPartitionableDevices"), device_taints=enabled("DRADeviceTaints"),
                   # dynamicresources.go: DeviceBindingAndStatus needs both gates
                   binding_conditions=enabled("DRADeviceBindingConditions") and enabled("DRAResourceClaimDeviceStatus"),
                   consumable_capacity=enabled("DRAConsumableCapacity"),
                   fractional_capacity_range=enabled("DRAFractionalCapacityRange"),
                   extended_resource=enabled("DRAExtendedResource"),
                   list_type_attributes=enabled("DRAListTypeAttributes"),
                   derived_attributes=enabled("DRADerivedAttributes"))


DEFAULT_FEATURES = Features()


def _request_without(request: Mapping[str, Any], drop: tuple[str, ...]) -> Mapping[str, Any]:
    out = dict(request)
    if isinstance(out.get("exactly"), Mapping):
        out["exactly"] = {k: v for k, v in out["exactly"].items() if k not in drop}
    subs = out.get("firstAvailable")
    if isinstance(subs, list):
        out["firstAvailable"] = [{k: v for k, v in s.items() if k not in drop} if isinstance(s, Mapping) else s
                                 for s in subs]
    return out


def drop_disabled_fields(claim: Mapping[str, Any], features: Features) -> Mapping[str, Any]:
    """`claim` as the API server stores it on create when gates are off: adminAccess (DRAAdminAccess), device
    tolerations (DRADeviceTaints), capacity requests and distinctAttribute constraints (DRAConsumableCapacity) are
    dropped (a distinctAttribute constraint with it), so they behave as absent. The same object when nothing is dropped.

    Upstream: kubernetes/kubernetes pkg/registry/resource/resourceclaim/strategy.go (dropDisabledFields), release-1.37.
    firstAvailable (DRAPrioritizedList) is left in place: without it the request is invalid and the allocator says why.
    """
    drop = tuple(name for name, on in (("adminAccess", features.admin_access), ("tolerations", features.device_taints),
                                       ("capacity", features.consumable_capacity)) if not on)
    if not drop:
        return claim
    spec = claim.get("spec")
    devices = spec.get("devices") if isinstance(spec, Mapping) else None
    if not isinstance(devices, Mapping):
        return claim
    requests, constraints = devices.get("requests"), devices.get("constraints")
    new_devices = dict(devices)
    if isinstance(requests, list):
        new_devices["requests"] = [_request_without(r, drop) if isinstance(r, Mapping) else r for r in requests]
    if isinstance(constraints, list) and not features.consumable_capacity:
        # a constraint left with no kind would be rejected: one that only had distinctAttribute goes as a whole
        new_devices["constraints"] = [c for c in constraints if not (isinstance(c, Mapping) and "distinctAttribute" in c
                                                                     and "matchAttribute" not in c)]
    if new_devices == devices:
        return claim
    return {**claim, "spec": {**spec, "devices": new_devices}}
