"""Effective pod requests and node allocatable, as kube-scheduler's NodeResourcesFit computes them.

Upstream: kubernetes/kubernetes staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests,
AggregateContainerRequests; release-1.37) and pkg/scheduler/framework/types.go (NodeInfo.SetNode uses Allocatable).

Effective requests = max(sum of app containers + restartable (sidecar) init containers,
                         each regular init container + the sidecars started before it)
                     then pod-level requests (cpu, memory, hugepages-*) replace the aggregate when set,
                     then spec.overhead is added.
For bound pods the scheduler also looks at in-place resize status (UseStatusResources): per container the larger of the
spec requests, status.containerStatuses[].allocatedResources and status.containerStatuses[].resources.requests; with an
Infeasible resize only the status values count. Container requests missing but limits set default to the limits, as the
API server's defaulting does (pkg/apis/core/v1/defaults.go SetDefaults_Pod), so undefaulted manifests count the same.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.kube.labels import qualified_name_errors
from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity

Resources = dict[str, Decimal]
POD_LEVEL_RESOURCES: Final = frozenset({"cpu", "memory"})  # plus every hugepages-* (IsSupportedPodLevelResource)
HUGEPAGES_PREFIX: Final = "hugepages-"
TERMINAL_PHASES: Final = frozenset({"Succeeded", "Failed"})
NON_ZERO_DEFAULTS: Final = {"cpu": Decimal("0.1"), "memory": Decimal(200 * 1024 * 1024)}  # pkg/scheduler/util


@functools.lru_cache(maxsize=1024)
def is_extended_resource_name(name: str) -> bool:
    """v1helper.IsExtendedResourceName (pkg/apis/core/v1/helper/helpers.go): not native (it has a "/" and no
    "kubernetes.io/" anywhere: IsNativeResource, IsPrefixedNativeResource), not "requests.*", and "requests." + name
    is a qualified name (so the domain has at most 244 characters)."""
    if "/" not in name or "kubernetes.io/" in name or name.startswith("requests."):
        return False
    return not qualified_name_errors(f"requests.{name}")


def is_pod_level_resource(name: str) -> bool:
    """True for the resources pod-level `spec.resources` may set (cpu, memory, hugepages-*)."""
    return name in POD_LEVEL_RESOURCES or name.startswith(HUGEPAGES_PREFIX)


NEGATIVE: Final = "must be greater than or equal to 0"  # core validation.go ValidateNonnegativeQuantity


@functools.lru_cache(maxsize=4096)  # pods repeat the same few quantities
def _parse(value: Any) -> Decimal:
    """A resource quantity as the API server admits it: a Quantity that is not negative; QuantityError otherwise."""
    amount = parse_quantity(value)
    if amount < 0:
        raise QuantityError(f'"{value}" {NEGATIVE}')
    return amount


def _quantity(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        raise QuantityError(f"a {type(value).__name__} is not a quantity")  # unhashable: not for the cache
    return _parse(value)


def resource_list(value: Mapping[str, Any] | None) -> Resources:
    """A ResourceList (name -> quantity) as exact Decimals; an absent list is empty. QuantityError for a value that
    is not a quantity or is negative (kube-apiserver rejects both), the same verdict `check` gives (VALID010)."""
    return {name: _quantity(quantity) for name, quantity in (value or {}).items()}


def resource_list_problems(spec: Mapping[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path inside the pod spec, message) for each request or limit of the pod and its containers that is not a
    quantity or is negative. Upstream: core validation.go ValidateResourceRequirements / ValidatePodResources
    (ValidateResourceQuantityValue -> ValidateNonnegativeQuantity); the quantity grammar is quantity.go's."""
    places: list[tuple[tuple[str | int, ...], Any]] = [(("resources",), spec.get("resources"))]
    for list_name in ("initContainers", "containers"):
        containers = spec.get(list_name)
        for index, container in enumerate(containers if isinstance(containers, list) else ()):
            if isinstance(container, dict):
                places.append(((list_name, index, "resources"), container.get("resources")))
    lists = [((*prefix, kind), resources.get(kind)) for prefix, resources in places if isinstance(resources, dict)
             for kind in ("requests", "limits")]
    lists.append((("overhead",), spec.get("overhead")))  # validateOverhead: the same quantity rules
    for where, listed in lists:
        for name, value in (listed.items() if isinstance(listed, dict) else ()):
            if isinstance(value, list | dict) or value is None:
                continue  # the schema check reports the type
            try:
                _quantity(value)
            except QuantityError as exc:
                yield (*where, name), str(exc)


def _add(into: Resources, other: Mapping[str, Decimal]) -> None:
    for name, quantity in other.items():
        into[name] = into.get(name, Decimal(0)) + quantity


def _maximize(into: Resources, other: Mapping[str, Decimal]) -> None:
    for name, quantity in other.items():
        if name not in into or quantity > into[name]:
            into[name] = quantity


def _maximum(*lists: Mapping[str, Decimal]) -> Resources:
    result: Resources = {}
    for item in lists:
        _maximize(result, item)
    return result


def container_requests(container: Mapping[str, Any]) -> Resources:
    """Requests of one container; a resource with limits but no request counts its limit (API defaulting)."""
    resources = container.get("resources") or {}
    requests = resource_list(resources.get("limits"))
    requests.update(resource_list(resources.get("requests")))
    return requests


def _is_sidecar(container: Mapping[str, Any]) -> bool:
    return container.get("restartPolicy") == "Always"


