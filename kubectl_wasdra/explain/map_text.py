"""Text lines of the placement map, fitted to the terminal width: a legend naming the device classes of the cells,
per domain a summary line and rows of nodes (tainted nodes marked), and how many nodes and domains are not drawn."""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.explain.model import GroupDiagnosis
from kubectl_wasdra.explain.placement_map import FREE, TAINTED, THIS, USED, MapInfo

NODE_TAINTED: Final = "⊘"  # after a node's name: the node has a NoSchedule/NoExecute taint or is cordoned
_INDENT: Final = "      "


def legend(info: MapInfo) -> str:
    """ "one cell per device of gpu.example.com (class gpu.example.com): ▣ this group, ..."."""
    kinds = ", ".join(f"{driver} (class {', '.join(classes)})" if classes else driver
                      for driver, classes in sorted(info.classes.items()))
    return (f"one cell per device of {kinds or 'the drivers shown'}: {THIS} this group, {USED} used by others, "
            f"{FREE} free, {TAINTED} tainted device; {NODE_TAINTED} after a node: node tainted or cordoned")


def _rows(entries: list[str], width: int) -> list[str]:
    """Node entries packed into lines no wider than `width` (an entry wider than that gets a line of its own)."""
    lines: list[str] = []
    current = ""
    for entry in entries:
        candidate = f"{current}   {entry}" if current else entry
        if current and len(_INDENT) + len(candidate) > width:
            lines.append(_INDENT + current)
            current = entry
        else:
            current = candidate
    if current:
        lines.append(_INDENT + current)
    return lines


def _summary(group: GroupDiagnosis, value: str, info: MapInfo) -> str:
    domain = next((d for d in group.domains if d.value == value), None)
    nodes = info.nodes.get(value, 0)
    head = f"    {group.topology_key}={value}: " if value else "    "
    text = f"{nodes:,} nodes with devices"
    if domain is not None:
        text += f", {domain.placeable} of {domain.needed} pods placeable"
    return head + text


def map_lines(group: GroupDiagnosis, width: int) -> list[str]:
    """The map of one group, lines at most `width` wide where the node rows allow it."""
    if not group.placement_map:
        return []
    info = group.map_info if group.map_info is not None else MapInfo()
    lines = ["", f"  Placement map ({legend(info)})"]
    for value, nodes in group.placement_map:
        lines.append(_summary(group, value, info))
        entries = [f"{node}{NODE_TAINTED if node in info.tainted else ''} {cells}" for node, cells in nodes]
        lines += _rows(entries, width)
        hidden = info.hidden.get(value, 0)
        if hidden:
            lines.append(f"{_INDENT}… {hidden:,} more nodes")
    if info.hidden_domains:
        word = (group.topology_key or "domain").rpartition("/")[2]
        lines.append(f"    … {info.hidden_domains:,} more {word} values not drawn (their causes are listed above)")
    return lines
