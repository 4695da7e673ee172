"""Device requests of the claims to allocate, validated as the allocator does before searching.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (Allocate pre-checks, validateDeviceRequest, requestAccessor), release-1.37.
A request with `firstAvailable` yields one RequestData per subrequest (tried in order); `exactly` yields one.
Fatal problems (no class, unknown selector or constraint kind, too many devices) raise AllocationError.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.dra.cel import CelCompileError, CompiledSelector, compile_selector
from kubectl_wasdra.dra.features import Features
from kubectl_wasdra.dra.fields import integer, mapping, mappings, path, text
from kubectl_wasdra.dra.inventory import Device, Inventory
from kubectl_wasdra.reasons import Reason

MAX_RESULTS: Final = 32  # resource/v1 types.go AllocationResultsMaxSize


class AllocationError(Exception):
    """A fatal allocator error: the whole scheduling attempt stops (kube-scheduler returns an Error status)."""

    def __init__(self, reason: Reason, message: str, *, fatal: bool = True, **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.fatal = fatal  # False: unschedulable everywhere but not an Error (PreFilter's missing DeviceClass)
        self.details = details


def claim_ref(claim: Mapping[str, Any]) -> str:
    """namespace/name as klog.KObj prints it."""
    namespace, name = text(path(claim, "metadata", "namespace")), text(path(claim, "metadata", "name"))
    return f"{namespace}/{name}" if namespace else name


@dataclass(frozen=True)
class Selector:
    """One CEL selector with the owner wording upstream uses in errors ("class gpu" or "claim ns/name")."""

    owner: str
    index: int
    expression: str
    compiled: CompiledSelector | None
    error: str | None

    def matches(self, device: Device) -> bool:
        """CEL result for the device; AllocationError (SelectorError) for compile or runtime errors."""
        from kubectl_wasdra.errors import CelRuntimeError

        if self.compiled is None:
            raise AllocationError(Reason.SELECTOR_ERROR, f"{self.owner}: selector #{self.index}: CEL compile error: "
                                  f"{self.error}", expression=self.expression)
        try:
            return self.compiled.matches_device(device.driver, device.raw, device.view_now, device.value_error)
        except CelRuntimeError as exc:
            raise AllocationError(Reason.SELECTOR_ERROR, f"{self.owner}: selector #{self.index} on device {device.key}: "
                                  f"CEL runtime error: {exc.message}", expression=self.expression,
                                  device=device.key) from None


@dataclass(eq=False)
class RequestData:
    """One request or subrequest of one claim, ready for matching."""

    claim_index: int
    request_index: int
    sub_index: int  # -1 unless a firstAvailable subrequest
    name: str
    parent: str | None
    class_name: str
    selectors: tuple[Selector, ...]
    all_mode: bool
    count: int
    admin_access: bool
    tolerations: tuple[Mapping[str, Any], ...]
    capacity_requests: Mapping[str, Any] | None
    all_devices: list[Any] = field(default_factory=list)
    selected: dict[str, bool] = field(default_factory=dict)

    @property
    def full_name(self) -> str:
        """"req" or "req/sub", as results and constraints spell it."""
        return f"{self.parent}/{self.name}" if self.parent else self.name

    @property
    def base_name(self) -> str:
        return self.parent or self.name

    def is_selectable(self, device: Device, node: Mapping[str, Any], features: Features) -> bool:
        """Class selectors, then request selectors, then per-device node selection (isSelectable), cached."""
        cached = self.selected.get(device.key)
        if cached is not None:
            return cached
        result = not (device.binding_conditions and not features.binding_conditions)
        result = result and all(selector.matches(device) for selector in self.selectors)
        result = result and (not device.slice.per_device_node_selection or device.matches_node(node))
        self.selected[device.key] = result
        return result


def _selectors(owner: str, specs: Sequence[Mapping[str, Any]], request: str, consumable: bool) -> tuple[Selector, ...]:
    if not specs:  # most requests have none: no per-claim cache entry (each pod's generated claim is another owner)
        return ()
    expressions = tuple(path(spec, "cel", "expression") for spec in specs)
    for index, expression in enumerate(expressions):
        if not isinstance(expression, str):
            raise AllocationError(Reason.SELECTOR_ERROR, f"{owner}, request {request}, selector #{index}: CEL expression "
                                  "empty (unsupported selector type?)")
    return _compiled(owner, expressions, consumable)


@functools.lru_cache(maxsize=4096)
def _compiled(owner: str, expressions: tuple[str, ...], consumable: bool) -> tuple[Selector, ...]:
    """Selectors for one owner's expressions, built once (the same class or claim recurs for every node)."""
    result = []
    for index, expression in enumerate(expressions):
        try:
            result.append(Selector(owner, index, expression, compile_selector(expression, consumable_capacity=consumable),
                                   None))
        except CelCompileError as exc:
            result.append(Selector(owner, index, expression, None, f"{exc.line}:{exc.column}: {exc.message}"))
    return tuple(result)


