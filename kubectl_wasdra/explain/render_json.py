"""JSON view of an ExplainReport, exactly DESIGN.md's shape (keys in a fixed order)."""

from __future__ import annotations

from typing import Any

import orjson

from kubectl_wasdra.cluster.gaps import gap_list
from kubectl_wasdra.explain.left_out import problem_json
from kubectl_wasdra.explain.model import ExplainReport, GroupDiagnosis
from kubectl_wasdra.report.safe import json_safe


def group_json(group: GroupDiagnosis) -> dict[str, Any]:
    """One group: kind, namespace, name, fits (null when another scheduler places it), placement {pods, claims,
    domain}, reasons, suggestions (explain-pending adds "recorded" and "agree")."""
    data = {
        "kind": group.kind, "namespace": group.namespace, "name": group.name, "fits": group.fits if group.simulated else None,
        "placement": {"pods": dict(group.pods), "claims": {k: list(v) for k, v in group.claims.items()},
                      "domain": dict(group.domain) if group.domain else None},
        "reasons": [{"code": r.code, "message": r.message, "count": r.count, "details": dict(r.details)} for r in group.reasons],
        "suggestions": [{"kind": s.kind, "message": s.message, "outcome": s.outcome} for s in group.suggestions],
    }
    if group.unknown is not None:
        data["fits"] = None
        data["unknown"] = group.unknown
    if group.claim_node_selectors:  # where each allocation is usable (network-attached devices: several nodes)
        data["placement"]["nodeSelectors"] = dict(group.claim_node_selectors)
    if group.agreement is not None:
        data["recorded"] = [{"source": r.source, "reason": r.reason, "message": r.message, "time": r.time}
                            for r in group.recorded]
        data["agree"] = {"verdict": group.agreement[0], "why": group.agreement[1]}
    return data


def render_json(report: ExplainReport) -> str:
    """The report as indented JSON text ending with a newline."""
    data: dict[str, Any] = {"k8sVersion": report.k8s_version, "groups": [group_json(g) for g in report.groups]}
    if report.gaps:  # only then: a complete read keeps DESIGN's shape exactly
        data["gaps"] = gap_list(report.gaps)
    if report.left_out:
        data["leftOut"] = [problem_json(problem) for problem in report.left_out]
    if report.notes:  # what the simulation left out or does not model (the text output prints the same lines)
        data["notes"] = list(report.notes)
    try:
        text = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # an integer beyond 64 bits (a quantity such as 1e309 is valid): the standard encoder takes it
        import json

        text = json.dumps(data, indent=2, ensure_ascii=False)
    return json_safe(text) + "\n"
