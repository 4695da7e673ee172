"""VALID checks of DeviceClass: selectors, config, extendedResourceName.

Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceClassSpec) at
release-1.33 .. release-1.37.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation import _devices
from kubectl_wasdra.lint.rules.validation._base import Check, Violation, as_dict, as_list, too_many
from kubectl_wasdra.lint.rules.validation._names import extended_resource_name_error

DEVICE_CONFIG_MAX: Final = 32   # resource.DeviceConfigMaxSize


def validate_class(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    spec = as_dict(data.get("spec"))
    yield from _devices.selectors(spec.get("selectors"), ("spec", "selectors"))
    config = spec.get("config")
    if (v := too_many(config, DEVICE_CONFIG_MAX, ("spec", "config"), "config entries")) is not None:
        yield v
    else:   # validateDeviceClassConfiguration -> validateDeviceConfiguration
        for index, entry in enumerate(as_list(config)):
            yield from _devices.configuration(entry, ("spec", "config", index))
    name = spec.get("extendedResourceName")
    if isinstance(name, str) and (error := extended_resource_name_error(name)):
        yield Violation(Check.NAME, ("spec", "extendedResourceName"), f'"{name}" {error}',
                        hint='use a domain outside kubernetes.io, e.g. "example.com/gpu"', at="value")
