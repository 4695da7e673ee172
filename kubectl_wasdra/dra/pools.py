"""The resource pools one node sees: relevance, generations, completeness, validity and the allocator's scan order.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
pools_incubating.go (GatherPools), release-1.37. The first-fit search scans pools sorted by (driver, pool) with pools
holding devices with binding conditions last, slices by name and devices in published order, so this order decides
which devices get picked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from kubectl_wasdra.dra.inventory import Device, Inventory, Slice


@dataclass(eq=False)
class Pool:
    """One (driver, pool) as seen from one node."""

    driver: str
    name: str
    generation: int
    device_slices: list[Slice] = field(default_factory=list)  # slices targeting the node, sorted by name
    other_slices: list[Slice] = field(default_factory=list)  # same generation, other nodes (counter bookkeeping)
    counter_sets: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    incomplete: bool = False
    invalid_reason: str | None = None

    @property
    def key(self) -> str:
        return f"{self.driver}/{self.name}"

    @property
    def usable(self) -> bool:
        return not self.incomplete and self.invalid_reason is None

    def all_devices(self) -> list[Device]:
        """Every device of the pool at this generation (this node's slices and the others)."""
        return [device for slice_ in (*self.device_slices, *self.other_slices) for device in slice_.devices]


@dataclass(eq=False)
class NodePools:
    """Pools of one node plus the flat scan list of devices in usable pools (per-device node selection applied)."""

    pools: list[Pool]
    devices: list[tuple[Pool, Device]]
    incomplete_devices: int = 0
    any_invalid: bool = False


def _group_relevant(inventory: Inventory, node: Mapping[str, Any], partitionable: bool) -> dict[tuple[str, str], list[Slice]]:
    node_name = str((node.get("metadata") or {}).get("name") or "")
    groups: dict[tuple[str, str], list[Slice]] = {}
    for slice_ in (*inventory.slices_on_node.get(node_name, ()), *inventory.slices_shared):
        if not partitionable and (slice_.per_device_node_selection or slice_.shared_counters):
            continue
        if not slice_.is_relevant(node):
            continue
        kept = groups.get((slice_.driver, slice_.pool))
        if kept is None or slice_.generation > kept[0].generation:
            groups[(slice_.driver, slice_.pool)] = [slice_]
        elif slice_.generation == kept[0].generation:
            kept.append(slice_)
    return groups


def _build_pool(inventory: Inventory, key: tuple[str, str], kept: list[Slice]) -> Pool | None:
    """A Pool, or None when a newer generation exists elsewhere (the pool is obsolete and dropped)."""
    generation, wanted = kept[0].generation, kept[0].slice_count
    pool = Pool(driver=key[0], name=key[1], generation=generation, device_slices=sorted(kept, key=lambda s: s.name))
    if len(kept) != wanted:
        everywhere = inventory.slices_by_pool.get(key, [])
        if any(other.generation > generation for other in everywhere):
            return None
        same = [other for other in everywhere if other.generation == generation]
        if len(same) == wanted:
            pool.other_slices = sorted((s for s in same if s not in kept), key=lambda s: s.name)
        else:
            pool.incomplete = True
            return pool
    pool.invalid_reason = _validate(pool)
    return pool


def _validate(pool: Pool) -> str | None:
    """Invalid pool messages as upstream words them, in its order (pools_incubating.go buildPool): device names of
    the node's slices, then counter set names, then counter references of the node's slices and of the pool's slices
    for other nodes (their devices draw on the same counters, so a wrong reference there makes the pool invalid too;
    device names there are not checked, as upstream)."""
    seen: set[str] = set()
    for device in (device for slice_ in pool.device_slices for device in slice_.devices):
        if device.name in seen:
            return f"duplicate device name {device.name}"
        seen.add(device.name)
    for slice_ in sorted((*pool.device_slices, *pool.other_slices), key=lambda s: s.name):
        for name, counters in slice_.shared_counters:
            if name in pool.counter_sets:
                return f"duplicate counter set name {name}"
            pool.counter_sets[name] = dict(counters)
    for device in (device for slice_ in (*pool.device_slices, *pool.other_slices) for device in slice_.devices):
        problem = _counter_reference_problem(pool, device)
        if problem:
            return problem
    return None


def _counter_reference_problem(pool: Pool, device: Device) -> str | None:
    for set_name, counters in device.consumes_counters:
        if set_name not in pool.counter_sets:
            return f"counter set {set_name} not found"
        for counter in counters:
            if counter not in pool.counter_sets[set_name]:
                return f"counter {counter} not found in counter set {set_name}"
    return None


def gather_pools(inventory: Inventory, node: Mapping[str, Any], partitionable: bool = True) -> NodePools:
    """Pools of `node` in scan order, with incomplete/invalid markers and the devices the search may pick."""
    pools = [pool for key, kept in _group_relevant(inventory, node, partitionable).items()
             if (pool := _build_pool(inventory, key, kept)) is not None]
    pools.sort(key=lambda p: (any(d.binding_conditions for s in p.device_slices for d in s.devices), p.driver, p.name))
    devices: list[tuple[Pool, Device]] = []
    incomplete = 0
    for pool in pools:
        for slice_ in pool.device_slices:
            if not pool.usable:
                incomplete += len(slice_.devices)
                continue
            devices.extend((pool, device) for device in slice_.devices
                           if not slice_.per_device_node_selection or device.matches_node(node))
    return NodePools(pools=pools, devices=devices, incomplete_devices=incomplete,
                     any_invalid=any(pool.invalid_reason for pool in pools))
