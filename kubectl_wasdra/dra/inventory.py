"""The device inventory of a snapshot: slices, devices (with DeviceTaintRule taints applied), classes, admin namespaces.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/resourceslice/tracker/tracker.go (taint
rules appended to device taints) and structured/internal/incubating/allocator_incubating.go (NewAllocator: node-local
vs shared slices), release-1.37.

Built once per snapshot; per-node pools (pools.py) and per-request candidate lists (candidates.py) are cached here, so
repeated per-node allocation calls only pay for what changes with the usage ledger.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.cluster.pools import rule_expressions, rule_matches
from kubectl_wasdra.dra.fields import integer, mapping, mappings, path, sequence, text
from kubectl_wasdra.dra.views import DeviceView, value_error
from kubectl_wasdra.errors import CelCompileError, CelRuntimeError
from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity
from kubectl_wasdra.kube.selectors import labels_of, matches_node_selector

if TYPE_CHECKING:
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
    from kubectl_wasdra.dra.pools import NodePools

ADMIN_ACCESS_LABEL: Final = "resource.kubernetes.io/admin-access"  # resource/v1 types.go DRAAdminNamespaceLabelKey


def _quantity(value: Any) -> Decimal:
    """The capacity value, 0 when it does not parse; devices repeat the same few strings ("80Gi"): parsed once each."""
    return _string_quantity(value) if isinstance(value, str) else _parsed(value)


def _parsed(value: Any) -> Decimal:
    try:
        return parse_quantity(value)
    except QuantityError:
        return Decimal(0)


_string_quantity: Final = functools.lru_cache(maxsize=4096)(_parsed)


def _name(obj: Any) -> str:
    return text(path(obj, "metadata", "name"))


@dataclass(frozen=True)
class Capacity:
    """One device capacity entry: total value and request policy (raw dict in API shape, or None)."""

    value: Decimal
    policy: Mapping[str, Any] | None


@dataclass(eq=False, slots=True)  # tens of thousands per snapshot: slots halve their size and creation time
class Device:
    """One device of one slice, with everything the allocator reads precomputed."""

    driver: str
    pool: str
    name: str
    slice: Slice
    raw: Mapping[str, Any]
    index: int
    taints: tuple[Mapping[str, Any], ...] = ()
    capacity: Mapping[str, Capacity] = field(default_factory=dict)
    consumes_counters: tuple[tuple[str, Mapping[str, Decimal]], ...] = ()
    allow_multiple: bool = False
    views: dict[tuple[Any, ...], DeviceView] | None = None  # shared by the inventory: identical devices, one view
    _view: DeviceView | None = None
    _value_error: str | bool | None = False  # False: not computed yet
    key: str = field(init=False)  # driver/pool/device, the DeviceID spelling upstream uses in messages
    binding_conditions: tuple[str, ...] = field(init=False)
    binding_failure_conditions: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.key = f"{self.driver}/{self.pool}/{self.name}"
        raw = self.raw
        conditions, failures = raw.get("bindingConditions"), raw.get("bindingFailureConditions")
        self.binding_conditions = tuple(str(c) for c in sequence(conditions)) if conditions else ()
        self.binding_failure_conditions = tuple(str(c) for c in sequence(failures)) if failures else ()

    def value_error(self) -> str | None:
        """The device's value conversion error for CEL (views.value_error), computed once."""
        if self._value_error is False:
            self._value_error = self._view.error if self._view is not None else value_error(self.raw)
        return self._value_error  # type: ignore[return-value]

    def view_now(self) -> DeviceView:
        return self.view

    @property
    def view(self) -> DeviceView:
        """What CEL sees of this device, built on first use and shared by every selector and by every device with the
        same driver, attributes, capacity and allowMultipleAllocations (so CEL runs once per distinct device content)."""
        if self._view is None:
            if self.views is None:
                self._view = DeviceView(self.driver, self.raw, self.name)
            else:
                raw = self.raw
                key = (self.driver, repr(raw.get("attributes")), repr(raw.get("capacity")), self.allow_multiple)
                view = self.views.get(key)
                if view is None:
                    view = self.views[key] = DeviceView(self.driver, raw, self.name)
                self._view = view
        return self._view

    @property
    def binds_to_node(self) -> bool:
        return bool(self.raw.get("bindsToNode"))

    def attribute(self, qualified: str) -> Mapping[str, Any] | None:
        """Attribute lookup for constraints: fully-qualified key first, else the bare id if the domain is the driver's."""
        attributes = mapping(self.raw.get("attributes"))
        found = attributes.get(qualified)
        if found is None:
            domain, sep, ident = qualified.partition("/")
            if not sep or domain != self.driver:
                return None
            found = attributes.get(ident)
        return found if type(found) is dict or isinstance(found, Mapping) else None

    def matches_node(self, node: Mapping[str, Any]) -> bool:
        """Per-device node selection (slice perDeviceNodeSelection): nodeName, allNodes or nodeSelector."""
        selector = self.raw.get("nodeSelector")
        return node_matches(node, text(self.raw.get("nodeName")) or None, self.raw.get("allNodes") is True,
                            selector if isinstance(selector, Mapping) else None)


