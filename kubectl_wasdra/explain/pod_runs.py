"""Runs of standalone pods with the same answer, summarised in the text view so that its size grows linearly with
pods and stays a few lines per distinct answer (-o json lists every pod)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from kubectl_wasdra.explain.model import GroupDiagnosis
from kubectl_wasdra.explain.ordering import MORE_HINT, natural_key, runs, shortened

MAX_NODES: Final = 6  # nodes named in the summary of a run of fitting pods


def answer(group: GroupDiagnosis) -> tuple[Any, ...] | None:
    """What pods with the same answer share; None for what is never summarised (groups, unknown verdicts)."""
    if group.kind != "Pod" or group.unknown is not None or not group.simulated or group.agreement is not None:
        return None
    if group.fits:
        return ("fits", group.namespace, bool(group.claims), bool(group.numa))
    return ("no", group.namespace, group.pod_message, tuple((r.code, r.message) for r in group.reasons),
            tuple((s.kind, s.message) for s in group.suggestions), group.suggestions_note, group.preemption is None)


def split_runs(groups: Sequence[GroupDiagnosis]) -> list[list[GroupDiagnosis]]:
    """`groups` cut into runs of consecutive pods with the same answer (a group or a lone pod is a run of one)."""
    out: list[list[GroupDiagnosis]] = []
    previous: tuple[Any, ...] | None = None
    for group in groups:
        key = answer(group)
        if key is not None and key == previous and out:
            out[-1].append(group)
        else:
            out.append([group])
        previous = key
    return out


def fitting_summary(run: Sequence[GroupDiagnosis]) -> tuple[str, str]:
    """(which pods, the nodes they go to with counts) for a run of fitting standalone pods, as plain text."""
    names = shortened(runs([g.name for g in run]), MAX_NODES, "names")
    nodes = Counter(node for g in run for node in g.pods.values())
    placed = shortened([f"{node} x{count}" for node, count in sorted(nodes.items(), key=lambda i: natural_key(i[0]))],
                       MAX_NODES)
    return f"Pods {run[0].namespace}/{names}", f"  {len(run):,} pods -> {placed}"


def rest_line(run: Sequence[GroupDiagnosis]) -> str:
    """The line after the first pod of a run that does not fit, naming the others."""
    names = shortened(runs([g.name for g in run[1:]]), MAX_NODES, "names")
    return f"  … and {len(run) - 1:,} more pods with the same answer: {names} ({MORE_HINT})"
