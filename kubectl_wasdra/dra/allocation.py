"""Allocator outcomes: Allocation (per claim, per request: the devices picked) or AllocationFailure (why not).

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (building AllocationResult: results, config, node selector), release-1.37.
`ClaimAllocation.status()` is the `status.allocation` the scheduler would write (without the timestamp).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from kubectl_wasdra.dra.fields import mappings, path, sequence, text
from kubectl_wasdra.dra.funnel import Funnel
from kubectl_wasdra.dra.usage import DeviceUsage
from kubectl_wasdra.kube.quantity import format_quantity
from kubectl_wasdra.reasons import Reason


def _quantity_text(value: Decimal) -> str:
    """Canonical-looking quantity text: the shorter of the binary-suffix and decimal-suffix spellings ("4G", not
    "3906250Ki"; "1Gi", not "1073741824"), binary on a tie; decimal for values that are not whole multiples of 1Ki."""
    decimal = format_quantity(value, binary=False)
    if value == value.to_integral_value() and value != 0 and int(value) % 1024 == 0:
        binary = format_quantity(value, binary=True)
        return binary if len(binary) <= len(decimal) else decimal
    return decimal


@dataclass(frozen=True)
class DeviceResult:
    """One allocated device: `request` is "req" or "req/sub" as in DeviceRequestAllocationResult."""

    request: str
    driver: str
    pool: str
    device: str
    subrequest: str | None = None
    admin_access: bool = False
    share_id: str | None = None
    consumed_capacity: Mapping[str, Decimal] | None = None
    tolerations: tuple[Mapping[str, Any], ...] = ()
    binding_conditions: tuple[str, ...] = ()
    binding_failure_conditions: tuple[str, ...] = ()

    @property
    def device_key(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"

    def status(self) -> dict[str, Any]:
        """API-shaped DeviceRequestAllocationResult."""
        result: dict[str, Any] = {"request": self.request, "driver": self.driver, "pool": self.pool, "device": self.device}
        if self.admin_access:
            result["adminAccess"] = True
        if self.tolerations:
            result["tolerations"] = [dict(t) for t in self.tolerations]
        if self.binding_conditions:
            result["bindingConditions"] = list(self.binding_conditions)
        if self.binding_failure_conditions:
            result["bindingFailureConditions"] = list(self.binding_failure_conditions)
        if self.share_id:
            result["shareID"] = self.share_id
        if self.consumed_capacity:
            result["consumedCapacity"] = {name: _quantity_text(value) for name, value in self.consumed_capacity.items()}
        return result


@dataclass(frozen=True)
class ClaimAllocation:
    """The allocation of one claim: results in pick order, config entries and the node selector (None = anywhere)."""

    claim: Mapping[str, Any]
    results: tuple[DeviceResult, ...]
    config: tuple[Mapping[str, Any], ...] = ()
    node_selector: Mapping[str, Any] | None = None

    def status(self) -> dict[str, Any]:
        """API-shaped AllocationResult."""
        allocation: dict[str, Any] = {"devices": {"results": [r.status() for r in self.results]}}
        if self.config:
            allocation["devices"]["config"] = [dict(c) for c in self.config]
        if self.node_selector is not None:
            allocation["nodeSelector"] = dict(self.node_selector)
        return allocation


@dataclass(frozen=True)
class Allocation:
    """A successful allocation of every claim passed to `allocate_claims`, in the same order."""

    node: str
    claims: tuple[ClaimAllocation, ...]
    subrequest_positions: tuple[int, ...] = ()  # index of the chosen alternative of every firstAvailable request

    @property
    def prioritized_list_score(self) -> int:
        """DynamicResources Score for prioritized lists (dynamicresources.go): each firstAvailable request allocated
        with its alternative at position i adds 8 - i (the scheduler then normalizes across nodes)."""
        return sum(8 - position for position in self.subrequest_positions)

    @property
    def results(self) -> tuple[tuple[DeviceResult, ...], ...]:
        """Per claim, the device results."""
        return tuple(claim.results for claim in self.claims)

    def apply(self, usage: DeviceUsage) -> DeviceUsage:
        """A new ledger with these devices (and consumed capacity) marked allocated; `usage` is unchanged."""
        for claim in self.claims:
            namespace, name = text(path(claim.claim, "metadata", "namespace")), text(path(claim.claim, "metadata", "name"))
            usage = usage.with_results([result.status() for result in claim.results], holder=f"{namespace}/{name}".lstrip("/"))
        return usage


@dataclass(frozen=True)
class AllocationFailure:
    """Why the claims do not fit on the node.

    `fatal` mirrors upstream errors that abort the scheduling attempt (kube-scheduler returns an Error status: CEL
    errors, unknown class, too many devices, "all" over an incomplete pool); otherwise the node simply does not fit.
    `funnel` is the funnel of the request that runs short first (None for fatal errors), `funnels` every request's.
    """

    reason: Reason
    message: str
    funnel: Funnel | None = None
    funnels: tuple[Funnel, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    fatal: bool = False
    # what kube-scheduler prints for the node: its per-node allocator errors ("invalid resource pools were
    # encountered", the filter timeout) or, when the allocator simply found nothing, "cannot allocate all claims"
    node_message: str = "cannot allocate all claims"


def build_config(claim: Mapping[str, Any], classes: Mapping[str, Mapping[str, Any]],
                 chosen: Sequence[tuple[str, str, str | None]]) -> tuple[dict[str, Any], ...]:
    """Config entries: class configs once per class (FromClass), then matching claim configs (FromClaim); an entry
    naming every request gets `requests` cleared. `chosen` = (request name, class name, "req/sub" or None) per request."""
    config: list[dict[str, Any]] = []
    by_class: dict[str, list[dict[str, Any]]] = {}
    for request, class_name, sub in chosen:
        shown = sub or request
        if class_name in by_class:
            for entry in by_class[class_name]:
                entry["requests"].append(shown)
            continue
        entries = [{"source": "FromClass", "requests": [shown], **{k: v for k, v in c.items() if k != "requests"}}
                   for c in mappings(path(classes.get(class_name), "spec", "config"))]
        by_class[class_name] = entries
        config.extend(entries)
    for entry in mappings(path(claim, "spec", "devices", "config")):
        wanted = [str(name) for name in sequence(entry.get("requests"))]
        body = {k: v for k, v in entry.items() if k != "requests"}
        if not wanted:
            config.append({"source": "FromClaim", "requests": [], **body})
            continue
        for request, _, sub in chosen:
            if request in wanted or (sub and sub in wanted):
                config.append({"source": "FromClaim", "requests": list(wanted), **body})
    total = len(chosen)
    for entry in config:
        if len(entry["requests"]) == total or not entry["requests"]:
            entry.pop("requests")
    return tuple(config)
