""""Can never fit" arithmetic for FIT003: a pod's effective requests against the largest nodes, and the requests of a
claim with their alternatives (firstAvailable subrequests).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go (a request above the node's
allocatable is UnschedulableAndUnresolvable), staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.kube.quantity import QuantityError, copies, format_quantity
from kubectl_wasdra.lint.rules._pods import PodSource, containers
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list
from kubectl_wasdra.load import Path
from kubectl_wasdra.load.document import value_at

if TYPE_CHECKING:
    from kubectl_wasdra.catalog.releases import Release
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
    from kubectl_wasdra.lint.rules._devices import ClusterDevice, ClusterDevices
    from kubectl_wasdra.lint.rules._objects import ObjectIndex

# resources DRA provides through a DeviceClass (DRAExtendedResource) are not on node allocatable
IMPLICIT_EXTENDED_PREFIX: Final = "deviceclass.resource.kubernetes.io/"


@dataclass(frozen=True)
class CapacityProblem:
    path: Path
    message: str
    hint: str


def request_alternatives(kind: str | None, data: Mapping[str, Any]
                         ) -> Iterator[tuple[Path, list[tuple[Path, Mapping[str, Any]]]]]:
    """(request path, [(path, request or subrequest)]) for each request of a ResourceClaim or ResourceClaimTemplate
    (`data` is the object); a request is satisfiable when any alternative is."""
    spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
    if kind != "ResourceClaim":
        spec = spec.get("spec") if isinstance(spec.get("spec"), dict) else {}
    base: Path = ("spec", "devices") if kind == "ResourceClaim" else ("spec", "spec", "devices")
    devices = spec.get("devices") if isinstance(spec.get("devices"), dict) else {}
    requests = devices.get("requests")
    for index, request in enumerate(requests if isinstance(requests, list) else []):
        if not isinstance(request, dict):
            continue
        path = (*base, "requests", index)
        alternatives: list[tuple[Path, Mapping[str, Any]]] = []
        if isinstance(request.get("exactly"), dict):
            alternatives.append(((*path, "exactly"), request["exactly"]))
        elif isinstance(request.get("firstAvailable"), list):
            alternatives.extend(((*path, "firstAvailable", i), sub) for i, sub in enumerate(request["firstAvailable"])
                                if isinstance(sub, dict))
        elif "deviceClassName" in request:
            alternatives.append((path, request))
        if alternatives:
            yield path, alternatives


def selector_expressions(obj: Mapping[str, Any] | None) -> list[str]:
    """The CEL expressions of `obj["selectors"]` (a request, subrequest or DeviceClass spec)."""
    selectors = as_dict(obj).get("selectors")
    found = []
    for selector in selectors if isinstance(selectors, list) else []:
        expression = as_dict(selector.get("cel")).get("expression") if isinstance(selector, dict) else None
        if isinstance(expression, str):
            found.append(expression)
    return found


def request_matches(devices: ClusterDevices, index: ObjectIndex, request: Mapping[str, Any], release: Release
                    ) -> list[ClusterDevice] | None:
    """Cluster devices the request's DeviceClass and selectors select; None when the class is unknown (REF003/REF010)
    or a selector does not compile (VALID031)."""
    name = request.get("deviceClassName")
    device_class = index.get("DeviceClass", name, None) if isinstance(name, str) else None
    if device_class is None:
        return None
    return devices.matching([*selector_expressions(device_class.get("spec")), *selector_expressions(request)], release)


def claim_never_matches(kind: str, data: Mapping[str, Any], devices: ClusterDevices, index: ObjectIndex,
                        release: Release) -> bool:
    """True when some request of the claim (or claim template) matches no device in any alternative, or a
    matchAttribute constraint names an attribute none of a constrained request's devices has."""
    for _, alternatives in request_alternatives(kind, data):
        results = [request_matches(devices, index, request, release) for _, request in alternatives]
        if all(result is not None and not result for result in results):
            return True
    return any(True for _ in constraint_problems(kind, data, devices, index, release))


def pod_never_matches(spec: Mapping[str, Any], namespace: str | None, devices: ClusterDevices, index: ObjectIndex,
                      release: Release) -> bool:
    """True when one of the pod's claims can never be satisfied by any device of the cluster."""
    for entry in as_list(spec.get("resourceClaims")):
        if not isinstance(entry, dict):
            continue
        for field, kind in (("resourceClaimTemplateName", "ResourceClaimTemplate"), ("resourceClaimName", "ResourceClaim")):
            name = entry.get(field)
            claim = index.get(kind, name, namespace) if isinstance(name, str) else None
            if claim is not None and claim_never_matches(kind, claim, devices, index, release):
                return True
    return False


