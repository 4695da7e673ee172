"""TaintToleration filter: nodes with a NoSchedule/NoExecute taint the pod does not tolerate are out.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go (release-1.37);
the per-node text lost the taint itself in 1.35 (PRs #134740, #135023).
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.kube.taints import first_untolerated
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "TaintToleration"
MESSAGE: Final = "node(s) had untolerated taint(s)"  # 1.35+
MESSAGE_OLD: Final = "node(s) had untolerated taint {{{key}: {value}}}"  # up to 1.34: the first untolerated taint


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if every NoSchedule/NoExecute taint of the node is tolerated."""
    taint = first_untolerated(node.facts.taints, pod.tolerations)
    if taint is None:
        return None
    key, value, effect = taint.get("key", ""), str(taint.get("value") or ""), taint.get("effect", "")
    message = MESSAGE if node.state.minor >= 35 else MESSAGE_OLD.format(key=key, value=value)
    return Status.unresolvable(Reason.UNTOLERATED_TAINT, message, NAME, key=key, value=value, effect=effect)
