"""Which DRA features the allocator honours (the allocator's Features struct, from feature gates).

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/types.go (Features)
and pkg/features/kube_features.go defaults for 1.37 (see shared reference feature-gates.yaml).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Features:
    """Defaults are Kubernetes 1.37's: everything on except fractional capacity ranges and list attributes."""

    admin_access: bool = True
    prioritized_list: bool = True
    partitionable_devices: bool = True
    device_taints: bool = True
    binding_conditions: bool = True
    consumable_capacity: bool = True
    fractional_capacity_range: bool = False
    extended_resource: bool = True

    @classmethod
    def from_gates(cls, enabled: Callable[[str], bool]) -> Features:
        """Features from a gate lookup such as `GateState.enabled`."""
        return cls(admin_access=enabled("DRAAdminAccess"), prioritized_list=enabled("DRAPrioritizedList"),
                   partitionable_devices=enabled("DRAPartitionableDevices"), device_taints=enabled("DRADeviceTaints"),
                   # dynamicresources.go: DeviceBindingAndStatus needs both gates
                   binding_conditions=enabled("DRADeviceBindingConditions") and enabled("DRAResourceClaimDeviceStatus"),
                   consumable_capacity=enabled("DRAConsumableCapacity"),
                   fractional_capacity_range=enabled("DRAFractionalCapacityRange"),
                   extended_resource=enabled("DRAExtendedResource"))


DEFAULT_FEATURES = Features()
