"""PreFilter: the rejections that keep a pod off every node, in the default profile's PreFilter order.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (RunPreFilterPlugins: an
UnschedulableAndUnresolvable status or an Error stops at once, an Unschedulable one is kept while the rest run) and
pkg/scheduler/apis/config/v1/default_plugins.go, release-1.37: NodeAffinity, NodePorts, NodeResourcesFit, volume
plugins, PodTopologySpread, InterPodAffinity, DynamicResources. The checks run with the pod's profile's instances
(sched/profile_plugins.py); a plugin the profile disables has no PreFilter. NodeAffinity's narrowing of the node set
is applied where static filter results are computed (placement.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from kubectl_wasdra.sched.filters import (
    dynamic_resources,
    inter_pod_affinity,
    node_affinity,
    volume_binding,
    volume_restrictions,
    volume_zone,
)
from kubectl_wasdra.sched.podinfo import UNCHECKED, PodInfo
from kubectl_wasdra.sched.profile_plugins import ProfilePlugins, plugins_for
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status


def run_pre_filters(pod: PodInfo, state: SchedState) -> Status | None:
    """The first PreFilter rejection (or Error) for `pod`, or None when Filter runs on the nodes. The checks that read
    only the pod (and the plugins' args) run once, their outcome kept on the PodInfo (None when they all pass, else
    NodeAffinity's and the first of PodTopologySpread's and InterPodAffinity's); the volume checks sit between them.
    A ReadWriteOncePod claim in use is VolumeRestrictions' Filter verdict on every node (details perNode), said
    only when no PreFilter rejects the pod."""
    plugins = plugins_for(pod.profile)
    if pod.pre_filter_status is UNCHECKED:
        pod.pre_filter_status = _pod_only(pod, state, plugins)
    affinity, later = pod.pre_filter_status or (None, None)
    volumes = pod.has_volumes and state.volume_index is not None
    status = _first((affinity, *(_volume_checks(pod, state, plugins) if volumes else ()), later))
    if status is not None and status.code is not Code.UNSCHEDULABLE:
        return status
    dra = state.dra.pre_filter(pod) if state.dra is not None and pod.claims_or_extended \
        and plugins.runs(dynamic_resources.NAME) else None
    status = status if dra is None else _first((status, dra))
    if status is None and volumes and plugins.runs(volume_restrictions.NAME):
        return volume_restrictions.rwop_in_use(pod, state)
    return status


def _pod_only(pod: PodInfo, state: SchedState, plugins: ProfilePlugins) -> Any:
    """(NodeAffinity's status, the first of PodTopologySpread's and InterPodAffinity's), or None when all pass."""
    affinity = node_affinity.pre_filter(pod, state) if plugins.node_affinity is not None else None
    if affinity is not None and affinity.code is not Code.UNSCHEDULABLE:
        return affinity, None
    checks = (plugins.spread.pre_filter if plugins.spread is not None else None,
              inter_pod_affinity.pre_filter if plugins.runs(inter_pod_affinity.NAME) else None)
    later = _first(check(pod, state) for check in checks if check is not None)
    return None if affinity is None and later is None else (affinity, later)


def _volume_checks(pod: PodInfo, state: SchedState, plugins: ProfilePlugins) -> Iterator[Status | None]:
    """VolumeBinding's and VolumeZone's PreFilter statuses, each only when the profile runs the plugin."""
    if plugins.runs(volume_binding.NAME):
        yield volume_binding.pre_filter(pod, state.volume_index)
    if plugins.runs(volume_zone.NAME):
        yield volume_zone.pre_filter(pod, state.volume_index)


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
