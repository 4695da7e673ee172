"""NodePorts filter: a host port the pod asks for must be free on the node for its protocol and host IP.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go (fitsPorts) and
pkg/scheduler/framework/types.go (HostPortInfo.CheckConflict: 0.0.0.0 conflicts with every IP of the same protocol
and port, a specific IP with itself and 0.0.0.0), release-1.37.
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

NAME: Final = "NodePorts"
MESSAGE: Final = "node(s) didn't have free ports for the requested pod ports"  # ErrReason
ALL_IPS: Final = "0.0.0.0"  # DefaultBindAllHostIP


def has_conflict(used: set[tuple[str, str, int]], ip: str, protocol: str, port: int) -> bool:
    """HostPortInfo.CheckConflict for one wanted (ip, protocol, port) against the ports in use."""
    if ip == ALL_IPS:
        return any(p == protocol and n == port for _, p, n in used)
    return (ALL_IPS, protocol, port) in used or (ip, protocol, port) in used


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if none of the pod's host ports conflicts with a host port of a pod on the node."""
    if not pod.host_ports:
        return None  # PreFilter: Skip
    used = {port for other in node.pods for port in other.host_ports}
    for ip, protocol, port in pod.host_ports:
        if has_conflict(used, ip, protocol, port):
            return Status.unschedulable(Reason.HOST_PORT_CONFLICT, MESSAGE, NAME, hostIP=ip, protocol=protocol,
                                        hostPort=port)
    return None
