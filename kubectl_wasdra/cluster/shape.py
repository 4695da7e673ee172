"""Shape checks for snapshot objects: the fields the index and the simulator read must have the types the API gives them.

An object failing a check is reported (with the path of the offending field) and left out of the snapshot, so the
simulator never meets a malformed object. Only what is read is checked; full schema validation is `check`'s job.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity

Path = tuple[str | int, ...]
Problem = tuple[Path, str]


def shape_problem(obj: Any) -> Problem | None:
    """(path, what is wrong) for the first malformed field the snapshot relies on, or None when the object is usable."""
    if not isinstance(obj, dict):
        return (), f"expected an object, got {_type(obj)}"
    for path, message in _problems(obj):
        return path, message
    return None


def _problems(obj: dict[str, Any]) -> Iterator[Problem]:
    for key in ("kind", "apiVersion"):
        if not isinstance(obj.get(key), str) or not obj[key]:
            yield (key,), _missing_string(key, obj.get(key))
            return
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        yield ("metadata",), "metadata is missing" if meta is None else f"metadata must be an object, got {_type(meta)}"
        return
    if not isinstance(meta.get("name"), str) or not meta["name"]:
        yield ("metadata", "name"), _missing_string("metadata.name", meta.get("name"))
    if meta.get("namespace") is not None and not isinstance(meta["namespace"], str):
        yield ("metadata", "namespace"), "metadata.namespace must be a string"
    labels = meta.get("labels")
    if labels is not None and not isinstance(labels, dict):
        yield ("metadata", "labels"), f"metadata.labels must be a map of strings, got {_type(labels)}"

    for part in ("spec", "status"):
        if obj.get(part) is not None and not isinstance(obj[part], dict):
            yield (part,), f"{part} must be an object, got {_type(obj[part])}"
            return
    check = _KIND_CHECKS.get(obj["kind"]) if isinstance(obj.get("kind"), str) else None
    if check is not None:
        yield from check(obj.get("spec") or {}, obj.get("status") or {})


def _missing_string(field: str, value: Any) -> str:
    if value is None or value == "":
        return f"{field} is missing"
    return f"{field} must be a string, got {_type(value)}"


def _type(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def _mapping(value: Any, path: Path) -> Iterator[Problem]:
    if value is not None and not isinstance(value, dict):
        yield path, f"expected an object, got {_type(value)}"


def _items(value: Any, path: Path) -> tuple[list[tuple[Path, dict[str, Any]]], list[Problem]]:
    """(path, item) for every object in a list, and a problem for anything malformed (the list itself or an item)."""
    if value is None:
        return [], []
    if not isinstance(value, list):
        return [], [(path, f"expected a list, got {_type(value)}")]
    good: list[tuple[Path, dict[str, Any]]] = []
    bad: list[Problem] = []
    for index, item in enumerate(value):
        if isinstance(item, dict):
            good.append(((*path, index), item))
        else:
            bad.append(((*path, index), f"expected an object, got {_type(item)}"))
    return good, bad


def _quantities(value: Any, path: Path) -> Iterator[Problem]:
    if value is None:
        return
    if not isinstance(value, dict):
        yield path, f"expected a map of quantities, got {_type(value)}"
        return
    for name, quantity in value.items():
        error = _quantity_error(quantity) if isinstance(quantity, str | int | float) else f"{quantity!r} is not a quantity"
        if error:
            yield (*path, name), error


@functools.lru_cache(maxsize=4096)
def _quantity_error(quantity: str | int | float) -> str | None:
    """Why a value is not a quantity, or None; cached because snapshots repeat the same few values many times."""
    try:
        parse_quantity(quantity)
    except QuantityError as exc:
        return str(exc)
    return None


def _string(container: Mapping[str, Any], key: str, path: Path, *, required: bool = True) -> Iterator[Problem]:
    value = container.get(key)
    if (value is None and required) or (value is not None and not isinstance(value, str)):
        yield (*path, key), f"{key} must be a string"


def _node(spec: dict[str, Any], status: dict[str, Any]) -> Iterator[Problem]:
    yield from _quantities(status.get("allocatable"), ("status", "allocatable"))
    yield from _items(spec.get("taints"), ("spec", "taints"))[1]


def _containers(spec: dict[str, Any], field: str) -> Iterator[Problem]:
    containers, bad = _items(spec.get(field), ("spec", field))
    yield from bad
    for path, container in containers:
        resources = container.get("resources")
        yield from _mapping(resources, (*path, "resources"))
        if isinstance(resources, dict):
            for part in ("requests", "limits"):
                yield from _quantities(resources.get(part), (*path, "resources", part))


def _pod(spec: dict[str, Any], status: dict[str, Any]) -> Iterator[Problem]:
    if not isinstance(spec.get("containers"), list):
        yield ("spec", "containers"), "spec.containers must be a list"
        return
    yield from _containers(spec, "containers")
    yield from _containers(spec, "initContainers")
    yield from _quantities(spec.get("overhead"), ("spec", "overhead"))
    resources = spec.get("resources")
    yield from _mapping(resources, ("spec", "resources"))
    if isinstance(resources, dict):
        for part in ("requests", "limits"):
            yield from _quantities(resources.get(part), ("spec", "resources", part))
    yield from _string(spec, "nodeName", ("spec",), required=False)
    yield from _string(status, "phase", ("status",), required=False)


def _slice(spec: dict[str, Any], _status: dict[str, Any]) -> Iterator[Problem]:
    yield from _string(spec, "driver", ("spec",))
    pool = spec.get("pool")
    if not isinstance(pool, dict) or not isinstance(pool.get("name"), str):
        yield ("spec", "pool"), "spec.pool.name must be a string"
    devices, bad = _items(spec.get("devices"), ("spec", "devices"))
    yield from bad
    for path, device in devices:
        yield from _string(device, "name", path)
        capacity = device.get("capacity")
        yield from _mapping(capacity, (*path, "capacity"))
        for name, value in (capacity or {}).items() if isinstance(capacity, dict) else ():
            if not isinstance(value, dict):
                yield (*path, "capacity", name), "capacity must be {value: quantity}"
            else:
                yield from _quantities({"value": value.get("value")}, (*path, "capacity", name))
        yield from _counter_sets(device.get("consumesCounters"), (*path, "consumesCounters"))
    yield from _counter_sets(spec.get("sharedCounters"), ("spec", "sharedCounters"))


def _counter_sets(value: Any, path: Path) -> Iterator[Problem]:
    """[{name|counterSet, counters: {name: {value: quantity}}}] as in sharedCounters and consumesCounters."""
    entries, bad = _items(value, path)
    yield from bad
    for entry_path, entry in entries:
        counters = entry.get("counters")
        yield from _mapping(counters, (*entry_path, "counters"))
        for name, counter in (counters or {}).items() if isinstance(counters, dict) else ():
            if not isinstance(counter, dict):
                yield (*entry_path, "counters", name), "a counter must be {value: quantity}"
            else:
                yield from _quantities({"value": counter.get("value")}, (*entry_path, "counters", name))


def _claim(spec: dict[str, Any], status: dict[str, Any]) -> Iterator[Problem]:
    allocation = status.get("allocation")
    yield from _mapping(allocation, ("status", "allocation"))
    devices = (allocation or {}).get("devices") if isinstance(allocation, dict) else None
    yield from _mapping(devices, ("status", "allocation", "devices"))
    results = devices.get("results") if isinstance(devices, dict) else None
    entries, bad = _items(results, ("status", "allocation", "devices", "results"))
    yield from bad
    for path, result in entries:
        for key in ("driver", "pool", "device"):
            yield from _string(result, key, path)
        yield from _quantities(result.get("consumedCapacity"), (*path, "consumedCapacity"))
    yield from _items(status.get("reservedFor"), ("status", "reservedFor"))[1]


def _taint_rule(spec: dict[str, Any], _status: dict[str, Any]) -> Iterator[Problem]:
    yield from _mapping(spec.get("deviceSelector"), ("spec", "deviceSelector"))
    if not isinstance(spec.get("taint"), dict):
        yield ("spec", "taint"), "spec.taint must be an object"


_KIND_CHECKS: Final[Mapping[str, Callable[[dict[str, Any], dict[str, Any]], Iterator[Problem]]]] = {
    "Node": _node,
    "Pod": _pod,
    "ResourceSlice": _slice,
    "ResourceClaim": _claim,
    "DeviceTaintRule": _taint_rule,
}
