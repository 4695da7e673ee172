"""explain-pending: the nominatedNodeName kube-scheduler recorded on pending pods, set against the nomination our
preemption would make (after a successful preemption kube-scheduler writes status.nominatedNodeName; the pod keeps
failing until its victims are gone)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_wasdra.sched.result import GroupResult


def recorded_nominations(result: GroupResult) -> dict[str, str]:
    """pod "namespace/name" -> status.nominatedNodeName, for the entry's pods that have one."""
    out = {}
    for pod in result.entry.pods:
        status = pod.pod.get("status")
        node = status.get("nominatedNodeName") if isinstance(status, Mapping) else None
        if isinstance(node, str) and node:
            out[pod.key] = node
    return out


def nomination_verdict(recorded: Mapping[str, str], answer: Any) -> str:
    """"matches" / "differs" / "none simulated" / "" (nothing recorded): does the recorded nomination agree with ours?"""
    if not recorded:
        return ""
    ours = dict(answer.nominated) if answer is not None and answer.helps else {}
    if not ours:
        return "none simulated"
    return "matches" if all(ours.get(pod) == node for pod, node in recorded.items()) else "differs"


def nomination_lines(recorded: Mapping[str, str], answer: Any) -> list[str]:
    """Text lines: the recorded nominations and whether our preemption nominates the same nodes."""
    verdict = nomination_verdict(recorded, answer)
    if not verdict:
        return []
    shown = ", ".join(f"{pod.split('/', 1)[1]} -> {node}" for pod, node in sorted(recorded.items())[:6])
    why = {"matches": "our preemption nominates the same node(s)",
           "differs": "our preemption nominates other node(s)",
           "none simulated": "our simulation finds no preemption that helps now"}[verdict]
    return [f"  recorded nominatedNodeName: {shown} — {why}"]
