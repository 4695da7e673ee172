"""Text lines for preemption's answer: "fits after preemption" with the nominated node(s), the victims per node and
per group (priority, PDB effects) and what need not be evicted; or why kube-scheduler would not preempt."""

from __future__ import annotations

from itertools import groupby

from kubectl_wasdra.sched.preemption_model import Preemption

MAX_LINES = 8


def preemption_lines(answer: Preemption | None) -> list[str]:
    """The explanation's preemption block (empty when preemption was not simulated)."""
    if answer is None:
        return []
    if not answer.helps:
        verb = "would not preempt" if not answer.attempted else "preemption does not help"
        return [f"  {verb}: {answer.message}"] if answer.message else []
    nodes = sorted(set(answer.nominated.values()))
    shown = ", ".join(nodes[:MAX_LINES]) + (" ..." if len(nodes) > MAX_LINES else "")
    lines = [f"  fits after preemption: nominated node(s) {shown}; {len(answer.victims)} pod(s) evicted"]
    by_node = sorted(answer.victims, key=lambda v: (v.node, v.namespace, v.name))
    for index, (node, victims) in enumerate(groupby(by_node, key=lambda v: v.node)):
        if index == MAX_LINES:
            lines.append("    ...")
            break
        items = [f"{v.namespace}/{v.name} (priority {v.priority}"
                 + (f", whole group {v.group}" if v.whole_group else "")
                 + (", violates a PodDisruptionBudget" if v.violates_pdb else "") + ")" for v in victims]
        lines.append(f"    evict on {node}: {', '.join(items)}")
    if answer.spared:
        lines.append(f"    not evicted (lower priority, but not in the way): {', '.join(answer.spared[:MAX_LINES])}"
                     + (" ..." if len(answer.spared) > MAX_LINES else ""))
    return lines
