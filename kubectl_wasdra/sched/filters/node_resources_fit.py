"""NodeResourcesFit filter: pod count and every requested resource against what is free on the node.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go (release-1.37): "Too many pods",
"Insufficient <resource>"; a request above the node's whole allocatable is UnschedulableAndUnresolvable (PR #131345).
Extended resources the node does not advertise but a DeviceClass maps (DRAExtendedResource) are left to DynamicResources.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final

from kubectl_wasdra.kube.quantity import format_quantity
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import MILLI_RESOURCES, PodInfo
from kubectl_wasdra.sched.state import PODS
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeResourcesFit"
TOO_MANY_PODS: Final = "Too many pods"
INSUFFICIENT: Final = "Insufficient {resource}"


def _quantity(resource: str, value: int) -> str:
    """Canonical quantity text of an integer amount (cpu is in millicores)."""
    amount = Decimal(value) / 1000 if resource in MILLI_RESOURCES else Decimal(value)
    return format_quantity(amount, binary=resource == "memory")


def _insufficient(pod: PodInfo, node: NodeInfo) -> list[Status]:
    out = []
    allocatable = node.facts.allocatable
    dra_names = node.state.dra.extended_names if node.state.dra is not None else frozenset()
    fit = pod.profile.fit if pod.profile is not None else None
    for resource in sorted(pod.requests):
        requested = pod.requests[resource]
        if resource not in allocatable and resource in dra_names:
            continue  # served through DRA (extended resource backed by a DeviceClass)
        if fit is not None and fit.ignores(resource):
            continue  # the profile's ignoredResources / ignoredResourceGroups (extended resources only)
        free = allocatable.get(resource, 0) - node.requested.get(resource, 0)
        if requested <= free:
            continue
        make = Status.unresolvable if requested > allocatable.get(resource, 0) else Status.unschedulable
        out.append(make(Reason.INSUFFICIENT_RESOURCE, INSUFFICIENT.format(resource=resource), NAME,
                        resource=resource, requested=_quantity(resource, requested), free=_quantity(resource, max(free, 0))))
    return out


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if the pod fits; otherwise one status carrying every failing check (each counts in the histogram)."""
    failures: list[Status] = []
    allowed = node.facts.allocatable.get(PODS, 0)
    if node.pod_count + 1 > allowed:
        failures.append(Status.unschedulable(Reason.TOO_MANY_PODS, TOO_MANY_PODS, NAME, allowed=allowed,
                                             running=node.pod_count))
    failures.extend(_insufficient(pod, node))
    if not failures:
        return None
    return failures[0].with_more(tuple(failures[1:]))