def _aggregate(pod: Mapping[str, Any], requests_of: Callable[[Mapping[str, Any]], Resources]) -> Resources:
    """AggregateContainerRequests with one way of reading a container's requests."""
    spec = pod.get("spec") or {}
    result: Resources = {}
    for container in spec.get("containers") or ():
        _add(result, requests_of(container))
    sidecars: Resources = {}
    init_peak: Resources = {}
    for container in spec.get("initContainers") or ():
        own = requests_of(container)
        if _is_sidecar(container):
            _add(result, own)
            _add(sidecars, own)
            _maximize(init_peak, sidecars)
        else:
            running = dict(own)
            _add(running, sidecars)
            _maximize(init_peak, running)
    _maximize(result, init_peak)
    return result


def _is_resize_infeasible(pod: Mapping[str, Any]) -> bool:
    """IsPodResizeInfeasible: the PodResizePending condition has reason Infeasible."""
    for condition in (pod.get("status") or {}).get("conditions") or ():
        if condition.get("type") == "PodResizePending":
            return condition.get("reason") == "Infeasible"
    return False


def _container_statuses(pod: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    status = pod.get("status") or {}
    statuses: dict[str, Mapping[str, Any]] = {}
    for entry in (status.get("initContainerStatuses") or ()):
        statuses.setdefault(entry.get("name", ""), entry)
    for entry in (status.get("containerStatuses") or ()):
        statuses[entry.get("name", "")] = entry  # app containers are looked up first upstream
    return statuses


def _status_aware_requests(pod: Mapping[str, Any], spec_requests: Callable[[Mapping[str, Any]], Resources],
                           missing: Mapping[str, Decimal]) -> Resources:
    """max(spec, allocated, actuated) per aggregate, or max(allocated, actuated) when the resize is infeasible."""
    statuses = _container_statuses(pod)
    if not statuses:
        return _aggregate(pod, spec_requests)
    infeasible = _is_resize_infeasible(pod)

    def allocated(container: Mapping[str, Any]) -> Resources:
        status = statuses.get(container.get("name", ""))
        if status is not None and status.get("allocatedResources") is not None:
            return _with_missing(resource_list(status["allocatedResources"]), missing)
        return {} if infeasible else spec_requests(container)

    def actuated(container: Mapping[str, Any]) -> Resources:
        status = statuses.get(container.get("name", ""))
        if status is not None and ((status.get("resources") or {}).get("requests")) is not None:
            return _with_missing(resource_list(status["resources"]["requests"]), missing)
        return allocated(container)

    status_lists = (_aggregate(pod, actuated), _aggregate(pod, allocated))
    if infeasible:
        return _maximum(*status_lists)
    return _maximum(_aggregate(pod, spec_requests), *status_lists)


def _with_missing(requests: Resources, missing: Mapping[str, Decimal]) -> Resources:
    """helpers.go applyNonMissing: `missing` values for the resources a container does not request at all (an
    explicit 0 stays 0)."""
    for name, value in missing.items():
        requests.setdefault(name, value)
    return requests


def pod_requests(pod: Mapping[str, Any], *, use_status_resources: bool = True,
                 missing: Mapping[str, Decimal] | None = None) -> Resources:
    """Effective requests of a pod per resource name (cpu in cores, memory in bytes, ...), exact; "pods" is not included
    (the caller counts one pod). `use_status_resources` follows in-place resize status, as the scheduler does;
    `missing` gives every container the requests it lacks (PodResourcesOptions.NonMissingContainerRequests)."""
    spec = pod.get("spec") or {}
    missing = missing or {}
    spec_requests: Callable[[Mapping[str, Any]], Resources] = \
        (lambda c: _with_missing(container_requests(c), missing)) if missing else container_requests
    requests = _status_aware_requests(pod, spec_requests, missing) if use_status_resources \
        else _aggregate(pod, spec_requests)
    pod_level = spec.get("resources") or {}
    level_requests = resource_list(pod_level.get("requests"))
    for name, limit in resource_list(pod_level.get("limits")).items():
        # defaulting: a pod-level limit without a request becomes the request unless containers request that resource
        if name not in level_requests and name not in requests:
            level_requests[name] = limit
    for name, quantity in level_requests.items():
        if is_pod_level_resource(name):
            requests[name] = quantity
    _add(requests, resource_list(spec.get("overhead")))
    return requests


def pod_nonzero_requests(pod: Mapping[str, Any]) -> Resources:
    """The requests scoring counts for a pod (PodInfo.CalculateResource Non0CPU/Non0Mem, pkg/scheduler/framework/
    types.go): every container lacking a cpu or memory request counts 100m / 200Mi (schedutil DefaultMilliCPURequest,
    DefaultMemoryRequest); with pod-level requests only a resource the pod requests nowhere gets the default
    (getNonMissingContainerRequests)."""
    missing = NON_ZERO_DEFAULTS
    level = resource_list(((pod.get("spec") or {}).get("resources") or {}).get("requests"))
    if any(is_pod_level_resource(name) for name in level):  # IsPodLevelRequestsSet
        requests = pod_requests(pod)
        missing = {name: value for name, value in missing.items() if name not in requests}
        if not missing:
            return requests
    return pod_requests(pod, missing=missing)


def node_allocatable(node: Mapping[str, Any]) -> Resources:
    """status.allocatable as exact Decimals, including "pods"; a node without allocatable offers nothing (as upstream)."""
    return resource_list((node.get("status") or {}).get("allocatable"))


def is_terminal(pod: Mapping[str, Any]) -> bool:
    """True for pods in phase Succeeded or Failed: they no longer hold node resources."""
    return (pod.get("status") or {}).get("phase") in TERMINAL_PHASES