def node_matches(node: Mapping[str, Any], node_name: str | None, all_nodes: bool, selector: Mapping[str, Any] | None
                 ) -> bool:
    """structured NodeMatches: nodeName equality, allNodes, or a NodeSelector; nothing set matches nothing."""
    if node_name:
        return node_name == _name(node)
    if all_nodes:
        return True
    if selector is not None:
        return matches_node_selector(selector, node)
    return False


@dataclass(eq=False)
class Slice:
    """One ResourceSlice (spec fields the allocator reads) and its devices in published order."""

    name: str
    driver: str
    pool: str
    generation: int
    slice_count: int
    node_name: str | None
    node_selector: Mapping[str, Any] | None
    all_nodes: bool
    per_device_node_selection: bool
    shared_counters: tuple[tuple[str, Mapping[str, Decimal]], ...]
    raw: Mapping[str, Any]
    devices: list[Device] = field(default_factory=list)

    def is_relevant(self, node: Mapping[str, Any]) -> bool:
        """Does this slice (or, with per-device selection, any of its devices) target `node`? (pools_incubating.go)"""
        if self.node_name or self.all_nodes or self.node_selector is not None:
            return node_matches(node, self.node_name, self.all_nodes, self.node_selector)
        if self.per_device_node_selection:
            return any(device.matches_node(node) for device in self.devices)
        return False  # an unknown future way of selecting nodes: ignore the slice


def _counter_sets(entries: Any, set_key: str) -> tuple[tuple[str, Mapping[str, Decimal]], ...]:
    return tuple((text(entry.get(set_key)),
                  {name: _quantity(mapping(counter).get("value", 0)) for name, counter in mapping(entry.get("counters")).items()})
                 for entry in mappings(entries))


def _capacity(entry: Any) -> Capacity:
    entry = mapping(entry)
    value, policy = entry.get("value", 0), entry.get("requestPolicy") or None
    return _plain_capacity(value) if policy is None and isinstance(value, str) else Capacity(_quantity(value), policy)


@functools.lru_cache(maxsize=4096)
def _plain_capacity(value: str) -> Capacity:
    """A capacity without a request policy (immutable: devices share one per value)."""
    return Capacity(_string_quantity(value), None)


def _build_device(slice_: Slice, raw: Mapping[str, Any], index: int, views: dict | None) -> Device:
    capacity = {name: _capacity(entry) for name, entry in mapping(raw.get("capacity")).items()}
    return Device(driver=slice_.driver, pool=slice_.pool, name=text(raw.get("name")), slice=slice_, raw=raw,
                  index=index, taints=tuple(mappings(raw.get("taints"))), capacity=capacity,
                  consumes_counters=_counter_sets(raw.get("consumesCounters"), "counterSet"),
                  allow_multiple=raw.get("allowMultipleAllocations") is True, views=views)


