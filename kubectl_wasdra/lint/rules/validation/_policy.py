"""Device capacity and its consumable-capacity request policy (validValues xor validRange, default inside).

Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateMultiAllocatableDeviceCapacity,
validateRequestPolicy, validateRequestPolicyValidValues, validateRequestPolicyRange); limit from pkg/apis/resource/types.go
(CapacityRequestPolicyDiscreteMaxOptions = 10).
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import ROUND_CEILING, Decimal
from typing import Any, Final

from kubectl_wasdra.lint.rules.validation import _devices
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict, as_list

MAX_VALID_VALUES: Final = 10


def capacity(entry: dict[str, Any], path: Path, multiple: bool) -> Iterator[Violation]:
    # upstream: validateMultiAllocatableDeviceCapacity / validateSingleAllocatableDeviceCapacity
    """`value` must be a Quantity; `requestPolicy` only on devices with allowMultipleAllocations, and consistent."""
    maximum, problem = _devices.quantity(entry.get("value"), (*path, "value"))
    if problem:
        yield problem
    policy = entry.get("requestPolicy")
    if policy is None:
        return
    if not multiple:
        yield Violation(Check.CAPACITY_POLICY, (*path, "requestPolicy"),
                        "requestPolicy is forbidden: allowMultipleAllocations must be true",
                        hint="set allowMultipleAllocations: true on the device, or remove requestPolicy")
        return
    if maximum is not None:
        yield from _policy(as_dict(policy), (*path, "requestPolicy"), maximum)


def _quantities(policy: dict[str, Any], path: Path) -> tuple[dict[str, Decimal | None], list[Violation]]:
    values: dict[str, Decimal | None] = {}
    problems: list[Violation] = []
    for key in ("default",):
        if policy.get(key) is not None:
            values[key], problem = _devices.quantity(policy[key], (*path, key))
            problems += [problem] if problem else []
    return values, problems


def _policy(policy: dict[str, Any], path: Path, maximum: Decimal) -> Iterator[Violation]:
    # upstream: validateRequestPolicy / validateValidRequestValues
    valid_values, valid_range = policy.get("validValues"), policy.get("validRange")
    if valid_values and valid_range is not None:
        yield Violation(Check.CAPACITY_POLICY, (*path, "validRange"),
                        'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time')
        return
    values, problems = _quantities(policy, path)
    yield from problems
    if problems or not (valid_values or valid_range is not None):
        return
    default = values.get("default")
    if default is None:
        which = "validValues" if valid_values else "validRange"
        yield Violation(Check.CAPACITY_POLICY, (*path, "default"), f"default is required when {which} is defined",
                        hint="set requestPolicy.default")
        return
    if valid_values:
        yield from _valid_values(as_list(valid_values), (*path, "validValues"), default, maximum)
    else:
        yield from _valid_range(as_dict(valid_range), (*path, "validRange"), default, maximum)


def _valid_values(items: list[Any], path: Path, default: Decimal, maximum: Decimal) -> Iterator[Violation]:
    # upstream: validateRequestPolicyValidValues (CapacityRequestPolicyDiscreteMaxOptions = 10)
    if len(items) > MAX_VALID_VALUES:
        yield Violation(Check.LIMIT, path, f"must have at most {MAX_VALID_VALUES} values, has {len(items)}")
        return
    parsed: list[Decimal] = []
    for index, item in enumerate(items):
        value, problem = _devices.quantity(item, (*path, index))
        if problem:
            yield problem
            return
        if parsed and value < parsed[-1]:
            yield Violation(Check.CAPACITY_POLICY, (*path, index), "values must be sorted in ascending order", at="value")
        if value > maximum:
            yield Violation(Check.CAPACITY_POLICY, (*path, index), f"option is larger than capacity value: {maximum}", at="value")
        parsed.append(value)
    if default not in parsed:
        yield Violation(Check.CAPACITY_POLICY, path, f"default value {default} is not valid according to the requestPolicy",
                        hint="make default one of validValues")


def _valid_range(valid_range: dict[str, Any], path: Path, default: Decimal, maximum: Decimal) -> Iterator[Violation]:
    # upstream: validateRequestPolicyRange: min required
    bounds: dict[str, Decimal] = {}
    for key in ("min", "max", "step"):
        if valid_range.get(key) is not None:
            value, problem = _devices.quantity(valid_range[key], (*path, key))
            if problem:
                yield problem
                return
            bounds[key] = value
    if "min" not in bounds:
        yield Violation(Check.CAPACITY_POLICY, (*path, "min"), "min is required when validRange is defined")
        return
    yield from _range_bounds(bounds, path, default, maximum)
    yield from _range_step(bounds, path, default, maximum)


def _range_bounds(bounds: dict[str, Decimal], path: Path, default: Decimal, maximum: Decimal) -> Iterator[Violation]:
    # upstream: validateRequestPolicyRange: min/max/default against each other and the capacity
    low, high = bounds["min"], bounds.get("max")
    default_path = (*path[:-1], "default")
    checks = [(low > maximum, (*path, "min"), f"min is larger than capacity value: {maximum}"),
              (default < low, default_path, f"default is less than min: {low}")]
    if high is not None:
        checks += [(low > high, (*path, "max"), f"min is larger than max: {high}"),
                   (high > maximum, (*path, "max"), f"max is larger than capacity value: {maximum}"),
                   (default > high, default_path, f"default is more than max: {high}")]
    for failed, where, message in checks:
        if failed:
            yield Violation(Check.CAPACITY_POLICY, where, message, at="value")


def _range_step(bounds: dict[str, Decimal], path: Path, default: Decimal, maximum: Decimal) -> Iterator[Violation]:
    """validateRequestPolicyRange's step checks: positive, min + step within the capacity, and default and max each a
    whole number of steps from min. The step arithmetic reads every bound with Quantity.Value() (rounded up, away
    from zero) unless DRAFractionalCapacityRange is on, which it is not by default in any release up to 1.37."""
    low, step = bounds["min"], bounds.get("step")
    if step is None:
        return
    if step <= 0:
        yield Violation(Check.CAPACITY_POLICY, (*path, "step"), "must be greater than zero", at="value")
        return
    if low + step > maximum:
        yield Violation(Check.CAPACITY_POLICY, (*path, "step"),
                        f"one step {low + step} is larger than capacity value: {maximum}", at="value")
    whole_step, whole_low = _value(step), _value(low)
    for name, value in (("default", default), ("max", bounds.get("max"))):
        if value is not None and whole_step and (_value(value) - whole_low) % whole_step != 0:
            yield Violation(Check.CAPACITY_POLICY, (*path, "step"),
                            f"{name} {value} is not a multiple of a given step ({step}) from ({low})", at="value")


def _value(quantity: Decimal) -> int:
    """apimachinery Quantity.Value(): the integer value, rounded up away from zero."""
    whole = int(abs(quantity).to_integral_value(rounding=ROUND_CEILING))
    return -whole if quantity < 0 else whole
