"""VALID checks of ResourceSlice: node selection union, pool, devices (attributes, capacity, counters, taints).

v1beta1 nests each device's fields under `basic`; v1beta2/v1 put them on the device.
Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateResourceSliceSpec,
validateDevice, validateDeviceAttribute, validateRequestPolicy, validateCounterSet) at release-1.33 .. release-1.37.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation import _devices, _policy
from kubectl_wasdra.lint.rules.validation._base import (
    Check,
    Path,
    Violation,
    as_dict,
    as_list,
    as_str,
    duplicates,
    is_int,
    too_many,
)
from kubectl_wasdra.lint.rules.validation._names import (
    dns_subdomain_error,
    driver_name_error,
    label_key_error,
    qualified_name_error,
)

MAX_DEVICES: Final = 128                    # resource.ResourceSliceMaxDevices
MAX_DEVICES_ADVANCED: Final = 64            # ...WithTaintsOrConsumesCounters, 1.35+
ADVANCED_LIMIT_SINCE: Final = Release(1, 35)
MAX_ATTRIBUTES_AND_CAPACITIES: Final = 32   # resource.ResourceSliceMaxAttributesAndCapacitiesPerDevice
MAX_COUNTER_SETS: Final = 8                 # resource.ResourceSliceMaxCounterSets (1.35+)
MAX_COUNTERS_PER_SET: Final = 32            # resource.ResourceSliceMaxCountersPerCounterSet
MAX_CONSUMPTIONS_PER_DEVICE: Final = 2      # resource.ResourceSliceMaxDeviceCounterConsumptionsPerDevice (1.35+)
MAX_TAINTS: Final = 16                      # resource.DeviceTaintsMaxLength (1.35+)
MAX_TAINTS_BEFORE_135: Final = 4            # 1.33/1.34 API docs: "The maximum number of taints is 4"
MAX_SHARED_COUNTERS_BEFORE_135: Final = 32  # 1.33/1.34: "The maximum number of counters in all sets is 32"
MAX_BINDING_CONDITIONS: Final = 4           # resource.BindingConditionsMaxSize
ATTRIBUTE_VALUE_MAX: Final = 64             # resource.DeviceAttributeMaxValueLength
SEPARATE_COUNTER_SLICES_SINCE: Final = Release(1, 35)
LIST_ATTRIBUTES_SINCE: Final = Release(1, 36)
SCALAR_KINDS: Final = ("int", "bool", "string", "version")
LIST_KINDS: Final = ("ints", "bools", "strings", "versions")


def validate_slice(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: validateResourceSliceSpec (pkg/apis/resource/validation/validation.go)
    spec = as_dict(data.get("spec"))
    path: Path = ("spec",)
    if error := driver_name_error(str(spec.get("driver") or "")):
        yield Violation(Check.NAME if spec.get("driver") else Check.REQUIRED, (*path, "driver"), f"driver: {error}")
    yield from _pool(as_dict(spec.get("pool")), (*path, "pool"))
    yield from _node_selection(spec, path)
    devices = as_list(spec.get("devices"))
    shared = spec.get("sharedCounters")
    if release >= SEPARATE_COUNTER_SLICES_SINCE and shared is not None and spec.get("devices") is not None:
        yield Violation(Check.ONE_OF, (*path, "sharedCounters"), "only one of `sharedCounters` or `devices` is allowed "
                        f"from {SEPARATE_COUNTER_SLICES_SINCE}, but both are set",
                        hint="publish counter sets and devices in separate slices of the same pool")
    yield from _counter_sets(shared, (*path, "sharedCounters"), release)
    per_device = spec.get("perDeviceNodeSelection") is True
    counter_sets = {as_str(as_dict(s).get("name")): as_dict(as_dict(s).get("counters")) for s in as_list(shared)}
    limit = _device_limit(devices, version, release)
    if (v := too_many(devices, limit, (*path, "devices"), "devices")) is not None:
        yield v
        return
    for index, device in enumerate(devices):
        here: Path = (*path, "devices", index)
        device = as_dict(device)
        yield from _devices.label_name(device.get("name"), (*here, "name"), "device name")
        fields, fields_path = (as_dict(device.get("basic")), (*here, "basic")) if version == "v1beta1" else (device, here)
        yield from _device(fields, fields_path, release, per_device)
        if release < SEPARATE_COUNTER_SLICES_SINCE:
            yield from _counter_references(fields.get("consumesCounters"), (*fields_path, "consumesCounters"), counter_sets)
    yield from duplicates(devices, lambda d: as_dict(d).get("name"), (*path, "devices"), "device name")


def _device_limit(devices: list[Any], version: str, release: Release) -> int:
    # upstream: validateResourceSliceSpec: maxDevices (ResourceSliceMaxDevices / ...WithAdvancedFeatures)
    if release < ADVANCED_LIMIT_SINCE:
        return MAX_DEVICES
    for device in devices:
        fields = as_dict(as_dict(device).get("basic")) if version == "v1beta1" else as_dict(device)
        if fields.get("taints") or fields.get("consumesCounters"):
            # validateResourceSliceSpec: haveDeviceTaints || haveConsumesCounters (list attributes do not lower it;
            # the v1.37 OpenAPI text names only taints and counters, see shared/reference/ERRATA.md)
            return MAX_DEVICES_ADVANCED
    return MAX_DEVICES


def _pool(pool: dict[str, Any], path: Path) -> Iterator[Violation]:
    # upstream: validateResourcePool
    yield from _devices.pool_name(pool.get("name"), (*path, "name"))
    count = pool.get("resourceSliceCount")
    if not is_int(count) or count <= 0:
        yield Violation(Check.MINIMUM, (*path, "resourceSliceCount"), f"must be greater than zero, not {count}",
                        hint="set the number of slices in this pool generation")
    generation = pool.get("generation", 0)
    if is_int(generation) and generation < 0:
        yield Violation(Check.MINIMUM, (*path, "generation"), f"must be greater than or equal to zero, not {generation}",
                        at="value")


def _node_name(name: Any, path: Path) -> Iterator[Violation]:
    """validateNodeName: core ValidateNodeName, a DNS subdomain (another type is SCHEMA001's finding)."""
    if isinstance(name, str) and (error := dns_subdomain_error(name)):
        yield Violation(Check.NAME, path, f'invalid nodeName "{name}": {error}',
                        hint="use the node's metadata.name exactly (kubectl get nodes)", at="value")


def _node_selection(spec: dict[str, Any], path: Path) -> Iterator[Violation]:
    # upstream: validateResourceSliceSpec: nodeName / nodeSelector / allNodes / perDeviceNodeSelection union
    chosen = []
    if "nodeName" in spec and spec["nodeName"] is not None:
        if spec["nodeName"] or not isinstance(spec["nodeName"], str):   # another type: SCHEMA001, still "set"
            chosen.append("nodeName")
            yield from _node_name(spec["nodeName"], (*path, "nodeName"))
        else:
            yield Violation(Check.ONE_OF, (*path, "nodeName"), "must be either unset or set to a non-empty string", at="value")
    if spec.get("nodeSelector") is not None:
        chosen.append("nodeSelector")
        terms = as_list(as_dict(spec["nodeSelector"]).get("nodeSelectorTerms"))
        if len(terms) != 1:
            yield Violation(Check.ONE_OF, (*path, "nodeSelector", "nodeSelectorTerms"),
                            f"must have exactly one node selector term, has {len(terms)}")
    for flag in ("allNodes", "perDeviceNodeSelection"):
        if spec.get(flag) is True:
            chosen.append(flag)
        elif flag in spec and spec[flag] is not None:
            yield Violation(Check.ONE_OF, (*path, flag), "must be either unset or set to true", at="value")
    names = "`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`"
    if not chosen:
        yield Violation(Check.ONE_OF, path, f"exactly one of {names} is required, but none is set",
                        hint="set nodeName for a node-local driver")
    elif len(chosen) > 1:
        both = " and ".join(f"`{f}`" for f in chosen)
        yield Violation(Check.ONE_OF, (*path, chosen[1]), f"exactly one of {names} is required, but {both} are set",
                        hint=f"keep only one of {', '.join(chosen)}")


def _device(fields: dict[str, Any], path: Path, release: Release, per_device: bool) -> Iterator[Violation]:
    # upstream: validateDevice
    attributes, capacity = as_dict(fields.get("attributes")), as_dict(fields.get("capacity"))
    if len(attributes) + len(capacity) > MAX_ATTRIBUTES_AND_CAPACITIES:
        yield Violation(Check.LIMIT, path, f"the total number of attributes and capacities must not exceed "
                        f"{MAX_ATTRIBUTES_AND_CAPACITIES}, has {len(attributes) + len(capacity)}")
    for name, attribute in attributes.items():
        yield from _attribute(str(name), as_dict(attribute), (*path, "attributes", str(name)), release)
    multiple = fields.get("allowMultipleAllocations") is True
    for name, entry in capacity.items():
        here = (*path, "capacity", str(name))
        if error := qualified_name_error(str(name)):
            yield Violation(Check.QUALIFIED_NAME, here, f'invalid capacity name "{name}": {error}')
        yield from _policy.capacity(as_dict(entry), here, multiple)
    yield from _taints(fields.get("taints"), (*path, "taints"), release)
    if release >= SEPARATE_COUNTER_SLICES_SINCE and (
            v := too_many(fields.get("consumesCounters"), MAX_CONSUMPTIONS_PER_DEVICE, (*path, "consumesCounters"),
                          "counter consumptions")) is not None:
        yield v
    yield from _consumptions(fields.get("consumesCounters"), (*path, "consumesCounters"))
    yield from _binding_conditions(fields, path)
    yield from _per_device_node(fields, path, per_device)


def _consumptions(items: Any, path: Path) -> Iterator[Violation]:
    """validateDeviceCounterConsumption: counterSet required (a DNS label), counters required (DNS-label keys with
    quantities); each counter set consumed once per device (validateSet keyed by counterSet)."""
    for index, consumption in enumerate(as_list(items)):
        consumption = as_dict(consumption)
        yield from _devices.label_name(consumption.get("counterSet"), (*path, index, "counterSet"), "counter set name")
        counters = consumption.get("counters")
        if counters is None or counters == {}:
            yield Violation(Check.REQUIRED, (*path, index, "counters"), "at least one counter is required",
                            hint="name the counters of the set this device consumes, e.g. {memory: {value: 10Gi}}")
        for name, counter in as_dict(counters).items():
            yield from _counter(str(name), as_dict(counter), (*path, index, "counters", str(name)))
    yield from duplicates(as_list(items), lambda c: as_dict(c).get("counterSet"), path, "counter set")


def _binding_conditions(fields: dict[str, Any], path: Path) -> Iterator[Violation]:
    """validateDeviceBindingParameters: at most 4 of each, label names, no duplicates, no overlap, and each list
    only together with the other."""
    lists = {key: fields.get(key) for key in ("bindingConditions", "bindingFailureConditions")}
    for key, items in lists.items():
        if (v := too_many(items, MAX_BINDING_CONDITIONS, (*path, key), key)) is not None:
            yield v
            continue
        for index, condition in enumerate(as_list(items)):
            if isinstance(condition, str) and (error := label_key_error(condition)):
                yield Violation(Check.NAME, (*path, key, index), f'invalid condition "{condition}": {error}', at="value")
        yield from duplicates(as_list(items), lambda c: c, (*path, key), "condition")
    conditions, failures = as_list(lists["bindingConditions"]), as_list(lists["bindingFailureConditions"])
    for index, condition in enumerate(failures):
        if condition in conditions:
            yield Violation(Check.INVALID_VALUE, (*path, "bindingFailureConditions", index),
                            "bindingFailureConditions must not overlap with bindingConditions", at="value")
    for key, other, present in (("bindingConditions", "bindingFailureConditions", failures),
                                ("bindingFailureConditions", "bindingConditions", conditions)):
        if present and not as_list(lists[key]):
            yield Violation(Check.REQUIRED, (*path, key), f"{key} are required to use {other}",
                            hint=f"set {key} too, or drop {other}")


def _attribute(name: str, attribute: dict[str, Any], path: Path, release: Release) -> Iterator[Violation]:
    # upstream: validateMap(attributes, validateQualifiedName, validateDeviceAttribute)
    if error := qualified_name_error(name):
        yield Violation(Check.QUALIFIED_NAME, path, f'invalid attribute name "{name}": {error}',
                        hint=_attribute_name_hint(name))
    kinds = SCALAR_KINDS + (LIST_KINDS if release >= LIST_ATTRIBUTES_SINCE else ())
    set_kinds = [k for k in kinds if attribute.get(k) is not None]
    if not set_kinds and any(k in attribute for k in LIST_KINDS):
        return                  # a list form before 1.36: SCHEMA002 reports the unknown field, nothing else to say
    if len(set_kinds) != 1:
        yield Violation(Check.ONE_OF, path, f"exactly one value must be specified, found {len(set_kinds)}",
                        hint=f"set one of {', '.join(kinds)}")
        return
    kind = set_kinds[0]
    values = attribute[kind] if kind in LIST_KINDS else [attribute[kind]]
    if kind in LIST_KINDS and values == []:   # validateDeviceAttribute (1.36+ list values)
        yield Violation(Check.INVALID_VALUE, (*path, kind), "must not be empty if specified",
                        hint=f"give at least one value, or drop `{kind}`", at="value")
    for value in as_list(values):
        # validateDeviceAttributeStringValue / ...VersionValue: len(*value) in bytes
        if kind in ("string", "strings", "version", "versions") and len(str(value).encode()) > ATTRIBUTE_VALUE_MAX:
            yield Violation(Check.ATTRIBUTE_VALUE, (*path, kind), f"must be no more than {ATTRIBUTE_VALUE_MAX} bytes",
                            at="value")
        if kind in ("version", "versions") and not _is_semver(value):
            yield Violation(Check.ATTRIBUTE_VALUE, (*path, kind),
                            f'"{value}" must be a string compatible with semver.org spec 2.0.0',
                            hint='e.g. "1.2.3"', at="value")
        if kind in ("int", "ints") and not is_int(value):
            yield Violation(Check.ATTRIBUTE_VALUE, (*path, kind), f"{value!r} is not an integer", at="value")


def _attribute_name_hint(name: str) -> str:
    """A valid spelling of an attribute name: the part after the slash as a C identifier (at most 32 characters)."""
    domain, _, identifier = name.rpartition("/")
    fixed = re.sub(r"[^A-Za-z0-9_]", "_", identifier)[:32] or "name"
    fixed = f"_{fixed[:31]}" if fixed[0].isdigit() else fixed
    suggestion = f"{domain}/{fixed}" if domain else fixed
    return f'use a C identifier after the domain, e.g. "{suggestion}"'


def _is_semver(value: Any) -> bool:
    """The CEL library's semver parser (strict semver.org 2.0.0, as upstream's blang/semver), loaded only for versions."""
    from kubectl_wasdra.dra.values import is_semver_text

    return isinstance(value, str) and is_semver_text(value)


def _taints(items: Any, path: Path, release: Release) -> Iterator[Violation]:
    # upstream: validateSlice(taints, DeviceTaintsMaxLength) of validateDeviceTaint
    limit = MAX_TAINTS if release >= SEPARATE_COUNTER_SLICES_SINCE else MAX_TAINTS_BEFORE_135
    if (v := too_many(items, limit, path, "taints")) is not None:
        yield v
        return
    from kubectl_wasdra.lint.rules.validation.taint_rules import taint
    for index, item in enumerate(as_list(items)):
        yield from taint(as_dict(item), (*path, index), release)


def _per_device_node(fields: dict[str, Any], path: Path, per_device: bool) -> Iterator[Violation]:
    """validateDevice's node selection: with perDeviceNodeSelection exactly one of nodeName (non-empty), nodeSelector,
    allNodes (true); without it none of them may be set at all (not even `allNodes: false` or `nodeName: ""`)."""
    present = [k for k in ("nodeName", "nodeSelector", "allNodes") if fields.get(k) is not None]
    if not per_device:
        if present:
            yield Violation(Check.ONE_OF, (*path, present[0]), "`nodeName`, `nodeSelector` and `allNodes` can only be "
                            "set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
                            hint="set spec.perDeviceNodeSelection: true, or move the node selection to the slice")
        return
    if fields.get("nodeName") == "":
        yield Violation(Check.ONE_OF, (*path, "nodeName"), "must not be empty", at="value")
    if fields.get("allNodes") is False:
        yield Violation(Check.ONE_OF, (*path, "allNodes"), "must be either unset or set to true", at="value")
    chosen = [k for k in present if fields[k] not in (False, "")]
    if len(chosen) != 1:
        yield Violation(Check.ONE_OF, path, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                        "`perDeviceNodeSelection` is set to true in the ResourceSlice spec")


def _counter_sets(items: Any, path: Path, release: Release) -> Iterator[Violation]:
    # upstream: validateSet(sharedCounters, ResourceSliceMaxCounterSets) of validateCounterSet
    if release >= SEPARATE_COUNTER_SLICES_SINCE and (v := too_many(items, MAX_COUNTER_SETS, path, "counter sets")):
        yield v
        return
    sets = as_list(items)
    total = sum(len(as_dict(as_dict(s).get("counters"))) for s in sets)
    if release < SEPARATE_COUNTER_SLICES_SINCE and total > MAX_SHARED_COUNTERS_BEFORE_135:
        yield Violation(Check.LIMIT, path, f"the number of counters in all sets must not exceed "
                        f"{MAX_SHARED_COUNTERS_BEFORE_135}, has {total}")
        return
    for index, counter_set in enumerate(sets):
        counter_set = as_dict(counter_set)
        yield from _devices.label_name(counter_set.get("name"), (*path, index, "name"), "counter set name")
        counters = as_dict(counter_set.get("counters"))
        if not counters:
            yield Violation(Check.REQUIRED, (*path, index, "counters"), "at least one counter is required")
        elif (v := too_many(counters, MAX_COUNTERS_PER_SET, (*path, index, "counters"), "counters")) is not None:
            yield v
        for name, counter in counters.items():
            yield from _counter(str(name), as_dict(counter), (*path, index, "counters", str(name)))
    yield from duplicates(sets, lambda s: as_dict(s).get("name"), path, "counter set name")


def _counter(name: str, counter: dict[str, Any], path: Path) -> Iterator[Violation]:
    # upstream: validateCounterName (DNS label) and validateDeviceCounter (any parsed quantity)
    yield from _devices.label_name(name, path, "counter name")
    _, problem = _devices.quantity(counter.get("value"), (*path, "value"))
    if problem:
        yield problem


def _counter_references(items: Any, path: Path, counter_sets: dict[Any, dict[str, Any]]) -> Iterator[Violation]:
    """1.33/1.34: a device consumes counters of a set defined in the same slice's sharedCounters."""
    for index, consumption in enumerate(as_list(items)):
        consumption = as_dict(consumption)
        name = as_str(consumption.get("counterSet"))
        if name not in counter_sets:
            known = ", ".join(sorted(str(n) for n in counter_sets if n)) or "none"
            yield Violation(Check.COUNTER_REFERENCE, (*path, index, "counterSet"),
                            f'counter set "{name}" is not defined in spec.sharedCounters', hint=f"defined sets: {known}",
                            at="value")
            continue
        for counter in as_dict(consumption.get("counters")):
            if counter not in counter_sets[name]:
                yield Violation(Check.COUNTER_REFERENCE, (*path, index, "counters", str(counter)),
                                f'counter "{counter}" is not defined in counter set "{name}"')
