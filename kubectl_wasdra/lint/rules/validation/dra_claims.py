"""VALID checks of ResourceClaim and ResourceClaimTemplate specs, per release and API version.

v1alpha3/v1beta1 flatten the exact request into the request; v1beta2/v1 nest it under `exactly`.
Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceClaim, validateDeviceRequest,
validateDeviceAllocationMode, validateDeviceConstraint) at release-1.33 .. release-1.37.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation import _devices
from kubectl_wasdra.lint.rules.validation._base import (
    FLAT_VERSIONS,
    Check,
    Path,
    Violation,
    as_dict,
    as_list,
    as_str,
    duplicates,
    is_int,
    one_of,
    too_many,
)
from kubectl_wasdra.lint.rules.validation._names import dns_subdomain_error, qualified_name_error

DEVICE_REQUESTS_MAX: Final = 32       # resource.DeviceRequestsMaxSize
DEVICE_CONSTRAINTS_MAX: Final = 32    # resource.DeviceConstraintsMaxSize
DEVICE_CONFIG_MAX: Final = 32         # resource.DeviceConfigMaxSize
FIRST_AVAILABLE_MAX: Final = 8        # resource.FirstAvailableDeviceRequestMaxSize
DERIVED_ATTRIBUTES_MAX: Final = 32    # v1.37.0 OpenAPI: "The maximum number of derived attributes is 32"
ALLOCATION_MODES: Final = ("ExactCount", "All")
DISTINCT_ATTRIBUTE_SINCE: Final = Release(1, 34)


def validate_claim(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateResourceClaim -> validateResourceClaimSpec (pkg/apis/resource/validation/validation.go)
    yield from validate_devices(as_dict(as_dict(data.get("spec")).get("devices")), ("spec", "devices"), version, release)


def validate_template(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateResourceClaimTemplate -> validateResourceClaimTemplateSpec
    spec = as_dict(as_dict(data.get("spec")).get("spec"))
    yield from validate_devices(as_dict(spec.get("devices")), ("spec", "spec", "devices"), version, release)


def validate_devices(devices: dict[str, Any], path: Path, version: str, release: Release) -> Iterator[Violation]:
    # upstream: validateDeviceClaim: validateSet(requests, DeviceRequestsMaxSize), validateSlice(constraints|config, 32)
    requests = as_list(devices.get("requests"))
    flat = version in FLAT_VERSIONS
    if (v := too_many(requests, DEVICE_REQUESTS_MAX, (*path, "requests"), "requests")) is not None:
        yield v
    else:
        for index, request in enumerate(requests):
            yield from _request(as_dict(request), (*path, "requests", index), flat, release)
        yield from duplicates(requests, lambda r: as_dict(r).get("name"), (*path, "requests"), "request name")
    known = _request_names(requests)
    yield from _derived_attributes(requests, as_list(devices.get("constraints")), (*path, "requests"), flat)
    yield from _constraints(devices.get("constraints"), (*path, "constraints"), known, release)
    yield from _config(devices.get("config"), (*path, "config"), known)


def _request_names(requests: list[Any]) -> Mapping[str, frozenset[str]]:
    # upstream: gatherRequestNames
    names: dict[str, frozenset[str]] = {}
    for request in requests:
        request = as_dict(request)
        if isinstance(request.get("name"), str):
            subs = (as_dict(s).get("name") for s in as_list(request.get("firstAvailable")))
            names[request["name"]] = frozenset(s for s in subs if isinstance(s, str))
    return names


def _request(request: dict[str, Any], path: Path, flat: bool, release: Release) -> Iterator[Violation]:
    # upstream: validateDeviceRequest (v1beta1: the flat request converted to Exactly)
    yield from _devices.label_name(request.get("name"), (*path, "name"), "request name")
    if flat:
        yield from one_of(request, ("deviceClassName", "firstAvailable"), path,
                          present=lambda _n, value: bool(value))
        if not request.get("firstAvailable"):
            yield from _exact(request, path, release)
    elif flat_fields := _v1beta1_fields(request):
        # a v1beta1-shaped request in a v1/v1beta2 object: one cause, so this finding covers the unknown fields
        # SCHEMA002 would report beside it (and `--fix` moves them)
        names = ", ".join(flat_fields)
        yield Violation(Check.ONE_OF, path, "exactly one of `exactly`, `firstAvailable` is required, but none is set "
                        f"({names}: the v1beta1 form of a request)", hint=f"move {names} under `exactly:`",
                        covers=tuple((*path, field) for field in flat_fields))
    else:
        yield from one_of(request, ("exactly", "firstAvailable"), path,
                          present=lambda name, value: value is not None if name == "exactly" else bool(value))
        if isinstance(request.get("exactly"), dict) and not request.get("firstAvailable"):
            yield from _exact(request["exactly"], (*path, "exactly"), release)
    subrequests = request.get("firstAvailable")
    if subrequests:
        yield from _subrequests(as_list(subrequests), (*path, "firstAvailable"), release)


# the fields of resource.k8s.io/v1 ExactDeviceRequest, which v1beta1 writes on the request itself
# (kubernetes/kubernetes staging/src/k8s.io/api/resource/v1/types.go)
_EXACT_FIELDS: Final = ("deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations",
                        "capacity")


def _v1beta1_fields(request: dict[str, Any]) -> tuple[str, ...]:
    """The ExactDeviceRequest fields written directly on a request that has neither `exactly` nor `firstAvailable`."""
    if request.get("exactly") is not None or request.get("firstAvailable"):
        return ()
    return tuple(field for field in _EXACT_FIELDS if field in request)


def _subrequests(subrequests: list[Any], path: Path, release: Release) -> Iterator[Violation]:
    # upstream: validateSet(firstAvailable, FirstAvailableDeviceRequestMaxSize) of validateDeviceSubRequest
    if (v := too_many(subrequests, FIRST_AVAILABLE_MAX, path, "subrequests")) is not None:
        yield v
        return
    for index, sub in enumerate(subrequests):
        sub = as_dict(sub)
        yield from _devices.label_name(sub.get("name"), (*path, index, "name"), "subrequest name")
        yield from _exact(sub, (*path, index), release)
    yield from duplicates(subrequests, lambda s: as_dict(s).get("name"), path, "subrequest name")


def _exact(request: dict[str, Any], path: Path, release: Release) -> Iterator[Violation]:
    # upstream: validateExactDeviceRequest / validateDeviceSubRequest, validateDeviceClass
    """deviceClassName, selectors, allocationMode/count, tolerations, capacity of one exact request or subrequest."""
    class_name = request.get("deviceClassName")
    if not class_name:
        yield Violation(Check.REQUIRED, (*path, "deviceClassName"), "deviceClassName is required",
                        hint="name the DeviceClass to allocate from")
    elif error := dns_subdomain_error(str(class_name)):
        yield Violation(Check.NAME, (*path, "deviceClassName"), f'invalid deviceClassName "{class_name}": {error}', at="value")
    yield from _devices.selectors(request.get("selectors"), (*path, "selectors"))
    yield from allocation_mode(request, path)
    yield from _devices.tolerations(request.get("tolerations"), (*path, "tolerations"), release)
    for name, value in as_dict(as_dict(request.get("capacity")).get("requests")).items():
        here = (*path, "capacity", "requests", str(name))
        if error := qualified_name_error(str(name)):
            # validateExactDeviceRequest / validateDeviceSubRequest leave capacity.requests keys unchecked (v1 types.go:
            # no format tag on CapacityRequirements.Requests), while device capacity names are validateQualifiedName'd
            yield Violation(Check.UNINTENDED, here, f'kube-apiserver accepts capacity request "{name}", but no device '
                            f"capacity can have that name ({error}), so the request can never be met: probably not meant",
                            hint='use the capacity name the driver publishes, e.g. "memory" or "dra.example.com/memory"')
        _, problem = _devices.quantity(value, here)
        if problem:
            yield problem


def allocation_mode(request: dict[str, Any], path: Path) -> Iterator[Violation]:
    # upstream: validateDeviceAllocationMode (defaulting sets count 1 for ExactCount first)
    """ExactCount (the default) needs count > 0 (0 or unset is defaulted to 1); All forbids count."""
    mode = request.get("allocationMode") or "ExactCount"
    count = request.get("count")
    if mode not in ALLOCATION_MODES:
        yield Violation(Check.ENUM, (*path, "allocationMode"), f'unsupported value "{mode}"',
                        hint=f"use one of {', '.join(ALLOCATION_MODES)}", at="value")
    elif count is not None and not is_int(count):
        yield Violation(Check.ALLOCATION_MODE, (*path, "count"), f"count must be an integer, not {count!r}", at="value")
    elif mode == "All" and count:
        yield Violation(Check.ALLOCATION_MODE, (*path, "count"),
                        f"count must not be specified when allocationMode is 'All' ({count})",
                        hint="remove count, or use allocationMode: ExactCount", at="value")
    elif mode == "ExactCount" and is_int(count) and count < 0:
        yield Violation(Check.MINIMUM, (*path, "count"), f"count must be greater than zero, not {count}", at="value")


def _constraints(items: Any, path: Path, known: Mapping[str, frozenset[str]], release: Release) -> Iterator[Violation]:
    # upstream: validateSlice(constraints, DeviceConstraintsMaxSize) of validateDeviceConstraint
    if (v := too_many(items, DEVICE_CONSTRAINTS_MAX, path, "constraints")) is not None:
        yield v
        return
    for index, constraint in enumerate(as_list(items)):
        here = (*path, index)
        constraint = as_dict(constraint)
        for ref_index, name in enumerate(as_list(constraint.get("requests"))):
            yield from _devices.request_reference(name, (*here, "requests", ref_index), known)
        fields = ("matchAttribute", "distinctAttribute") if release >= DISTINCT_ATTRIBUTE_SINCE else ("matchAttribute",)
        if len(fields) > 1 and all(constraint.get(f) is not None for f in fields):
            # validateDeviceConstraint checks matchAttribute and, only when it is unset, distinctAttribute; v1 types.go
            # has no union tag (+oneOf is OpenAPI-only): both set is accepted and the allocator uses matchAttribute
            yield Violation(Check.UNINTENDED, (*here, "distinctAttribute"), "kube-apiserver accepts a constraint with "
                            "both matchAttribute and distinctAttribute, but only matchAttribute takes effect and "
                            "distinctAttribute is ignored: probably not meant",
                            hint="split it into two constraints, one per attribute")
        elif len(fields) > 1:
            yield from one_of(constraint, fields, here)
        elif not constraint.get("matchAttribute"):
            yield Violation(Check.REQUIRED, (*here, "matchAttribute"), f"matchAttribute is required in {release}",
                            hint="name the attribute all devices must share, e.g. gpu.example.com/numaNode")
        for attribute in fields:
            value = constraint.get(attribute)
            if isinstance(value, str) and (error := qualified_name_error(value, fully=True)):
                yield Violation(Check.QUALIFIED_NAME, (*here, attribute), f'invalid {attribute} "{value}": {error}',
                                hint='use a domain and a name, e.g. "gpu.example.com/numaNode"', at="value")


def _config(items: Any, path: Path, known: Mapping[str, frozenset[str]]) -> Iterator[Violation]:
    # upstream: validateSlice(config, DeviceConfigMaxSize) of validateDeviceClaimConfiguration
    if (v := too_many(items, DEVICE_CONFIG_MAX, path, "config entries")) is not None:
        yield v
        return
    for index, config in enumerate(as_list(items)):
        config = as_dict(config)
        for ref_index, name in enumerate(as_list(config.get("requests"))):
            yield from _devices.request_reference(name, (*path, index, "requests", ref_index), known)
        yield from _devices.configuration(config, (*path, index))    # validateDeviceClaimConfiguration


def _constraint_attributes(constraints: list[Any]) -> dict[str, set[str]]:
    # upstream: gatherConstraintAttributes
    """Attribute names used by constraints, keyed by the request they target ("" = every request)."""
    used: dict[str, set[str]] = {}
    for constraint in constraints:
        constraint = as_dict(constraint)
        name = constraint.get("matchAttribute") or constraint.get("distinctAttribute")
        if not isinstance(name, str):
            continue
        for target in as_list(constraint.get("requests")) or [""]:
            used.setdefault(str(target), set()).add(name)
    return used


def _derived_attributes(requests: list[Any], constraints: list[Any], path: Path, flat: bool) -> Iterator[Violation]:
    # upstream: validateDeviceDerivedAttributes / isAttributeUsedByConstraint (release-1.37)
    """1.37 (DRADerivedAttributes): each derived attribute must be used by a constraint targeting its request."""
    used = _constraint_attributes(constraints)
    for index, request in enumerate(requests):
        request = as_dict(request)
        name = str(request.get("name") or "")
        exact, exact_path = (request, (*path, index)) if flat else (as_dict(request.get("exactly")), (*path, index, "exactly"))
        yield from _derived_list(exact.get("derivedAttributes"), (*exact_path, "derivedAttributes"), name, used)
        for sub_index, sub in enumerate(as_list(request.get("firstAvailable"))):
            sub = as_dict(sub)
            sub_path = (*path, index, "firstAvailable", sub_index, "derivedAttributes")
            yield from _derived_list(sub.get("derivedAttributes"), sub_path, f"{name}/{sub.get('name')}", used)


def _derived_list(items: Any, path: Path, request: str, used: dict[str, set[str]]) -> Iterator[Violation]:
    # upstream: validateDeviceDerivedAttribute; max 32 from the v1.37.0 OpenAPI (maxItems)
    if (v := too_many(items, DERIVED_ATTRIBUTES_MAX, path, "derived attributes")) is not None:
        yield v
        return
    parent = request.split("/", 1)[0]
    for index, attribute in enumerate(as_list(items)):
        attr_name = as_str(as_dict(attribute).get("name"))
        if not attr_name:
            continue
        targets = used.get("", set()) | used.get(request, set()) | used.get(parent, set())
        if attr_name not in targets:
            yield Violation(Check.REQUEST_REFERENCE, (*path, index, "name"),
                            f'"{attr_name}" must be referenced by at least one matchAttribute or distinctAttribute constraint '
                            f'targeting request "{request}"', hint="add a constraint using it, or remove the derived attribute",
                            at="value")
    yield from duplicates(as_list(items), lambda a: as_dict(a).get("name"), path, "derived attribute name")
