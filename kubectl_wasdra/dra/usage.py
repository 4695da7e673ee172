"""DeviceUsage: the ledger of devices already allocated (exclusive or shared) and the capacity they consume.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go and
staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatedstate.go, release-1.37.
Results with adminAccess never block anyone. With consumable capacity, a result with a shareID is a shared allocation
whose consumedCapacity adds to the device's running sum; any other result allocates the device exclusively. A device
"is allocated" (for counter accounting) if exclusive, shared or with consumed capacity.

A ledger is never mutated once handed out: `with_results` and `Allocation.apply` return a new one that shares the old
one's data (a frozen base plus a small top layer that folds into the base every few hundred devices), so adding an
allocation costs about the size of the allocation, not of the ledger, and trial placements are cheap and safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.dra.fields import mapping, mappings, path, text
from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity

if TYPE_CHECKING:
    from kubectl_wasdra.dra.pools import Pool


def _device_key(result: Mapping[str, Any]) -> str:
    return f"{result.get('driver', '')}/{result.get('pool', '')}/{result.get('device', '')}"


def _claim_name(claim: Mapping[str, Any]) -> str:
    return f"{text(path(claim, 'metadata', 'namespace'))}/{text(path(claim, 'metadata', 'name'))}".lstrip("/")


def _add_capacity(sums: Mapping[str, Decimal], amounts: Mapping[str, Any]) -> dict[str, Decimal]:
    result = dict(sums)
    for name, value in amounts.items():
        try:
            result[name] = result.get(name, Decimal(0)) + parse_quantity(value)
        except QuantityError:
            continue
    return result


class _Layers:
    """A frozen base plus a small top layer: adding copies only the top; the top folds into the base when it grows."""

    __slots__ = ("base", "top")
    FOLD: Final = 512

    def __init__(self, base: Mapping[Any, Any] | None = None, top: Mapping[Any, Any] | None = None) -> None:
        self.base: Mapping[Any, Any] = base if base is not None else {}
        self.top: Mapping[Any, Any] = top if top is not None else {}

    def get(self, key: Any, default: Any = None) -> Any:
        found = self.top.get(key, _MISSING)
        if found is _MISSING:
            found = self.base.get(key, default)
        return found

    def __contains__(self, key: Any) -> bool:
        return key in self.top or key in self.base

    def __iter__(self) -> Iterator[Any]:
        yield from self.top
        yield from (key for key in self.base if key not in self.top)

    def __len__(self) -> int:
        return len(self.base) + sum(1 for key in self.top if key not in self.base)

    def items(self) -> Iterator[tuple[Any, Any]]:
        return ((key, self.get(key)) for key in self)

    def with_updates(self, updates: Mapping[Any, Any]) -> _Layers:
        if not updates:
            return self
        top = {**self.top, **updates}
        if len(top) > self.FOLD:
            return _Layers({**self.base, **top}, {})
        return _Layers(self.base, top)


_MISSING: Final = object()


class DeviceUsage:
    """Exclusively allocated devices, shared allocations and summed consumed capacity per device key
    ("driver/pool/device"), plus which claim holds each device (for messages)."""

    __slots__ = ("_consumed", "_counters", "_exclusive", "_holders", "_shares", "cache")

    def __init__(self, exclusive: Iterable[str] = (), consumed: Mapping[str, Mapping[str, Decimal]] | None = None,
                 shares: Iterable[tuple[str, str]] = (), holders: Mapping[str, str] | None = None) -> None:
        self._exclusive = _Layers(dict.fromkeys(exclusive, True))
        self._consumed = _Layers(dict(consumed or {}))  # inner dicts are never mutated
        self._shares = _Layers(dict.fromkeys(shares, True))
        self._holders = _Layers(dict(holders or {}))
        self._counters: dict[str, dict[str, dict[str, Decimal]]] = {}
        self.cache: dict[Any, Any] = {}  # derived data keyed by the caller (candidate lists); dies with the ledger

    @classmethod
    def from_claims(cls, claims: Sequence[Mapping[str, Any]], consumable_capacity: bool = True) -> DeviceUsage:
        """The ledger of every claim with status.allocation."""
        usage = cls()
        batch: list[tuple[Mapping[str, Any], str]] = []
        for claim in claims:
            holder = _claim_name(claim)
            batch.extend((result, holder) for result in mappings(path(claim, "status", "allocation", "devices", "results")))
        return usage._with(batch, consumable_capacity)

    def with_results(self, results: Iterable[Mapping[str, Any]], consumable_capacity: bool = True, holder: str = ""
                     ) -> DeviceUsage:
        """A new ledger with allocation results (API-shaped dicts) added; `holder` names the claim ("ns/name")."""
        return self._with([(result, holder) for result in results], consumable_capacity)

    def _with(self, batch: Sequence[tuple[Mapping[str, Any], str]], consumable_capacity: bool) -> DeviceUsage:
        exclusive: dict[str, bool] = {}
        shares: dict[tuple[str, str], bool] = {}
        consumed: dict[str, dict[str, Decimal]] = {}
        holders: dict[str, str] = {}
        for result, holder in batch:
            if result.get("adminAccess"):
                continue
            key = _device_key(result)
            if holder and key not in holders and key not in self._holders:
                holders[key] = holder
            if consumable_capacity and result.get("shareID"):
                shares[(key, str(result["shareID"]))] = True
                current = consumed.get(key) or self._consumed.get(key) or {}
                consumed[key] = _add_capacity(current, mapping(result.get("consumedCapacity")))
            else:
                exclusive[key] = True
        other = DeviceUsage.__new__(DeviceUsage)
        other._exclusive = self._exclusive.with_updates(exclusive)
        other._shares = self._shares.with_updates(shares)
        other._consumed = self._consumed.with_updates(consumed)
        other._holders = self._holders.with_updates(holders)
        other._counters = {}
        other.cache = {}
        return other

    @property
    def exclusive(self) -> _Layers:
        """Exclusively allocated device keys (supports `in`, iteration and len)."""
        return self._exclusive

    @property
    def holders(self) -> _Layers:
        """Device key -> "namespace/name" of a claim holding it (supports get and `in`)."""
        return self._holders

    def is_exclusive(self, key: str) -> bool:
        return key in self._exclusive

    def capacity_in_use(self, key: str) -> bool:
        """Some shared allocation already consumes capacity of this device."""
        return key in self._consumed

    def is_allocated(self, key: str) -> bool:
        return key in self._exclusive or key in self._consumed

    def consumed_capacity(self, key: str) -> Mapping[str, Decimal]:
        return self._consumed.get(key, {})

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
        return len(self._exclusive) + len(self._shares)
