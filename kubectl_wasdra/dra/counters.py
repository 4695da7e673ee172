"""Partitionable devices: shared counter sets, what allocated devices already consume, and the fit check.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (checkAvailableCounters, deallocateCountersForDevice), release-1.37.
Available = counter-set value minus the consumption of every allocated device of the pool (any node; may go negative).
A device fits if, with its consumption added to the attempt's running consumption, every counter of every set of the
pool still covers what is consumed, so one overcommitted counter blocks every consuming device of the pool.
**Quirk**: bookkeeping is keyed by pool *name* only (two drivers with the same pool name share counters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kubectl_wasdra.dra.inventory import Device
    from kubectl_wasdra.dra.pools import Pool

CounterSets = dict[str, dict[str, Decimal]]


def available_counters(pool: Pool, is_allocated: Callable[[str], bool]) -> CounterSets:
    """Counter sets of `pool` minus what its allocated devices consume."""
    available = {name: dict(counters) for name, counters in pool.counter_sets.items()}
    for device in pool.all_devices():
        if is_allocated(device.key):
            add_consumption(available, device.consumes_counters, sign=-1, known_only=True)
    return available


def add_consumption(target: CounterSets, consumption: Iterable[tuple[str, Mapping[str, Decimal]]], sign: int = 1,
                    known_only: bool = False) -> None:
    """Add (sign=1) or remove (sign=-1) a device's consumesCounters to/from `target` in place."""
    for set_name, counters in consumption:
        if known_only and set_name not in target:
            continue
        values = target.setdefault(set_name, {})
        for name, value in counters.items():
            if known_only and name not in values:
                continue
            values[name] = values.get(name, Decimal(0)) + sign * value


def counters_fit(available: Mapping[str, Mapping[str, Decimal]], consumed: Mapping[str, Mapping[str, Decimal]]) -> bool:
    """Every counter of every set of the pool still covers what is consumed."""
    for set_name, counters in available.items():
        used = consumed.get(set_name, {})
        for name, value in counters.items():
            if value < used.get(name, 0):
                return False
    return True


def device_fits(device: Device, available: Mapping[str, Mapping[str, Decimal]]) -> bool:
    """The counters check for the device alone (nothing else taken in this attempt)."""
    return counters_fit(available, dict(device.consumes_counters))
