"""Turn a simulation result into a GroupDiagnosis: group-level reasons first (release and gates, PreEnqueue, gang and
topology), then the per-node reasons of the first pod that did not fit, with kube-scheduler's own texts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.explain.causes import dra_cause, first_error, histogram_items
from kubectl_wasdra.explain.model import DomainLine, GroupDiagnosis, ReasonItem
from kubectl_wasdra.explain.ordering import natural_key
from kubectl_wasdra.lazy_regex import LazyPattern
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.status import Code

_DEVICE_FIELDS = ("request", "driver", "pool", "device")
# what else upstream's DeviceRequestAllocationResult carries, in its field order (resource.k8s.io/v1 types.go)
_RESULT_FIELDS = ("adminAccess", "tolerations", "bindingConditions", "bindingFailureConditions", "shareID",
                  "consumedCapacity")
_FUNNEL_NODES = 3


def _device(device: Mapping[str, Any]) -> dict[str, Any]:
    """DESIGN's four keys, then whatever else the allocation result carries (consumed capacity and share ID of a
    shared device, admin access, tolerations, binding conditions), only when set."""
    out: dict[str, Any] = {key: str(device.get(key, "")) for key in _DEVICE_FIELDS}
    out.update((key, device[key]) for key in _RESULT_FIELDS if device.get(key))
    return out


def _node_selectors(result: GroupResult) -> dict[str, Any]:
    """The allocation's node selector per allocated claim of the group ("namespace/name" -> NodeSelector)."""
    dra = result.state.dra if result.state is not None else None
    if dra is None or not result.fits:
        return {}
    out = {}
    for key in sorted(result.claims):
        selector = dra.allocated.get(tuple(key.split("/", 1)))
        if selector:
            out[key.split("/", 1)[1]] = selector
    return out


def _group_reason(result: GroupResult) -> ReasonItem | None:
    entry, outcome = result.entry, result.outcome
    if entry.kind == "Pod" or outcome is None:
        return None
    best = outcome.best
    placeable = best.placeable if best is not None else 0
    details: dict[str, Any] = {"minCount": entry.min_count, "pods": len(entry.pods) + len(entry.running),
                               "placeable": placeable, "shortBy": max(entry.min_count - placeable, 0)}
    if outcome.topology_key:
        details.update(topologyKey=outcome.topology_key, domains=len(outcome.attempts))
        if best is not None and best.domain:
            details["bestDomain"] = best.domain[1]
        first = outcome.attempts[0] if outcome.attempts else best   # the "first placement status" quoted
        return ReasonItem(Reason.TOPOLOGY_NO_DOMAIN_FITS.value, _counted(result.message, first), None, details)
    if entry.group is not None and entry.group.gang:
        return ReasonItem(Reason.GANG_PARTIAL_FIT.value, _counted(result.message, best), None, details)
    return None


_SCHEDULED_REMAINING: Final = LazyPattern(r"(\d+) scheduled, (\d+) remaining")


def _counted(message: str, best: Any) -> str:
    """kube-scheduler's "minCount (8) cannot be satisfied: 4 scheduled, 3 remaining" in our words, counting the pod
    that failed: "4 scheduled, 1 failed, 3 not tried" (its "remaining" are the pods not tried yet). The scheduler's
    own message is kept verbatim where it is quoted (scheduler_message)."""
    failed = len(best.failed) if best is not None else 0
    return _SCHEDULED_REMAINING.sub(lambda m: f"{m[1]} scheduled, {failed} failed, {m[2]} not tried", message, count=1)


def reasons_of(result: GroupResult) -> list[ReasonItem]:
    """Every reason, group-level first; node-level ones carry the node count of kube-scheduler's histogram."""
    items = [ReasonItem(n.reason.value, n.message, None, dict(n.details)) for n in result.notices]
    entry = result.entry
    if entry.blocked is not None:
        items.append(ReasonItem(entry.blocked.reason.value, entry.blocked.message, None, dict(entry.blocked.details)))
        return items
    if not result.fits:
        group_item = _group_reason(result)
        if group_item is not None:
            items.append(group_item)
    items += _node_reasons(result)
    if result.fits:  # pods beyond what had to fit that stay pending (basic groups, gang extras)
        return items
    for child in result.children:
        items.extend(ReasonItem(i.code, f"{child.name}: {i.message}", i.count, i.details) for i in reasons_of(child))
    return items


def _node_reasons(result: GroupResult) -> list[ReasonItem]:
    """kube-scheduler's node histogram of the first pod that did not fit (in the placement that came closest; every
    domain's own histogram is in `domains`)."""
    error = first_error(result.pod_errors)
    return histogram_items(error) if error is not None else []


def _domains(result: GroupResult) -> list[DomainLine]:
    """Every domain tried, most pods placeable first, then in natural order of the value (r2 before r10)."""
    outcome = result.outcome
    if outcome is None or not outcome.topology_key:
        return []
    lines = []
    for a in outcome.attempts:
        if not a.domain:
            continue
        error = first_error(a.failed) if not a.success else None
        lines.append(DomainLine(a.domain[0], str(a.domain[1]), a.placeable, result.entry.min_count, len(a.nodes),
                                a.success, tuple(histogram_items(error)) if error is not None else (),
                                dra_cause([error]) if error is not None else None,
                                sum(len(devices) for devices in a.devices.values())))
    return sorted(lines, key=lambda d: (-d.placeable, natural_key(d.value)))


def _progress(funnel: str) -> int:
    """How far a funnel got before running short (later stages are nearer misses, worth showing first)."""
    short = funnel.rpartition("first short: ")[2]
    return funnel.find(f"-> {short} ") if short else len(funnel)


