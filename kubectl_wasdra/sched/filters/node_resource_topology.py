"""NodeResourceTopologyMatch (scheduler-plugins, out of tree): for nodes whose NodeResourceTopology says the kubelet
runs `single-numa-node`, a Guaranteed pod (or any pod with non-native resources) must fit one NUMA zone's `available`
amounts, per container or for the whole pod as the topologyManagerScope says. Enabled by a --scheduler-config
profile that lists it, or by --numa-aware-scheduler.

Upstream: kubernetes-sigs/scheduler-plugins pkg/noderesourcetopology/filter.go (Filter, singleNUMAContainerLevelHandler,
singleNUMAPodLevelHandler, resourcesAvailableInAnyNUMANodes), numaresources.go (isResourceSetSuitable,
isHostLevelResource, subtractResourcesFromNUMANodeList), pluginhelpers.go (createNUMANodeList reads `available`),
nodeconfig/topologymanager.go, at 903da7df82cb (2026-08-16). The NRT is read as the snapshot holds it (the plugin's
passthrough cache, cacheResyncPeriodSeconds <= 0): pods placed by this simulation are not subtracted.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.cluster.numa_kinds import NRT_KIND
from kubectl_wasdra.kubelet.facts import nrt_policy, numa_zones
from kubectl_wasdra.kubelet.requests import is_guaranteed, quantity_or_none, requests_of
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeResourceTopologyMatch"
_AFFINE: Final = ("cpu", "memory")
Zones = dict[int, dict[str, Decimal]]


def _qos(pod: Mapping[str, Any], containers: list[Mapping[str, Any]]) -> str:
    """v1qos.GetPodQOS: Guaranteed (requests = limits for cpu and memory), BestEffort (neither set), else Burstable."""
    if is_guaranteed(pod):
        return "Guaranteed"
    if any(n in requests_of(c) for c in containers for n in _AFFINE):
        return "Burstable"
    return "BestEffort"


def _native(name: str) -> bool:
    return "/" not in name or name.split("/", 1)[0].endswith("kubernetes.io")


def _affine(name: str) -> bool:
    return name in _AFFINE or name.startswith("hugepages-")


def _zones(nrt: Mapping[str, Any]) -> Zones:
    """Each NUMA zone's available amounts."""
    return {zone_id: {str(r.get("name")): quantity_or_none(r.get("available", 0)) or Decimal(0)
                      for r in zone.get("resources") or [] if isinstance(r, dict)}
            for zone_id, zone in numa_zones(nrt).items()}


def _fits_one(zones: Zones, allocatable: Mapping[str, Any], qos: str, request: Mapping[str, Decimal]) -> int | None:
    """resourcesAvailableInAnyNUMANodes: the lowest NUMA id that fits every non-zero resource, else None."""
    candidates = set(zones)
    for name, quantity in request.items():
        if quantity == 0:
            continue
        if name not in allocatable:
            return None
        listed = [z for z in zones if name in zones[z]]
        if not listed and (not _native(name) or name in ("ephemeral-storage", "storage")):
            continue  # host-level resource without NUMA affinity
        candidates &= {z for z in listed if (qos != "Guaranteed" and _affine(name)) or zones[z][name] >= quantity}
        if not candidates:
            return None
    return min(candidates) if candidates else None


def _fail(message: str) -> Status:
    return Status.unschedulable(Reason.NUMA_ALIGNMENT, message, NAME)


def _container_scope(pod: Mapping[str, Any], zones: Zones, allocatable: Mapping[str, Any], qos: str) -> Status | None:
    spec = pod.get("spec") or {}
    for init in spec.get("initContainers") or []:
        if _fits_one(zones, allocatable, qos, requests_of(init)) is None:
            kind = "sidecar" if init.get("restartPolicy") == "Always" else "init"
            return _fail(f"cannot align {kind} container")
    for container in spec.get("containers") or []:
        request = requests_of(container)
        numa = _fits_one(zones, allocatable, qos, request)
        if numa is None:
            return _fail("cannot align container")
        for name, quantity in request.items():  # subtractResourcesFromNUMANodeList
            if name in zones[numa] and quantity and not (qos != "Guaranteed" and _affine(name)):
                zones[numa][name] -= quantity
    return None


def _pod_request(pod: Mapping[str, Any]) -> dict[str, Decimal]:
    """util.GetPodEffectiveRequest: max(each init container, sum of app containers), plus overhead."""
    spec = pod.get("spec") or {}
    total: dict[str, Decimal] = {}
    for container in spec.get("containers") or []:
        for name, value in requests_of(container).items():
            total[name] = total.get(name, Decimal(0)) + value
    for init in spec.get("initContainers") or []:
        for name, value in requests_of(init).items():
            total[name] = max(total.get(name, Decimal(0)), value)
    for name, value in requests_of({"resources": {"requests": spec.get("overhead")}}).items():
        total[name] = total.get(name, Decimal(0)) + value
    return total


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """Filter: None unless the node's NRT says single-numa-node and no NUMA zone can hold the pod (or a container)."""
    snapshot = getattr(node.state, "snapshot", None)
    nrt = snapshot.get(NRT_KIND, node.name, "") if snapshot is not None else None
    if nrt is None:
        return None
    spec = pod.pod.get("spec") or {}
    containers = [c for c in [*(spec.get("initContainers") or []), *(spec.get("containers") or [])] if isinstance(c, dict)]
    qos = _qos(pod.pod, containers)
    if qos == "BestEffort" and not any(not _native(n) for c in containers for n in requests_of(c)):
        return None
    config = nrt_policy(nrt)
    if config.get("topologyManagerPolicy") != "single-numa-node":
        return None
    zones, allocatable = _zones(nrt), node.facts.allocatable
    if config.get("topologyManagerScope") == "pod":
        return None if _fits_one(zones, allocatable, qos, _pod_request(pod.pod)) is not None else _fail("cannot align pod")
    return _container_scope(pod.pod, zones, allocatable, qos)


def enabled_in(config: Any) -> Any:
    """`config` (a SchedulerConfig) with this filter enabled in every profile, after the in-tree filters."""
    from dataclasses import replace

    profiles = tuple(p if NAME in p.filter_names else replace(p, filter_names=(*p.filter_names, NAME))
                     for p in config.profiles)
    return replace(config, profiles=profiles)
