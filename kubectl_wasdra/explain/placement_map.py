"""The compact placement map: domains -> nodes -> one cell per device (this group, used by others, tainted, free).

Drawn only where a picture says more: nodes with DRA devices; per domain (most pods placeable first) the nodes this
group uses first, at most MAX_PER_DOMAIN of them in MAX_DOMAINS domains (MAX_NODES without domains), counting the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.explain.ordering import natural_key
from kubectl_wasdra.kube.taints import SCHEDULING_EFFECTS
from kubectl_wasdra.sched.result import GroupResult

MAX_NODES: Final = 16  # nodes drawn for a group without topology domains
MAX_DOMAINS: Final = 4  # domains drawn; the rest are counted
MAX_PER_DOMAIN: Final = 8  # nodes drawn per domain; the rest are counted
MAX_CELLS: Final = 256  # devices drawn per node; the rest are counted
THIS, USED, TAINTED, FREE = "▣", "■", "✗", "□"
LEGEND: Final = f"{USED} used by others, {THIS} this group, {FREE} free, {TAINTED} tainted"
# KEP-6072 standard attribute (int, or ints with DRAListTypeAttributes): when every device of a node has it, cells
# group by it, and explain shows each allocated device's NUMA node (kubelet_stage.claim_numa)
NUMA_ATTRIBUTE: Final = "resource.kubernetes.io/numaNode"


def _device_keys(devices: Any) -> set[tuple[str, str, str]]:
    return {(str(d.get("driver", "")), str(d.get("pool", "")), str(d.get("device", ""))) for d in devices}


def allocated_in_snapshot(snapshot: ClusterSnapshot) -> set[tuple[str, str, str]]:
    out: set[tuple[str, str, str]] = set()
    for claim in snapshot.of_kind("ResourceClaim"):
        allocation = (claim.get("status") or {}).get("allocation") or {}
        out |= _device_keys((allocation.get("devices") or {}).get("results") or ())
    return out


def _group_devices(result: GroupResult) -> tuple[set[tuple[str, str, str]], set[tuple[str, str, str]]]:
    """(devices of this group, or of its best partial placement; devices allocated by earlier entries)."""
    mine: set[tuple[str, str, str]] = set()
    for devices in result.claims.values():
        mine |= _device_keys(devices)
    best = result.outcome.best if result.outcome is not None else None
    if not mine and best is not None:
        for devices in best.devices.values():
            mine |= _device_keys(devices)
    earlier: set[tuple[str, str, str]] = set()
    for devices in result.devices_before.values():
        earlier |= _device_keys(devices)
    return mine, earlier


def numa_attribute(device: Mapping[str, Any] | None) -> Any:
    """The device's standard NUMA attribute value (int or list of ints), or None when it does not publish one."""
    value = ((device or {}).get("attributes") or {}).get(NUMA_ATTRIBUTE)
    if not isinstance(value, dict):
        return None
    return value.get("int", value.get("ints"))


def _numa(device: Mapping[str, Any]) -> int | None:
    number = numa_attribute(device)
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _cells(slices: Sequence[Mapping[str, Any]], mine: set, used: set) -> str:
    """One cell per device; `slices` carry DeviceTaintRule taints in their devices' taints (ClusterSnapshot.slices_by_node).
    Devices of all drivers are grouped by NUMA node ("N0 ▣▣▣▣▣ N1 □□□□□") when every one publishes the standard
    attribute, else in fours."""
    cells: list[tuple[int | None, str]] = []
    for item in slices:
        spec = item.get("spec") or {}
        for device in spec.get("devices") or ():
            key = (spec.get("driver", ""), (spec.get("pool") or {}).get("name", ""), device.get("name", ""))
            tainted = any(t.get("effect") in SCHEDULING_EFFECTS for t in device.get("taints") or ())
            cells.append((_numa(device), THIS if key in mine else USED if key in used else TAINTED if tainted else FREE))
    rest = _beyond(cells[MAX_CELLS:])
    cells = cells[:MAX_CELLS]
    if cells and all(numa is not None for numa, _ in cells):
        numas = sorted({numa for numa, _ in cells if numa is not None})
        return " ".join(f"N{n} " + "".join(c for numa, c in cells if numa == n) for n in numas) + rest
    marks = [c for _, c in cells]
    return " ".join("".join(marks[i:i + 4]) for i in range(0, len(marks), 4)) + rest


def _beyond(cells: list[tuple[int | None, str]]) -> str:
    """The devices past MAX_CELLS of one node, counted by mark (100,000 cells made a 300 KB line)."""
    if not cells:
        return ""
    counts = {mark: sum(1 for _, c in cells if c == mark) for mark in (THIS, USED, TAINTED, FREE)}
    return f" +{len(cells)} more (" + ", ".join(f"{n} {mark}" for mark, n in counts.items() if n) + ")"