def dra_extended_resources(snapshot: ClusterSnapshot, manifest_classes: Sequence[Mapping[str, Any]] = ()) -> frozenset[str]:
    """Extended resource names DeviceClasses of the cluster and the manifests provide (explicit extendedResourceName)."""
    classes = (*snapshot.of_kind("DeviceClass"), *manifest_classes)
    names = (as_dict(c.get("spec")).get("extendedResourceName") for c in classes)
    return frozenset(n for n in names if isinstance(n, str))


def _request_path(source: PodSource, resource: str) -> Path:
    for field, index, container in containers(source.spec):
        resources = container.get("resources") or {}
        for kind in ("requests", "limits"):
            if isinstance(resources.get(kind), dict) and resource in resources[kind]:
                return (*source.spec_path, field, index, "resources", kind, resource)
    return source.spec_path


def _requests(source: PodSource, extended: frozenset[str]) -> dict[str, Decimal] | None:
    from kubectl_wasdra.kube.resources import pod_requests

    try:
        requests = pod_requests({"spec": dict(source.spec)}, use_status_resources=False)
    except (QuantityError, TypeError, AttributeError):
        return None  # VALID010 / SCHEMA report malformed quantities
    return {name: value for name, value in requests.items()
            if value > 0 and name not in extended and not name.startswith(IMPLICIT_EXTENDED_PREFIX)}


def _text(resource: str, value: Decimal) -> str:
    binary = resource in ("memory", "ephemeral-storage") or resource.startswith("hugepages-")
    return format_quantity(value, binary=binary)


def node_capacity_problem(source: PodSource, snapshot: ClusterSnapshot,
                          allocatable: Sequence[Mapping[str, Decimal]] | None = None,
                          extended: frozenset[str] | None = None) -> CapacityProblem | None:
    """Why no node of the snapshot could ever take one pod of `source`, or None. `allocatable` (per node) and
    `extended` (DRA-backed extended resources) may be passed in to avoid recomputing them for every pod source."""
    from kubectl_wasdra.kube.resources import node_allocatable

    requests = _requests(source, dra_extended_resources(snapshot) if extended is None else extended)
    if not requests:
        return None
    nodes = allocatable if allocatable is not None else [node_allocatable(n) for n in snapshot.of_kind("Node")]
    if any(all(node.get(name, Decimal(0)) >= value for name, value in requests.items()) for node in nodes):
        return None
    for name, value in sorted(requests.items()):
        largest = max((node.get(name, Decimal(0)) for node in nodes), default=Decimal(0))
        if largest == 0:
            return CapacityProblem(
                _request_path(source, name), f"{source.label} requests {name} but no node of the cluster offers it: "
                "it can never fit", "request a resource the nodes advertise, or the devices through a ResourceClaim")
        if value > largest:
            return CapacityProblem(
                _request_path(source, name),
                f"{source.label} requests {name} {_text(name, value)} per pod but the largest node of the cluster has "
                f"{_text(name, largest)} allocatable: it can never fit",
                f"request at most {_text(name, largest)} {name}, or add larger nodes")
    wanted = ", ".join(f"{name} {_text(name, value)}" for name, value in sorted(requests.items()))
    return CapacityProblem(source.spec_path, f"{source.label} requests {wanted} per pod: no single node of the cluster "
                           "has all of it allocatable, so it can never fit", "lower one of the requests")


_UNBOUNDED: Final = 1 << 30  # devices "available" on a node whose matching devices allow multiple allocations


def _per_node_devices(source: PodSource, devices: ClusterDevices, index: ObjectIndex, release: Release
                      ) -> list[tuple[int, dict[str | None, int]]]:
    """(count, matching devices per node, None = network-attached) for each per-pod ExactCount request of the pod's
    claim templates (shared claims are allocated once, so they do not limit pods per node)."""
    from collections import Counter

    found = []
    for entry in as_list(source.spec.get("resourceClaims")):
        name = entry.get("resourceClaimTemplateName") if isinstance(entry, dict) else None
        template = index.get("ResourceClaimTemplate", name, source.namespace, near=source.document) \
            if isinstance(name, str) else None
        if template is None:
            continue
        for _, alternatives in request_alternatives("ResourceClaimTemplate", template):
            request = alternatives[0][1]
            count = request.get("count", 1)
            matched = request_matches(devices, index, request, release)
            if len(alternatives) == 1 and matched and isinstance(count, int) and count > 0 and \
                    request.get("allocationMode", "ExactCount") == "ExactCount":
                # a device allowing multiple allocations serves several pods: only its capacity bounds them, so the
                # nodes (or, network-attached, every node) that publish one get no device bound here
                per_node = Counter(d.node for d in matched)
                for shared in {d.node for d in matched if d.view.allow_multiple_allocations}:
                    per_node[shared] = _UNBOUNDED
                found.append((count, dict(per_node)))
    return found


