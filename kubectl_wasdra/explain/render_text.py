"""Text view of an ExplainReport: a summary line per group, kube-scheduler's own line, per-domain attempts, DRA
funnels, who took the capacity, the placement map and verified suggestions. rich is imported here only. Every line
goes through report.safe.printable: names come from manifests and snapshots and may hold control characters."""

from __future__ import annotations

import io

from rich.markup import escape

from kubectl_wasdra.cluster.gaps import EXPLAIN_KINDS
from kubectl_wasdra.cluster.gaps import unread_kinds as unread_gaps
from kubectl_wasdra.explain.domain_text import domain_lines
from kubectl_wasdra.explain.left_out import problem_line
from kubectl_wasdra.explain.map_text import map_lines
from kubectl_wasdra.explain.model import ExplainReport, GroupDiagnosis
from kubectl_wasdra.explain.nominations import nomination_lines
from kubectl_wasdra.explain.ordering import MORE_HINT, natural_key, natural_sorted, shortened
from kubectl_wasdra.explain.pod_runs import fitting_summary, rest_line, split_runs
from kubectl_wasdra.explain.preemption_text import preemption_lines
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.report.safe import printable

MAX_LINES = 16  # pods and claims listed per group in text; JSON lists all
MAX_HOLDERS = 3  # entries named under "capacity taken earlier by"
MAX_TAKEN_NODES = 6  # nodes named per such entry


def _safe(text: str) -> str:
    """Text from manifests, snapshots or Events as markup that shows it literally: controls escaped, then brackets."""
    return escape(printable(text))


def _title(group: GroupDiagnosis) -> str:
    return _safe(f"{group.kind} {group.namespace}/{group.name}")


def _verdict(group: GroupDiagnosis) -> str:
    if not group.simulated:
        return "not simulated"
    if any(r.code == Reason.OBJECT_INVALID for r in group.reasons):
        return "invalid: the API server rejects it"
    return "fits" if group.fits else "does NOT fit"


def _summary(group: GroupDiagnosis) -> str:
    if group.unknown is not None:
        return f"[bold]{_title(group)}[/] — [yellow]unknown[/]: {_safe(group.unknown)}"
    verdict = _verdict(group)
    facts = []
    if group.policy:
        facts.append(f"{group.policy}, minCount {group.min_count}" if group.policy == "gang" else group.policy)
    if group.pod_count and group.kind != "Pod":
        facts.append(f"{group.pod_count} pods")
    if group.topology_key:
        facts.append(f"topology {group.topology_key}")
    unplaced = group.pod_count - len(group.pods) if group.fits and group.kind != "Pod" else 0
    if unplaced > 0:
        facts.append(f"{len(group.pods)} placed, {unplaced} stay pending")
    if group.pending_for:
        facts.append(f"Pending for {group.pending_for}")
    suffix = f" ({', '.join(facts)})" if facts else ""
    color = "yellow" if not group.simulated else "green" if group.fits else "red"
    return f"[bold]{_title(group)}[/] — [{color}]{verdict}[/]{_safe(suffix)}"


def _placement_lines(group: GroupDiagnosis, wide: bool = False) -> list[str]:
    limit = None if wide else MAX_LINES
    lines = []
    if group.domain:
        lines.append("  domain: " + ", ".join(f"{k}={v}" for k, v in group.domain.items()))
    for pod, node in list(group.pods.items())[:limit]:
        lines.append(f"  {pod} -> {node}" + numa_suffix(group.numa.get(pod)))
        lines += [f"    kubelet: {note}" for note in (group.numa.get(pod) or {}).get("notes", ())]
    for claim, devices in list(group.claims.items())[:limit]:
        numa = group.claim_numa.get(claim) or [None] * len(devices)
        names = ", ".join(f"{d['pool']}/{d['device']}" + ("" if n is None else f" (NUMA {n})")
                          for d, n in zip(devices, numa, strict=True))
        lines.append(f"    claim {claim}: {names}")
    hidden = 0 if wide else max(len(group.pods) - MAX_LINES, 0) + max(len(group.claims) - MAX_LINES, 0)
    if hidden:
        lines.append(f"  ... {hidden} more lines (-o wide or -o json has them all)")
    return lines


def numa_suffix(numa: dict | None) -> str:
    """ "  [main: NUMA 0 (4 CPUs, 2 nvidia.com/gpu)]" for containers the kubelet gave exclusive CPUs or devices."""
    parts = []
    for container, placed in (numa or {}).get("containers", {}).items():
        held = [f"{sum(placed.get('cpus', {}).values())} CPUs"] if placed.get("cpus") else []
        held += [f"{sum(v.values())} {k}" for k, v in (placed.get("devices") or {}).items()]
        if held:
            nodes = ",".join(str(n) for n in placed.get("numa") or []) or "any"
            parts.append(f"{container}: NUMA {nodes} ({', '.join(held)})")
    return "  [" + "; ".join(parts) + "]" if parts else ""


def _why_lines(group: GroupDiagnosis, wide: bool = False) -> list[str]:
    lines = []
    group_level = [r for r in group.reasons if r.count is None]
    for reason in group_level:
        lines.append(f"  {reason.code}: {reason.message}")
    if group.kind != "Pod" and group.scheduler_message and not group.fits:
        lines += ["", f"  kube-scheduler would record ({group.scheduler_record}):", f"    {group.scheduler_message}"]
    if group.pod_message:
        # the domain closest to fitting (topology.closeness), ranked first in the domain lines below
        where = f" in {group.topology_key}={group.pod_message_domain}" if group.pod_message_domain else ""
        lines += ["", f"  first pod that does not fit{where}, as kube-scheduler words it:", f"    {group.pod_message}"]
    lines += domain_lines(group.domains, wide)
    if group.dra_cause is not None:
        lines.append(f"  DRA: {group.dra_cause.text()}")
    lines += preemption_lines(group.preemption) + nomination_lines(group.nominations, group.preemption)
    for node, funnel in group.funnels:
        lines.append(f"  DRA on {node}: {funnel}")
    if group.funnels_hidden:
        lines.append(f"  … and {group.funnels_hidden:,} more nodes' DRA funnels (the closest are shown above)")
    return lines + _taken_lines(group.taken_by, wide)


