"""What each hint provider is asked for: exclusive CPUs (CPU Manager static), memory and hugepages (Memory Manager
Static) and device-plugin resources, per container or for the whole pod, with pod QoS and pod-level resources.

Upstream: kubernetes/kubernetes pkg/apis/core/v1/helper/qos (GetPodQOS), pkg/kubelet/cm/cpumanager/policy_static.go
(guaranteedCPUs, podGuaranteedCPUs), memorymanager/policy_static.go (getRequestedResources),
devicemanager/topology_hints.go (limits of device-plugin resources); KEP-5526 (PodLevelResourceManagers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity

POD_LEVEL_GATE: Final = "PodLevelResourceManagers"


@dataclass(frozen=True)
class Ask:
    """One unit the Topology Manager merges for: a container (container scope) or the pod (pod scope)."""

    name: str
    cpus: int = 0  # exclusive CPUs (0: the shared pool, no CPU hint)
    memory: Mapping[str, Decimal] = field(default_factory=dict)  # memory and hugepages-* (Static policy only)
    devices: Mapping[str, int] = field(default_factory=dict)  # device-plugin resource -> count
    init: bool = False


def quantity_or_none(value: Any) -> Decimal | None:
    """The quantity, or None when it does not parse (bad input is skipped, never a crash)."""
    try:
        return parse_quantity(value)
    except (QuantityError, TypeError, ValueError):
        return None


def _resources(obj: Mapping[str, Any] | None, key: str) -> dict[str, Decimal]:
    resources = (obj or {}).get("resources")
    values = resources.get(key) if isinstance(resources, dict) else None
    if not isinstance(values, dict):
        return {}
    return {str(k): q for k, v in values.items() if (q := quantity_or_none(v)) is not None}


def requests_of(obj: Mapping[str, Any] | None) -> dict[str, Decimal]:
    """Requests of a container (or of `spec` for pod-level resources), defaulted from limits as the API server does."""
    return {**_resources(obj, "limits"), **_resources(obj, "requests")}


def _guaranteed(obj: Mapping[str, Any]) -> bool:
    limits, requests = _resources(obj, "limits"), requests_of(obj)
    return all(name in limits and limits[name] == requests.get(name) and limits[name] > 0 for name in ("cpu", "memory"))


def containers(pod: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], bool]]:
    """(container, is_init) in the order the kubelet admits them: init containers, then app containers."""
    spec = pod.get("spec") or {}
    return ([(c, True) for c in spec.get("initContainers") or [] if isinstance(c, dict)] +
            [(c, False) for c in spec.get("containers") or [] if isinstance(c, dict)])


def pod_level(pod: Mapping[str, Any]) -> bool:
    """The pod sets spec.resources (IsPodLevelResourcesSet)."""
    return bool(_resources(pod.get("spec"), "requests") or _resources(pod.get("spec"), "limits"))


def is_guaranteed(pod: Mapping[str, Any]) -> bool:
    """GetPodQOS == Guaranteed: from spec.resources when set, else every container has cpu and memory limits = requests."""
    if pod_level(pod):
        return _guaranteed(pod.get("spec") or {})
    listed = containers(pod)
    return bool(listed) and all(_guaranteed(c) for c, _ in listed)


def _integral_cpus(obj: Mapping[str, Any]) -> int:
    cpu = requests_of(obj).get("cpu", Decimal(0))
    return int(cpu) if cpu == cpu.to_integral_value() else 0


def _memory(obj: Mapping[str, Any]) -> dict[str, Decimal]:
    return {k: v for k, v in requests_of(obj).items() if (k == "memory" or k.startswith("hugepages-")) and v > 0}


def _devices(obj: Mapping[str, Any], device_resources: frozenset[str]) -> dict[str, int]:
    return {k: int(v) for k, v in _resources(obj, "limits").items() if k in device_resources and v > 0}


def container_asks(pod: Mapping[str, Any], cpu_static: bool, memory_static: bool, gate_on: bool,
                   device_resources: frozenset[str]) -> list[Ask]:
    """One Ask per container. With pod-level resources and the gate off, CPU and memory get no exclusive share."""
    guaranteed = is_guaranteed(pod)
    exclusive = guaranteed and (not pod_level(pod) or gate_on)
    out = []
    for container, init in containers(pod):
        eligible = exclusive and (not pod_level(pod) or _guaranteed(container))
        out.append(Ask(str(container.get("name", "")), _integral_cpus(container) if cpu_static and eligible else 0,
                       _memory(container) if memory_static and eligible else {},
                       _devices(container, device_resources), init))
    return out


def _effective(asks: Sequence[Ask], pick: Any) -> Any:
    """max(init peak, sum of app containers) of one quantity (the pod's effective request)."""
    init = max((pick(a) for a in asks if a.init), default=0)
    return max(init, sum((pick(a) for a in asks if not a.init), start=type(init)()))


def pod_ask(pod: Mapping[str, Any], asks: Sequence[Ask], cpu_static: bool, memory_static: bool,
            gate_on: bool) -> Ask:
    """The pod as one unit (pod scope): the pod budget with pod-level resources and the gate on, else effective sums."""
    names = {n for a in asks for n in a.devices}
    devices = {n: _effective(asks, lambda a, n=n: a.devices.get(n, 0)) for n in names}
    if pod_level(pod) and gate_on and is_guaranteed(pod):
        spec = pod.get("spec") or {}
        return Ask("pod", _integral_cpus(spec) if cpu_static else 0, _memory(spec) if memory_static else {}, devices)
    kinds = {n for a in asks for n in a.memory}
    memory = {n: _effective(asks, lambda a, n=n: a.memory.get(n, Decimal(0))) for n in kinds}
    return Ask("pod", _effective(asks, lambda a: a.cpus), {k: v for k, v in memory.items() if v > 0},
               {k: v for k, v in devices.items() if v > 0})