def build_slice(obj: Mapping[str, Any], views: dict[tuple[Any, ...], DeviceView] | None = None) -> Slice:
    """A Slice from a resource.k8s.io/v1 ResourceSlice dict (`views`: the inventory's shared DeviceView cache)."""
    spec = mapping(obj.get("spec"))
    pool = mapping(spec.get("pool"))
    selector = spec.get("nodeSelector") if isinstance(spec.get("nodeSelector"), Mapping) else None
    slice_ = Slice(name=_name(obj), driver=text(spec.get("driver")), pool=text(pool.get("name")),
                   generation=integer(pool.get("generation"), 0), slice_count=integer(pool.get("resourceSliceCount"), 1),
                   node_name=text(spec.get("nodeName")) or None, node_selector=selector,
                   all_nodes=spec.get("allNodes") is True, per_device_node_selection=spec.get("perDeviceNodeSelection") is True,
                   shared_counters=_counter_sets(spec.get("sharedCounters"), "name"), raw=obj)
    slice_.devices = [_build_device(slice_, raw, index, views) for index, raw in enumerate(mappings(spec.get("devices")))]
    return slice_


def evaluate_selector(expression: str, driver: str, device: Mapping[str, Any]) -> bool:
    """A CEL device selector on a raw device dict (cluster.pools.SelectorEvaluator, for
    ClusterSnapshot.with_selector_evaluator); CelCompileError/CelRuntimeError when it cannot be evaluated."""
    from kubectl_wasdra.dra.cel import compile_selector

    return compile_selector(expression).matches(DeviceView(driver, device, text(device.get("name"))))


def with_device_selectors(snapshot: ClusterSnapshot) -> ClusterSnapshot:
    """`snapshot` whose view of DeviceTaintRules (rule_taints, tainted_slices) selects devices by class and CEL exactly
    as this inventory does: every command that reads a cluster for the simulator loads it through here."""
    return snapshot.with_selector_evaluator(evaluate_selector)


def _selected(expressions: tuple[str, ...], device: Device) -> bool:
    """Every CEL expression selects the device; one that fails to compile or evaluate does not (pools._selected)."""
    from kubectl_wasdra.dra.cel import compile_selector

    try:
        return all(compile_selector(expression).matches(device.view) for expression in expressions)
    except (CelCompileError, CelRuntimeError):
        return False


def _apply_taint_rules(slices: Sequence[Slice], rules: Sequence[Mapping[str, Any]],
                       classes: Mapping[str, Mapping[str, Any]]) -> None:
    """Append each DeviceTaintRule's taint to every matching device (tracker.go; no selector = every device). A 1.33/1.34
    rule naming a DeviceClass or CEL selectors takes only devices all of them select; a missing class selects none."""
    for rule in rules:
        taint = path(rule, "spec", "taint")
        expressions = rule_expressions(rule, classes) if isinstance(rule, Mapping) else None
        if not isinstance(taint, Mapping) or not taint or expressions is None:
            continue
        for slice_ in slices:
            for device in slice_.devices:
                if not rule_matches(rule, device.driver, device.pool, device.name):
                    continue
                if not expressions or _selected(expressions, device):
                    device.taints = (*device.taints, {**taint, "rule": _name(rule)})


