"""NodeAffinity filter: spec.nodeSelector AND required node affinity terms (terms ORed, expressions ANDed).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (release-1.37).
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.kube.selectors import matches_pod_node_constraints
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeAffinity"
MESSAGE: Final = "node(s) didn't match Pod's node affinity/selector"  # ErrReasonPod


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if the node's labels satisfy the pod's nodeSelector and required node affinity."""
    if matches_pod_node_constraints(pod.spec, node.facts.node):
        return None
    return Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH, MESSAGE, NAME)
