"""NodeUnschedulable filter: a cordoned node (spec.unschedulable) takes only pods tolerating the unschedulable taint.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go (release-1.37).
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.kube.taints import is_tolerated
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeUnschedulable"
MESSAGE: Final = "node(s) were unschedulable"  # ErrReasonUnschedulable
_CORDON_TAINT: Final = {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None unless the node is cordoned and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule."""
    if not node.facts.unschedulable or is_tolerated(_CORDON_TAINT, pod.tolerations):
        return None
    return Status.unresolvable(Reason.NODE_UNSCHEDULABLE, MESSAGE, NAME)
