"""allocate_claims: the structured-parameters allocator for the claims of one pod (or pod group) on one node.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (Allocate), release-1.37 (the "incubating" variant is the default one at 1.37).

Public API (used by sched/):
    inventory = build_inventory(snapshot)                       # once per snapshot
    usage = DeviceUsage.from_claims(snapshot.of_kind("ResourceClaim"))
    outcome = allocate_claims(claims, node, inventory, usage)   # per node; claims = the pod's unallocated claims
    if isinstance(outcome, Allocation): usage = outcome.apply(usage)
    else: outcome.reason / .message / .funnel / .fatal

Speed: pools are gathered once per node, CEL results are cached per device, candidate lists are cached per
(ledger, node, request signature), and a node whose candidates cannot cover a request's count is rejected before any
search.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubectl_wasdra.dra.allocation import (
    Allocation,
    AllocationFailure,
    ClaimAllocation,
    DeviceResult,
    build_config,
)
from kubectl_wasdra.dra.candidates import (
    Candidate,
    CandidateList,
    all_mode_devices,
    all_mode_list,
    list_candidates,
)
from kubectl_wasdra.dra.constraints import Constraint, build_constraints
from kubectl_wasdra.dra.derived import derived_tables
from kubectl_wasdra.dra.features import DEFAULT_FEATURES, Features
from kubectl_wasdra.dra.fields import mappings, path
from kubectl_wasdra.dra.funnel import Funnel, build_funnel, constraint_count
from kubectl_wasdra.dra.inventory import Inventory
from kubectl_wasdra.dra.pools import NodePools
from kubectl_wasdra.dra.requests import MAX_RESULTS, AllocationError, RequestData, build_requests, claim_ref
from kubectl_wasdra.dra.search import STEP_LIMIT, Pick, Search, SearchTimeout, node_selector
from kubectl_wasdra.dra.usage import DeviceUsage
from kubectl_wasdra.reasons import Reason

__all__ = ["Allocation", "AllocationFailure", "DeviceUsage", "Inventory", "allocate_claims"]

INVALID_POOLS_MESSAGE = "invalid resource pools were encountered"  # allocator_incubating.go Allocate
TIMEOUT_MESSAGE = "timed out trying to allocate devices"  # dynamicresources.go Filter (1.37)


def _signature(request: RequestData, node_name: str, features: Features) -> tuple[Any, ...]:
    return (node_name, request.class_name, tuple((s.owner, s.expression) for s in request.selectors), request.admin_access,
            repr(request.tolerations), repr(request.capacity_requests), features)


class _Lists:
    """Candidate lists per request: ledger-independent facts cached on the inventory per node and request signature,
    ledger-dependent lists cached on the ledger (which is never mutated)."""

    def __init__(self, pools: NodePools, node: Mapping[str, Any], inventory: Inventory, usage: DeviceUsage,
                 features: Features) -> None:
        self.pools, self.node, self.inventory, self.usage, self.features = pools, node, inventory, usage, features
        self.node_name = str((node.get("metadata") or {}).get("name") or "")
        self.by_request: dict[int, CandidateList] = {}

    def get(self, request: RequestData) -> CandidateList:
        found = self.by_request.get(id(request))
        if found is None:
            if request.all_mode:
                found = all_mode_list(request, self.usage, self.features)
            else:
                key = (id(self.pools), *_signature(request, self.node_name, self.features))
                found = self.usage.cache.get(key)
                if found is None:
                    entries = self.inventory.static_candidates.get(key)
                    if entries is None:
                        entries = self.inventory.static_candidates[key] = [None] * len(self.pools.devices)
                    found = list_candidates(request, self.pools, self.node, entries, self.usage, self.features)
                    self.usage.cache[key] = found
            self.by_request[id(request)] = found
        return found

    def candidates(self, request: RequestData) -> list[Candidate]:
        return self.get(request).candidates


def _requests(claims: Sequence[Mapping[str, Any]], inventory: Inventory, features: Features, fresh: bool
              ) -> list[list[list[RequestData]]]:
    """The claims' request data, built once per claim set (the same claim objects) and reused for every node; `fresh`
    (extra tolerations get added) builds a private copy. Node-dependent memos are reset on reuse."""
    if fresh:
        return build_requests(claims, inventory, features)
    # keyed by identity (the frozen Features hashes ten fields on every lookup), checked against the kept objects
    specs = tuple(claim.get("spec") for claim in claims)
    for owners, key in ((specs, ("spec", tuple(map(id, specs)), id(features))),
                        (claims, (tuple(map(id, claims)), id(features)))):
        cached = inventory.request_cache.get(key)
        if cached is not None and cached[2] is features and all(a is b for a, b in zip(cached[0], owners, strict=True)):
            for request in (r for claim_requests in cached[1] for alternatives in claim_requests for r in alternatives):
                request.selected = {}
                request.all_devices = []
            return cached[1]
    requests = build_requests(claims, inventory, features)
    if _nameless(requests):  # claims from one template share its spec object: built once for all of them
        inventory.request_cache[("spec", tuple(map(id, specs)), id(features))] = (specs, requests, features)
    else:
        inventory.request_cache[(tuple(map(id, claims)), id(features))] = (tuple(claims), requests, features)
    return requests  # the cache keeps the claims (specs) and features alive, so their ids stay theirs


def _nameless(requests: list[list[list[RequestData]]]) -> bool:
    """True when the request data holds nothing of the claims' names: only a claim's own selectors name it (in their
    errors); everything else is read from the spec, and the errors naming the claim are raised, never kept."""
    return not any(selector.owner.startswith("claim ") for claim_requests in requests for alternatives in claim_requests
                   for request in alternatives for selector in request.selectors)


def _prepare(claims: Sequence[Mapping[str, Any]], node: Mapping[str, Any], pools: NodePools, inventory: Inventory,
             usage: DeviceUsage, features: Features, tolerations: Sequence[Mapping[str, Any]] = ()
             ) -> tuple[list[list[list[RequestData]]], list[list[Constraint]]]:
    """Requests, All-mode device lists, the 32-device check and constraints; AllocationError when fatal."""
    requests = _requests(claims, inventory, features, bool(tolerations))
    if tolerations:
        for request in (r for claim_requests in requests for alternatives in claim_requests for r in alternatives):
            request.tolerations = (*request.tolerations, *tolerations)
    constraints: list[list[Constraint]] = []
    for claim, claim_requests in zip(claims, requests, strict=True):
        ref = claim_ref(claim)
        minimum = 0
        for alternatives in claim_requests:
            for request in alternatives:
                if request.all_mode:
                    request.all_devices = all_mode_devices(request, pools, node, usage, features, ref)
            minimum += min(len(r.all_devices) if r.all_mode else r.count for r in alternatives)
        if minimum > MAX_RESULTS:
            raise AllocationError(Reason.NO_MATCHING_DEVICES, f"claim {ref}: number of requested devices {minimum} "
                                  f"exceeds the claim limit of {MAX_RESULTS}")
        derived = derived_tables(claim) if features.derived_attributes else None
        built = build_constraints(mappings(path(claim, "spec", "devices", "constraints")), features.list_type_attributes,
                                  derived)
        if isinstance(built, str):
            raise AllocationError(Reason.CONSTRAINT_UNSATISFIABLE, f"claim {ref}, {built}")
        constraints.append(built)
    return requests, constraints


def _needed(request: RequestData) -> int:
    return max(1, len(request.all_devices)) if request.all_mode else request.count


def _funnels(claims: Sequence[Mapping[str, Any]], requests: list[list[list[RequestData]]],
             constraints: list[list[Constraint]], lists: _Lists) -> list[Funnel]:
    return [build_funnel(claim_ref(claims[r.claim_index]), r, lists.get(r), constraints[r.claim_index], _needed(r),
                         lists.usage.holders)
            for claim_requests in requests for alternatives in claim_requests for r in alternatives]


def _exclusive_demand(requests: list[list[list[RequestData]]], lists: _Lists) -> tuple[int, int]:
    """(devices the requests need at least, distinct exclusive candidates they can draw from), counting only requests
    whose candidates are all exclusive (no admin access, no All mode, no multi-allocatable devices)."""
    needed, pool = 0, set()
    for claim_requests in requests:
        for alternatives in claim_requests:
            if any(r.all_mode or r.admin_access for r in alternatives):
                continue
            exclusive = [c.device.key for r in alternatives for c in lists.get(r).candidates
                         if not c.tainted and c.error is None and not c.device.allow_multiple]
            if len(exclusive) == sum(len(lists.get(r).candidates) for r in alternatives):
                needed += min(r.count for r in alternatives)
                pool.update(exclusive)
    return needed, len(pool)


def _hopeless(requests: list[list[list[RequestData]]], constraints: list[list[Constraint]], lists: _Lists) -> bool:
    """A necessary condition fails, so no search is needed: some request cannot be met by any alternative even alone
    (fewer usable candidates than its count, or fewer that can satisfy its constraints together), or the requests need
    more exclusive devices than their candidates hold together. Never when a candidate hides a selector error (the
    search would hit it and fail with that error, as upstream does)."""
    for claim_requests in requests:
        for alternatives in claim_requests:
            if any(lists.get(r).errors for r in alternatives if not r.all_mode):
                return False
            if all(not r.all_mode and r.count > min(lists.get(r).usable,
                                                    constraint_count(r, lists.get(r), constraints[r.claim_index], True))
                   for r in alternatives):
                return True
    needed, available = _exclusive_demand(requests, lists)
    return needed > available


def _failure(claims: Sequence[Mapping[str, Any]], requests: list[list[list[RequestData]]],
             constraints: list[list[Constraint]], lists: _Lists, pools: NodePools) -> AllocationFailure:
    funnels = _funnels(claims, requests, constraints, lists)
    short = [f for f in funnels if f.first_short is not None]
    by_request: dict[tuple[str, str], list[Funnel]] = {}
    for funnel in funnels:
        by_request.setdefault((funnel.claim, funnel.request.split("/")[0]), []).append(funnel)
    blocking = [group[0] for group in by_request.values() if all(f.first_short is not None for f in group)]
    chosen = blocking[0] if blocking else (short[0] if short else None)
    if chosen is not None:
        reason, message = chosen.reason or Reason.NO_MATCHING_DEVICES, chosen.message
    else:
        reason, message = _combined_reason(requests, constraints, lists)
    details: dict[str, Any] = {}
    if pools.any_invalid:  # allocator_incubating.go Allocate: a per-node error, only when nothing was found
        details["invalidPools"] = ", ".join(sorted(f"{p.key}: {p.invalid_reason}" for p in pools.pools if p.invalid_reason))
        message = f"{INVALID_POOLS_MESSAGE}; {message}"
        return AllocationFailure(reason, message, chosen, tuple(funnels), details, node_message=INVALID_POOLS_MESSAGE)
    return AllocationFailure(reason, message, chosen, tuple(funnels), details)


def _combined_reason(requests: list[list[list[RequestData]]], constraints: list[list[Constraint]], lists: _Lists
                     ) -> tuple[Reason, str]:
    """Every request fits alone but not all together: say what they compete for."""
    needed, available = _exclusive_demand(requests, lists)
    if needed > available:
        return Reason.NO_MATCHING_DEVICES, f"cannot allocate all claims: the requests need {needed} devices together, " \
                                           f"{available} match and are free"
    if any(constraints):
        return Reason.CONSTRAINT_UNSATISFIABLE, "cannot allocate all claims: no combination of devices satisfies the " \
                                                "claim constraints"
    candidates = [c.device for claim in requests for alternatives in claim for r in alternatives
                  for c in lists.get(r).candidates]
    if any(device.allow_multiple and device.capacity for device in candidates):
        return Reason.CAPACITY_EXHAUSTED, "cannot allocate all claims: the requests together need more device capacity " \
                                          "than is left"
    if any(device.consumes_counters for device in candidates):
        return Reason.COUNTERS_EXHAUSTED, "cannot allocate all claims: the devices together need more of the shared " \
                                          "counters than the pools have left"
    return Reason.NO_MATCHING_DEVICES, "cannot allocate all claims: the requests together need more devices than are " \
                                       "free at once"


def _device_result(pick: Pick) -> DeviceResult:
    request, device = pick.request, pick.candidate.device
    return DeviceResult(request=request.full_name, driver=device.driver, pool=device.pool, device=device.name,
                        subrequest=request.name if request.parent else None, admin_access=request.admin_access,
                        share_id=pick.share_id, consumed_capacity=pick.consumed, tolerations=request.tolerations,
                        binding_conditions=device.binding_conditions,
                        binding_failure_conditions=device.binding_failure_conditions)


def _allocation(claims: Sequence[Mapping[str, Any]], requests: list[list[list[RequestData]]], search: Search,
                inventory: Inventory, node_name: str) -> Allocation:
    result = []
    positions = []
    for ci, claim in enumerate(claims):
        picks = search.results[ci]
        chosen = []
        for ri, alternatives in enumerate(requests[ci]):
            position = search.selected_sub.get((ci, ri), 0)
            request = alternatives[position] if alternatives[0].parent else alternatives[0]
            if request.parent:
                positions.append(position)
            chosen.append((request.base_name, request.class_name, request.full_name if request.parent else None))
        result.append(ClaimAllocation(claim, tuple(_device_result(p) for p in picks),
                                      build_config(claim, inventory.classes, chosen), node_selector(picks, node_name)))
    return Allocation(node_name, tuple(result), tuple(positions))


def allocate_claims(claims: Sequence[Mapping[str, Any]], node: Mapping[str, Any], inventory: Inventory,
                    usage: DeviceUsage, *, features: Features = DEFAULT_FEATURES, step_limit: int = STEP_LIMIT,
                    tolerations: Sequence[Mapping[str, Any]] = ()) -> Allocation | AllocationFailure:
    """Allocate every claim (resource.k8s.io/v1 dicts, not yet allocated) on `node`, or say why not.

    `step_limit` bounds the search (search.py); running out is the scheduler's "timed out trying to allocate devices".
    `tolerations` are extra device tolerations added to every request, for what-if questions ("would it fit if the
    claims tolerated this taint?"); kube-scheduler itself only uses the claims' own.
    """
    node_name = str((node.get("metadata") or {}).get("name") or "")
    pools = inventory.pools_for(node, features.partitionable_devices)
    lists = _Lists(pools, node, inventory, usage, features)
    try:
        requests, constraints = _prepare(claims, node, pools, inventory, usage, features, tolerations)
        if _hopeless(requests, constraints, lists):
            return _failure(claims, requests, constraints, lists, pools)
        search = Search(requests, constraints, lists.candidates, usage, features, [claim_ref(c) for c in claims],
                        step_limit)
        if search.run():
            return _allocation(claims, requests, search, inventory, node_name)
    except AllocationError as exc:
        return AllocationFailure(exc.reason, exc.message, details=exc.details, fatal=exc.fatal)
    except SearchTimeout:
        return AllocationFailure(Reason.NO_MATCHING_DEVICES, TIMEOUT_MESSAGE, details={"timeout": True},
                                 node_message=TIMEOUT_MESSAGE)
    return _failure(claims, requests, constraints, lists, pools)
