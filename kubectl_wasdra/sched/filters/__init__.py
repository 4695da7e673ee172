"""Filter plugins in kube-scheduler's default profile order (the first failing filter gives a node's reason).

Upstream: kubernetes/kubernetes pkg/scheduler/apis/config/v1/default_plugins.go (release-1.37): NodeUnschedulable,
NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, volume plugins, PodTopologySpread,
InterPodAffinity, DynamicResources. PreFilter rejections: pre_filter.py. The modules' filters are the default
profile's; a profile's own instances (plugin args, disabled plugins) come from sched/profile_plugins.py.
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.sched.filters import (
    dynamic_resources,
    inter_pod_affinity,
    node_affinity,
    node_name,
    node_ports,
    node_resource_topology,
    node_resources_fit,
    node_unschedulable,
    node_volume_limits,
    pod_topology_spread,
    taint_toleration,
    volume_binding,
    volume_restrictions,
    volume_zone,
)

FILTERS: Final = (
    node_unschedulable, node_name, taint_toleration, node_affinity, node_ports,
    node_resources_fit, volume_restrictions, node_volume_limits, volume_binding, volume_zone,
    pod_topology_spread, inter_pod_affinity, dynamic_resources,
    node_resource_topology,  # out of tree (scheduler-plugins): only in profiles that enable it, after the in-tree ones
)
STATIC_FILTERS: Final = FILTERS[:4]  # depend on the pod and the node only, never on what else is placed
VOLUME_FILTERS: Final = (volume_restrictions, node_volume_limits, volume_binding, volume_zone)
