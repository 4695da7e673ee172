"""NUMA rules: device alignment that can never happen (FIT020)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._devices import DRIVER_EQUALS
from kubectl_wasdra.lint.rules._fitting import published_attribute_constraints, request_alternatives, selector_expressions
from kubectl_wasdra.lint.rules._objects import ObjectIndex, object_index
from kubectl_wasdra.load.document import value_at

STANDARD_DOMAIN: Final = "resource.kubernetes.io"
STANDARD_NUMA: Final = f"{STANDARD_DOMAIN}/numaNode"


def _class_driver(index: ObjectIndex, class_name: Any, near: Any) -> str | None:
    """The driver a DeviceClass pins with `device.driver == "X"`, else None."""
    device_class = index.get("DeviceClass", class_name, None, near) if isinstance(class_name, str) else None
    for expression in selector_expressions((device_class or {}).get("spec") or {}):
        match = DRIVER_EQUALS.search(expression)
        if match is not None:
            return match.group(1)
    return None


def _request_drivers(document: Any, index: ObjectIndex) -> dict[str, set[str]]:
    """Request name -> the drivers its DeviceClasses pin (every alternative); a request without a known driver is left out."""
    out: dict[str, set[str]] = {}
    for path, alternatives in request_alternatives(document.kind, document.data):
        name = value_at(document.data, (*path, "name"))
        drivers = {_class_driver(index, request.get("deviceClassName"), document) for _, request in alternatives}
        if isinstance(name, str) and drivers and None not in drivers:
            out[name] = {d for d in drivers if d}
    return out


def _publishers(ctx: CheckContext, drivers: set[str]) -> str:
    """Which of the drivers publish resource.kubernetes.io/numaNode in the snapshot ("" without a snapshot)."""
    if ctx.snapshot is None or not ctx.snapshot.of_kind("ResourceSlice"):
        return ""
    from kubectl_wasdra.lint.rules._devices import cluster_devices

    publishing = {d.driver for d in cluster_devices(ctx.snapshot).devices
                  if "numaNode" in (d.view.attributes.get(STANDARD_DOMAIN) or {})}
    said = [f"{d} {'publishes' if d in publishing else 'does not publish'} it" for d in sorted(drivers)]
    return " In the cluster: " + "; ".join(said) + "."


def _numa_like(attribute: str) -> bool:
    domain, _, ident = attribute.partition("/")
    return bool(ident) and domain != STANDARD_DOMAIN and "numa" in ident.lower()


@rule(codes.FIT_DRIVER_NUMA_ATTRIBUTE_ACROSS_DRIVERS, scope="set")
def driver_numa_attribute_across_drivers(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a `matchAttribute` constraint of a ResourceClaim or ResourceClaimTemplate that names a driver-specific NUMA
    attribute (an attribute whose name contains "numa" outside the `resource.kubernetes.io` domain, such as
    `gpu.example.com/numa`) while the constrained requests are served by different drivers, as their DeviceClasses'
    `device.driver == "..."` selectors say. With `--snapshot`/`--live` the hint says which of those drivers publish the
    standard attribute `resource.kubernetes.io/numaNode`.

    ## Why is this bad?
    Every device of every constrained request must carry the attribute with one value. A driver publishes its own
    domain's attributes, so the other driver's devices never have it: the claim never allocates and the pod stays
    Pending with "cannot allocate all claims".

    ## Example
        constraints: [{requests: [gpus, nic], matchAttribute: rdma.example.com/numa}]

    ## Fix
    Use the standard attribute `resource.kubernetes.io/numaNode` (KEP-6072, no feature gate in 1.37), which drivers of
    any kind publish for the same NUMA node; or, with DRADerivedAttributes (alpha), derive one shared name per request.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured (matchAttribute: every device must
    have the attribute); KEP-6072 standard attributes numaNode and pcieRoot; KEP-6080 derived attributes.
    """
    index = object_index(docs, ctx)
    for document in [*docs.of_kind("ResourceClaim"), *docs.of_kind("ResourceClaimTemplate")]:
        constraints = [found for found in published_attribute_constraints(document.kind, document.data)
                       if _numa_like(found[1])]
        if constraints:
            drivers = _request_drivers(document, index)
            for path, attribute, constraint in constraints:
                yield from _check(document, ctx, path, attribute, constraint, drivers)


def _check(document: Any, ctx: CheckContext, path: tuple[Any, ...], attribute: str, constraint: Mapping[str, Any],
           drivers: Mapping[str, set[str]]) -> Iterator[SetProblem]:
    names = constraint.get("requests") if isinstance(constraint.get("requests"), list) else []
    bases = [str(n).split("/")[0] for n in names or list(drivers)]
    covered = {base: drivers[base] for base in bases if base in drivers}
    involved = set().union(*covered.values()) if covered else set()
    if len(involved) < 2:
        return
    per_request = ", ".join(f"{name}: {'/'.join(sorted(ds))}" for name, ds in covered.items())
    yield SetProblem(document, (*path, "matchAttribute"),
                     f'matchAttribute "{attribute}" spans requests of different drivers ({per_request}): a driver-specific '
                     "attribute is only on that driver's devices, so the constraint can never hold",
                     f"use matchAttribute: {STANDARD_NUMA} (KEP-6072, no feature gate).{_publishers(ctx, involved)}",
                     at="value")
