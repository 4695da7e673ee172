"""Shape checks for snapshot objects: the fields the index and the simulator read must have the types the API gives them.

An object failing a check is reported (with the path of the offending field) and left out of the snapshot, so the
simulator never meets a malformed object. Only what is read is checked; full schema validation is `check`'s job.
Each check returns the first problem it finds (or None) and stops there: a snapshot has tens of thousands of objects,
nearly all of them sound.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity

Path = tuple[str | int, ...]
Problem = tuple[Path, str]


def shape_problem(obj: Any) -> Problem | None:
    """(path, what is wrong) for the first malformed field the snapshot relies on, or None when the object is usable."""
    if not isinstance(obj, dict):
        return (), f"expected an object, got {_type(obj)}"
    for key in ("kind", "apiVersion"):
        if not isinstance(obj.get(key), str) or not obj[key]:
            return (key,), _missing_string(key, obj.get(key))
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        return ("metadata",), "metadata is missing" if meta is None else f"metadata must be an object, got {_type(meta)}"
    if problem := _meta_problem(meta):
        return problem
    for part in ("spec", "status"):
        if obj.get(part) is not None and not isinstance(obj[part], dict):
            return (part,), f"{part} must be an object, got {_type(obj[part])}"
    check = KIND_CHECKS.get(obj["kind"])
    return check(obj.get("spec") or {}, obj.get("status") or {}) if check is not None else None


def _meta_problem(meta: dict[str, Any]) -> Problem | None:
    if not isinstance(meta.get("name"), str) or not meta["name"]:
        return ("metadata", "name"), _missing_string("metadata.name", meta.get("name"))
    if meta.get("namespace") is not None and not isinstance(meta["namespace"], str):
        return ("metadata", "namespace"), "metadata.namespace must be a string"
    labels = meta.get("labels")
    if labels is not None and not isinstance(labels, dict):
        return ("metadata", "labels"), f"metadata.labels must be a map of strings, got {_type(labels)}"
    return None


def _missing_string(field: str, value: Any) -> str:
    if value is None or value == "":
        return f"{field} is missing"
    return f"{field} must be a string, got {_type(value)}"


def _type(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def _mapping(value: Any, path: Path) -> Problem | None:
    if value is not None and not isinstance(value, dict):
        return path, f"expected an object, got {_type(value)}"
    return None


def _objects(value: Any, path: Path) -> Problem | None:
    """The problem of a list of objects: not a list, or its first item that is no object; None for None."""
    if value is None:
        return None
    if not isinstance(value, list):
        return path, f"expected a list, got {_type(value)}"
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            return (*path, index), f"expected an object, got {_type(item)}"
    return None


def _quantities(value: Any, path: Path) -> Problem | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        return path, f"expected a map of quantities, got {_type(value)}"
    for name, quantity in value.items():
        error = quantity_error(quantity) if isinstance(quantity, (str, int, float)) else f"{quantity!r} is not a quantity"
        if error:
            return (*path, name), error
    return None


@functools.lru_cache(maxsize=4096)
def quantity_error(quantity: str | int | float) -> str | None:
    """Why a value is not a quantity, or None; cached because snapshots repeat the same few values many times."""
    try:
        parse_quantity(quantity)
    except QuantityError as exc:
        return str(exc)
    return None


def _string(container: Mapping[str, Any], key: str, path: Path, *, required: bool = True) -> Problem | None:
    value = container.get(key)
    if (value is None and required) or (value is not None and not isinstance(value, str)):
        return (*path, key), f"{key} must be a string"
    return None


def _node(spec: dict[str, Any], status: dict[str, Any]) -> Problem | None:
    return _quantities(status.get("allocatable"), ("status", "allocatable")) or _objects(spec.get("taints"),
                                                                                           ("spec", "taints"))


def _resources(resources: Any, path: Path) -> Problem | None:
    """`resources` of a container or a pod: requests and limits are maps of quantities."""
    if problem := _mapping(resources, (*path, "resources")):
        return problem
    if not isinstance(resources, dict):
        return None
    return (_quantities(resources.get("requests"), (*path, "resources", "requests"))
            or _quantities(resources.get("limits"), (*path, "resources", "limits")))


def _containers(spec: dict[str, Any], field: str) -> Problem | None:
    containers = spec.get(field)
    if (problem := _objects(containers, ("spec", field))) or not containers:
        return problem
    for index, container in enumerate(containers):
        if problem := _resources(container.get("resources"), ("spec", field, index)):
            return problem
    return None


def _pod(spec: dict[str, Any], status: dict[str, Any]) -> Problem | None:
    if not isinstance(spec.get("containers"), list):
        return ("spec", "containers"), "spec.containers must be a list"
    return (_containers(spec, "containers") or _containers(spec, "initContainers")
            or _objects(spec.get("resourceClaims"), ("spec", "resourceClaims"))
            or _quantities(spec.get("overhead"), ("spec", "overhead")) or _resources(spec.get("resources"), ("spec",))
            or _string(spec, "nodeName", ("spec",), required=False)
            or _string(status, "phase", ("status",), required=False))


def _slice(spec: dict[str, Any], _status: dict[str, Any]) -> Problem | None:
    if problem := _string(spec, "driver", ("spec",)):
        return problem
    pool = spec.get("pool")
    if not isinstance(pool, dict) or not isinstance(pool.get("name"), str):
        return ("spec", "pool"), "spec.pool.name must be a string"
    devices = spec.get("devices")
    if problem := _objects(devices, ("spec", "devices")):
        return problem
    for index, device in enumerate(devices or ()):
        if problem := _device(device, ("spec", "devices", index)):
            return problem
    return _counter_sets(spec.get("sharedCounters"), ("spec", "sharedCounters"))


def _device(device: dict[str, Any], path: Path) -> Problem | None:
    capacity = device.get("capacity")
    if problem := (_string(device, "name", path) or _mapping(capacity, (*path, "capacity"))
                   or _attributes(device.get("attributes"), (*path, "attributes"))):
        return problem
    for name, value in capacity.items() if isinstance(capacity, dict) else ():
        if not isinstance(value, dict):
            return (*path, "capacity", name), "capacity must be {value: quantity}"
        if problem := _quantities({"value": value.get("value")}, (*path, "capacity", name)):
            return problem
    return _counter_sets(device.get("consumesCounters"), (*path, "consumesCounters"))


def _attributes(value: Any, path: Path) -> Problem | None:
    """A device's attributes: a map of {int|bool|string|version: value} objects (k8s.io/api resource/v1 Device)."""
    if (problem := _mapping(value, path)) or value is None:
        return problem
    for name, attribute in value.items():
        if not isinstance(attribute, dict):
            return (*path, name), f"an attribute must be an object such as {{string: ...}}, got {_type(attribute)}"
    return None


