"""Consumable capacity: what a request consumes of each device capacity, request policies and the fit check.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
consumable_capacity.go (CmpRequestOverCapacity, calculateConsumedCapacity, roundUpRange, roundUpValidValues,
violatesPolicy), release-1.37.

Every capacity entry of the device is consumed: a requested one per the policy's rounding, an unrequested one by the
policy default or else in full. In 1.37 a request must name the capacity exactly as the device publishes it (1.38
development also resolves the driver-qualified spelling). Range rounding uses integer arithmetic on Value() (rounded
up), or on MilliValue() (rounded up) when DRAFractionalCapacityRange is on (off by default in 1.37) and one of
min/max/step is fractional. Python integers do not overflow, so upstream's big-decimal fallback gives the same values.
**Quirk**: upstream compares a consumption with `default` by Go struct equality; we compare numerically.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from kubectl_wasdra.dra.inventory import Capacity, Device
from kubectl_wasdra.kube.quantity import QuantityError, ceil_value, milli_value, parse_quantity


def _q(value: Any) -> Decimal | None:
    if value is None:
        return None
    try:
        return parse_quantity(value)
    except QuantityError:
        return None


def _use_milli(valid_range: Mapping[str, Any], fractional: bool) -> bool:
    """useMilli: the fractional gate is on, some of min/max/step is fractional, and step >= 1m."""
    if not fractional:
        return False
    values = [_q(valid_range.get(key)) for key in ("min", "max", "step")]
    if not any(value is not None and milli_value(value) % 1000 for value in values):
        return False
    return values[2] is None or milli_value(values[2]) >= 1


def _units(value: Decimal, milli: bool) -> int:
    """Quantity.MilliValue() or Quantity.Value(): both round up."""
    return milli_value(value) if milli else ceil_value(value)


def _round_up_range(requested: Decimal, valid_range: Mapping[str, Any], fractional: bool) -> Decimal:
    minimum = _q(valid_range.get("min")) or Decimal(0)
    if requested < minimum:
        return minimum
    step = _q(valid_range.get("step"))
    if step is None:
        return requested
    milli = _use_milli(valid_range, fractional)
    step_units, min_units = _units(step, milli), _units(minimum, milli)
    if step_units <= 0:
        return requested
    added = _units(requested, milli) - min_units
    steps = added // step_units + (1 if added % step_units else 0)
    total = min_units + step_units * steps
    return Decimal(total) / 1000 if milli else Decimal(total)


def _consumed(requested: Decimal | None, capacity: Capacity, fractional: bool) -> Decimal:
    policy = capacity.policy
    if requested is None:
        default = _q((policy or {}).get("default"))
        return default if default is not None else capacity.value
    if policy is None:
        return requested
    valid_range = policy.get("validRange")
    if valid_range and valid_range.get("min") is not None:
        return _round_up_range(requested, valid_range, fractional)
    valid_values = policy.get("validValues")
    if valid_values is not None:
        for text in valid_values:
            value = _q(text)
            if value is not None and requested <= value:
                return value
    return requested


def _violates(consumed: Decimal, policy: Mapping[str, Any] | None, fractional: bool) -> bool:
    if policy is None:
        return False
    default = _q(policy.get("default"))
    if default is not None and consumed == default:
        return False
    valid_range = policy.get("validRange")
    if valid_range:
        maximum = _q(valid_range.get("max"))
        if maximum is not None and consumed > maximum:
            return True
        step = _q(valid_range.get("step"))
        if step is not None:
            milli = _use_milli(valid_range, fractional)
            step_units = _units(step, milli)
            minimum = _q(valid_range.get("min")) or Decimal(0)
            return step_units == 0 or (_units(consumed, milli) - _units(minimum, milli)) % step_units != 0
        return False
    valid_values = policy.get("validValues") or ()
    if valid_values:
        return all(_q(text) != consumed for text in valid_values)
    return False


def consumption(device: Device, requests: Mapping[str, Any] | None, fractional: bool = False
                ) -> dict[str, Decimal] | None:
    """Capacity name -> amount this request would consume on `device`, or None if the device cannot serve it
    (a requested capacity it does not publish, or a policy violation)."""
    parsed: dict[str, Decimal] = {}
    for name, value in (requests or {}).items():
        if name not in device.capacity:
            return None
        amount = _q(value)
        if amount is None:
            return None
        parsed[name] = amount
    result: dict[str, Decimal] = {}
    for name, capacity in device.capacity.items():
        amount = _consumed(parsed.get(name), capacity, fractional)
        if amount < 0 or _violates(amount, capacity.policy, fractional):
            return None
        result[name] = amount
    return result


def fits(device: Device, amounts: Mapping[str, Decimal], already: Mapping[str, Decimal],
         allocating: Mapping[str, Decimal] | None = None) -> bool:
    """Does `amounts` fit next to what the snapshot (`already`) and this attempt (`allocating`) consume?"""
    if not device.capacity:
        return True
    for name, capacity in device.capacity.items():
        total = amounts.get(name, Decimal(0)) + already.get(name, Decimal(0))
        if allocating:
            total += allocating.get(name, Decimal(0))
        if total > capacity.value:
            return False
    return True