@dataclass
class MapInfo:
    """What the text view needs beside the rows: per domain how many nodes it has and how many are not drawn, how
    many domains are not drawn, the nodes that carry a scheduling taint, and the device classes of the cells."""

    nodes: dict[str, int] = field(default_factory=dict)  # domain value -> nodes with devices in it
    hidden: dict[str, int] = field(default_factory=dict)  # domain value -> nodes not drawn
    hidden_domains: int = 0
    tainted: set[str] = field(default_factory=set)  # nodes with a NoSchedule/NoExecute taint, or cordoned
    classes: dict[str, list[str]] = field(default_factory=dict)  # driver of drawn devices -> DeviceClasses naming it


def _domain_order(result: GroupResult, values: list[str]) -> list[str]:
    """Domains with most pods placeable first (the chosen one first), then natural order."""
    placeable = {str(a.domain[1]): (a.success, a.placeable) for a in result.outcome.attempts if a.domain} \
        if result.outcome is not None else {}
    return sorted(values, key=lambda v: (not placeable.get(v, (False, 0))[0], -placeable.get(v, (False, 0))[1],
                                         natural_key(v)))


def _pick(nodes: list[str], first: set[str], limit: int) -> list[str]:
    """At most `limit` nodes: those in `first` (this group's, evicted-on) first, then in natural order."""
    return sorted(nodes, key=lambda n: (n not in first, natural_key(n)))[:limit]


def _scope(result: GroupResult, key: str | None, by_node: Mapping[str, Any]) -> dict[str, list[str]]:
    """Domain value ("" without a key) -> nodes with devices that the map may draw."""
    state = result.state
    assert state is not None
    if key:
        return {str(v): [n for n in nodes if n in by_node] for v, nodes in state.domain_index(key).items()}
    best = result.outcome.best if result.outcome is not None else None
    scope = set(best.nodes) if best is not None else set()
    return {"": [n for n in scope | set(result.placement.values()) | set(_victims_per_node(result)) if n in by_node]}


def build_map(snapshot: ClusterSnapshot, result: GroupResult, key: str | None, info: MapInfo | None = None,
              used: set[tuple[str, str, str]] | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """[(domain value, [(node, cells)])] for the domains and nodes worth drawing (MAX_DOMAINS, MAX_PER_DOMAIN or
    MAX_NODES without domains), or [] when there is nothing to draw; `info` is filled with what was left out; `used`
    is allocated_in_snapshot(snapshot) when the caller has it."""
    by_node = snapshot.slices_by_node[0]
    if not by_node or result.state is None:
        return []
    info = info if info is not None else MapInfo()
    scope = {value: nodes for value, nodes in _scope(result, key, by_node).items() if nodes}
    if not scope:
        return []
    mine, earlier = _group_devices(result)
    evicted = _victims_per_node(result)
    first = set(result.placement.values()) | set(evicted) | _nodes_of(mine, by_node)
    values = _domain_order(result, list(scope))
    info.hidden_domains = max(len(values) - MAX_DOMAINS, 0)
    used = (allocated_in_snapshot(snapshot) if used is None else used) | earlier
    rows: list[tuple[str, list[tuple[str, str]]]] = []
    for value in values[:MAX_DOMAINS]:
        nodes = _pick(scope[value], first, MAX_PER_DOMAIN if key else MAX_NODES)
        info.nodes[value], info.hidden[value] = len(scope[value]), len(scope[value]) - len(nodes)
        row = []
        for node in nodes:
            cells = _cells(by_node[node], mine, used)
            row.append((node, f"{cells} (preemption evicts {evicted[node]})" if node in evicted else cells))
            if _is_tainted(result.state.facts[node]):
                info.tainted.add(node)
            for item in by_node[node]:
                info.classes.setdefault(str((item.get("spec") or {}).get("driver", "")), [])
        rows.append((value, row))
    for driver in info.classes:
        info.classes[driver] = _classes_of(snapshot, driver)
    return rows


def _nodes_of(devices: set[tuple[str, str, str]], by_node: Mapping[str, Any]) -> set[str]:
    """Nodes publishing pools these devices come from (a node's pool is named after it by most drivers)."""
    return {pool for _, pool, _ in devices if pool in by_node}


def _is_tainted(facts: Any) -> bool:
    return bool(facts.unschedulable) or any(t.get("effect") in SCHEDULING_EFFECTS for t in facts.taints)


def _classes_of(snapshot: ClusterSnapshot, driver: str) -> list[str]:
    """DeviceClasses whose selectors name the driver (how a class usually picks its devices), in natural order."""
    out = []
    for item in snapshot.of_kind("DeviceClass"):
        selectors = (item.get("spec") or {}).get("selectors") or ()
        if any(driver and f'"{driver}"' in str((s.get("cel") or {}).get("expression", "")) for s in selectors):
            out.append(str((item.get("metadata") or {}).get("name", "")))
    return sorted(out, key=natural_key)


def _victims_per_node(result: GroupResult) -> dict[str, int]:
    """node -> pods preemption would evict there (none when preemption does not help)."""
    answer = result.extra.get("preemption")
    counts: dict[str, int] = {}
    for victim in answer.victims if answer is not None and answer.helps else ():
        counts[victim.node] = counts.get(victim.node, 0) + 1
    return counts