def _funnels(result: GroupResult) -> list[tuple[str, str]]:
    """The DRA funnels of the nodes that came closest, for the first pod that did not fit."""
    found = []
    for error in list(result.pod_errors.values())[:1]:
        for node in sorted(error.statuses):
            funnel = error.statuses[node].details.get("funnel")
            if funnel:
                found.append((node, str(funnel)))
    found.sort(key=lambda item: -_progress(item[1]))
    return found


def _taken_by(result: GroupResult) -> dict[str, list[str]]:
    if result.fits or result.state is None:
        return {}
    best = result.outcome.best if result.outcome is not None else None
    scope = best.nodes if best is not None else result.state.node_names
    first = next(iter(result.pod_errors.values()), None)
    if first is not None:  # only nodes where capacity was the problem (not taints, selectors, labels)
        scope = tuple(n for n in scope if (n in first.statuses and first.statuses[n].code is not Code.UNRESOLVABLE)
                      or (n in first.statuses and first.statuses[n].plugin == "DynamicResources"))
    out: dict[str, list[str]] = {}
    for node in scope:
        for owner in result.placed_by_before.get(node, ()):
            if owner != result.entry.key:
                out.setdefault(owner, []).append(node)
    return out


_PRE_ENQUEUE = (Reason.GROUP_NOT_FOUND, Reason.GANG_TOO_FEW_PODS)


def _record(result: GroupResult) -> str:
    blocked = result.entry.blocked
    # the condition was PodGroupScheduled in 1.36 and became PodGroupInitiallyScheduled in 1.37 (PR #139743)
    condition = "PodGroupScheduled" if result.state is not None and result.state.minor < 37 else "PodGroupInitiallyScheduled"
    if blocked is not None and blocked.reason in _PRE_ENQUEUE:
        return "nowhere: PreEnqueue holds the pods out of the queue, no condition or event is written"
    if blocked is not None:
        return f"{condition}=False, SchedulerError; pods PodScheduled=False, SchedulerError"
    return f"{condition}=False, Unschedulable"


def _shared(result: GroupResult, like: tuple[GroupResult, GroupDiagnosis] | None) -> GroupDiagnosis | None:
    """The diagnosis of the pod before when this standalone pod failed with that very diagnosis (the same FitError
    statuses over the same state): what is derived from them is reused, keeping a queue of identical pods linear."""
    if like is None or result.kind != "Pod" or result.fits or like[0].kind != "Pod" or like[0].fits:
        return None
    first, before = first_error(result.pod_errors), first_error(like[0].pod_errors)
    same = first is not None and first.shares_statuses(before) and result.placed_by_before is like[0].placed_by_before
    return like[1] if same and result.notices == like[0].notices and result.entry.blocked is None else None


def diagnose(result: GroupResult, like: tuple[GroupResult, GroupDiagnosis] | None = None) -> GroupDiagnosis:
    """The diagnosis of one simulated entry; `like` is the entry before it with its diagnosis (see _shared)."""
    entry = result.entry
    group = entry.group
    first = first_error(result.pod_errors)
    shared = _shared(result, like)
    funnels = _funnels(result) if shared is None else []
    if shared is not None:
        return GroupDiagnosis(
            kind=entry.kind, namespace=entry.namespace, name=entry.name, fits=False, topology_key=entry.topology_key,
            reasons=shared.reasons, scheduler_message=result.group_condition or result.message, scheduler_record=_record(result),
            pod_message=result.message, preemption=result.extra.get("preemption"), funnels=shared.funnels,
            funnels_hidden=shared.funnels_hidden,
            taken_by=shared.taken_by, dra_cause=shared.dra_cause, placement_map=shared.placement_map,
            map_info=shared.map_info)
    return GroupDiagnosis(
        kind=entry.kind, namespace=entry.namespace, name=entry.name, fits=result.fits,
        policy=group.policy if group is not None else None,
        min_count=entry.min_count if group is not None else None,
        pod_count=len(entry.pods) + len(entry.running) + sum(len(c.entry.pods) for c in result.children),
        topology_key=entry.topology_key,
        pods={pod.split("/", 1)[1]: node for pod, node in sorted(result.placement.items())},
        claims={key.split("/", 1)[1]: [_device(d) for d in devices] for key, devices in sorted(result.claims.items())},
        claim_node_selectors=_node_selectors(result),
        domain=result.domain, reasons=reasons_of(result), scheduler_message=result.group_condition or result.message,
        scheduler_record=_record(result),
        pod_message=_pod_message(result, first),
        preemption=result.extra.get("preemption"),
        domains=_domains(result), funnels=funnels[:_FUNNEL_NODES], funnels_hidden=max(len(funnels) - _FUNNEL_NODES, 0),
        taken_by=_taken_by(result),
        dra_cause=dra_cause([first]) if first is not None and not entry.topology_key else None,
        pod_message_domain=_best_domain(result) if first is not None and entry.kind != "Pod" else "",
    )


def _pod_message(result: GroupResult, first: FitError | None) -> str:
    """What kube-scheduler writes on the first pod that does not fit: a single pod's message; for a group, that pod's
    FitError in the placement that came closest, followed by its PostFilter text where the release runs PostFilter
    for each pod of a group (1.36: sched/pod_conditions.py)."""
    if first is None:
        return ""
    if result.entry.kind == "Pod":
        return result.message
    best = result.outcome.best if result.outcome is not None else None
    tail = best.tails.get(first.pod) if best is not None else None
    return f"{first.message()} {tail}" if tail else first.message()


def _best_domain(result: GroupResult) -> str:
    best = result.outcome.best if result.outcome is not None else None
    return str(best.domain[1]) if best is not None and best.domain and result.outcome.topology_key else ""