class Inventory:
    """Slices, classes and admin namespaces of one snapshot, with per-node pool and candidate caches.

    Build with `build_inventory(snapshot)` or `Inventory(slices=..., classes=..., ...)` from plain dict sequences.
    """

    def __init__(self, slices: Sequence[Mapping[str, Any]] = (), classes: Sequence[Mapping[str, Any]] = (),
                 taint_rules: Sequence[Mapping[str, Any]] = (), namespaces: Sequence[Mapping[str, Any]] = (),
                 base: Inventory | None = None) -> None:
        """`base`: an inventory without DeviceTaintRules whose slices, built from the very same objects, are reused
        (a what-if that adds nodes builds only the new nodes' slices)."""
        reuse = base is not None and not taint_rules and not base.tainted_by_rules
        self.views: dict[tuple[Any, ...], DeviceView] = base.views if reuse and base is not None else {}
        known = base.built if reuse and base is not None else {}
        self.built: dict[int, tuple[Mapping[str, Any], Slice]] = {}
        for obj in slices:
            if isinstance(obj, Mapping):
                found = known.get(id(obj))
                self.built[id(obj)] = found if found is not None and found[0] is obj else (obj, build_slice(obj, self.views))
        self.tainted_by_rules = bool(taint_rules)
        self.slices: tuple[Slice, ...] = tuple(sorted((item[1] for item in self.built.values()), key=lambda s: s.name))
        self.classes: dict[str, Mapping[str, Any]] = {_name(obj): obj for obj in classes if isinstance(obj, Mapping)}
        _apply_taint_rules(self.slices, taint_rules, self.classes)
        self.admin_namespaces = frozenset(_name(ns) for ns in namespaces
                                          if labels_of(ns).get(ADMIN_ACCESS_LABEL) == "true")
        self.slices_on_node: dict[str, list[Slice]] = {}
        self.slices_shared: list[Slice] = []
        self.slices_by_pool: dict[tuple[str, str], list[Slice]] = {}
        for slice_ in self.slices:
            if slice_.node_name:
                self.slices_on_node.setdefault(slice_.node_name, []).append(slice_)
            else:
                self.slices_shared.append(slice_)
            self.slices_by_pool.setdefault((slice_.driver, slice_.pool), []).append(slice_)
        self.devices_by_key: dict[str, Device] = {device.key: device for s in self.slices for device in s.devices}
        self._pools: dict[tuple[str, bool], NodePools] = {}
        self.static_candidates: dict[tuple[Any, ...], Any] = {}  # (pools, request signature) -> candidates.StaticEntry
        self.request_cache: dict[tuple[Any, ...], Any] = {}  # allocator._requests: claim set -> request data

    def device_class(self, name: str) -> Mapping[str, Any] | None:
        return self.classes.get(name)

    def pools_for(self, node: Mapping[str, Any], partitionable: bool = True) -> NodePools:
        """The pools node `node` sees, gathered once per node (pools.py)."""
        from kubectl_wasdra.dra.pools import gather_pools

        key = (_name(node), partitionable)
        pools = self._pools.get(key)
        if pools is None:
            pools = gather_pools(self, node, partitionable)
            self._pools[key] = pools
        return pools

    def extended_resource_classes(self) -> dict[str, str]:
        """extendedResourceName -> DeviceClass name (explicit names; see extended.py for the implicit ones)."""
        result: dict[str, str] = {}
        for name in sorted(self.classes):
            resource = text(path(self.classes[name], "spec", "extendedResourceName"))
            if resource and resource not in result:
                result[resource] = name
        return result


def build_inventory(snapshot: ClusterSnapshot, taint_rules: bool = True, base: Inventory | None = None) -> Inventory:
    """The Inventory of a ClusterSnapshot (DRA kinds already in the resource.k8s.io/v1 shape); `taint_rules=False`
    (DRADeviceTaintRules off) leaves DeviceTaintRules out: without the gate they taint nothing. `base` is the inventory
    of a snapshot this one was derived from (its slices are reused where the objects are the same)."""
    return Inventory(slices=snapshot.of_kind("ResourceSlice"), classes=snapshot.of_kind("DeviceClass"),
                     taint_rules=snapshot.of_kind("DeviceTaintRule") if taint_rules else (),
                     namespaces=snapshot.of_kind("Namespace"), base=base)
