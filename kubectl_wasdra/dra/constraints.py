"""Claim constraints: matchAttribute and distinctAttribute, with add/remove for the backtracking search.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (matchAttributeConstraint, lookupAttribute) and constraint.go (distinctAttributeConstraint),
release-1.37.

A constraint applies to a device picked for request R (subrequest S) if its `requests` is empty, names R, or names
"R/S". Attribute lookup: the fully-qualified key, else the bare identifier when the domain is the driver's; a device
without the attribute violates the constraint. Versions compare as strings for matchAttribute (semver is minimal).
distinctAttribute reproduces the 1.37 per-request bookkeeping quirk described on DistinctAttribute.

With DRAListTypeAttributes on, kube-scheduler picks the "experimental" allocator variant (structured/allocator.go
selects the first variant whose features cover the enabled ones), whose constraints compare value sets: a scalar is a
one-element set, matchAttribute keeps the running intersection non-empty, distinctAttribute needs disjoint sets
(experimental/constraint.go distinctAttributeConstraint, which records every device instead of one per request). With
the gate off a list-typed attribute never satisfies a constraint (the API server would not even store one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubectl_wasdra.dra.derived import Tables
from kubectl_wasdra.dra.fields import sequence
from kubectl_wasdra.dra.inventory import Device

_SCALARS = ("string", "int", "bool", "version")
# list forms (DRAListTypeAttributes, alpha in 1.36) and the scalar type each holds
_LISTS = (("strings", "string"), ("ints", "int"), ("bools", "bool"), ("versions", "version"))


def _typed(attribute: Mapping[str, Any]) -> tuple[str, Any] | None:
    for kind in _SCALARS:
        if kind in attribute:
            return kind, attribute[kind]
    return None


def _as_set(attribute: Mapping[str, Any]) -> tuple[str, frozenset[Any]] | None:
    """List mode: (scalar type, values) of a scalar (one element) or list attribute; None for an unknown type."""
    typed = _typed(attribute)
    if typed is not None:
        return typed[0], frozenset((typed[1],))
    for kind, scalar in _LISTS:
        values = attribute.get(kind)
        if isinstance(values, list) and values and all(isinstance(v, (str, int, bool)) for v in values):
            return scalar, frozenset(values)
    return None


class Constraint:
    """Base: which requests a constraint covers. `list_mode` (DRAListTypeAttributes on) compares values as sets:
    scalars are one-element sets; off, a list-typed attribute never satisfies a constraint."""

    def __init__(self, requests: Sequence[str], attribute: str, list_mode: bool = False,
                 derived: Tables | None = None) -> None:
        self.requests = frozenset(requests)
        self.attribute = attribute
        self.list_mode = list_mode
        # KEP-6080 (dra/derived.py): requests ("req", "req/sub") that derive this attribute themselves
        self.derived = {key: table[attribute] for key, table in (derived or {}).items() if attribute in table}

    def is_derived(self, request: str, subrequest: str) -> bool:
        """The request computes this attribute by a derived-attribute expression (no static bound on values)."""
        return bool(self.derived) and (f"{request}/{subrequest}" if subrequest else request) in self.derived

    def attribute_of(self, request: str, subrequest: str, device: Device) -> Mapping[str, Any] | None:
        """The value the constraint compares: the request's derived attribute first (it shadows the device's own),
        else the device attribute."""
        if self.derived:
            found = self.derived.get(f"{request}/{subrequest}" if subrequest else request)
            if found is not None:
                return found.value(device)
        return device.attribute(self.attribute)

    def applies(self, request: str, subrequest: str) -> bool:
        if not self.requests:
            return True
        return request in self.requests or (bool(subrequest) and f"{request}/{subrequest}" in self.requests)

    def elements(self, device: Device) -> tuple[Any, ...]:
        """The values a device brings to this constraint (hashable, typed): one for a scalar, several for a list in
        list mode, none when it lacks a usable attribute. Used for the funnel's bounds."""
        attribute = device.attribute(self.attribute)
        if attribute is None:
            return ()
        if self.list_mode:
            found = _as_set(attribute)
            return tuple(sorted(((found[0], v) for v in found[1]), key=repr)) if found else ()
        typed = _typed(attribute)
        return (typed,) if typed is not None else ()

    def add(self, request: str, subrequest: str, device: Device) -> bool:
        raise NotImplementedError

    def remove(self, request: str, subrequest: str, device: Device) -> None:
        raise NotImplementedError


