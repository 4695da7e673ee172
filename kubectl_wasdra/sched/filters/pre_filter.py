"""PreFilter: the rejections that keep a pod off every node, in the default profile's PreFilter order.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (RunPreFilterPlugins: an
UnschedulableAndUnresolvable status or an Error stops at once, an Unschedulable one is kept while the rest run) and
pkg/scheduler/apis/config/v1/default_plugins.go, release-1.37: NodeAffinity, NodePorts, NodeResourcesFit, volume
plugins, PodTopologySpread, InterPodAffinity, DynamicResources. NodeAffinity's narrowing of the node set is applied
where static filter results are computed (placement.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from kubectl_wasdra.sched.filters import inter_pod_affinity, node_affinity, pod_topology_spread
from kubectl_wasdra.sched.podinfo import UNCHECKED, PodInfo
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status

_STATELESS: Final = (node_affinity.pre_filter, pod_topology_spread.pre_filter, inter_pod_affinity.pre_filter)


def run_pre_filters(pod: PodInfo, state: SchedState) -> Status | None:
    """The first PreFilter rejection (or Error) for `pod`, or None when Filter runs on the nodes. The checks before
    DynamicResources read only the pod (and the plugins' args), so their outcome is kept on the PodInfo."""
    status = pod.pre_filter_status
    if status is UNCHECKED:
        status = pod.pre_filter_status = _first(check(pod, state) for check in _STATELESS)
    if status is not None and status.code is not Code.UNSCHEDULABLE:
        return status
    dra = state.dra.pre_filter(pod) if state.dra is not None and pod.claims_or_extended else None
    return status if dra is None else _first((status, dra))


def _first(statuses: Iterable[Status | None]) -> Status | None:
    """RunPreFilterPlugins: the first UnschedulableAndUnresolvable (or Error) status at once, else the first
    Unschedulable one."""
    kept: Status | None = None
    for status in statuses:
        if status is None:
            continue
        if status.code is not Code.UNSCHEDULABLE:
            return status
        kept = kept or status
    return kept