def _taken_lines(taken_by: dict[str, list[str]], wide: bool = False) -> list[str]:
    """Who took the capacity: the MAX_HOLDERS holders on most nodes, then how many more (one line each, so that a
    queue of pods that do not fit prints linear output); `wide`: every holder and node."""
    holders = sorted(taken_by.items(), key=lambda item: (-len(item[1]), natural_key(item[0])))
    limit = len(holders) if wide else MAX_HOLDERS
    lines = [f"  capacity taken earlier by {owner} on {len(nodes):,} node(s): "
             + shortened(natural_sorted(nodes), len(nodes) if wide else MAX_TAKEN_NODES) for owner, nodes in holders[:limit]]
    if len(holders) > limit:
        lines.append(f"  … and capacity taken earlier by {len(holders) - MAX_HOLDERS:,} more pods or groups")
    return lines


def _suggestion_lines(group: GroupDiagnosis) -> list[str]:
    lines = []
    if group.suggestions:
        lines += ["", "  What would make it fit (each checked by re-running the simulation):"]
        width = max(len(s.message) for s in group.suggestions)
        for index, suggestion in enumerate(group.suggestions, 1):
            lines.append(f"    {index}. {suggestion.message:<{width}}  -> {suggestion.outcome}")
    if group.suggestions_note and not group.suggestions:
        lines += ["", f"  What would make it fit: {group.suggestions_note}"]
        if group.tried:
            lines.append("  tried (each by re-running the simulation):")
            lines += [f"    - {t.change or t.kind}  -> {t.outcome}" for t in group.tried[:MAX_LINES]]
            if len(group.tried) > MAX_LINES:
                lines.append(f"    … and {len(group.tried) - MAX_LINES} more ({MORE_HINT})")
        elif group.suggestions_note.startswith("no single change"):
            lines.append("  nothing could be tried")
    elif group.suggestions_note:
        lines.append(f"  ({group.suggestions_note})")
    return lines


def _recorded_lines(group: GroupDiagnosis) -> list[str]:
    if group.agreement is None:
        return []
    lines = [f"  cluster says:  {r.message} ({r.source}{', ' + r.reason if r.reason else ''}{', ' + r.time if r.time else ''})"
             for r in group.recorded] or ["  cluster says:  nothing recorded"]
    verdict = "fits" if group.fits else "does not fit"
    lines.append(f"  we find:       {verdict}" + (f": {group.scheduler_message}" if group.scheduler_message else ""))
    lines.append(f"  agree:         {group.agreement[0]} ({group.agreement[1]})")
    return [*lines, ""]


def group_markup(group: GroupDiagnosis, wide: bool = False, width: int = 130) -> list[str]:
    """rich markup lines for one group (`wide`: every pod, claim, domain and node, as -o wide; text cuts long lists
    and says so; the placement map fitted to `width` columns)."""
    body = _recorded_lines(group)
    if group.unknown is not None:
        return [_summary(group), *(_safe(line) for line in body)]
    kubelet = any(r.code == Reason.KUBELET_REJECTED for r in group.reasons)  # bound, then rejected by a kubelet
    body += _placement_lines(group, wide) if group.fits or kubelet else []
    body += [] if group.fits else _why_lines(group, wide)
    if group.fits and group.pod_message:
        body += ["  the pods that stay pending, as kube-scheduler words it:", f"    {group.pod_message}"]
    body += map_lines(group, width) + _suggestion_lines(group)
    return [_summary(group), *(_safe(line) for line in body)]


def render_text(report: ExplainReport, *, color: bool = False, width: int = 130, wide: bool = False) -> str:
    """The report as text (ANSI colour only when `color`; every list in full when `wide`). Without colour the markup is
    only stripped: rich's console costs tens of milliseconds per group, minutes for a Job of thousands of pods."""
    lines = [_safe(f"not read from the cluster: {kind}: {why}") for kind, why in unread_gaps(report.gaps, EXPLAIN_KINDS).items()]
    lines += [_safe(f"left out: {problem_line(problem)}") for problem in report.left_out]
    lines += [_safe(note) for note in report.notes]
    for index, run in enumerate(split_runs(report.groups)):  # standalone pods with one answer: summarised
        if index:
            lines.append("")
        if len(run) > 1 and run[0].fits and not wide:
            title, placed = fitting_summary(run)
            lines += [f"[bold]{_safe(title)}[/] — [green]fit[/]", _safe(placed)]
            continue
        lines += group_markup(run[0], wide, width)
        if len(run) > 1 and not wide:
            lines.append(_safe(rest_line(run)))
        elif len(run) > 1:
            for group in run[1:]:
                lines += ["", *group_markup(group, wide, width)]
    if not report.groups and not report.notes:
        lines.append("no pods or groups to explain")
    if not color:
        from rich.text import Text

        return "".join(Text.from_markup(line).plain + "\n" for line in lines)
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=width, highlight=False, soft_wrap=True, emoji=False)
    for line in lines:
        console.print(line)
    return buffer.getvalue()
