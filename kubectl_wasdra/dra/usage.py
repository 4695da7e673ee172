"""DeviceUsage: the ledger of devices already allocated (exclusive or shared) and the capacity they consume.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go and
staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatedstate.go, release-1.37.
Results with adminAccess never block anyone. With consumable capacity, a result with a shareID is a shared allocation
whose consumedCapacity adds to the device's running sum; any other result allocates the device exclusively. A device
"is allocated" (for counter accounting) if exclusive, shared or with consumed capacity.

A ledger is never mutated once handed out: `with_results` and `Allocation.apply` return a new one (copying only the
ledger's own small containers), so trial placements are cheap and safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity

if TYPE_CHECKING:
    from kubectl_wasdra.dra.pools import Pool


def _device_key(result: Mapping[str, Any]) -> str:
    return f"{result.get('driver', '')}/{result.get('pool', '')}/{result.get('device', '')}"


def _claim_name(claim: Mapping[str, Any]) -> str:
    meta = claim.get("metadata") or {}
    return f"{meta.get('namespace') or ''}/{meta.get('name') or ''}".lstrip("/")


def _add_capacity(sums: Mapping[str, Decimal], amounts: Mapping[str, Any]) -> dict[str, Decimal]:
    result = dict(sums)
    for name, value in amounts.items():
        try:
            result[name] = result.get(name, Decimal(0)) + parse_quantity(value)
        except QuantityError:
            continue
    return result


class DeviceUsage:
    """Exclusively allocated devices, shared allocations and summed consumed capacity per device key."""

    __slots__ = ("_counters", "cache", "consumed", "exclusive", "holders", "shares")

    def __init__(self, exclusive: Iterable[str] = (), consumed: Mapping[str, Mapping[str, Decimal]] | None = None,
                 shares: Iterable[tuple[str, str]] = (), holders: Mapping[str, str] | None = None) -> None:
        self.exclusive: frozenset[str] = frozenset(exclusive)
        self.consumed: dict[str, dict[str, Decimal]] = dict(consumed or {})  # inner dicts are never mutated
        self.shares: frozenset[tuple[str, str]] = frozenset(shares)
        self.holders: dict[str, str] = dict(holders or {})  # device key -> "namespace/name" of a claim holding it
        self._counters: dict[str, dict[str, dict[str, Decimal]]] = {}
        self.cache: dict[Any, Any] = {}  # derived data keyed by the caller (candidate lists); dies with the ledger

    @classmethod
    def from_claims(cls, claims: Sequence[Mapping[str, Any]], consumable_capacity: bool = True) -> DeviceUsage:
        """The ledger of every claim with status.allocation."""
        usage = cls()
        for claim in claims:
            allocation = (claim.get("status") or {}).get("allocation") or {}
            results = (allocation.get("devices") or {}).get("results") or ()
            if results:
                usage = usage.with_results(results, consumable_capacity, holder=_claim_name(claim))
        return usage

    def with_results(self, results: Iterable[Mapping[str, Any]], consumable_capacity: bool = True, holder: str = ""
                     ) -> DeviceUsage:
        """A new ledger with allocation results (API-shaped dicts) added; `holder` names the claim ("ns/name")."""
        exclusive = set(self.exclusive)
        shares = set(self.shares)
        consumed = dict(self.consumed)
        holders = dict(self.holders)
        for result in results:
            if result.get("adminAccess"):
                continue
            key = _device_key(result)
            if holder:
                holders.setdefault(key, holder)
            if consumable_capacity and result.get("shareID"):
                shares.add((key, str(result["shareID"])))
                consumed[key] = _add_capacity(consumed.get(key, {}), result.get("consumedCapacity") or {})
            else:
                exclusive.add(key)
        return DeviceUsage(exclusive, consumed, shares, holders)

    def is_exclusive(self, key: str) -> bool:
        return key in self.exclusive

    def capacity_in_use(self, key: str) -> bool:
        """Some shared allocation already consumes capacity of this device."""
        return key in self.consumed

    def is_allocated(self, key: str) -> bool:
        return key in self.exclusive or key in self.consumed

    def consumed_capacity(self, key: str) -> Mapping[str, Decimal]:
        return self.consumed.get(key, {})

    def available_counters(self, pool: Pool) -> dict[str, dict[str, Decimal]]:
        """Counter sets of `pool` minus what allocated devices of the pool consume (counters.py), cached per ledger.

        **Quirk** (allocator_incubating.go checkAvailableCounters): cached by pool *name* only, so two drivers with the
        same pool name share one entry.
        """
        cached = self._counters.get(pool.name)
        if cached is None:
            from kubectl_wasdra.dra.counters import available_counters

            cached = self._counters[pool.name] = available_counters(pool, self.is_allocated)
        return cached

    def __len__(self) -> int:
        return len(self.exclusive) + len(self.shares)
