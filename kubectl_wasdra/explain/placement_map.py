"""The compact placement map: domains -> nodes -> one cell per device (this group, used by others, tainted, free).

Drawn only where a picture says more: nodes with DRA devices, at most MAX_NODES of them (the best placement's nodes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.sched.result import GroupResult

MAX_NODES: Final = 32
MAX_CELLS: Final = 256  # devices drawn per node; the rest are counted
THIS, USED, TAINTED, FREE = "▣", "■", "✗", "□"
LEGEND: Final = f"{USED} used by others, {THIS} this group, {FREE} free, {TAINTED} tainted"
# KEP-6072 standard attribute (int, or ints with DRAListTypeAttributes): when every device of a node has it, cells
# group by it, and explain shows each allocated device's NUMA node (kubelet_stage.claim_numa)
NUMA_ATTRIBUTE: Final = "resource.kubernetes.io/numaNode"
_SCHEDULING_EFFECTS = ("NoSchedule", "NoExecute")


def _device_keys(devices: Any) -> set[tuple[str, str, str]]:
    return {(str(d.get("driver", "")), str(d.get("pool", "")), str(d.get("device", ""))) for d in devices}


def _allocated_in_snapshot(snapshot: ClusterSnapshot) -> set[tuple[str, str, str]]:
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
            tainted = any(t.get("effect") in _SCHEDULING_EFFECTS for t in device.get("taints") or ())
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


def build_map(snapshot: ClusterSnapshot, result: GroupResult, key: str | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """[(domain value, [(node, cells)])] for the nodes worth showing, or [] when there is nothing to draw."""
    by_node = snapshot.slices_by_node[0]
    if not by_node or result.state is None:
        return []
    best = result.outcome.best if result.outcome is not None else None
    scope = set(best.nodes) if best is not None else set()
    if key:
        scope = {n for nodes in result.state.domain_index(key).values() for n in nodes}
    evicted = _victims_per_node(result)
    nodes = sorted(n for n in scope | set(result.placement.values()) | set(evicted) if n in by_node)[:MAX_NODES]
    if not nodes:
        return []
    mine, earlier = _group_devices(result)
    used = _allocated_in_snapshot(snapshot) | earlier
    rows: dict[str, list[tuple[str, str]]] = {}
    for node in nodes:
        value = str(result.state.facts[node].labels.get(key, "-")) if key else ""  # a YAML label may read as a bool
        cells = _cells(by_node[node], mine, used)
        rows.setdefault(value, []).append((node, f"{cells} (preemption evicts {evicted[node]})" if node in evicted else cells))
    return sorted(rows.items())


def _victims_per_node(result: GroupResult) -> dict[str, int]:
    """node -> pods preemption would evict there (none when preemption does not help)."""
    answer = result.extra.get("preemption")
    counts: dict[str, int] = {}
    for victim in answer.victims if answer is not None and answer.helps else ():
        counts[victim.node] = counts.get(victim.node, 0) + 1
    return counts
