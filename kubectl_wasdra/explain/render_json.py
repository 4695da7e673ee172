"""JSON view of an ExplainReport, exactly DESIGN.md's shape (keys in a fixed order)."""

from __future__ import annotations

from typing import Any

import orjson

from kubectl_wasdra.cluster.gaps import EXPLAIN_KINDS, gap_list
from kubectl_wasdra.explain.left_out import problem_json
from kubectl_wasdra.explain.model import DomainLine, ExplainReport, GroupDiagnosis
from kubectl_wasdra.explain.nominations import nomination_verdict
from kubectl_wasdra.report.safe import json_safe


def group_json(group: GroupDiagnosis) -> dict[str, Any]:
    """One group: kind, namespace, name, fits (null when another scheduler places it or the verdict is unknown),
    placement {pods, claims, domain}, reasons, suggestions (explain-pending adds "recorded" and "agree")."""
    verdict = group.fits if group.simulated and group.unknown is None else None
    data = {
        "kind": group.kind, "namespace": group.namespace, "name": group.name, "fits": verdict,
        "placement": {"pods": dict(group.pods), "claims": {k: list(v) for k, v in group.claims.items()},
                      "domain": dict(group.domain) if group.domain else None},
        "reasons": [{"code": r.code, "message": r.message, "count": r.count, "details": dict(r.details)} for r in group.reasons],
        "suggestions": [{"kind": s.kind, "message": s.message, "outcome": s.outcome} for s in group.suggestions],
        "tried": [{"kind": t.kind, "change": t.change, "outcome": t.outcome} for t in group.tried],
    }
    if group.preemption is not None:  # docs/explain.md "Preemption": victims, nominatedNodes, or why not
        data["preemption"] = group.preemption.json()
        if group.nominations:  # explain-pending: what the cluster recorded, and whether ours agrees
            data["preemption"]["recordedNominations"] = dict(group.nominations)
            data["preemption"]["nominationsAgree"] = nomination_verdict(group.nominations, group.preemption)
    if group.unknown is not None:
        data["unknown"] = group.unknown
    if group.claim_node_selectors:  # where each allocation is usable (network-attached devices: several nodes)
        data["placement"]["nodeSelectors"] = dict(group.claim_node_selectors)
    if group.numa or group.claim_numa:  # where the kubelet puts exclusive CPUs and devices; the devices' NUMA nodes
        data["placement"]["numa"] = {"pods": dict(group.numa), "claims": dict(group.claim_numa)}
    if group.agreement is not None:
        data["recorded"] = [{"source": r.source, "reason": r.reason, "message": r.message, "time": r.time}
                            for r in group.recorded]
        data["agree"] = {"verdict": group.agreement[0], "why": group.agreement[1]}
    if group.suggestions_note:
        data["suggestionsNote"] = group.suggestions_note
    data.update(_causes_json(group))
    return data


def _causes_json(group: GroupDiagnosis) -> dict[str, Any]:
    """The keys after the verdict that only some groups have: domains, the DRA cause, per-plugin results."""
    data: dict[str, Any] = {}
    if group.domains:  # every domain of a topology-constrained group, never cut
        data["domains"] = [_domain_json(d) for d in group.domains]
    if group.dra_cause is not None:  # the tightest DRA stage over all nodes (a group without domains)
        data["dra"] = group.dra_cause.json()
    if group.plugins is not None:  # --plugin-results only: without it the shape stays DESIGN's
        data["plugins"] = plugin_results_json(group)
    return data


def plugin_results_json(group: GroupDiagnosis) -> dict[str, Any] | None:
    """The group's per-plugin results as docs/plugin-results.md shows them: pod name -> its Filter and Score plugins
    per node; None when they were not recorded (explain without --plugin-results). The HTML report draws this."""
    if group.plugins is None:
        return None
    return {name: _pod_plugins_json(record) for name, record in group.plugins.items()}


def _filter_json(result: Any) -> dict[str, Any]:
    return {"plugin": result.plugin, "status": result.status, "reason": result.reason, "message": result.message}


def _pod_plugins_json(record: Any) -> dict[str, Any]:
    """One sched/plugin_results.PodPlugins, keys in a fixed order."""
    return {
        "nodes": record.nodes,
        "domain": dict(record.domain) if record.domain is not None else None,
        "preFilter": _filter_json(record.pre_filter) if record.pre_filter is not None else None,
        "filter": [{"node": n.node, "results": [_filter_json(r) for r in n.results]} for n in record.filter],
        "score": [{"node": n.node, "scores": [{"plugin": s.plugin, "raw": s.raw, "normalized": s.normalized,
                                               "weight": s.weight, "weighted": s.weighted} for s in n.scores],
                   "total": n.total} for n in record.score],
        "chosenNode": record.chosen_node,
        "feasible": record.feasible,
        "scored": record.scored,
        "rejectedBy": dict(record.rejected_by),
        "nodesLeftOut": record.nodes_left_out,
    }


def _domain_json(domain: DomainLine) -> dict[str, Any]:
    return {"key": domain.key, "value": domain.value, "nodes": domain.nodes, "placeable": domain.placeable,
            "needed": domain.needed, "fits": domain.feasible,
            "reasons": [{"code": r.code, "message": r.message, "count": r.count, "details": dict(r.details)}
                        for r in domain.reasons],
            "dra": domain.dra.json() if domain.dra is not None else None, "ownDevices": domain.own_devices}


def explain_document(report: ExplainReport) -> dict[str, Any]:
    """The document -o json prints, as a dict."""
    data: dict[str, Any] = {"k8sVersion": report.k8s_version, "groups": [group_json(g) for g in report.groups]}
    if report.gaps:  # only then: a complete read keeps DESIGN's shape exactly
        data["gaps"] = gap_list(report.gaps, EXPLAIN_KINDS)
    if report.left_out:
        data["leftOut"] = [problem_json(problem) for problem in report.left_out]
    if report.notes:  # what the simulation left out or does not model (the text output prints the same lines)
        data["notes"] = list(report.notes)
    return data


def html_document(report: ExplainReport) -> dict[str, Any]:
    """explain_document with each group's cluster grid (explain/grid.py) under "grid": what render_html draws."""
    data = explain_document(report)
    for group, entry in zip(report.groups, data["groups"], strict=True):
        if group.grid is not None:
            entry["grid"] = group.grid
    return data


def render_json(report: ExplainReport) -> str:
    """The report as indented JSON text ending with a newline."""
    data = explain_document(report)
    try:
        text = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # an integer beyond 64 bits (a quantity such as 1e309 is valid): the standard encoder takes it
        import json

        text = json.dumps(data, indent=2, ensure_ascii=False)
    return json_safe(text) + "\n"
