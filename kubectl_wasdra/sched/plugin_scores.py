"""Each Score plugin's raw, normalized and weighted score for one pod on the feasible nodes the cycle scored, taken
apart from the totals scoring.best_node compares (the same functions, so the parts add up to the same totals).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (RunScorePlugins: Score per node,
NormalizeScore over the scored nodes, times the plugin's weight; a plugin whose PreScore returns Skip is not scored)
and pkg/scheduler/apis/config/v1/default_plugins.go (order and weights), release-1.37.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Final

from kubectl_wasdra.sched.pod_scores import (
    inter_pod_affinity_raw,
    inter_pod_affinity_scores,
    pod_scores,
    topology_spread_raw,
    topology_spread_scores,
)
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profiles import DEFAULT_PROFILE
from kubectl_wasdra.sched.scoring import (
    balanced,
    fit_score,
    fit_weights,
    is_best_effort,
    normalized,
    score_weights,
    weighted_totals,
)
from kubectl_wasdra.sched.state import SchedState

# score plugins the simulator does not model: no container images in a snapshot; StorageCapacityScoring
NOT_SCORED: Final = frozenset({"ImageLocality", "VolumeBinding"})


@dataclass(frozen=True)
class ScoreResult:
    """One Score plugin on one node: Score's value, NormalizeScore's, the weight and normalized * weight; raw and
    normalized are None when PreScore skipped the plugin (it adds nothing)."""

    plugin: str
    raw: int | None
    normalized: int | None
    weight: int
    weighted: int


@dataclass(frozen=True)
class NodeScores:
    """Every scored plugin on one node, in the profile's order, and their sum."""

    node: str
    scores: tuple[ScoreResult, ...]
    total: int


Column = dict[str, tuple[int, int]] | None  # node -> (raw, normalized) of one plugin; None: PreScore skipped it


def node_totals(pod: PodInfo, state: SchedState, scores: Mapping[str, tuple[int, int, int, int]]) -> dict[str, int]:
    """Each scored node's total, as best_node compares them (the sum of the breakdown node_scores gives)."""
    totals = weighted_totals(scores, score_weights(pod.profile, state.minor), pod_scores(pod, state, tuple(scores)))
    return dict(zip(scores, totals, strict=True))


def node_scores(pod: PodInfo, state: SchedState, scores: Mapping[str, tuple[int, int, int, int]],
                nodes: Collection[str]) -> dict[str, NodeScores]:
    """NodeScores of `nodes` among those in `scores` (name -> the raw (resources, taints, affinity, dra) placement
    computed; normalization is over all of them), in `nodes` order."""
    detail = [name for name in nodes if name in scores]
    columns = _columns(pod, state, scores, detail)
    weights = _weights(pod, state)
    plugins = [name for name, _ in (pod.profile or DEFAULT_PROFILE).score_weights
               if name in columns and weights.get(name, 0) > 0]
    out = {}
    for node in detail:
        results = []
        for plugin in plugins:
            weight = weights[plugin]
            column = columns[plugin]
            raw, norm = column[node] if column is not None else (None, None)
            results.append(ScoreResult(plugin, raw, norm, weight, weight * norm if norm is not None else 0))
        out[node] = NodeScores(node, tuple(results), sum(r.weighted for r in results))
    return out


def _weights(pod: PodInfo, state: SchedState) -> dict[str, int]:
    """The weights best_node and resource_score apply (DynamicResources' depends on the release)."""
    taints, affinity, dra = score_weights(pod.profile, state.minor)
    fit, balance = fit_weights(pod.profile)
    profile = pod.profile or DEFAULT_PROFILE
    return {"TaintToleration": taints, "NodeAffinity": affinity, "NodeResourcesFit": fit,
            "PodTopologySpread": profile.score_weight("PodTopologySpread"),
            "InterPodAffinity": profile.score_weight("InterPodAffinity"),
            "NodeResourcesBalancedAllocation": balance, "DynamicResources": dra}


def _columns(pod: PodInfo, state: SchedState, scores: Mapping[str, tuple[int, int, int, int]],
             detail: list[str]) -> dict[str, Column]:
    """(raw, normalized) per node of every modelled plugin (those without NormalizeScore only for `detail`)."""
    names = list(scores)
    best_effort = is_best_effort(pod)
    spread = topology_spread_raw(pod, state, names)
    return {
        "TaintToleration": _normalized_column(scores, 1, True, detail),
        "NodeAffinity": _normalized_column(scores, 2, False, detail),
        "NodeResourcesFit": _own(detail, lambda n: fit_score(pod, state.node(n), state.nonzero[n])),
        "PodTopologySpread": _pair(spread[0] if spread is not None else None, topology_spread_scores(pod, state, names)),
        "InterPodAffinity": _pair(inter_pod_affinity_raw(pod, state, names), inter_pod_affinity_scores(pod, state, names)),
        "NodeResourcesBalancedAllocation": None if best_effort else _own(detail, lambda n: balanced(pod, state.node(n))),
        "DynamicResources": _normalized_column(scores, 3, False, detail) if pod.claims_or_extended else None,
    }


def _normalized_column(scores: Mapping[str, tuple[int, int, int, int]], index: int, reverse: bool,
                       detail: list[str]) -> Column:
    """A plugin normalized with helper.DefaultNormalizeScore over the scored nodes (reverse: TaintToleration), for
    the `detail` nodes."""
    maximum = max(raw[index] for raw in scores.values())
    return {node: (scores[node][index], normalized(scores[node][index], maximum, reverse)) for node in detail}


def _own(names: list[str], score: Callable[[str], int]) -> Column:
    """A plugin without NormalizeScore: its Score is its normalized score."""
    return {node: (value, value) for node in names for value in (score(node),)}


def _pair(raw: Mapping[str, int] | None, norm: Mapping[str, int] | None) -> Column:
    """Raw and normalized scores of a plugin normalized in pod_scores.py (a node without a raw score: 0, as Score
    gives a node PodTopologySpread ignores)."""
    if raw is None or norm is None:
        return None
    return {node: (raw.get(node, 0), score) for node, score in norm.items()}
