"""FilterPlugin: the shape every filter module has (a NAME and a pure filter_node)."""

from __future__ import annotations

from typing import Protocol

from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status


class FilterPlugin(Protocol):
    """A kube-scheduler Filter: None if `pod` may go to `node`, else the Status saying why not."""

    NAME: str

    def filter_node(self, pod: PodInfo, node: NodeInfo) -> Status | None: ...
