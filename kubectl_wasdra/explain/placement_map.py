"""The compact placement map: domains -> nodes -> one cell per device (this group, used by others, tainted, free).

Drawn only where a picture says more: nodes with DRA devices, at most MAX_NODES of them (the best placement's nodes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.sched.result import GroupResult

MAX_NODES: Final = 32
THIS, USED, TAINTED, FREE = "▣", "■", "✗", "□"
LEGEND: Final = f"{USED} used by others, {THIS} this group, {FREE} free, {TAINTED} tainted"
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


def _cells(slices: Sequence[Mapping[str, Any]], mine: set, used: set) -> str:
    """One cell per device; `slices` carry DeviceTaintRule taints in their devices' taints (ClusterSnapshot.slices_by_node)."""
    cells = []
    for item in slices:
        spec = item.get("spec") or {}
        for device in spec.get("devices") or ():
            key = (spec.get("driver", ""), (spec.get("pool") or {}).get("name", ""), device.get("name", ""))
            tainted = any(t.get("effect") in _SCHEDULING_EFFECTS for t in device.get("taints") or ())
            cells.append(THIS if key in mine else USED if key in used else TAINTED if tainted else FREE)
    return " ".join("".join(cells[i:i + 4]) for i in range(0, len(cells), 4))


def build_map(snapshot: ClusterSnapshot, result: GroupResult, key: str | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """[(domain value, [(node, cells)])] for the nodes worth showing, or [] when there is nothing to draw."""
    by_node = snapshot.slices_by_node[0]
    if not by_node or result.state is None:
        return []
    best = result.outcome.best if result.outcome is not None else None
    scope = set(best.nodes) if best is not None else set()
    if key:
        scope = {n for nodes in result.state.domain_index(key).values() for n in nodes}
    nodes = sorted(n for n in scope | set(result.placement.values()) if n in by_node)[:MAX_NODES]
    if not nodes:
        return []
    mine, earlier = _group_devices(result)
    used = _allocated_in_snapshot(snapshot) | earlier
    rows: dict[str, list[tuple[str, str]]] = {}
    for node in nodes:
        value = str(result.state.facts[node].labels.get(key, "-")) if key else ""  # a YAML label may read as a bool
        rows.setdefault(value, []).append((node, _cells(by_node[node], mine, used)))
    return sorted(rows.items())
