"""Filter plugins in kube-scheduler's default profile order (the first failing filter gives a node's reason).

Upstream: kubernetes/kubernetes pkg/scheduler/apis/config/v1/default_plugins.go (release-1.37): NodeUnschedulable,
NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, volume plugins, PodTopologySpread,
InterPodAffinity, DynamicResources. Volumes are not simulated. PreFilter rejections: pre_filter.py.
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.sched.filters import (
    dynamic_resources,
    inter_pod_affinity,
    node_affinity,
    node_name,
    node_ports,
    node_resources_fit,
    node_unschedulable,
    pod_topology_spread,
    taint_toleration,
)

FILTERS: Final = (
    node_unschedulable, node_name, taint_toleration, node_affinity, node_ports,
    node_resources_fit, pod_topology_spread, inter_pod_affinity, dynamic_resources,
)
STATIC_FILTERS: Final = FILTERS[:4]  # depend on the pod and the node only, never on what else is placed
DYNAMIC_FILTERS: Final = FILTERS[4:]
