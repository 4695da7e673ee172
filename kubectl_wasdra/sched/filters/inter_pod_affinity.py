"""InterPodAffinity filter: the incoming pod's required pod affinity and anti-affinity terms.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (release-1.37).
Not modelled: anti-affinity declared by pods already running (only labels of running pods are indexed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.kube.selectors import matches_label_selector
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "InterPodAffinity"
ANTI_MESSAGE: Final = "node(s) didn't match pod anti-affinity rules"  # ErrReasonAntiAffinityRulesNotMatch
AFFINITY_MESSAGE: Final = "node(s) didn't match pod affinity rules"  # ErrReasonAffinityRulesNotMatch


def _domain_has_match(pod: PodInfo, node: NodeInfo, term: Mapping[str, Any], nodes: tuple[str, ...]) -> bool:
    namespaces = set(term.get("namespaces") or ()) or {pod.namespace}
    selector = term.get("labelSelector")
    return any(ns in namespaces and matches_label_selector(selector, labels)
               for name in nodes for ns, labels, *_ in node.state.pods[name])


def _domain(node: NodeInfo, key: str) -> tuple[str, ...]:
    value = node.facts.labels.get(key)
    return () if value is None else node.state.domain_index(key).get(value, ())


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if no anti-affinity term matches a pod in the node's domain and every affinity term does."""
    for term in pod.anti_affinity:
        if _domain_has_match(pod, node, term, _domain(node, term.get("topologyKey", ""))):
            return Status.unschedulable(Reason.POD_AFFINITY_MISMATCH, ANTI_MESSAGE, NAME,
                                        topologyKey=term.get("topologyKey", ""))
    for term in pod.affinity:
        if _domain_has_match(pod, node, term, _domain(node, term.get("topologyKey", ""))):
            continue
        anywhere = _domain_has_match(pod, node, term, node.state.node_names)
        if not anywhere and matches_label_selector(term.get("labelSelector"), pod.labels):
            continue  # the first pod of a self-affine set may go anywhere
        return Status.unschedulable(Reason.POD_AFFINITY_MISMATCH, AFFINITY_MESSAGE, NAME,
                                    topologyKey=term.get("topologyKey", ""))
    return None
