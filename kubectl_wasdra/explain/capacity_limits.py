"""What runs out first on a node: the filter status that kept the copy which did not fit off the node, named as a
resource (cpu, memory, pods, a host port, a device class's devices, counters or aligned sets).

The statuses are the simulator's own (sched/filters: NodeResourcesFit, NodePorts, DynamicResources with the
allocator's funnel); this module only names them, so the answer is the scheduler's reason, not a second opinion.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.status import Code, Status

# statuses that no amount of freed capacity lifts on that node: the node never takes a copy
EXCLUDING: Final = frozenset({
    Reason.NODE_UNSCHEDULABLE, Reason.NODE_NAME_MISMATCH, Reason.NODE_AFFINITY_MISMATCH, Reason.UNTOLERATED_TAINT,
    Reason.OTHER_SCHEDULER, Reason.VOLUME_ZONE_CONFLICT, Reason.CLAIM_ALLOCATED_ELSEWHERE, Reason.SELECTOR_ERROR,
    Reason.DEVICE_CLASS_NOT_FOUND, Reason.POOL_INCOMPLETE, Reason.CLAIM_NOT_FOUND, Reason.CLAIM_TEMPLATE_NOT_FOUND,
})
# the allocator's funnel stage (dra/funnel.py) that ran short, as words
STAGE_TEXT: Final = {
    "visible": "no usable devices", "free": "devices in use", "selected": "no matching device free",
    "capacity": "device capacity", "counters": "counters", "untainted": "devices tainted",
    "constraints": "no aligned set",
}
# funnel stages where nothing the cluster frees helps: the node has too few devices in usable pools at all
STATIC_STAGES: Final = frozenset({"visible"})
# DRA reasons given without a funnel (the allocator's search failed, not a count), as words
DRA_TEXT: Final = {
    Reason.DEVICES_ALLOCATED: "devices in use", Reason.NO_MATCHING_DEVICES: "no matching devices",
    Reason.CAPACITY_EXHAUSTED: "device capacity", Reason.COUNTERS_EXHAUSTED: "counters",
    Reason.DEVICE_TAINTED: "devices tainted", Reason.CONSTRAINT_UNSATISFIABLE: "no aligned set",
}
_EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})


@dataclass(frozen=True)
class Limit:
    """One reason a node takes no further copy: `label` names what ran out ("cpu", "gpu.example.com: devices in use"),
    `code` is the reason code, `excluded` says the node could never take one (a taint, an affinity, a request above
    allocatable), `details` the JSON scalars that identify it (the same on every node it holds for)."""

    label: str
    code: str
    excluded: bool = False
    details: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, hash=False)

    def as_dict(self) -> dict[str, Any]:
        """JSON form: limit, code, excluded, details (fixed key order)."""
        return {"limit": self.label, "code": self.code, "excluded": self.excluded, "details": dict(self.details)}


def _one(status: Status, classes: str) -> Limit:
    """The Limit of one reason of a status; `classes` names the shape's device classes for DRA reasons that come
    without the allocator's funnel."""
    reason, details = status.reason, status.details
    if reason is Reason.INSUFFICIENT_RESOURCE:
        resource = str(details.get("resource", ""))
        return Limit(resource, reason.value, status.code is Code.UNRESOLVABLE, {"resource": resource})
    if reason is Reason.TOO_MANY_PODS:
        return Limit("pods", reason.value, False, {"resource": "pods"})
    if reason is Reason.HOST_PORT_CONFLICT:
        port, protocol = details.get("hostPort"), details.get("protocol", "TCP")
        return Limit(f"host port {port}/{protocol}", reason.value, False, {"hostPort": port, "protocol": protocol})
    if reason is Reason.NUMA_ALIGNMENT:
        return Limit("NUMA-aligned resources", reason.value, False)
    stages = details.get("funnelStages")
    if stages:
        _claim, request, device_class, needed, short, _counts, match = stages
        label = f"{device_class}: {STAGE_TEXT.get(short, short)}" + (f" ({match})" if match and short == "constraints"
                                                                      else "")
        return Limit(label, reason.value, short in STATIC_STAGES,
                     {"deviceClassName": device_class, "request": request, "needed": needed, "stage": short,
                      **({"matchAttribute": match} if match else {})})
    if reason in DRA_TEXT:
        return Limit(f"{classes}: {DRA_TEXT[reason]}" if classes else DRA_TEXT[reason], reason.value, False,
                     {"deviceClassName": classes} if classes else _EMPTY)
    return Limit(reason.value, reason.value, reason in EXCLUDING)


def limit_of(status: Status, classes: str = "") -> Limit:
    """What kept a copy off a node: one Limit, several reasons of one plugin joined ("cpu + memory"); `classes`: the
    device classes the shape's claims ask for, comma-separated (named when the allocator gives no funnel)."""
    parts = [_one(s, classes) for s in status.all_reasons()]
    if len(parts) == 1:
        return parts[0]
    details = {"reasons": [p.as_dict() for p in parts]}
    return Limit(" + ".join(p.label for p in parts), parts[0].code, all(p.excluded for p in parts),
                 MappingProxyType(details))
