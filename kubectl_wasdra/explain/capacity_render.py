"""Text and JSON views of a CapacityReport. Text fits the terminal's width, lists domains and nodes in natural order
(r2 before r10) and says how many lines it left out; JSON lists every domain and node, keys in a fixed order."""

from __future__ import annotations

import json
from typing import Any, Final

from kubectl_wasdra.explain.capacity_limits import Limit
from kubectl_wasdra.explain.capacity_model import CapacityReport, DomainCapacity, NodeCapacity
from kubectl_wasdra.explain.left_out import problem_json, problem_line
from kubectl_wasdra.explain.ordering import MORE_HINT, natural_key
from kubectl_wasdra.report.safe import json_safe, printable

MAX_DOMAINS: Final = 20  # domain lines in text (-o wide: all)
MAX_NODES: Final = 20  # node lines in text
MAX_LIMITS: Final = 6  # limit lines in text


def _limits_json(limits: list[tuple[Limit, int]]) -> list[dict[str, Any]]:
    return [{**limit.as_dict(), "nodes": count} for limit, count in limits]


def _domain_json(domain: DomainCapacity) -> dict[str, Any]:
    return {"value": domain.value, "nodes": domain.nodes, "copies": domain.copies, "pods": domain.pods,
            "nextCopyPods": domain.next_copy_pods, "limits": _limits_json(domain.limits)}


def _node_json(node: NodeCapacity) -> dict[str, Any]:
    return {"name": node.name, "domain": node.domain, "pods": node.pods,
            "limit": node.limit.as_dict() if node.limit is not None else None}


def capacity_json(report: CapacityReport) -> dict[str, Any]:
    """The report as JSON data (docs/capacity.md documents every key)."""
    return {
        "k8sVersion": report.k8s_version,
        "shape": {"kind": report.kind, "namespace": report.namespace, "name": report.name,
                  "podsPerCopy": report.pods_per_copy},
        "copies": report.copies, "max": report.max_copies, "capped": report.capped,
        "topologyKey": report.topology_key, "topologyConstrained": report.constrained,
        "nextCopy": None if report.capped else {"message": report.message},
        "limits": _limits_json(report.limits),
        "domains": [_domain_json(d) for d in sorted(report.domains, key=lambda d: natural_key(d.value))],
        "nodes": [_node_json(n) for n in sorted(report.nodes, key=lambda n: natural_key(n.name))],
        "notes": list(report.notes),
        "leftOut": [problem_json(p) for p in report.left_out],
        "gaps": [{"kind": kind, "reason": why} for kind, why in report.unread.items()],
    }


def render_capacity_json(report: CapacityReport) -> str:
    """The report as indented JSON text, terminal-safe."""
    return json_safe(json.dumps(capacity_json(report), indent=2, ensure_ascii=False)) + "\n"


def _fit(text: str, width: int) -> str:
    """One line cut to `width` columns (with an ellipsis)."""
    text = printable(text)
    return text if len(text) <= width else text[:max(width - 1, 1)] + "…"


def _headline(report: CapacityReport) -> list[str]:
    shape = f"{report.kind} {report.namespace}/{report.name}"
    each = f" ({report.pods_per_copy} pods a copy)" if report.pods_per_copy != 1 else ""
    if report.capped:
        return [f"{shape}{each}: at least {report.copies:,} copies fit now (stopped at --max {report.max_copies:,}; "
                "more may fit)"]
    lines = [f"{shape}{each}: {report.copies:,} {'copy fits' if report.copies == 1 else 'copies fit'} now"]
    if report.message:
        lines.append(f"  copy {report.copies + 1:,} does not fit: {report.message}")
    return lines


