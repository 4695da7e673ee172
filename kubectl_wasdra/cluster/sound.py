"""A quick yes for snapshot objects that are plainly well-formed, before shape.py's checks look for the problem.

Nearly every object of a snapshot is sound; shape.py walks it building the path of every field it visits, so that
it can name the first bad one. Here the same fields are tested in straight-line code without paths, and only an
object that fails (or has a type this code does not vouch for: a dict subclass, a bool where a quantity goes, a kind
it does not know field by field) is handed to shape.py, which then finds and names the problem. The rule that holds
the two together: `sound(obj)` is True only where `shape.shape_problem(obj)` is None (tests/cluster/test_sound.py).
Loops are spelled out (noqa SIM110): all() over a generator made the pods' check a quarter slower.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from kubectl_wasdra.cluster.shape import KIND_CHECKS, quantity_error

_QUANTITY_TYPES: Final = (str, int, float)  # exactly these types (type() is, not isinstance: no bools)


def sound(obj: Any) -> bool:
    """True when `obj` certainly passes shape.shape_problem; False means "let shape.py look" (not "malformed")."""
    if type(obj) is not dict:
        return False
    kind, version, meta = obj.get("kind"), obj.get("apiVersion"), obj.get("metadata")
    if type(kind) is not str or not kind or type(version) is not str or not version or type(meta) is not dict:
        return False
    name, namespace, labels = meta.get("name"), meta.get("namespace"), meta.get("labels")
    if type(name) is not str or not name or (namespace is not None and type(namespace) is not str) or (
            labels is not None and type(labels) is not dict):
        return False
    spec, status = obj.get("spec"), obj.get("status")
    if (spec is not None and type(spec) is not dict) or (status is not None and type(status) is not dict):
        return False
    check = _KINDS.get(kind)
    if check is None:
        return kind not in KIND_CHECKS  # a kind shape.py checks field by field and this module does not
    return check(spec or {}, status or {})


def _quantities(value: Any) -> bool:
    if value is None:
        return True
    if type(value) is not dict:
        return False
    for quantity in value.values():  # noqa: SIM110
        if type(quantity) not in _QUANTITY_TYPES or quantity_error(quantity) is not None:
            return False
    return True


def _objects(value: Any) -> bool:
    """None, or a list of plain objects."""
    if value is None:
        return True
    if type(value) is not list:
        return False
    for item in value:  # noqa: SIM110
        if type(item) is not dict:
            return False
    return True


def _resources(resources: Any) -> bool:
    if resources is None:
        return True
    return type(resources) is dict and _quantities(resources.get("requests")) and _quantities(resources.get("limits"))


def _containers(containers: Any) -> bool:
    if not _objects(containers):
        return False
    for container in containers or ():  # noqa: SIM110
        if not _resources(container.get("resources")):
            return False
    return True


def _optional_string(value: Any) -> bool:
    return value is None or type(value) is str


def _pod(spec: dict[str, Any], status: dict[str, Any]) -> bool:
    containers = spec.get("containers")
    return (type(containers) is list and _containers(containers) and _containers(spec.get("initContainers"))
            and _objects(spec.get("resourceClaims")) and _quantities(spec.get("overhead"))
            and _resources(spec.get("resources")) and _optional_string(spec.get("nodeName"))
            and _optional_string(status.get("phase")))


def _node(spec: dict[str, Any], status: dict[str, Any]) -> bool:
    return _quantities(status.get("allocatable")) and _objects(spec.get("taints"))


def _value_map(value: Any) -> bool:
    """{name: {value: quantity}}, as device capacity and counters are."""
    if value is None:
        return True
    if type(value) is not dict:
        return False
    for entry in value.values():
        if type(entry) is not dict:
            return False
        quantity = entry.get("value")
        if type(quantity) not in _QUANTITY_TYPES or quantity_error(quantity) is not None:
            return False
    return True


def _counter_sets(value: Any) -> bool:
    if not _objects(value):
        return False
    return all(_value_map(entry.get("counters")) for entry in value or ())


def _device(device: dict[str, Any]) -> bool:
    if type(device.get("name")) is not str or not _value_map(device.get("capacity")):
        return False
    attributes = device.get("attributes")
    if attributes is not None:
        if type(attributes) is not dict:
            return False
        for attribute in attributes.values():
            if type(attribute) is not dict:
                return False
    return _counter_sets(device.get("consumesCounters"))


def _slice(spec: dict[str, Any], _status: dict[str, Any]) -> bool:
    pool, devices = spec.get("pool"), spec.get("devices")
    if type(spec.get("driver")) is not str or type(pool) is not dict or type(pool.get("name")) is not str:
        return False
    if not _objects(devices):
        return False
    for device in devices or ():
        if not _device(device):
            return False
    return _counter_sets(spec.get("sharedCounters"))


def _results(results: Any) -> bool:
    if not _objects(results):
        return False
    for result in results or ():
        if type(result.get("driver")) is not str or type(result.get("pool")) is not str or type(
                result.get("device")) is not str or not _quantities(result.get("consumedCapacity")):
            return False
    return True


def _node_selector(value: Any) -> bool:
    if value is None:
        return True
    if type(value) is not dict:
        return False
    terms = value.get("nodeSelectorTerms")
    if not _objects(terms):
        return False
    for term in terms or ():
        for requirements in (term.get("matchExpressions"), term.get("matchFields")):
            if not _objects(requirements):
                return False
            for requirement in requirements or ():
                values = requirement.get("values")
                if type(requirement.get("key")) is not str or type(requirement.get("operator")) is not str:
                    return False
                if values is not None and (type(values) is not list or any(type(v) is not str for v in values)):
                    return False
    return True


def _claim(_spec: dict[str, Any], status: dict[str, Any]) -> bool:
    allocation = status.get("allocation")
    if allocation is not None:
        if type(allocation) is not dict:
            return False
        devices = allocation.get("devices")
        if devices is not None and (type(devices) is not dict or not _results(devices.get("results"))):
            return False
        if not _node_selector(allocation.get("nodeSelector")):
            return False
    return _objects(status.get("reservedFor"))


_KINDS: Final[dict[str, Callable[[dict[str, Any], dict[str, Any]], bool]]] = {
    "Node": _node,
    "Pod": _pod,
    "ResourceSlice": _slice,
    "ResourceClaim": _claim,
}
