"""DRA structured allocation: CEL selectors, inventory, usage ledger, allocator and the why-not funnel.

Public API (sched/ and cross-checks use these; the CEL runtime loads only when a selector is compiled):
    build_inventory(snapshot) -> Inventory; Inventory(slices=..., classes=..., taint_rules=..., namespaces=...)
    DeviceUsage.from_claims(claims) -> DeviceUsage
    allocate_claims(claims, node, inventory, usage, *, features=Features()) -> Allocation | AllocationFailure
    Allocation.results / .claims[i].status() / .apply(usage) -> DeviceUsage
    AllocationFailure.reason / .message / .funnel / .funnels / .details / .fatal
    extended.extended_resource_claim(pod, node, inventory) for classic extended-resource requests served by DRA
"""

from kubectl_wasdra.dra.allocation import Allocation, AllocationFailure, ClaimAllocation, DeviceResult
from kubectl_wasdra.dra.allocator import allocate_claims
from kubectl_wasdra.dra.features import Features
from kubectl_wasdra.dra.funnel import Funnel, FunnelStage
from kubectl_wasdra.dra.inventory import Inventory, build_inventory
from kubectl_wasdra.dra.usage import DeviceUsage

__all__ = ["Allocation", "AllocationFailure", "ClaimAllocation", "DeviceResult", "DeviceUsage", "Features", "Funnel",
           "FunnelStage", "Inventory", "allocate_claims", "build_inventory"]
