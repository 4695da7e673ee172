"""ResourceSlices grouped into pools, pool completeness, devices by (driver, pool, device), and DeviceTaintRules resolved
onto the devices they select.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/*/pools_*.go (GatherPools:
highest generation wins, complete when the slice count equals resourceSliceCount) and resourceslice/tracker/tracker.go
(a DeviceTaintRule's taint is appended to every matching device; unset selector fields match anything, and a rule without
a deviceSelector matches every device, which is what the scheduler does), release-1.37. Rules of 1.33/1.34 clusters that
select by DeviceClass or CEL are applied through a SelectorEvaluator the caller passes (dra/cel.py is above this layer).
These are plain functions over slices and rules so the DRA allocator can use them for its own inventory.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from kubectl_wasdra.errors import CelCompileError, CelRuntimeError

DeviceKey = tuple[str, str, str]  # (driver, pool, device)
PoolKey = tuple[str, str]  # (driver, pool)
RuleTaint = tuple[str, Mapping[str, Any]]  # (DeviceTaintRule name, taint)


@dataclass(frozen=True)
class Pool:
    """One (driver, pool): its slices at the highest generation (sorted by name) and any older ones."""

    driver: str
    name: str
    generation: int
    resource_slice_count: int
    slices: tuple[Mapping[str, Any], ...]
    stale_slices: tuple[Mapping[str, Any], ...] = ()

    @property
    def complete(self) -> bool:
        """All resourceSliceCount slices of the newest generation are present (devices usable)."""
        return len(self.slices) == self.resource_slice_count

    @property
    def mixed_generations(self) -> bool:
        """Slices of older generations are still published next to the newest ones (they are ignored)."""
        return bool(self.stale_slices)

    @property
    def problem(self) -> str | None:
        """Why the pool is not (fully) usable, for PoolIncomplete explanations; None when complete."""
        if self.complete:
            return None
        return (f"pool {self.driver}/{self.name} generation {self.generation}: {len(self.slices)} of "
                f"{self.resource_slice_count} ResourceSlices present")

    def devices(self) -> Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]]:
        """(slice, device) for every device of the newest generation, in allocator order (slice name, device order)."""
        for slice_ in self.slices:
            for device in (slice_.get("spec") or {}).get("devices") or ():
                yield slice_, device


def _spec(slice_: Mapping[str, Any]) -> Mapping[str, Any]:
    return slice_.get("spec") or {}


def _generation(slice_: Mapping[str, Any]) -> int:
    value = (_spec(slice_).get("pool") or {}).get("generation")
    return value if isinstance(value, int) else 0


def _slice_name(slice_: Mapping[str, Any]) -> str:
    return (slice_.get("metadata") or {}).get("name") or ""


def build_pools(slices: Sequence[Mapping[str, Any]]) -> Mapping[PoolKey, Pool]:
    """Every pool of the cluster by (driver, pool name), sorted by key."""
    grouped: dict[PoolKey, list[Mapping[str, Any]]] = defaultdict(list)
    for slice_ in slices:
        spec = _spec(slice_)
        grouped[(spec.get("driver") or "", (spec.get("pool") or {}).get("name") or "")].append(slice_)
    pools: dict[PoolKey, Pool] = {}
    for key in sorted(grouped):
        members = grouped[key]
        newest = max(_generation(slice_) for slice_ in members)
        current = sorted((s for s in members if _generation(s) == newest), key=_slice_name)
        count = (_spec(current[0]).get("pool") or {}).get("resourceSliceCount")
        pools[key] = Pool(driver=key[0], name=key[1], generation=newest,
                          resource_slice_count=count if isinstance(count, int) else len(current),
                          slices=tuple(current),
                          stale_slices=tuple(sorted((s for s in members if _generation(s) != newest), key=_slice_name)))
    return MappingProxyType(pools)


def slices_by_node(slices: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, tuple[Mapping[str, Any], ...]],
                                                                  tuple[Mapping[str, Any], ...]]:
    """(slices with spec.nodeName by node name, all other slices: nodeSelector, allNodes, perDeviceNodeSelection)."""
    by_node: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    shared: list[Mapping[str, Any]] = []
    for slice_ in slices:
        node_name = _spec(slice_).get("nodeName")
        if node_name:
            by_node[node_name].append(slice_)
        else:
            shared.append(slice_)
    return MappingProxyType({name: tuple(items) for name, items in by_node.items()}), tuple(shared)


def device_index(pools: Mapping[PoolKey, Pool]) -> Mapping[DeviceKey, Mapping[str, Any]]:
    """Every device of the newest generation of every pool by (driver, pool, device)."""
    return MappingProxyType({(pool.driver, pool.name, device.get("name") or ""): device
                             for pool in pools.values() for _, device in pool.devices()})


# DeviceTaintSelector fields of 1.33/1.34 (v1alpha3) tombstoned in 1.35: "if deviceClassName is set, the selectors defined
# there must be satisfied by a device to be selected"; "all of these selectors must be satisfied" (staging/src/k8s.io/api/
# resource/v1alpha3/types.go, release-1.34).
TOMBSTONED_SELECTOR_FIELDS: Final = ("deviceClassName", "selectors")
# (CEL expression, driver, device) -> selected. CEL lives above this layer (dra/cel.py): callers that can evaluate pass one.
SelectorEvaluator = Callable[[str, str, Mapping[str, Any]], bool]


def rule_expressions(rule: Mapping[str, Any], classes: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...] | None:
    """The CEL expressions a 1.33/1.34 rule's device must satisfy: its class's selectors, then its own; () for a rule
    without class or selectors (or a class without selectors); None when the named DeviceClass does not exist (no
    device can satisfy the selectors of a missing class, so the rule selects nothing)."""
    spec = rule.get("spec")
    selector = spec.get("deviceSelector") if isinstance(spec, Mapping) else None
    if not isinstance(selector, Mapping):
        return ()
    expressions: list[str] = []
    class_name = selector.get("deviceClassName")
    if class_name:
        device_class = classes.get(class_name) if isinstance(class_name, str) else None
        if not isinstance(device_class, Mapping):
            return None
        class_spec = device_class.get("spec")
        expressions.extend(_cel(class_spec.get("selectors") if isinstance(class_spec, Mapping) else None))
    expressions.extend(_cel(selector.get("selectors")))
    return tuple(expressions)


def _cel(selectors: Any) -> list[str]:
    if not isinstance(selectors, list):
        return []
    return [str(cel.get("expression") or "") if isinstance(cel := item.get("cel"), Mapping) else ""
            for item in selectors if isinstance(item, Mapping)]


def is_unresolved_rule(rule: Mapping[str, Any], classes: Mapping[str, Mapping[str, Any]] | None = None) -> bool:
    """True for a rule from a 1.33/1.34 cluster whose selection needs CEL (its DeviceClass's or its own selectors):
    without a SelectorEvaluator it is not applied, so callers can warn about it. With `classes`, a class without
    selectors or a missing class is resolved without CEL (all devices / none)."""
    selector = (rule.get("spec") or {}).get("deviceSelector") or {}
    if not any(selector.get(field) for field in TOMBSTONED_SELECTOR_FIELDS):
        return False
    if classes is None:
        return True
    return bool(rule_expressions(rule, classes))


def rule_matches(rule: Mapping[str, Any], driver: str, pool: str, device: str) -> bool:
    """True when a DeviceTaintRule's driver/pool/device selector fields select the device (unset fields match; no
    selector matches all); the 1.33/1.34 class and CEL fields are rule_expressions' job."""
    spec = rule.get("spec")
    selector = spec.get("deviceSelector") if isinstance(spec, Mapping) else None
    if not isinstance(selector, Mapping):
        return True  # no selector (or a malformed one validation reports): the rule selects every device
    return all(not selector.get(field) or selector.get(field) == value for field, value in
               (("driver", driver), ("pool", pool), ("device", device)))