def _top(limits: list[tuple[Limit, int]]) -> str:
    """The limits of a domain or of the cluster as "cpu (3 nodes), pods (1 node)", what runs out before exclusions."""
    ordered = sorted(limits, key=lambda item: (item[0].excluded, -item[1], item[0].label))
    parts = [f"{'excluded: ' if limit.excluded else ''}{limit.label} ({count:,} node{'s' if count != 1 else ''})"
             for limit, count in ordered]
    return ", ".join(parts) if parts else "-"


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]], width: int) -> list[str]:
    """Rows in columns sized to their content; the last column takes what is left of `width`."""
    sizes = [max(len(printable(row[i])) for row in [header, *rows]) for i in range(len(header) - 1)]
    out = []
    for row in [header, *rows]:
        cells = "  ".join(printable(cell).ljust(size) for cell, size in zip(row, sizes, strict=False))
        out.append(_fit(f"  {cells}  {row[-1]}", width))
    return out


def _domain_lines(report: CapacityReport, width: int, wide: bool) -> list[str]:
    if not report.domains:
        return []
    what = "whole copies" if report.constrained else "copies wholly inside"
    domains = sorted(report.domains, key=lambda d: natural_key(d.value))
    shown = domains if wide else domains[:MAX_DOMAINS]
    rows = [(d.value, f"{d.nodes:,}", f"{d.copies:,}", f"{d.pods:,}",
             *(() if not report.constrained else ("-" if d.next_copy_pods is None else
                                                  f"{d.next_copy_pods}/{report.pods_per_copy}",)), _top(d.limits))
            for d in shown]
    next_column = ("NEXT",) if report.constrained else ()  # pods of the next copy that would fit in the domain
    lines = [f"Per {report.topology_key} ({what}):"]
    lines += _table(("DOMAIN", "NODES", "COPIES", "PODS", *next_column, "WHAT RUNS OUT (the copy that did not fit)"),
                    rows, width)
    if len(domains) > len(shown):
        lines.append(f"  … and {len(domains) - len(shown):,} more domains ({MORE_HINT}, -o wide shows all)")
    return lines


def _node_lines(report: CapacityReport, width: int, wide: bool) -> list[str]:
    used = sorted((n for n in report.nodes if n.pods), key=lambda n: natural_key(n.name))
    if not used:
        return []
    shown = used if wide else used[:MAX_NODES]
    rows = [(n.name, n.domain or "", f"{n.pods:,}",
             ("excluded: " if n.limit.excluded else "") + n.limit.label if n.limit is not None else "") for n in shown]
    header = ("NODE", "DOMAIN", "PODS", "WHAT RUNS OUT") if report.topology_key else ("NODE", "", "PODS", "WHAT RUNS OUT")
    lines = [f"Per node ({len(used):,} node{'s' if len(used) != 1 else ''} took copies):"]
    lines += _table(header, rows, width)
    if len(used) > len(shown):
        lines.append(f"  … and {len(used) - len(shown):,} more nodes ({MORE_HINT}, -o wide shows all)")
    return lines


def _limit_lines(report: CapacityReport, width: int) -> list[str]:
    if not report.limits:
        return []
    ordered = sorted(report.limits, key=lambda item: (item[0].excluded, -item[1], item[0].label))
    lines = ["What runs out first (why the next copy fits on no node):"]
    for limit, count in ordered[:MAX_LIMITS]:
        lines.append(_fit(f"  {count:>6,} node{'s' if count != 1 else ' '}  "
                          f"{'excluded: ' if limit.excluded else ''}{limit.label}", width))
    if len(ordered) > MAX_LIMITS:
        lines.append(f"  … and {len(ordered) - MAX_LIMITS:,} more reasons ({MORE_HINT})")
    return lines


def render_capacity_text(report: CapacityReport, *, width: int = 130, wide: bool = False) -> str:
    """The report as plain text fitted to `width` columns (with `wide`: every domain and node, no line cut)."""
    width = 1 << 20 if wide else width
    lines = [_fit(f"not read from the cluster: {kind}: {why}", width) for kind, why in report.unread.items()]
    lines += [_fit(f"left out: {problem_line(p)}", width) for p in report.left_out]
    lines += [_fit(note, width) for note in report.notes]
    lines += [printable(line) for line in _headline(report)]
    for block in (_domain_lines(report, width, wide), _node_lines(report, width, wide), _limit_lines(report, width)):
        if block:
            lines += ["", *block]
    return "".join(line + "\n" for line in lines)
