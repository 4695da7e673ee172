"""Find a node for one pod in one state: filters in order, results shared between identical pods.

Score plugins are not reproduced: a pod goes to the first feasible node in name order within the candidate nodes
(bin-packing), which decides fit or no-fit the way kube-scheduler does for homogeneous groups.
Identical pods (same PodInfo.signature) share static filter results; for pods without spread or inter-pod affinity
a cursor remembers where the last identical pod went, since usage only grows within a state.

Pods of the same *shape* (pod_shape: the signature with each claim's spec in place of its name, so pods whose claims
differ only by name share it) share verdicts: a "no node fits" verdict holds until a rollback frees something
(SchedState.freed: within a state usage only grows, and more usage never lets a pod fit), and each node's failure
status holds while the node's generation (and, with network-attached devices, the shared generation) is unchanged.
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import orjson

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
    cached = state.static_cache.get(pod.base_signature)  # static filters never read claims
    if cached is None:
        cached = {}
        for name in state.node_names:
            status = run_filters(pod, state.node(name), STATIC_FILTERS)
            if status is not None:
                cached[name] = status
        state.static_cache[pod.base_signature] = cached
    return cached


def pod_shape(pod: PodInfo, state: SchedState) -> bytes | None:
    """What every filter reads of `pod`, claim names left out; None when results cannot be shared (spread or
    inter-pod affinity, unresolvable claims, claim fields that are not JSON)."""
    if pod.is_stateful:
        return None
    if state.dra is None or not pod.claims_or_extended:
        return pod.base_signature
    claims = state.dra.claims_shape(pod)
    if claims is None:
        return None
    try:
        return pod.base_signature + orjson.dumps(claims, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None


def _known_failure(state: SchedState, shape: bytes | None, name: str, detailed: bool) -> Any:
    """The cached failure entry of `shape` on node `name` while it still holds, else None."""
    if shape is None:
        return None
    entry = state.verdicts.get((shape, name))
    if entry is None or entry[0] != state.node_gen[name] or entry[1] != state.shared_gen or (detailed and not entry[4]):
        return None
    return entry


def _remember_failure(state: SchedState, shape: bytes | None, name: str, status: Status, refs: tuple[str, ...],
                      detailed: bool) -> None:
    if shape is not None:
        state.verdicts[(shape, name)] = (state.node_gen[name], state.shared_gen, _interned(state, status), refs, detailed)


def _content(status: Status) -> tuple[Any, ...]:
    return (status.code, status.reason, status.message, tuple(status.details.items()), status.plugin,
            tuple(_content(s) for s in status.more))


def _interned(state: SchedState, status: Status) -> Status:
    """One shared object per distinct status, so renaming it (below) is done once per distinct text."""
    try:
        return state.interned.setdefault(_content(status), status)
    except TypeError:  # an unhashable detail
        return status


def _renamed_cached(state: SchedState, status: Status, old: tuple[str, ...], new: tuple[str, ...]) -> Status:
    if old == new:
        return status
    key = (id(status), old, new)
    found = state.renamed.get(key)
    if found is None or found[0] is not status:
        found = state.renamed[key] = (status, _renamed(status, old, new))
    return found[1]


def find_node(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> str | None:
    """The node `pod` goes to among `nodes` (a sorted tuple kept alive by the caller), or None if none fits."""
    pre_filter = state.pre_filter(pod)
    if pre_filter is not None:
        return None
    shape = pod_shape(pod, state)
    if shape is not None and state.no_fit.get((shape, nodes)) == state.freed:
        return None
    static = _static_statuses(pod, state)
    key = (pod.signature, id(nodes))
    start = 0 if pod.is_stateful else state.cursors.get(key, 0)
    for index in range(start, len(nodes)):
        name = nodes[index]
        if name in static or _known_failure(state, shape, name, False) is not None:
            continue
        status = run_filters(pod, state.node(name))
        if status is None:
            if not pod.is_stateful:
                state.set(state.cursors, key, index)
            return name
        _remember_failure(state, shape, name, status, (), False)
    if not pod.is_stateful:
        state.set(state.cursors, key, len(nodes))
        if start == 0 and shape is not None:
            state.no_fit[(shape, nodes)] = state.freed
    return None


def _renamed(status: Status, old: tuple[str, ...], new: tuple[str, ...]) -> Status:
    """`status` of a pod whose claims were named `old`, for a pod of the same shape whose claims are named `new`."""
    pairs = {a: b for a, b in zip(old, new, strict=False) if a != b}
    if not pairs:
        return status
    alternatives = "|".join(re.escape(a) for a in sorted(pairs, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w.-])")

    def fix(value: Any) -> Any:
        return pattern.sub(lambda m: pairs[m.group(0)], value) if isinstance(value, str) else value

    return replace(status, message=fix(status.message), details=MappingProxyType({k: fix(v) for k, v in status.details.items()}),
                   more=tuple(_renamed(s, old, new) for s in status.more))


def diagnose_pod(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> FitError:
    """Why `pod` fits none of `nodes`: every node's first failing filter (run again; only called on failure)."""
    pre_filter = state.pre_filter(pod)
    if pre_filter is not None:
        return FitError(pod.key, len(nodes), dict.fromkeys(nodes, pre_filter), pre_filter.message)
    static = _static_statuses(pod, state)
    shape = pod_shape(pod, state)
    refs = state.dra.claim_refs(pod) if shape is not None and state.dra is not None else ()
    statuses: dict[str, Status] = {}
    state.diagnosing = True
    try:
        for name in nodes:
            status = static.get(name)
            if status is None:
                known = _known_failure(state, shape, name, True)
                if known is not None:
                    status = _renamed_cached(state, known[2], known[3], refs)
                else:
                    status = run_filters(pod, state.node(name))
                    if status is not None:
                        _remember_failure(state, shape, name, status, refs, True)
            if status is not None:
                statuses[name] = status
    finally:
        state.diagnosing = False
    return FitError(pod.key, len(nodes), statuses)
