"""Per-node NUMA facts: zones and their resources from a NodeResourceTopology (topology.node.k8s.io/v1alpha2), the
kubelet's manager policies from the node's configz (snapshot kind KubeletConfigz), the NRT attributes as fallback.

Upstream: k8stopologyawareschedwg/noderesourcetopology-api pkg/apis/topology/v1alpha2/types.go (zones, costs,
attributes; NUMA zones are `type: Node`, named `node-<id>`); kubernetes/kubelet config/v1beta1/types.go (field names
and defaults of KubeletConfiguration). Source precedence: configz (the kubelet's effective config) wins; without it
the NRT's topologyManagerPolicy/Scope attributes, then its legacy topologyPolicies; else the kubelet defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.cluster.numa_kinds import CONFIGZ_KIND, NRT_KIND
from kubectl_wasdra.kubelet.requests import quantity_or_none

# legacy NRT topologyPolicies values -> (policy, scope)
_LEGACY: Final = {
    "SingleNUMANodeContainerLevel": ("single-numa-node", "container"),
    "SingleNUMANodePodLevel": ("single-numa-node", "pod"),
    "RestrictedContainerLevel": ("restricted", "container"), "RestrictedPodLevel": ("restricted", "pod"),
    "BestEffortContainerLevel": ("best-effort", "container"), "BestEffortPodLevel": ("best-effort", "pod"),
    "None": ("none", "container"),
}


@dataclass(frozen=True)
class ZoneResource:
    """One resource of one NUMA zone: what the hardware has, what pods may get, what is still free."""

    capacity: Decimal
    allocatable: Decimal
    available: Decimal


@dataclass(frozen=True)
class NodeNuma:
    """What the kubelet of one node decides admission from."""

    node: str
    zones: Mapping[int, Mapping[str, ZoneResource]]
    distances: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    topology_policy: str = "none"
    topology_scope: str = "container"
    topology_options: Mapping[str, str] = field(default_factory=dict)
    cpu_policy: str = "none"
    cpu_options: Mapping[str, str] = field(default_factory=dict)
    memory_policy: str = "None"
    threads_per_core: int = 2
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    sources: tuple[str, ...] = ()  # where the facts came from ("NodeResourceTopology", "configz", "assumed: ...")

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(sorted(self.zones))


def _zone_id(zone: Mapping[str, Any]) -> int | None:
    name = zone.get("name")
    if zone.get("type") != "Node" or not isinstance(name, str) or not name.startswith("node-"):
        return None
    digits = name[len("node-"):]
    return int(digits) if digits.isdigit() else None


def _zone_resources(zone: Mapping[str, Any]) -> dict[str, ZoneResource]:
    out = {}
    for item in zone.get("resources") or []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            capacity = quantity_or_none(item.get("capacity", 0)) or Decimal(0)
            allocatable = quantity_or_none(item.get("allocatable", capacity)) or Decimal(0)
            available = quantity_or_none(item.get("available", allocatable)) or Decimal(0)
            out[item["name"]] = ZoneResource(capacity, allocatable, available)
    return out


def _costs(zone: Mapping[str, Any]) -> dict[int, int]:
    out = {}
    for cost in zone.get("costs") or []:
        if isinstance(cost, dict):
            other = _zone_id({"type": "Node", "name": cost.get("name")})
            if other is not None and isinstance(cost.get("value"), int):
                out[other] = cost["value"]
    return out


def numa_zones(nrt: Mapping[str, Any] | None) -> dict[int, Mapping[str, Any]]:
    """The NRT's NUMA zones (`type: Node`, named `node-<id>`) by id; zones that are no objects or no NUMA node are left
    out (NRT objects are not shape-checked)."""
    zones = {}
    for zone in (nrt or {}).get("zones") or []:
        zone_id = _zone_id(zone) if isinstance(zone, dict) else None
        if zone_id is not None:
            zones[zone_id] = zone
    return zones


def nrt_policy(nrt: Mapping[str, Any]) -> dict[str, str]:
    """topologyManagerPolicy/Scope from the NRT's attributes, else its first legacy topologyPolicies entry (the order
    of scheduler-plugins nodeconfig.TopologyManagerFromNodeResourceTopology: policies first, valid attributes win)."""
    found: dict[str, str] = {}
    legacy = nrt.get("topologyPolicies") or []
    if legacy and legacy[0] in _LEGACY:
        found["topologyManagerPolicy"], found["topologyManagerScope"] = _LEGACY[legacy[0]]
    for attr in nrt.get("attributes") or []:
        if isinstance(attr, dict) and attr.get("name") in ("topologyManagerPolicy", "topologyManagerScope"):
            found[attr["name"]] = str(attr.get("value", ""))
    return found


def _strings(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def facts_of(snapshot: Any, node: str) -> NodeNuma | None:
    """The NUMA facts of one node of a ClusterSnapshot (its NodeResourceTopology and KubeletConfigz), or None."""
    return node_numa(node, snapshot.get(NRT_KIND, node, ""), snapshot.get(CONFIGZ_KIND, node, ""))


def node_numa(node: str, nrt: Mapping[str, Any] | None, configz: Mapping[str, Any] | None) -> NodeNuma | None:
    """The facts for one node, or None when neither source describes NUMA zones."""
    raw = numa_zones(nrt)
    zones = {zone_id: _zone_resources(zone) for zone_id, zone in raw.items()}
    distances = {zone_id: _costs(zone) for zone_id, zone in raw.items()}
    if not zones:
        return None
    config = (configz or {}).get("kubeletconfig")
    config = config if isinstance(config, dict) else {}
    from_nrt = nrt_policy(nrt or {})
    sources = ["NodeResourceTopology"] + (["configz"] if config else [])
    policy = str(config.get("topologyManagerPolicy") or from_nrt.get("topologyManagerPolicy") or "none")
    cpu_policy = config.get("cpuManagerPolicy")
    if cpu_policy is None:  # the NRT publishers count exclusive CPUs only under the static policy
        cpu_policy = "static" if policy != "none" else "none"
        sources.append(f"assumed: cpuManagerPolicy {cpu_policy} (no kubelet config)")
    machine = (configz or {}).get("machine") or {}
    return NodeNuma(
        node=node, zones=zones, distances=distances, topology_policy=policy,
        topology_scope=str(config.get("topologyManagerScope") or from_nrt.get("topologyManagerScope") or "container"),
        topology_options=_strings(config.get("topologyManagerPolicyOptions")), cpu_policy=str(cpu_policy),
        cpu_options=_strings(config.get("cpuManagerPolicyOptions")),
        memory_policy=str(config.get("memoryManagerPolicy") or "None"),
        threads_per_core=int(machine.get("threadsPerCore", 2)) if isinstance(machine, dict) else 2,
        feature_gates={str(k): bool(v) for k, v in (config.get("featureGates") or {}).items()},
        sources=tuple(sources))
