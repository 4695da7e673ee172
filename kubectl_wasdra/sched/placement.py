"""Find a node for one pod in one state: filters in order, results shared between identical pods.

Score plugins are not reproduced: a pod goes to the first feasible node in name order within the candidate nodes
(bin-packing), which decides fit or no-fit the way kube-scheduler does for homogeneous groups.
Identical pods (same PodInfo.signature) share static filter results; for pods without spread or inter-pod affinity
a cursor remembers where the last identical pod went, since usage only grows within a state.
"""

from __future__ import annotations

from kubectl_wasdra.sched.filters import DYNAMIC_FILTERS, STATIC_FILTERS
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Status


def run_filters(pod: PodInfo, node: NodeInfo, filters: tuple = DYNAMIC_FILTERS) -> Status | None:
    """The first failing filter's status, or None if all pass."""
    for plugin in filters:
        status = plugin.filter_node(pod, node)
        if status is not None:
            return status
    return None


def _static_statuses(pod: PodInfo, state: SchedState) -> dict[str, Status]:
    """Static filter failures per node for pods with this signature, computed once per simulation."""
    cached = state.static_cache.get(pod.signature)
    if cached is None:
        cached = {}
        for name in state.node_names:
            status = run_filters(pod, state.node(name), STATIC_FILTERS)
            if status is not None:
                cached[name] = status
        state.static_cache[pod.signature] = cached
    return cached


def find_node(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> str | None:
    """The node `pod` goes to among `nodes` (a sorted tuple kept alive by the caller), or None if none fits."""
    pre_filter = state.pre_filter(pod)
    if pre_filter is not None:
        return None
    static = _static_statuses(pod, state)
    key = (pod.signature, id(nodes))
    start = 0 if pod.is_stateful else state.cursors.get(key, 0)
    for index in range(start, len(nodes)):
        name = nodes[index]
        if name in static:
            continue
        if run_filters(pod, state.node(name)) is None:
            if not pod.is_stateful:
                state.set(state.cursors, key, index)
            return name
    if not pod.is_stateful:
        state.set(state.cursors, key, len(nodes))
    return None


def diagnose_pod(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> FitError:
    """Why `pod` fits none of `nodes`: every node's first failing filter (run again; only called on failure)."""
    pre_filter = state.pre_filter(pod)
    if pre_filter is not None:
        return FitError(pod.key, len(nodes), dict.fromkeys(nodes, pre_filter), pre_filter.message)
    static = _static_statuses(pod, state)
    statuses: dict[str, Status] = {}
    state.diagnosing = True
    try:
        for name in nodes:
            status = static.get(name) or run_filters(pod, state.node(name))
            if status is not None:
                statuses[name] = status
    finally:
        state.diagnosing = False
    return FitError(pod.key, len(nodes), statuses)
