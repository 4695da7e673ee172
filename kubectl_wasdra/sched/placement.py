"""Find a node for one pod in one state: filters in order, results shared between identical pods.

Feasible nodes are scored as kube-scheduler's default profile does (scoring.py) and the best one is taken.
Identical pods (same PodInfo.signature) share static filter results; for pods without spread or inter-pod affinity
a cursor remembers the first node that was still feasible for the last identical pod, since usage only grows
within a state; feasible nodes and their raw scores are shared by pods of one shape while the node is unchanged.

Pods of the same *shape* (pod_shape: the signature with each claim's spec in place of its name, so pods whose claims
differ only by name share it) share verdicts: a "no node fits" verdict holds until a rollback frees something
(SchedState.freed: within a state usage only grows, and more usage never lets a pod fit), and each node's failure
status holds while the node's generation (and, with network-attached devices, the shared generation) is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import orjson

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.filters import inter_pod_affinity, node_affinity, volume_restrictions
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.pod_scores import pod_scores
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profile_plugins import plugins_for
from kubectl_wasdra.sched.scoring import best_node, dra_score, num_feasible_nodes_to_find, raw_scores, score_weights
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status


def run_filters(pod: PodInfo, node: NodeInfo, static: bool = False) -> Status | None:
    """The first failing filter's status, or None if all pass: the pod's profile's static filters or the others
    (profile_plugins.py: its instances, those it disables left out; the volume filters only for pods with volumes)."""
    plugins = plugins_for(pod.profile)
    filters = plugins.static if static else plugins.dynamic if pod.has_volumes else plugins.dynamic_without_volumes
    for plugin in filters:
        status = plugin.filter_node(pod, node)
        if status is not None:
            return status
    return None


def _percentage(pod: PodInfo) -> int:
    """The profile's percentageOfNodesToScore (0: kube-scheduler's adaptive default)."""
    profile = pod.profile
    return 0 if profile is None else profile.percentage_of_nodes_to_score or 0


def _static_statuses(pod: PodInfo, state: SchedState) -> dict[str, Status]:
    """Static filter failures per node for pods with this signature, computed once per simulation. Nodes that
    NodeAffinity's PreFilter leaves out get the framework's status for them instead of running the filters."""
    cached = state.static_cache.get(pod.base_signature)  # static filters never read claims
    if cached is None:
        cached = {}
        allowed = node_affinity.pre_filter_nodes(pod) if plugins_for(pod.profile).node_affinity is not None else None
        narrowed = Status.unresolvable(Reason.NODE_AFFINITY_MISMATCH,
                                       node_affinity.NARROWED.format(plugins=node_affinity.NAME))
        for name in state.node_names:
            status = narrowed if allowed is not None and name not in allowed else \
                run_filters(pod, state.node(name), static=True)
            if status is not None:
                cached[name] = status
        state.static_cache[pod.base_signature] = cached
    return cached


def is_stateful(pod: PodInfo, state: SchedState) -> bool:
    """True when the pod's filter results depend on where other pods are: its own spread or inter-pod affinity, or
    the required anti-affinity of placed pods that selects it; such results are never shared between pods."""
    if pod.stateful:
        return True
    if not state.anti_affinity_pods or pod.affinity_error:
        return False
    return bool(inter_pod_affinity.pre_filter_data(pod, state).existing_anti_affinity_counts)


def pod_shape(pod: PodInfo, state: SchedState, stateful: bool | None = None) -> bytes | None:
    """What every filter reads of `pod`, claim names left out; None when results cannot be shared (spread or
    inter-pod affinity, unresolvable claims, claim fields that are not JSON). `stateful`: is_stateful when known."""
    if is_stateful(pod, state) if stateful is None else stateful:
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


def renamed_cached(state: SchedState, status: Status, old: tuple[str, ...], new: tuple[str, ...]) -> Status:
    """`status` given to a pod whose claims were `old`, as a pod of the same shape with claims `new` gets it (one
    copy per status and names)."""
    if old == new:
        return status
    key = (id(status), old, new)
    found = state.renamed.get(key)
    if found is None or found[0] is not status:
        found = state.renamed[key] = (status, _renamed(status, old, new))
    return found[1]


def find_node(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> str | None:
    """The node `pod` goes to among `nodes` (a sorted tuple kept alive by the caller), or None if none fits; a
    PluginRecorder on the state (explain --plugin-results) is shown the cycle, the state still as the cycle saw it."""
    chosen, scores = _find_node(pod, state, nodes)
    if state.recorder is not None:
        state.recorder.observe(pod, state, nodes, chosen, scores)
    return chosen


_NONE: Any = {}  # no node scored (read-only)


def _find_node(pod: PodInfo, state: SchedState,
               nodes: tuple[str, ...]) -> tuple[str | None, Mapping[str, tuple[int, int, int, int]]]:
    """(the chosen node or None, the raw scores of the feasible nodes scored).

    As kube-scheduler: filter nodes until numFeasibleNodesToFind are feasible, score those, take the highest total
    (scoring.py). kube-scheduler starts each search where the previous one stopped, in its own node order, and picks
    at random among equal scores; we search in name order from the first node that can still be feasible and take
    the first name among equal scores, so the same inputs always give the same placement.
    """
    pre_filter = state.pre_filter(pod)
    if pre_filter is not None:
        return None, _NONE
    stateful = is_stateful(pod, state)
    shape = pod_shape(pod, state, stateful)
    nodes_key = state.nodes_key(nodes)
    if shape is not None and state.no_fit.get((shape, nodes_key)) == state.freed:
        return None, _NONE
    key = (pod.signature, id(nodes))
    start = 0 if stateful else state.cursors.get(key, 0)
    window = _window(state, shape, nodes)
    if window is not None:
        fresh = _refresh(pod, state, nodes, shape, window)
        scores = window.scores
    else:
        scores, fresh, end = _feasible(pod, state, nodes, shape, start)
        if shape is not None:
            window = state.windows[(shape, nodes_key)] = _Window(scores, end, state)
    if not scores:
        if not stateful:
            state.set(state.cursors, key, len(nodes))
        if start == 0 and shape is not None:
            state.no_fit[(shape, nodes_key)] = state.freed
        return None, scores
    if not stateful:
        state.set(state.cursors, key, state.position(nodes, next(iter(scores))))
    chosen = best_node(scores, score_weights(pod.profile, state.minor), pod_scores(pod, state, tuple(scores))) \
        if len(scores) > 1 else next(iter(scores))  # one: no scoring
    return (chosen if _prepare_chosen(pod, state, chosen, fresh, shape) else None), scores


def _prepare_chosen(pod: PodInfo, state: SchedState, chosen: str, fresh: set[str], shape: bytes | None) -> bool:
    """Keep only the chosen node's DRA allocation. On a node known feasible from a pod of the same shape, that pod's
    allocation is reused with this pod's claims, or the filters run again for this pod (False if they fail, which
    pods of one shape never do)."""
    if state.dra is None or not pod.claims_or_extended:
        return True
    for name in fresh - {chosen}:
        state.dra.found.pop((id(pod), name), None)
    if chosen in fresh:
        return True
    twin = state.twins.get((shape, chosen)) if shape is not None else None
    if twin is not None and twin[0] == state.node_gen[chosen] and twin[1] == state.shared_gen \
            and state.dra.retarget(pod, chosen, twin[2]):
        return True
    return run_filters(pod, state.node(chosen)) is None


def _passed(pod: PodInfo, state: SchedState, shape: bytes | None, name: str, node: NodeInfo) -> tuple[int, int, int, int]:
    """Raw scores of a node the filters just let `pod` onto; its DRA allocation is kept for pods of the same shape."""
    found = state.dra.found.get((id(pod), name)) if state.dra is not None else None
    if found is not None and shape is not None:
        state.twins[(shape, name)] = (state.node_gen[name], state.shared_gen, found)
    return raw_scores(pod, node, state.nonzero[name], dra_score(found))


class _Window:
    """The feasible nodes last scored for one shape (name -> raw scores, in node order) and the index of the last node
    examined: kept while nothing was freed, so the next pod of that shape only re-filters the nodes changed since
    (state.changed_nodes; usage only grows, so a node that was not feasible stays so) and tops the window up."""

    __slots__ = ("changes", "end", "freed", "scores", "shared_gen")

    def __init__(self, scores: dict[str, tuple[int, int, int, int]], end: int, state: SchedState) -> None:
        self.scores, self.end = scores, end
        self.freed, self.shared_gen, self.changes = state.freed, state.shared_gen, len(state.changed_nodes)


def _window(state: SchedState, shape: bytes | None, nodes: tuple[str, ...]) -> _Window | None:
    if shape is None:
        return None
    window = state.windows.get((shape, state.nodes_key(nodes)))
    if window is None or window.freed != state.freed or window.shared_gen != state.shared_gen:
        return None
    return window


def _refresh(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], shape: bytes | None, window: _Window) -> set[str]:
    """Bring the window of the last pod of this shape up to date for `pod`: changed nodes filtered again, then
    topped up past its end; the nodes whose filters ran for this pod."""
    scores, fresh = window.scores, set()
    for name in set(state.changed_nodes[window.changes:]):
        if name not in scores:
            continue
        node = state.node(name)
        if run_filters(pod, node) is None:
            scores[name] = _passed(pod, state, shape, name, node)
            fresh.add(name)
        else:
            del scores[name]
    window.changes = len(state.changed_nodes)
    wanted = num_feasible_nodes_to_find(len(nodes), _percentage(pod))
    if len(scores) < wanted and window.end + 1 < len(nodes):
        more, more_fresh, window.end = _feasible(pod, state, nodes, shape, window.end + 1, wanted - len(scores))
        scores.update(more)
        fresh |= more_fresh
    return fresh


def _feasible(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], shape: bytes | None, start: int,
              wanted: int | None = None) -> tuple[dict[str, tuple[int, int, int, int]], set[str], int]:
    """Raw scores of the first numFeasibleNodesToFind (or `wanted`) feasible nodes from `start` by name, the nodes
    whose filters ran for this very pod and the index of the last node examined."""
    static = _static_statuses(pod, state)
    wanted = num_feasible_nodes_to_find(len(nodes), _percentage(pod)) if wanted is None else wanted
    scored: dict[str, tuple[int, int, int, int]] = {}
    fresh: set[str] = set()
    index = start - 1
    node_gen, shared_gen, feasible = state.node_gen, state.shared_gen, state.feasible
    for index in range(start, len(nodes)):
        name = nodes[index]
        if name in static:
            continue
        known = feasible.get((shape, name)) if shape is not None else None
        if known is not None and known[0] == node_gen[name] and known[1] == shared_gen:
            raw = known[2]
        elif _known_failure(state, shape, name, False) is not None:
            continue
        else:
            node = state.node(name)
            status = run_filters(pod, node)
            if status is not None:
                _remember_failure(state, shape, name, status, (), False)
                continue
            raw = _passed(pod, state, shape, name, node)
            fresh.add(name)
            if shape is not None:
                feasible[(shape, name)] = (node_gen[name], shared_gen, raw)
        scored[name] = raw
        if len(scored) >= wanted:
            break
    return scored, fresh, index


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
    in_use = pre_filter if pre_filter is not None and pre_filter.details.get("perNode") else None  # a Filter verdict
    if pre_filter is not None and in_use is None:
        return FitError(pod.key, len(nodes), dict.fromkeys(nodes, pre_filter), pre_filter.message,
                        pre_filter.code is Code.ERROR)
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
                    status = renamed_cached(state, known[2], known[3], refs)
                else:
                    status = run_filters(pod, state.node(name))
                    if status is not None:
                        _remember_failure(state, shape, name, status, refs, True)
            if in_use is not None:
                status = volume_restrictions.in_filter_order(status, in_use)
            if status is not None:
                statuses[name] = status
    finally:
        state.diagnosing = False
    return FitError(pod.key, len(nodes), statuses)
