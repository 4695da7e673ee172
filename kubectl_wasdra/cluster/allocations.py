"""Devices already allocated by ResourceClaim status: exclusive devices, shares of multi-allocatable devices, consumed
capacity per device, and shared counters consumed per counter set.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go and
staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatedstate.go (release-1.37): admin-access results
never block anyone; a result with a shareID is a share whose consumedCapacity adds to the device's running sum; any other
result makes the device exclusively allocated. A device that is allocated in any way consumes its counters once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.cluster.pools import DeviceKey
from kubectl_wasdra.kube.quantity import parse_quantity

ClaimKey = tuple[str, str]  # (namespace, name)
CounterKey = tuple[str, str, str]  # (driver, pool, counter set)


@dataclass(frozen=True)
class AllocatedState:
    """What existing allocations hold (see module doc). `holders` says which claims hold each device."""

    exclusive: frozenset[DeviceKey]
    shares: Mapping[DeviceKey, frozenset[str]]
    consumed_capacity: Mapping[DeviceKey, Mapping[str, Decimal]]
    holders: Mapping[DeviceKey, tuple[ClaimKey, ...]]
    consumed_counters: Mapping[CounterKey, Mapping[str, Decimal]]

    def is_allocated(self, key: DeviceKey) -> bool:
        """Exclusive, shared or with consumed capacity: counts for counters."""
        return key in self.exclusive or key in self.shares or key in self.consumed_capacity


def _results(claim: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    allocation = (claim.get("status") or {}).get("allocation") or {}
    return (allocation.get("devices") or {}).get("results") or ()


def build_allocated_state(claims: Sequence[Mapping[str, Any]], devices: Mapping[DeviceKey, Mapping[str, Any]]) -> AllocatedState:
    """Allocated state of all claims; `devices` (pools.device_index) supplies each device's consumesCounters."""
    exclusive: set[DeviceKey] = set()
    shares: dict[DeviceKey, set[str]] = defaultdict(set)
    capacity: dict[DeviceKey, dict[str, Decimal]] = defaultdict(dict)
    holders: dict[DeviceKey, list[ClaimKey]] = defaultdict(list)
    for claim in claims:
        meta = claim.get("metadata") or {}
        claim_key = (meta.get("namespace") or "", meta.get("name") or "")
        for result in _results(claim):
            key = (result.get("driver") or "", result.get("pool") or "", result.get("device") or "")
            if result.get("adminAccess"):
                continue
            holders[key].append(claim_key)
            share = result.get("shareID")
            if share:
                shares[key].add(str(share))
                for name, quantity in (result.get("consumedCapacity") or {}).items():
                    capacity[key][name] = capacity[key].get(name, Decimal(0)) + parse_quantity(quantity)
            else:
                exclusive.add(key)
    allocated = exclusive | set(shares) | set(capacity)
    return AllocatedState(
        exclusive=frozenset(exclusive),
        shares=MappingProxyType({key: frozenset(ids) for key, ids in shares.items()}),
        consumed_capacity=MappingProxyType({key: MappingProxyType(values) for key, values in capacity.items()}),
        holders=MappingProxyType({key: tuple(sorted(items)) for key, items in holders.items()}),
        consumed_counters=_counters(allocated, devices),
    )


def _counters(allocated: set[DeviceKey],
              devices: Mapping[DeviceKey, Mapping[str, Any]]) -> Mapping[CounterKey, Mapping[str, Decimal]]:
    used: dict[CounterKey, dict[str, Decimal]] = defaultdict(dict)
    for key in sorted(allocated):
        device = devices.get(key)
        if device is None:
            continue
        for consumption in device.get("consumesCounters") or ():
            counter_key = (key[0], key[1], consumption.get("counterSet") or "")
            for name, counter in (consumption.get("counters") or {}).items():
                value = parse_quantity((counter or {}).get("value", 0))
                used[counter_key][name] = used[counter_key].get(name, Decimal(0)) + value
    return MappingProxyType({key: MappingProxyType(values) for key, values in used.items()})
