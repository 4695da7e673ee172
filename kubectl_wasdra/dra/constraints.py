"""Claim constraints: matchAttribute and distinctAttribute, with add/remove for the backtracking search.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/
allocator_incubating.go (matchAttributeConstraint, lookupAttribute) and constraint.go (distinctAttributeConstraint),
release-1.37.

A constraint applies to a device picked for request R (subrequest S) if its `requests` is empty, names R, or names
"R/S". Attribute lookup: the fully-qualified key, else the bare identifier when the domain is the driver's; a device
without the attribute violates the constraint. Versions compare as strings for matchAttribute (semver is minimal).
distinctAttribute reproduces the 1.37 per-request bookkeeping quirk described on DistinctAttribute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubectl_wasdra.dra.fields import sequence
from kubectl_wasdra.dra.inventory import Device

_SCALARS = ("string", "int", "bool", "version")


def _typed(attribute: Mapping[str, Any]) -> tuple[str, Any] | None:
    for kind in _SCALARS:
        if kind in attribute:
            return kind, attribute[kind]
    return None


class Constraint:
    """Base: which requests a constraint covers."""

    def __init__(self, requests: Sequence[str], attribute: str) -> None:
        self.requests = frozenset(requests)
        self.attribute = attribute

    def applies(self, request: str, subrequest: str) -> bool:
        if not self.requests:
            return True
        return request in self.requests or (bool(subrequest) and f"{request}/{subrequest}" in self.requests)

    def add(self, request: str, subrequest: str, device: Device) -> bool:
        raise NotImplementedError

    def remove(self, request: str, subrequest: str, device: Device) -> None:
        raise NotImplementedError


class MatchAttribute(Constraint):
    """Every device of the covered requests has the same value; the first device fixes it."""

    def __init__(self, requests: Sequence[str], attribute: str) -> None:
        super().__init__(requests, attribute)
        self.value: tuple[str, Any] | None = None
        self.count = 0

    def add(self, request: str, subrequest: str, device: Device) -> bool:
        if not self.applies(request, subrequest):
            return True
        attribute = device.attribute(self.attribute)
        if attribute is None:
            return False
        typed = _typed(attribute)
        if self.count == 0:
            self.value = typed
            self.count = 1
            return True
        if typed is None or typed != self.value:
            return False
        self.count += 1
        return True

    def remove(self, request: str, subrequest: str, device: Device) -> None:
        if self.applies(request, subrequest):
            self.count -= 1


class DistinctAttribute(Constraint):
    """Every device of the covered requests has a different value.

    **Quirk** (1.37 allocator_incubating.go / constraint.go): recorded values are keyed by the *base request name*, so
    within one request only the previously picked device is remembered (a third device may repeat the first one's
    value), and removing one device on backtracking forgets the request's entry altogether. Values of another type
    than the candidate's never conflict. (1.38 development keeps a list of all values instead.)
    """

    def __init__(self, requests: Sequence[str], attribute: str) -> None:
        super().__init__(requests, attribute)
        self.values: dict[str, tuple[str, Any]] = {}
        self.count = 0

    def add(self, request: str, subrequest: str, device: Device) -> bool:
        if not self.applies(request, subrequest):
            return True
        attribute = device.attribute(self.attribute)
        typed = _typed(attribute) if attribute is not None else None
        if typed is None:
            return False
        if self.count and typed in self.values.values():
            return False
        self.values[request] = typed
        self.count += 1
        return True

    def remove(self, request: str, subrequest: str, device: Device) -> None:
        if self.applies(request, subrequest):
            self.values.pop(request, None)
            self.count -= 1


def build_constraints(claim_constraints: Sequence[Mapping[str, Any]]) -> list[Constraint] | str:
    """Constraint objects for one claim, or the upstream error text for an unknown constraint kind."""
    result: list[Constraint] = []
    for index, spec in enumerate(claim_constraints):
        requests = tuple(str(name) for name in sequence(spec.get("requests")))
        if spec.get("matchAttribute"):
            result.append(MatchAttribute(requests, str(spec["matchAttribute"])))
        elif spec.get("distinctAttribute"):
            result.append(DistinctAttribute(requests, str(spec["distinctAttribute"])))
        else:
            return f"constraint #{index}: empty constraint (unsupported constraint type?)"
    return result
