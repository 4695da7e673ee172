"""Why not: per request, how many devices survive each stage of the allocator's checks, and the first that runs short.

Stages in the allocator's own order (allocator_incubating.go, release-1.37): visible (device in a complete, valid pool
the node sees) -> free (not allocated) -> selected (DeviceClass and request selectors) -> capacity -> counters ->
untainted (or tolerated) -> constraints. The first stage whose count drops below what the request needs is where
kube-scheduler's search stops finding devices; its reason code comes from kubectl_wasdra/reasons.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.dra.candidates import STAGES, CandidateList
from kubectl_wasdra.dra.constraints import Constraint, DistinctAttribute, MatchAttribute
from kubectl_wasdra.dra.requests import RequestData
from kubectl_wasdra.reasons import Reason

ALL_STAGES: Final = (*STAGES, "constraints")
STAGE_REASON: Final = {
    "visible": Reason.NO_MATCHING_DEVICES, "free": Reason.DEVICES_ALLOCATED, "selected": Reason.NO_MATCHING_DEVICES,
    "capacity": Reason.CAPACITY_EXHAUSTED, "counters": Reason.COUNTERS_EXHAUSTED, "untainted": Reason.DEVICE_TAINTED,
    "constraints": Reason.CONSTRAINT_UNSATISFIABLE,
}
STAGE_TEXT: Final = {
    "visible": "in usable pools on the node", "free": "not allocated", "selected": "match the class and selectors",
    "capacity": "have enough capacity", "counters": "have enough counters", "untainted": "are untainted or tolerated",
    "constraints": "satisfy the claim constraints",
}


@dataclass(frozen=True)
class FunnelStage:
    name: str
    count: int


@dataclass(frozen=True)
class Funnel:
    """Stage counts for one request (or subrequest); `first_short` is None when every stage has enough devices."""

    claim: str
    request: str
    device_class: str
    needed: int
    stages: tuple[FunnelStage, ...]
    first_short: str | None
    reason: Reason | None
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (stage order kept)."""
        return {"claim": self.claim, "request": self.request, "deviceClassName": self.device_class, "needed": self.needed,
                "stages": [{"name": s.name, "count": s.count} for s in self.stages], "firstShort": self.first_short,
                "reason": str(self.reason) if self.reason else None, "message": self.message, **self.details}


def _set_values(candidates: CandidateList, constraint: Constraint) -> Counter[Any]:
    """List mode: how many usable candidates hold each value (a device with a list counts for each element), so the
    largest count bounds a group with a common element and the number of values bounds pairwise-disjoint picks."""
    return Counter(value for c in candidates.candidates if not c.tainted and c.error is None
                   for value in constraint.elements(c.device))


def constraint_count(request: RequestData, candidates: CandidateList, constraints: Sequence[Constraint],
                     for_pruning: bool = False) -> int:
    """Devices that can satisfy the request's constraints together: the largest same-value group (matchAttribute) or
    the number of distinct values (distinctAttribute, shown in the funnel only: its 1.37 quirk lets one request
    repeat a value, so it is no necessary condition). The matchAttribute bound also prunes nodes."""
    best = candidates.usable
    sub = request.name if request.parent else ""
    for constraint in constraints:
        if not constraint.applies(request.base_name, sub) or constraint.is_derived(request.base_name, sub):
            continue  # a derived attribute (KEP-6080) has no value before the request's devices are tried
        values = _set_values(candidates, constraint) if constraint.list_mode else \
            candidates.attribute_values(constraint.attribute)
        if isinstance(constraint, MatchAttribute):
            best = min(best, max(values.values(), default=0))
        elif isinstance(constraint, DistinctAttribute) and not for_pruning:
            best = min(best, len(values))
    return best


def _message(claim: str, request: RequestData, needed: int, stages: Sequence[FunnelStage], short: str | None) -> str:
    head = f'claim "{claim}", request "{request.full_name}": needs {needed} device{"s" if needed != 1 else ""} of class ' \
           f'"{request.class_name}"'
    parts = []
    for stage in stages:
        parts.append(f"{stage.count} {STAGE_TEXT[stage.name]}")
        if stage.name == short:
            break
    return f"{head}; {', '.join(parts)}"


def _in_use_text(candidates: CandidateList, holders: Any, limit: int = 5) -> str:
    """"driver/pool/device (held by ns/claim)" for the first devices dropped as in use."""
    shown = [f"{key} (held by {holder})" if (holder := holders.get(key)) else key for key in candidates.in_use[:limit]]
    more = len(candidates.in_use) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def build_funnel(claim: str, request: RequestData, candidates: CandidateList, constraints: Sequence[Constraint],
                 needed: int, holders: Any = None) -> Funnel:
    """The funnel of one request on one node (`holders`: device key -> claim holding it, for the "free" stage)."""
    stages = [FunnelStage(name, candidates.counts[name]) for name in STAGES]
    stages.append(FunnelStage("constraints", constraint_count(request, candidates, constraints)))
    short = next((stage.name for stage in stages if stage.count < needed), None)
    reason = STAGE_REASON.get(short) if short else None
    details: dict[str, Any] = {}
    if short == "visible" and candidates.incomplete_devices:
        reason = Reason.POOL_INCOMPLETE
        details["devicesInIncompletePools"] = candidates.incomplete_devices
    if short == "untainted" and candidates.taint:
        device, taint = candidates.taint
        details.update(device=device, taintKey=taint.get("key", ""), taintValue=taint.get("value", ""),
                       taintEffect=taint.get("effect", ""))
        if taint.get("rule"):
            details["deviceTaintRule"] = taint["rule"]
    if short == "free" and candidates.in_use:
        details["inUse"] = _in_use_text(candidates, holders or {})
    if short is not None:  # the attribute the devices must agree on (explain's per-domain cause)
        sub = request.name if request.parent else ""
        match = next((c for c in constraints if isinstance(c, MatchAttribute) and c.applies(request.base_name, sub)), None)
        if match is not None:
            details["matchAttribute"] = match.attribute
    message = _message(claim, request, needed, stages, short)
    if short == "free" and candidates.in_use:
        message += f" (in use: {details['inUse']})"
    if short == "untainted" and candidates.taint:
        message += f' (device {details["device"]} has taint {details["taintKey"]}={details["taintValue"]}:' \
                   f'{details["taintEffect"]})'
    return Funnel(claim, request.full_name, request.class_name, needed, tuple(stages), short, reason, message, details)
