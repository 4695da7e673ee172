"""VALID checks of DeviceTaintRule and of device taints (also used for ResourceSlice devices).

Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (ValidateDeviceTaintRule,
validateDeviceTaint, validateDeviceTaintSelector) at release-1.33 .. release-1.37.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict
from kubectl_wasdra.lint.rules.validation._devices import NONE_EFFECT_SINCE, pool_name, selectors
from kubectl_wasdra.lint.rules.validation._names import (
    dns_label_error,
    dns_subdomain_error,
    driver_name_error,
    label_key_error,
    label_value_error,
)

TAINT_EFFECTS: Final = ("NoSchedule", "NoExecute")
SELECTOR_FIELDS_REMOVED_IN: Final = Release(1, 35)   # DeviceTaintSelector lost deviceClassName and selectors in 1.35


def taint(item: dict[str, Any], path: Path, release: Release) -> Iterator[Violation]:
    # upstream: validateDeviceTaint
    """key (qualified name), value (label value), effect (enum) of one device taint."""
    key = item.get("key")
    if not key:
        yield Violation(Check.REQUIRED, (*path, "key"), "taint key is required")
    elif error := label_key_error(str(key)):
        yield Violation(Check.NAME, (*path, "key"), f'invalid taint key "{key}": {error}', at="value")
    value = item.get("value")
    if value is not None and label_value_error(str(value)):
        yield Violation(Check.NAME, (*path, "value"), f'invalid taint value "{value}": must be a valid label value (<= 63 '
                        "alphanumerics, '-', '_' or '.')", at="value")
    effects = (*TAINT_EFFECTS, "None") if release >= NONE_EFFECT_SINCE else TAINT_EFFECTS
    effect = item.get("effect")
    if not effect:
        yield Violation(Check.REQUIRED, (*path, "effect"), "taint effect is required", hint=f"use one of {', '.join(effects)}")
    elif effect not in effects:
        yield Violation(Check.ENUM, (*path, "effect"), f'unsupported value "{effect}"',
                        hint=f"use one of {', '.join(effects)}", at="value")


def validate_taint_rule(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateDeviceTaintRule -> validateDeviceTaintRuleSpec, validateDeviceTaintSelector
    spec = as_dict(data.get("spec"))
    selector = as_dict(spec.get("deviceSelector"))
    checks = (("driver", driver_name_error), ("device", dns_label_error))
    for field, check in checks:
        value = selector.get(field)
        if isinstance(value, str) and (error := check(value)):
            yield Violation(Check.NAME, ("spec", "deviceSelector", field), f'invalid {field} "{value}": {error}', at="value")
    if selector.get("pool") is not None:   # validateDeviceTaintSelector: validatePoolName when set
        yield from pool_name(selector["pool"], ("spec", "deviceSelector", "pool"))
    if release < SELECTOR_FIELDS_REMOVED_IN:
        # release-1.33/1.34 validateDeviceTaintSelector: validateDeviceClassName and validateSelectorSlice as well
        class_name = selector.get("deviceClassName")
        if isinstance(class_name, str) and (error := dns_subdomain_error(class_name)):
            yield Violation(Check.NAME, ("spec", "deviceSelector", "deviceClassName"),
                            f'invalid deviceClassName "{class_name}": {error}', at="value")
        yield from selectors(selector.get("selectors"), ("spec", "deviceSelector", "selectors"))
    if not isinstance(spec.get("taint"), dict):
        yield Violation(Check.REQUIRED, ("spec", "taint"), "taint is required", hint="set spec.taint.key and spec.taint.effect")
    else:
        yield from taint(spec["taint"], ("spec", "taint"), release)