class MatchAttribute(Constraint):
    """Every device of the covered requests has the same value; the first device fixes it. In list mode the running
    intersection of the devices' value sets must stay non-empty (the allocator variant for DRAListTypeAttributes)."""

    def __init__(self, requests: Sequence[str], attribute: str, list_mode: bool = False,
                 derived: Tables | None = None) -> None:
        super().__init__(requests, attribute, list_mode, derived)
        self.value: tuple[str, Any] | None = None
        self.count = 0
        self.stack: list[tuple[str, frozenset[Any]]] = []  # list mode: the running intersection after each device

    def add(self, request: str, subrequest: str, device: Device) -> bool:
        if not self.applies(request, subrequest):
            return True
        attribute = self.attribute_of(request, subrequest, device) if self.derived else device.attribute(self.attribute)
        if attribute is None:
            return False
        if self.list_mode:
            return self._add_set(attribute)
        typed = _typed(attribute)
        if typed is None:
            return False  # a list (or unknown) type never matches without DRAListTypeAttributes
        if self.count == 0:
            self.value = typed
            self.count = 1
            return True
        if typed != self.value:
            return False
        self.count += 1
        return True

    def _add_set(self, attribute: Mapping[str, Any]) -> bool:
        found = _as_set(attribute)
        if found is None:
            return False
        if self.stack:
            kind, values = self.stack[-1]
            if kind != found[0] or not values & found[1]:
                return False
            found = (kind, values & found[1])
        self.stack.append(found)
        self.count += 1
        return True

    def remove(self, request: str, subrequest: str, device: Device) -> None:
        if self.applies(request, subrequest):
            self.count -= 1
            if self.list_mode and self.stack:
                self.stack.pop()


class DistinctAttribute(Constraint):
    """Every device of the covered requests has a different value (list mode: value sets pairwise disjoint, checked
    against every device picked so far, as the experimental allocator variant does).

    **Quirk** (1.37 allocator_incubating.go / constraint.go): recorded values are keyed by the *base request name*, so
    within one request only the previously picked device is remembered (a third device may repeat the first one's
    value), and removing one device on backtracking forgets the request's entry altogether. Values of another type
    than the candidate's never conflict. (1.38 development keeps a list of all values instead.)
    """

    def __init__(self, requests: Sequence[str], attribute: str, list_mode: bool = False,
                 derived: Tables | None = None) -> None:
        super().__init__(requests, attribute, list_mode, derived)
        self.values: dict[str, tuple[str, Any]] = {}
        self.count = 0
        self.sets: list[tuple[str, frozenset[Any]]] = []  # list mode: every recorded device's value set, in pick order

    def add(self, request: str, subrequest: str, device: Device) -> bool:
        if not self.applies(request, subrequest):
            return True
        attribute = self.attribute_of(request, subrequest, device) if self.derived else device.attribute(self.attribute)
        if self.list_mode:
            return self._add_set(attribute)
        typed = _typed(attribute) if attribute is not None else None
        if typed is None:
            return False
        if self.count and typed in self.values.values():
            return False
        self.values[request] = typed
        self.count += 1
        return True

    def _add_set(self, attribute: Mapping[str, Any] | None) -> bool:
        """experimental/constraint.go matchesAttribute with ListTypeAttributes: disjoint from every device recorded so
        far (no per-request bookkeeping in that variant); sets of another type never conflict."""
        found = _as_set(attribute) if attribute is not None else None
        if found is None:
            return False
        if any(kind == found[0] and values & found[1] for kind, values in self.sets):
            return False
        self.sets.append(found)
        self.count += 1
        return True

    def remove(self, request: str, subrequest: str, device: Device) -> None:
        if self.applies(request, subrequest):
            if self.list_mode:
                self.sets.pop()
            else:
                self.values.pop(request, None)
            self.count -= 1


def build_constraints(claim_constraints: Sequence[Mapping[str, Any]], list_mode: bool = False,
                      derived: Tables | None = None) -> list[Constraint] | str:
    """Constraint objects for one claim, or the upstream error text for an unknown constraint kind; `list_mode` is
    DRAListTypeAttributes, `derived` the claim's derived attributes (DRADerivedAttributes on)."""
    result: list[Constraint] = []
    for index, spec in enumerate(claim_constraints):
        requests = tuple(str(name) for name in sequence(spec.get("requests")))
        if spec.get("matchAttribute"):
            result.append(MatchAttribute(requests, str(spec["matchAttribute"]), list_mode, derived))
        elif spec.get("distinctAttribute"):
            result.append(DistinctAttribute(requests, str(spec["distinctAttribute"]), list_mode, derived))
        else:
            return f"constraint #{index}: empty constraint (unsupported constraint type?)"
    return result
