"""Hint providers: which NUMA masks could hold an Ask's exclusive CPUs, memory and devices.

Every provider marks a mask Preferred when its width equals the narrowest mask that could hold the request on the
*whole* machine (busy or free), and keeps a mask only when the free amount inside it suffices.
Upstream: kubernetes/kubernetes pkg/kubelet/cm/cpumanager/policy_static.go (generateCPUTopologyHints),
memorymanager/policy_static.go (calculateHints: allocatable decides minWidth, free decides the mask; no mask at all is
an empty map, i.e. "no preference"), devicemanager/topology_hints.go (generateDeviceTopologyHints).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from kubectl_wasdra.kubelet.bitmask import bits, iterate_masks, width
from kubectl_wasdra.kubelet.facts import NodeNuma
from kubectl_wasdra.kubelet.hints import Hint
from kubectl_wasdra.kubelet.requests import Ask

Free = dict[int, dict[str, Decimal]]  # zone -> resource -> free amount (mutated as pods are admitted)


def free_of(facts: NodeNuma) -> Free:
    """The zones' `available` amounts, to be consumed by admitted pods."""
    return {zone: {name: res.available for name, res in resources.items()} for zone, resources in facts.zones.items()}


def _sum(mask: int, amount: Callable[[int], Decimal]) -> Decimal:
    return sum((amount(zone) for zone in bits(mask)), start=Decimal(0))


def _masks(facts: NodeNuma, total: Callable[[int], bool], fits: Callable[[int], bool]) -> list[Hint]:
    """Hints over every mask: minWidth from `total`, kept when `fits`."""
    masks = list(iterate_masks(facts.ids))
    min_width = min((width(m) for m in masks if total(m)), default=len(facts.ids))
    return [Hint(m, width(m) == min_width) for m in masks if fits(m)]


def _count_hints(facts: NodeNuma, free: Free, name: str, need: Decimal) -> list[Hint]:
    """Hints for a countable resource: minWidth from the zones' capacity, kept when the zones' free amount suffices."""

    def capacity(zone: int) -> Decimal:
        res = facts.zones[zone].get(name)
        return res.capacity if res else Decimal(0)

    def available(zone: int) -> Decimal:
        return free[zone].get(name, Decimal(0))

    return _masks(facts, lambda m: _sum(m, capacity) >= need, lambda m: _sum(m, available) >= need)


def cpu_hints(facts: NodeNuma, free: Free, ask: Ask) -> dict[str, list[Hint]] | None:
    """CPU Manager static: hints for the exclusive CPUs (None: shared pool, no preference)."""
    if ask.cpus <= 0 or facts.cpu_policy != "static":
        return None
    return {"cpu": _count_hints(facts, free, "cpu", Decimal(ask.cpus))}


def memory_hints(facts: NodeNuma, free: Free, ask: Ask) -> dict[str, list[Hint]] | None:
    """Memory Manager Static: one hint list per memory resource; {} when no mask has room (the quirk)."""
    if not ask.memory or facts.memory_policy != "Static":
        return None

    def enough(mask: int, amount: Callable[[int, str], Decimal]) -> bool:
        return all(_sum(mask, lambda z, n=name: amount(z, n)) >= need for name, need in ask.memory.items())

    def allocatable(zone: int, name: str) -> Decimal:
        res = facts.zones[zone].get(name)
        return res.allocatable if res else Decimal(0)

    hints = _masks(facts, lambda m: enough(m, allocatable),
                   lambda m: enough(m, allocatable) and enough(m, lambda z, n: free[z].get(n, Decimal(0))))
    return dict.fromkeys(ask.memory, hints) if hints else {}


def device_hints(facts: NodeNuma, free: Free, ask: Ask) -> dict[str, list[Hint] | None] | None:
    """Device Manager: per device-plugin resource; None when no zone reports the resource (no topology), [] when
    fewer are free on the whole node than requested."""
    out: dict[str, list[Hint] | None] = {}
    for name, count in ask.devices.items():
        if not any(name in facts.zones[z] for z in facts.ids):
            out[name] = None
        elif sum((free[z].get(name, Decimal(0)) for z in facts.ids), start=Decimal(0)) < count:
            out[name] = []
        else:
            out[name] = _count_hints(facts, free, name, Decimal(count))
    return out or None
