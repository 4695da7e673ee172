"""NodeAffinity filter: spec.nodeSelector AND required node affinity terms (terms ORed, expressions ANDed).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (release-1.37).
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.kube.selectors import matches_node_selector, matches_pod_node_constraints
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeAffinity"
MESSAGE: Final = "node(s) didn't match Pod's node affinity/selector"  # ErrReasonPod
ENFORCED: Final = "node(s) didn't match scheduler-enforced node affinity"  # errReasonEnforced (profile addedAffinity)


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if the node's labels satisfy the profile's addedAffinity (checked first, as upstream does), then the pod's
    nodeSelector and required node affinity."""
    added = pod.profile.added_affinity if pod.profile is not None else None
    required = added.get("requiredDuringSchedulingIgnoredDuringExecution") if added else None
    if required and not matches_node_selector(required, node.facts.node):
        return Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH, ENFORCED, NAME)
    if matches_pod_node_constraints(pod.spec, node.facts.node):
        return None
    return Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH, MESSAGE, NAME)
