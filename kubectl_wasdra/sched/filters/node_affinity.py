"""NodeAffinity filter: spec.nodeSelector AND required node affinity terms (terms ORed, expressions ANDed); a term
whose requirements do not parse matches no node (kube/selectors.py).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (release-1.37).
PreFilter narrows the nodes to the names every term lists with `metadata.name In` (the others get
"node(s) didn't satisfy plugin(s) [NodeAffinity]" from the framework, pkg/scheduler/schedule_one.go), or rejects the
pod when those names intersect to nothing in every term ("pod affinity terms conflict").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.kube.selectors import matches_node_selector, matches_pod_node_constraints
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeAffinity"
MESSAGE: Final = "node(s) didn't match Pod's node affinity/selector"  # ErrReasonPod
CONFLICT: Final = "pod affinity terms conflict"  # errReasonConflict (PreFilter)
ENFORCED: Final = "node(s) didn't match scheduler-enforced node affinity"  # errReasonEnforced (addedAffinity)
NARROWED: Final = "node(s) didn't satisfy plugin(s) [{plugins}]"  # schedule_one.go: nodes PreFilter left out


def _required_terms(pod: PodInfo) -> list[Mapping[str, Any]] | None:
    required = ((pod.spec.get("affinity") or {}).get("nodeAffinity") or {}).get(
        "requiredDuringSchedulingIgnoredDuringExecution")
    if not isinstance(required, Mapping):
        return None
    terms = required.get("nodeSelectorTerms")
    return [t for t in terms if isinstance(t, Mapping)] if isinstance(terms, list) else []


def pre_filter_nodes(pod: PodInfo) -> frozenset[str] | None:
    """The node names PreFilter narrows to (None: all nodes); an empty set means the terms conflict."""
    terms = _required_terms(pod)
    if not terms:
        return None
    names: set[str] = set()
    for term in terms:
        term_names: set[str] | None = None
        for req in term.get("matchFields") or ():
            if isinstance(req, Mapping) and req.get("key") == "metadata.name" and req.get("operator") == "In":
                values = {str(v) for v in req.get("values") or ()}
                term_names = values if term_names is None else term_names & values
        if term_names is None:
            return None  # a term without a node name: every node is eligible (terms are ORed)
        names |= term_names
    return frozenset(names)


def pre_filter(pod: PodInfo, state: Any) -> Status | None:
    """PreFilter rejection: the terms name nodes that cannot all hold at once."""
    names = pre_filter_nodes(pod)
    if names is not None and not names:
        return Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH, CONFLICT, NAME)
    return None


@dataclass(frozen=True)
class NodeAffinity:
    """The filter with its plugin args: `added_affinity` (NodeAffinityArgs.addedAffinity, a core/v1 NodeAffinity
    every pod must satisfy as well; None in the default profile)."""

    added_affinity: Mapping[str, Any] | None = None
    NAME: str = NAME

    def filter_node(self, pod: PodInfo, node: NodeInfo) -> Status | None:
        """None if the node satisfies the added affinity and the pod's nodeSelector and required node affinity."""
        if self.added_affinity is not None:
            required = self.added_affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
            if required is not None and not matches_node_selector(required, node.facts.node):
                return _ENFORCED
        if matches_pod_node_constraints(pod.spec, node.facts.node):
            return None
        return _POD


_ENFORCED: Final = Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH, ENFORCED, NAME)
_POD: Final = Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH, MESSAGE, NAME)
DEFAULT: Final = NodeAffinity()
filter_node = DEFAULT.filter_node