def pods_per_node(source: PodSource, nodes: Mapping[str, Mapping[str, Decimal]], devices: ClusterDevices | None,
                  index: ObjectIndex, release: Release, extended: frozenset[str]) -> dict[str, int] | None:
    """How many pods of `source` each empty node could hold (an upper bound: taints and affinity are ignored);
    None when the requests cannot be read."""
    requests = _requests(source, extended)
    if requests is None:
        return None
    claims = _per_node_devices(source, devices, index, release) if devices is not None else []
    capacity: dict[str, int] = {}
    for name, allocatable in nodes.items():
        room = copies(allocatable.get("pods", Decimal(110)), Decimal(1))
        for resource, value in requests.items():
            room = min(room, copies(allocatable.get(resource, Decimal(0)), value))
        for count, per_node in claims:
            room = min(room, (per_node.get(name, 0) + per_node.get(None, 0)) // count)
        capacity[name] = max(room, 0)
    return capacity


@dataclass(frozen=True)
class ConstraintProblem:
    """A matchAttribute constraint no matching device can meet: where, the attribute, the request lacking it."""

    path: Path
    attribute: str
    request: str


def _has_attribute(device: ClusterDevice, qualified: str) -> bool:
    domain, _, ident = qualified.rpartition("/")
    return ident in device.view.attributes.get(domain or device.driver, {})


def derived_names(kind: str | None, data: Mapping[str, Any]) -> set[str]:
    """Names of the claim's derivedAttributes, in any request or subrequest."""
    return {str(d.get("name")) for _, alternatives in request_alternatives(kind, data) for _, request in alternatives
            for d in (request.get("derivedAttributes") if isinstance(request.get("derivedAttributes"), list) else [])
            if isinstance(d, dict)}


def constraint_problems(kind: str | None, data: Mapping[str, Any], devices: ClusterDevices, index: ObjectIndex,
                        release: Release) -> Iterator[ConstraintProblem]:
    """`matchAttribute` constraints of a claim (or template) where a constrained request has matching devices but
    none of them publishes the attribute: the allocator can never satisfy the constraint (dra-allocation.md §6)."""
    matched: dict[str, list[ClusterDevice] | None] = {}
    for _, alternatives in request_alternatives(kind, data):
        if len(alternatives) == 1:
            path, request = alternatives[0]
            name = as_dict(value_at(data, path[:-1])).get("name") if path[-1] == "exactly" else request.get("name")
            if isinstance(name, str):
                matched[name] = request_matches(devices, index, request, release)
    for path, attribute, constraint in published_attribute_constraints(kind, data):
        if "/" not in attribute:
            continue
        names = constraint.get("requests") or list(matched)
        for name in names if isinstance(names, list) else []:
            found = matched.get(name) if isinstance(name, str) else None
            if found and not any(_has_attribute(device, attribute) for device in found):
                yield ConstraintProblem((*path, "matchAttribute"), attribute, name)
                break


def published_attribute_constraints(kind: str | None, data: Mapping[str, Any]
                                    ) -> Iterator[tuple[Path, str, Mapping[str, Any]]]:
    """(path, attribute, constraint) of each `matchAttribute` constraint of a claim (or template) whose attribute the
    devices must publish. A derived attribute (KEP-6080, a request's derivedAttributes) is computed per request and
    no device publishes it, so its constraints are left out here, for every rule."""
    base: Path = ("spec", "devices") if kind == "ResourceClaim" else ("spec", "spec", "devices")
    constraints = value_at(data, (*base, "constraints"))
    if not isinstance(constraints, list) or not constraints:
        return
    derived = derived_names(kind, data)
    for position, constraint in enumerate(constraints):
        attribute = constraint.get("matchAttribute") if isinstance(constraint, dict) else None
        if isinstance(attribute, str) and attribute not in derived:
            yield (*base, "constraints", position), attribute, constraint
