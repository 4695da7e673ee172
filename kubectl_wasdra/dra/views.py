"""What a CEL selector sees of one device: driver, attributes and capacity regrouped by domain.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go (Device, the `device`
variable), release-1.37. Unqualified attribute and capacity names resolve to the driver's domain; values become CEL
int/bool/string, Semver (version) and Quantity (capacity); list attributes (ints, bools, strings, versions) become lists.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from kubectl_wasdra.dra import values
from kubectl_wasdra.dra.fields import mapping
from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity


def split_qualified_name(name: str, driver: str) -> tuple[str, str]:
    """(domain, identifier) of an attribute or capacity name; an unqualified name belongs to the driver's domain."""
    if "/" not in name:
        return driver, name
    domain, _, ident = name.rpartition("/")
    return domain, ident


@functools.lru_cache(maxsize=4096)
def _capacity_value(text: Any) -> dict[str, str]:
    """Tagged quantity for a capacity value as published ("80Gi"); slices repeat the same few strings."""
    return values.quantity_value(parse_quantity(text))


@functools.lru_cache(maxsize=4096)
def _version_value(text: str) -> dict[str, str]:
    return values.semver_value(text)


def _int64(value: Any) -> int:
    """An int attribute as the API decodes it into int64: a float (1e309 read as infinity, .nan, 1.5) is not one."""
    if isinstance(value, bool | float):
        raise ValueError(f"{value!r} is not an int64")
    number = int(value)
    if not -(2**63) <= number < 2**63:
        raise ValueError(f"{number} is outside the int64 range")
    return number


def _attribute_value(attribute: Mapping[str, Any]) -> Any:
    """The CEL value of one DeviceAttribute (exactly one of int, bool, string, version and the list forms)."""
    if "int" in attribute:
        return _int64(attribute["int"])
    if "bool" in attribute:
        return bool(attribute["bool"])
    if "string" in attribute:
        return str(attribute["string"])
    if "version" in attribute:
        return dict(_version_value(str(attribute["version"])))
    if "ints" in attribute:
        return [_int64(item) for item in attribute["ints"]]
    if "bools" in attribute:
        return [bool(item) for item in attribute["bools"]]
    if "strings" in attribute:
        return [str(item) for item in attribute["strings"]]
    if "versions" in attribute:
        return [values.semver_value(str(item)) for item in attribute["versions"]]
    raise ValueError("attribute has no value (expected one of int, bool, string, version)")


def value_error(raw: Mapping[str, Any]) -> str | None:
    """The conversion error DeviceView would record for this device (None if every value converts), without building
    the CEL maps; errors fail every selector on the device, as upstream fails while building the device value."""
    error = None
    for key, attribute in mapping(raw.get("attributes")).items():
        try:
            _attribute_value(mapping(attribute))
        except (ValueError, TypeError) as exc:
            error = f"attribute {key}: {exc}"
    for key, entry in mapping(raw.get("capacity")).items():
        try:
            value = entry["value"]
            _capacity_value(value if isinstance(value, str | int) else str(value))
        except (QuantityError, KeyError, TypeError) as exc:
            error = f"capacity {key}: {exc}"
    return error


class DeviceView:
    """A device as CEL input, built once per device and reused by every selector (with its per-expression results).

    `error` is set when a value cannot be represented (a version that is not semver, a bad quantity); evaluating any
    selector on such a device is then a CEL runtime error, as upstream fails while building the device value.
    """

    __slots__ = ("_activations", "allow_multiple_allocations", "attributes", "capacity", "driver", "error", "name",
                 "results")

    def __init__(self, driver: str, device: Mapping[str, Any], name: str = "") -> None:
        self.driver = driver
        self.name = name or str(device.get("name", ""))
        self.allow_multiple_allocations = device.get("allowMultipleAllocations") is True
        self.error: str | None = None
        self.attributes: dict[str, dict[str, Any]] = {}
        self.capacity: dict[str, dict[str, Any]] = {}
        self.results: dict[str, bool] = {}
        self._activations: dict[tuple[str, ...], Any] = {}
        for key, attribute in mapping(device.get("attributes")).items():
            domain, ident = split_qualified_name(str(key), driver)
            try:
                self.attributes.setdefault(domain, {})[ident] = _attribute_value(mapping(attribute))
            except (ValueError, TypeError) as exc:
                self.error = f"attribute {key}: {exc}"
        for key, entry in mapping(device.get("capacity")).items():
            domain, ident = split_qualified_name(str(key), driver)
            try:
                value = (entry or {})["value"]
                self.capacity.setdefault(domain, {})[ident] = dict(_capacity_value(value if isinstance(value, str | int)
                                                                                   else str(value)))
            except (QuantityError, KeyError, TypeError) as exc:
                self.error = f"capacity {key}: {exc}"

    def data(self, extra_domains: tuple[str, ...] = (), *, with_allow_multiple: bool = True) -> dict[str, Any]:
        """The `device` variable; `extra_domains` get empty maps (upstream indexing an unknown domain yields {})."""
        attributes: dict[str, Any] = self.attributes
        capacity: dict[str, Any] = self.capacity
        missing = [domain for domain in extra_domains if domain not in attributes or domain not in capacity]
        if missing:
            attributes, capacity = dict(attributes), dict(capacity)
            for domain in missing:
                attributes.setdefault(domain, {})
                capacity.setdefault(domain, {})
        device = {"driver": self.driver, "attributes": attributes, "capacity": capacity}
        if with_allow_multiple:
            device["allowMultipleAllocations"] = self.allow_multiple_allocations
        return {"device": device}

    def activation(self, env: Any, extra_domains: tuple[str, ...]) -> Any:
        """A cached CEL activation for this device (one per set of extra domains)."""
        key = (str(id(env)), *extra_domains)
        act = self._activations.get(key)
        if act is None:
            act = env.Activation(data=self.data(extra_domains))
            self._activations[key] = act
        return act
