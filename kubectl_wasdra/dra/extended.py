"""Extended resources backed by DRA: a classic `example.com/gpu: 2` request served by a DeviceClass.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/extendeddynamicresources.go
(filterExtendedResources, createRequestsAndMappings, createResourceRequestAndMappings) and extended/cache.go
(DeviceClassResolver), release-1.37 (DRAExtendedResource is GA in 1.37).

A DeviceClass backs `spec.extendedResourceName`, and every class backs its implicit name
`deviceclass.resource.kubernetes.io/<class>`. On a node whose allocatable lacks the resource (or has 0), the scheduler
builds one in-memory claim for the pod with one ExactCount request per long-lived container ("container-<i>-request-<j>",
i over initContainers+containers, j the index of the resource among the container's sorted request names); plain init
containers reuse later long-lived requests and only the largest extra request is kept. Requests are sorted by name.
When several classes name the same extended resource, the first by name wins (the resolver's choice is not modelled).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.dra.inventory import Inventory
from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity
from kubectl_wasdra.kube.resources import is_extended_resource_name

IMPLICIT_PREFIX: Final = "deviceclass.resource.kubernetes.io/"  # resource/v1 types.go ResourceDeviceClassPrefix
SPECIAL_CLAIM_NAME: Final = "<extended-resources>"  # extendeddynamicresources.go specialClaimInMemName
EXTENDED_CLAIM_ANNOTATION: Final = "resource.kubernetes.io/extended-resource-claim"


@dataclass(frozen=True)
class ExtendedResources:
    """What the node must provide through DRA: the special claim (None if nothing) and container mappings, or `unfit`
    naming a resource neither the node nor any DeviceClass provides."""

    claim: dict[str, Any] | None
    mappings: tuple[dict[str, str], ...] = ()
    unfit: str | None = None


def is_dra_extended_resource(name: str) -> bool:
    """A container request DRA may satisfy: an extended resource name (v1helper.IsExtendedResourceName) or a
    DeviceClass's implicit name under deviceclass.resource.kubernetes.io/."""
    return name.startswith(IMPLICIT_PREFIX) or is_extended_resource_name(name)


def device_class_for(resource: str, inventory: Inventory) -> str | None:
    """The DeviceClass backing an extended resource name, or None."""
    if resource.startswith(IMPLICIT_PREFIX):
        name = resource[len(IMPLICIT_PREFIX):]
        return name if inventory.device_class(name) is not None else None
    return inventory.extended_resource_classes().get(resource)


def _count(container: Mapping[str, Any], resource: str) -> int:
    value = ((container.get("resources") or {}).get("requests") or {}).get(resource)
    if value is None:
        return 0
    try:
        amount = parse_quantity(value)
    except QuantityError:
        return 0
    return int(amount) if amount == amount.to_integral_value() else 0


def _request(index: int, container: Mapping[str, Any], resource: str, class_name: str,
             reusable: Sequence[dict[str, Any] | None]) -> tuple[dict[str, Any] | None, list[dict[str, str]]]:
    wanted = _count(container, resource)
    if wanted == 0:
        return None, []
    cname = str(container.get("name") or "")
    mappings: list[dict[str, str]] = []
    total = 0
    for other in reusable:
        if other is None:
            continue
        total += other["exactly"]["count"]
        mappings.append({"containerName": cname, "resourceName": resource, "requestName": other["name"]})
        if total >= wanted:
            return None, mappings
    keys = sorted((container.get("resources") or {}).get("requests") or {})
    name = f"container-{index}-request-{keys.index(resource)}"
    mappings.append({"containerName": cname, "resourceName": resource, "requestName": name})
    return {"name": name, "exactly": {"deviceClassName": class_name, "allocationMode": "ExactCount",
                                      "count": wanted - total}}, mappings


def _requests_for(pod: Mapping[str, Any], resource: str, class_name: str) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    spec = pod.get("spec") or {}
    inits = list(spec.get("initContainers") or ())
    containers = inits + list(spec.get("containers") or ())
    short = [i for i, c in enumerate(containers) if i < len(inits) and c.get("restartPolicy") != "Always"]
    long_lived: list[dict[str, Any] | None] = [None] * len(containers)
    mappings: list[dict[str, str]] = []
    for i, container in enumerate(containers):
        if i not in short:
            long_lived[i], found = _request(i, container, resource, class_name, ())
            mappings.extend(found)
    largest: dict[str, Any] | None = None
    short_names: set[str] = set()
    short_mappings: list[dict[str, str]] = []
    for i in short:
        request, found = _request(i, containers[i], resource, class_name, long_lived[i:])
        short_mappings.extend(found)
        if request is not None:
            short_names.add(request["name"])
            if largest is None or largest["exactly"]["count"] < request["exactly"]["count"]:
                largest = request
    if largest is not None:
        for mapping in short_mappings:
            if mapping["requestName"] in short_names:
                mapping["requestName"] = largest["name"]
    requests = ([largest] if largest else []) + [r for r in long_lived if r is not None]
    return requests, mappings + short_mappings


def extended_resource_claim(pod: Mapping[str, Any], node_allocatable: Mapping[str, Any], inventory: Inventory
                            ) -> ExtendedResources:
    """The special claim for `pod` on a node with `node_allocatable` (resource name -> quantity)."""
    spec = pod.get("spec") or {}
    resources = sorted({name for c in (*(spec.get("initContainers") or ()), *(spec.get("containers") or ()))
                        for name in ((c.get("resources") or {}).get("requests") or {}) if is_dra_extended_resource(name)})
    requests: list[dict[str, Any]] = []
    mappings: list[dict[str, str]] = []
    for resource in resources:
        if not any(_count(c, resource) for c in (*(spec.get("initContainers") or ()), *(spec.get("containers") or ()))):
            continue
        class_name = device_class_for(resource, inventory)
        allocatable = node_allocatable.get(resource)
        if class_name is not None and (allocatable is None or parse_quantity(allocatable) == 0):
            found, found_mappings = _requests_for(pod, resource, class_name)
            requests.extend(found)
            mappings.extend(found_mappings)
        elif allocatable is None:
            return ExtendedResources(None, (), unfit=resource)
    if not requests:
        return ExtendedResources(None)
    meta = pod.get("metadata") or {}
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "metadata": {"name": SPECIAL_CLAIM_NAME, "namespace": meta.get("namespace") or "default",
                          "annotations": {EXTENDED_CLAIM_ANNOTATION: "true"}},
             "spec": {"devices": {"requests": sorted(requests, key=lambda r: r["name"])}}}
    return ExtendedResources(claim, tuple(mappings))