def _request_data(claim: Mapping[str, Any], indices: tuple[int, int, int], spec: Mapping[str, Any], parent: str | None,
                  inventory: Inventory, features: Features) -> RequestData:
    ref = claim_ref(claim)
    name = text(spec.get("name"))
    shown = f"{parent}/{name}" if parent else name
    class_name = text(spec.get("deviceClassName"))
    if not class_name:
        raise AllocationError(Reason.DEVICE_CLASS_NOT_FOUND,
                              f"claim {ref}, request {shown}: missing device class name (unsupported request type?)")
    device_class = inventory.device_class(class_name)
    if device_class is None:
        # dynamicresources.go PreFilter: UnschedulableAndUnresolvable on every node, not an Error
        raise AllocationError(Reason.DEVICE_CLASS_NOT_FOUND, f"request {shown}: device class {class_name} does not exist",
                              fatal=False, claim=ref, request=shown, deviceClassName=class_name)
    if spec.get("adminAccess") and not features.admin_access:
        raise AllocationError(Reason.FEATURE_GATE_DISABLED,
                              f"claim {ref}, request {shown}: admin access is requested, but the feature is disabled")
    if spec.get("capacity") and not features.consumable_capacity:
        raise AllocationError(Reason.FEATURE_GATE_DISABLED, f"claim {ref}, request {shown}: has capacity requests, but "
                              "the DRAConsumableCapacity feature is disabled")
    consumable = features.consumable_capacity
    selectors = (_selectors(f"class {class_name}", mappings(path(device_class, "spec", "selectors")), shown, consumable)
                 + _selectors(f"claim {ref}", mappings(spec.get("selectors")), shown, consumable))
    mode = text(spec.get("allocationMode")) or "ExactCount"
    if mode not in ("ExactCount", "All"):
        raise AllocationError(Reason.NO_MATCHING_DEVICES, f"claim {ref}, request {shown}: unsupported count mode {mode}")
    count = integer(spec.get("count"), 1) if spec.get("count") is not None else 1
    if count < 1 and mode == "ExactCount":
        raise AllocationError(Reason.NO_MATCHING_DEVICES, f"claim {ref}, request {shown}: count {spec.get('count')!r} is "
                              "not a positive integer")
    return RequestData(claim_index=indices[0], request_index=indices[1], sub_index=indices[2], name=name, parent=parent,
                       class_name=class_name, selectors=selectors, all_mode=mode == "All",
                       count=count, admin_access=spec.get("adminAccess") is True and parent is None,
                       tolerations=tuple(mappings(spec.get("tolerations"))),
                       capacity_requests=mapping(path(spec, "capacity", "requests")) or None)


def build_requests(claims: Sequence[Mapping[str, Any]], inventory: Inventory, features: Features
                   ) -> list[list[list[RequestData]]]:
    """Per claim, per request: the alternatives (one for `exactly`, one per `firstAvailable` subrequest)."""
    result = []
    for claim_index, claim in enumerate(claims):
        requests = []
        for request_index, request in enumerate(mappings(path(claim, "spec", "devices", "requests"))):
            name = text(request.get("name"))
            subs = mappings(request.get("firstAvailable"))
            if subs and not features.prioritized_list:
                raise AllocationError(Reason.FEATURE_GATE_DISABLED, f"claim {claim_ref(claim)}, request {name}: has "
                                      "subrequests, but the DRAPrioritizedList feature is disabled")
            if subs:
                requests.append([_request_data(claim, (claim_index, request_index, i), sub, name, inventory, features)
                                 for i, sub in enumerate(subs)])
            elif isinstance(request.get("exactly"), Mapping):
                requests.append([_request_data(claim, (claim_index, request_index, -1), {**request["exactly"], "name": name},
                                               None, inventory, features)])
            else:
                raise AllocationError(Reason.NO_MATCHING_DEVICES,
                                      f"resource claim {claim_ref(claim)}, request {name}: unknown request type")
        result.append(requests)
    return result
