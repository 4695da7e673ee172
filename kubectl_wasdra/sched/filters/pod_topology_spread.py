"""PodTopologySpread filter (DoNotSchedule constraints): placing the pod must keep each constraint's skew <= maxSkew.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (release-1.37).
Simplified: domains are all nodes carrying the key (nodeAffinityPolicy/nodeTaintsPolicy and minDomains not applied).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.kube.selectors import matches_label_selector
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "PodTopologySpread"
MESSAGE: Final = "node(s) didn't match pod topology spread constraints"  # ErrReasonConstraintsNotMatch
MESSAGE_LABEL: Final = "node(s) didn't match pod topology spread constraints (missing required label)"


def _matching(node: NodeInfo, name: str, namespace: str, selector: Mapping[str, Any] | None) -> int:
    return sum(1 for ns, labels, *_ in node.state.pods[name] if ns == namespace and matches_label_selector(selector, labels))


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if every DoNotSchedule constraint keeps its skew after adding the pod here."""
    for constraint in pod.spread:
        key = constraint.get("topologyKey", "")
        value = node.facts.labels.get(key)
        if value is None:
            return Status.unresolvable(Reason.TOPOLOGY_SPREAD_MISMATCH, MESSAGE_LABEL, NAME, topologyKey=key)
        selector = constraint.get("labelSelector")
        counts = {v: sum(_matching(node, n, pod.namespace, selector) for n in nodes)
                  for v, nodes in node.state.domain_index(key).items()}
        self_match = 1 if matches_label_selector(selector, pod.labels) else 0
        skew = counts[value] + self_match - min(counts.values())
        if skew > int(constraint.get("maxSkew", 1)):
            return Status.unschedulable(Reason.TOPOLOGY_SPREAD_MISMATCH, MESSAGE, NAME, topologyKey=key, skew=skew)
    return None
