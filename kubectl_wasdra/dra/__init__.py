"""DRA structured allocation: CEL selectors, inventory, usage ledger, allocator and the why-not funnel.

Public API (sched/ and cross-checks use these; the CEL runtime loads only when a selector is compiled):
    build_inventory(snapshot) -> Inventory; Inventory(slices=..., classes=..., taint_rules=..., namespaces=...)
    DeviceUsage.from_claims(claims) -> DeviceUsage (copy-on-write; .exclusive / .holders support `in` and get)
    allocate_claims(claims, node, inventory, usage, *, features=Features.from_gates(gates.enabled), step_limit=...)
        -> Allocation | AllocationFailure        (claims: the pod's not-yet-allocated claims, in spec order)
    Allocation.results / .claims[i].status() (API-shaped status.allocation) / .apply(usage) -> DeviceUsage
        / .prioritized_list_score
    AllocationFailure.reason (reasons.Reason) / .message / .funnel / .funnels / .details / .fatal (Error status)
    Funnel.stages (visible, free, selected, capacity, counters, untainted, constraints) / .first_short / .as_dict()
    extended.extended_resource_claim(pod, node_allocatable, inventory) -> ExtendedResources(claim, mappings, unfit)
    cel.compile_selector(expression, release=None, *, consumable_capacity=None, list_attributes=True)
"""

from __future__ import annotations

import importlib
from typing import Any

# Public name -> submodule holding it; loaded on first access so `import kubectl_wasdra.dra.cel` (lint's CEL rule)
# does not pull in the allocator.
_PUBLIC = {"Allocation": "allocation", "AllocationFailure": "allocation", "ClaimAllocation": "allocation",
           "DeviceResult": "allocation", "allocate_claims": "allocator", "Features": "features", "Funnel": "funnel",
           "FunnelStage": "funnel", "Inventory": "inventory", "build_inventory": "inventory", "DeviceUsage": "usage"}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    """Import a public name's submodule on first use (PEP 562)."""
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