def _selected(expressions: tuple[str, ...], driver: str, device: Mapping[str, Any], evaluate: SelectorEvaluator) -> bool:
    """All expressions true for the device; a CEL error means not selected (the device cannot satisfy the selector)."""
    try:
        return all(evaluate(expression, driver, device) for expression in expressions)
    except (CelCompileError, CelRuntimeError):
        return False


def rule_taints(rules: Sequence[Mapping[str, Any]], devices: Iterable[DeviceKey] | Mapping[DeviceKey, Mapping[str, Any]],
                classes: Sequence[Mapping[str, Any]] = (),
                evaluate: SelectorEvaluator | None = None) -> Mapping[DeviceKey, tuple[RuleTaint, ...]]:
    """(rule name, taint) for every device at least one rule selects; rules in name order. 1.33/1.34 rules selecting by
    class or CEL are applied when `evaluate` is given and `devices` maps keys to device dicts, and skipped otherwise
    (unless no CEL is needed: a class without selectors selects like no class, a missing class selects nothing)."""
    by_name = {(c.get("metadata") or {}).get("name") or "": c for c in classes}
    plans: list[tuple[str, Mapping[str, Any], Mapping[str, Any], tuple[str, ...]]] = []
    for rule in sorted(rules, key=lambda rule: (rule.get("metadata") or {}).get("name") or ""):
        taint = (rule.get("spec") or {}).get("taint")
        expressions = rule_expressions(rule, by_name)
        if not isinstance(taint, Mapping) or expressions is None:
            continue
        if expressions and (evaluate is None or not isinstance(devices, Mapping)):
            continue
        plans.append(((rule.get("metadata") or {}).get("name") or "", rule, taint, expressions))
    found: dict[DeviceKey, list[RuleTaint]] = defaultdict(list)
    for key in devices:
        for name, rule, taint, expressions in plans:
            if rule_matches(rule, *key) and (not expressions or _selected(
                    expressions, key[0], devices[key], evaluate)):  # type: ignore[index,arg-type]
                found[key].append((name, taint))
    return MappingProxyType({key: tuple(items) for key, items in found.items()})


def apply_rule_taints(slices: Sequence[Mapping[str, Any]],
                      taints: Mapping[DeviceKey, Sequence[RuleTaint]]) -> tuple[Mapping[str, Any], ...]:
    """The slices as the scheduler sees them: rule taints appended to each selected device's `taints`. Slices and devices
    that change are copied; the others are returned as they are."""
    if not taints:
        return tuple(slices)
    result = []
    for slice_ in slices:
        spec = _spec(slice_)
        driver, pool = spec.get("driver") or "", (spec.get("pool") or {}).get("name") or ""
        devices = spec.get("devices") or []
        changed = [_with_taints(device, taints.get((driver, pool, device.get("name") or ""))) for device in devices]
        if any(new is not old for new, old in zip(changed, devices, strict=True)):
            slice_ = {**slice_, "spec": {**spec, "devices": changed}}
        result.append(slice_)
    return tuple(result)


def _with_taints(device: Mapping[str, Any], extra: Sequence[RuleTaint] | None) -> Mapping[str, Any]:
    if not extra:
        return device
    return {**device, "taints": [*(device.get("taints") or ()), *(dict(taint) for _, taint in extra)]}