def _counter_sets(value: Any, path: Path) -> Problem | None:
    """[{name|counterSet, counters: {name: {value: quantity}}}] as in sharedCounters and consumesCounters."""
    if (problem := _objects(value, path)) or not value:
        return problem
    for index, entry in enumerate(value):
        counters = entry.get("counters")
        if problem := _mapping(counters, (*path, index, "counters")):
            return problem
        for name, counter in counters.items() if isinstance(counters, dict) else ():
            if not isinstance(counter, dict):
                return (*path, index, "counters", name), "a counter must be {value: quantity}"
            if problem := _quantities({"value": counter.get("value")}, (*path, index, "counters", name)):
                return problem
    return None


def _claim(spec: dict[str, Any], status: dict[str, Any]) -> Problem | None:
    allocation = status.get("allocation")
    devices = allocation.get("devices") if isinstance(allocation, dict) else None
    results = devices.get("results") if isinstance(devices, dict) else None
    path = ("status", "allocation", "devices", "results")
    if problem := (_mapping(allocation, ("status", "allocation")) or _mapping(devices, path[:3])
                   or _objects(results, path)):
        return problem
    for index, result in enumerate(results or ()):
        for key in ("driver", "pool", "device"):
            if problem := _string(result, key, (*path, index)):
                return problem
        if problem := _quantities(result.get("consumedCapacity"), (*path, index, "consumedCapacity")):
            return problem
    if isinstance(allocation, dict) and (problem := _node_selector(allocation.get("nodeSelector"),
                                                                   ("status", "allocation", "nodeSelector"))):
        return problem
    return _objects(status.get("reservedFor"), ("status", "reservedFor"))


def _node_selector(value: Any, path: Path) -> Problem | None:
    """A core/v1 NodeSelector: {nodeSelectorTerms: [{matchExpressions|matchFields: [{key, operator, values: [str]}]}]}.
    This is the one place an allocation's node selector is checked: the allocator, the scheduler filter and the
    suggestions read it as well-formed. Upstream: k8s.io/api core/v1 types.go (NodeSelector)."""
    if (problem := _mapping(value, path)) or value is None:
        return problem
    terms = value.get("nodeSelectorTerms")
    if (problem := _objects(terms, (*path, "nodeSelectorTerms"))) or not terms:
        return problem
    for index, term in enumerate(terms):
        for field in ("matchExpressions", "matchFields"):
            where = (*path, "nodeSelectorTerms", index, field)
            requirements = term.get(field)
            if problem := _objects(requirements, where):
                return problem
            for number, requirement in enumerate(requirements or ()):
                if problem := _requirement(requirement, (*where, number)):
                    return problem
    return None


def _requirement(requirement: dict[str, Any], path: Path) -> Problem | None:
    if problem := _string(requirement, "key", path) or _string(requirement, "operator", path):
        return problem
    values = requirement.get("values")
    if values is not None and (not isinstance(values, list) or not all(isinstance(v, str) for v in values)):
        return (*path, "values"), "values must be a list of strings"
    return None


def _taint_rule(spec: dict[str, Any], _status: dict[str, Any]) -> Problem | None:
    if problem := _mapping(spec.get("deviceSelector"), ("spec", "deviceSelector")):
        return problem
    if not isinstance(spec.get("taint"), dict):
        return ("spec", "taint"), "spec.taint must be an object"
    return None


KIND_CHECKS: Final[Mapping[str, Callable[[dict[str, Any], dict[str, Any]], Problem | None]]] = {
    "Node": _node,
    "Pod": _pod,
    "ResourceSlice": _slice,
    "ResourceClaim": _claim,
    "DeviceTaintRule": _taint_rule,
}
