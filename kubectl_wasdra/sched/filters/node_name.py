"""NodeName filter: a pod with spec.nodeName set fits only that node.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodename/node_name.go (release-1.37).
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodeName"
MESSAGE: Final = "node(s) didn't match the requested node name"  # ErrReason


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if the pod names no node or names this one."""
    if not pod.node_name or pod.node_name == node.name:
        return None
    return Status.unresolvable(Reason.NODE_NAME_MISMATCH, MESSAGE, NAME, nodeName=pod.node_name)
