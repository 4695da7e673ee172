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

from kubectl_wasdra.dra.allocation import Allocation, AllocationFailure, ClaimAllocation, DeviceResult
from kubectl_wasdra.dra.allocator import allocate_claims
from kubectl_wasdra.dra.features import Features
from kubectl_wasdra.dra.funnel import Funnel, FunnelStage
from kubectl_wasdra.dra.inventory import Inventory, build_inventory
from kubectl_wasdra.dra.usage import DeviceUsage

__all__ = ["Allocation", "AllocationFailure", "ClaimAllocation", "DeviceResult", "DeviceUsage", "Features", "Funnel",
           "FunnelStage", "Inventory", "allocate_claims", "build_inventory"]
