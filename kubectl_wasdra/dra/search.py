"""The depth-first allocation search: first complete solution wins, with upstream's backtracking and bookkeeping.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (allocateOne, allocateDevice, checkAvailableCounters, deallocateCountersForDevice), release-1.37.

- Requests in claim order; a firstAvailable request tries subrequest k+1 only after every completion with k failed.
- The n-th device of a request is searched after the (n-1)-th (combinations, not permutations).
- More than 32 results for a claim fails the branch early ("exceeded"), letting a firstAvailable group try a smaller
  alternative.
- **Quirks** kept: counters taken for a candidate that a taint or constraint then rejects are not given back, and counters
  of a multi-allocatable device are not given back on backtracking.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.dra.candidates import Candidate
from kubectl_wasdra.dra.capacity import fits
from kubectl_wasdra.dra.constraints import Constraint
from kubectl_wasdra.dra.counters import add_consumption, counters_fit
from kubectl_wasdra.dra.features import Features
from kubectl_wasdra.dra.fields import mapping, mappings, path
from kubectl_wasdra.dra.inventory import Device
from kubectl_wasdra.dra.pools import Pool
from kubectl_wasdra.dra.requests import MAX_RESULTS, AllocationError, RequestData
from kubectl_wasdra.dra.usage import DeviceUsage
from kubectl_wasdra.kube.taints import first_untolerated
from kubectl_wasdra.reasons import Reason

EXCEEDED: Final = "exceeded"
# Stands in for the scheduler's per-node filter timeout (DRASchedulerFilterTimeout, 10 s of Go; ~0.5 s here).
STEP_LIMIT: Final = 100_000


class SearchTimeout(Exception):
    """The step budget ran out: kube-scheduler 1.37 reports "timed out trying to allocate devices" for the node."""


@dataclass
class Pick:
    """One chosen device for one request (or subrequest) of one claim."""

    request: RequestData
    candidate: Candidate
    share_id: str | None
    consumed: Mapping[str, Decimal] | None


class Search:
    """One allocation attempt for the claims of a pod on one node."""

    def __init__(self, requests: Sequence[Sequence[Sequence[RequestData]]], constraints: Sequence[Sequence[Constraint]],
                 candidates: Callable[[RequestData], list[Candidate]], usage: DeviceUsage, features: Features,
                 claim_refs: Sequence[str], step_limit: int = STEP_LIMIT) -> None:
        self.requests = requests
        self.constraints = constraints
        self.candidates = candidates
        self.usage = usage
        self.features = features
        self.claim_refs = claim_refs
        self.allocating: dict[str, set[int]] = {}
        self.allocating_capacity: dict[str, dict[str, Decimal]] = {}
        self.consumed_counters: dict[str, dict[str, dict[str, Decimal]]] = {}
        self.results: list[list[Pick]] = [[] for _ in requests]
        self.selected_sub: dict[tuple[int, int], int] = {}
        self.steps = 0
        self.step_limit = step_limit

    def run(self) -> bool:
        return self._one(0, 0, 0, 0, False, 0) is True

    def _one(self, ci: int, ri: int, si: int, di: int, in_sub: bool, start: int) -> bool | str:
        self.steps += 1
        if self.steps > self.step_limit:
            raise SearchTimeout
        if ci >= len(self.requests):
            return True
        if ri >= len(self.requests[ci]):
            outcome = self._one(ci + 1, 0, 0, 0, False, 0)
            return False if outcome == EXCEEDED else outcome
        alternatives = self.requests[ci][ri]
        if not in_sub and alternatives[0].parent is not None:
            return self._subrequests(ci, ri, len(alternatives))
        request = alternatives[si]
        need = len(request.all_devices) if request.all_mode else request.count
        if request.all_mode and need == 0:
            return False
        if di >= need:
            return self._one(ci, ri + 1, 0, 0, False, 0)
        if len(self.results[ci]) + need - di > MAX_RESULTS:
            return EXCEEDED
        if request.all_mode:
            return self._all_device(request, di, in_sub)
        return self._scan(request, di, in_sub, start)

    def _subrequests(self, ci: int, ri: int, count: int) -> bool | str:
        all_exceeded = True
        for sub in range(count):
            outcome = self._one(ci, ri, sub, 0, True, 0)
            if outcome == EXCEEDED:
                continue
            all_exceeded = False
            if outcome is True:
                self.selected_sub[(ci, ri)] = sub
                return True
        return EXCEEDED if all_exceeded else False

    def _all_device(self, request: RequestData, di: int, in_sub: bool) -> bool | str:
        undo = self._allocate_device(request, request.all_devices[di], must=True)
        if undo is None:
            return False
        outcome = self._one(request.claim_index, request.request_index, request.sub_index, di + 1, in_sub, 0)
        if outcome is not True:
            undo()
        return outcome

    def _scan(self, request: RequestData, di: int, in_sub: bool, start: int) -> bool | str:
        candidates = self.candidates(request)
        ci = request.claim_index
        for index in range(start, len(candidates)):
            candidate = candidates[index]
            key = candidate.device.key
            holders = self.allocating.get(key)
            if request.admin_access:
                if holders and ci in holders:
                    continue
            elif holders:
                continue
            if candidate.error is not None:
                raise candidate.error
            if self.features.consumable_capacity and candidate.amounts is not None and not fits(
                    candidate.device, candidate.amounts, self.usage.consumed_capacity(key), self.allocating_capacity.get(key)):
                continue
            undo = self._allocate_device(request, candidate, must=False)
            if undo is None:
                continue
            outcome = self._one(ci, request.request_index, request.sub_index, di + 1, in_sub, index + 1)
            if outcome is True:
                return True
            undo()
            if outcome == EXCEEDED:
                return EXCEEDED
        return False

    def _take_counters(self, pool: Pool, device: Device) -> bool:
        consumed = self.consumed_counters.setdefault(pool.name, {})
        add_consumption(consumed, device.consumes_counters)
        if counters_fit(self.usage.available_counters(pool), consumed):
            return True
        add_consumption(consumed, device.consumes_counters, sign=-1)
        return False

    def _return_counters(self, pool: Pool, device: Device) -> None:
        add_consumption(self.consumed_counters.setdefault(pool.name, {}), device.consumes_counters, sign=-1)

    def _available(self, request: RequestData, device: Device, allow_multiple: bool) -> bool:
        holders = self.allocating.get(device.key)
        if not allow_multiple and request.admin_access and holders and request.claim_index in holders:
            return False
        if not request.admin_access and (self.usage.is_exclusive(device.key) or holders):
            return False
        return not (device.consumes_counters and not self.features.partitionable_devices)

    def _allocate_device(self, request: RequestData, candidate: Candidate, must: bool) -> Callable[[], None] | None:
        """Try one candidate; the undo function on success, None if it cannot be used now (allocateDevice)."""
        device, pool = candidate.device, candidate.pool
        allow_multiple = self.features.consumable_capacity and device.allow_multiple
        if not self._available(request, device, allow_multiple):
            return None
        skip_counters = allow_multiple and (self.usage.capacity_in_use(device.key) or device.key in self.allocating_capacity)
        if not skip_counters and device.consumes_counters and not self._take_counters(pool, device):
            return None
        if self.features.device_taints and first_untolerated(device.taints, request.tolerations) is not None:
            return None  # quirk: counters taken above stay taken
        if not self._add_constraints(request, device, must):
            return None
        return self._record(request, candidate, allow_multiple)

    def _add_constraints(self, request: RequestData, device: Device, must: bool) -> bool:
        sub = request.name if request.parent else ""
        constraints = self.constraints[request.claim_index]
        for index, constraint in enumerate(constraints):
            if constraint.add(request.base_name, sub, device):
                continue
            if must:
                raise AllocationError(Reason.CONSTRAINT_UNSATISFIABLE,
                                      f"claim {self.claim_refs[request.claim_index]}, request {request.name}: cannot add "
                                      f"device {device.key} because a claim constraint would not be satisfied",
                                      device=device.key)
            for earlier in constraints[:index]:
                earlier.remove(request.base_name, sub, device)
            return False
        return True

    def _share_id(self, request: RequestData, key: str) -> str:
        """A deterministic stand-in for the random share UUID upstream generates."""
        ci = request.claim_index
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.claim_refs[ci]}/{request.full_name}/{key}/{len(self.results[ci])}"))

    def _release_capacity(self, key: str, consumed: Mapping[str, Decimal]) -> None:
        sums = self.allocating_capacity[key]
        for name, value in consumed.items():
            sums[name] -= value
        if not any(sums.values()):
            del self.allocating_capacity[key]

    def _record(self, request: RequestData, candidate: Candidate, allow_multiple: bool) -> Callable[[], None]:
        device, ci = candidate.device, request.claim_index
        key = device.key
        if not allow_multiple:
            self.allocating.setdefault(key, set()).add(ci)
        consumed = candidate.amounts if allow_multiple and candidate.amounts else None
        share_id = self._share_id(request, key) if allow_multiple else None
        if allow_multiple and self.features.consumable_capacity:
            # an entry even for nothing consumed: later picks then skip the counter check (allocatedstate.go Insert)
            sums = self.allocating_capacity.setdefault(key, {})
            for name, value in (consumed or {}).items():
                sums[name] = sums.get(name, Decimal(0)) + value
        self.results[ci].append(Pick(request, candidate, share_id, consumed))

        def undo() -> None:
            sub = request.name if request.parent else ""
            for constraint in self.constraints[ci]:
                constraint.remove(request.base_name, sub, device)
            self.allocating.get(key, set()).discard(ci)
            if consumed:
                self._release_capacity(key, consumed)
            elif not allow_multiple and self.features.partitionable_devices and device.consumes_counters:
                self._return_counters(candidate.pool, device)
            self.results[ci].pop()

        return undo


def node_selector(picks: Sequence[Pick], node_name: str) -> dict[str, Any] | None:
    """The allocation's node selector (createNodeSelector): node-local devices pin the node; else merged selectors."""
    term: dict[str, list[dict[str, Any]]] = {"matchFields": [], "matchExpressions": []}
    for pick in picks:
        device = pick.candidate.device
        source = device.raw if device.slice.per_device_node_selection else mapping(device.slice.raw.get("spec"))
        if source.get("nodeName") or device.binds_to_node:
            return {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In",
                                                            "values": [node_name]}]}]}
        terms = mappings(path(source, "nodeSelector", "nodeSelectorTerms"))
        if len(terms) == 1:
            for kind in ("matchFields", "matchExpressions"):
                for requirement in mappings(terms[0].get(kind)):
                    if not any(_same_requirement(requirement, existing) for existing in term[kind]):
                        term[kind].append(requirement)
    if not term["matchFields"] and not term["matchExpressions"]:
        return None
    return {"nodeSelectorTerms": [{kind: value for kind, value in term.items() if value}]}


def _same_requirement(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return (a.get("key") == b.get("key") and a.get("operator") == b.get("operator")
            and set(a.get("values") or ()) == set(b.get("values") or ()))
