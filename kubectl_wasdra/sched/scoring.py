"""Score plugins of the default profile and how many feasible nodes kube-scheduler scores.

Upstream (kubernetes/kubernetes, release-1.37):
- pkg/scheduler/apis/config/v1/default_plugins.go: weights TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1,
  NodeResourcesBalancedAllocation 1; DynamicResources has weight 2 in the 1.36.2 source, earlier sources add it
  without a weight (the framework uses 1).
  PodTopologySpread and InterPodAffinity (2) are scored in pod_scores.py; ImageLocality (1) is not (no images).
- pkg/scheduler/framework/plugins/noderesources/least_allocated.go: NodeResourcesFit's default LeastAllocated
  strategy, cpu and memory with weight 1: per resource (allocatable - requested) * 100 / allocatable, averaged, with
  requested = the node's non-zero requests plus the pod's (a container without a cpu or memory request counts
  100m / 200Mi, resource_allocation.go and framework/types.go CalculateResource; PodInfo.nonzero).
- .../noderesources/balanced_allocation.go: balancedResourceScore = (1 - std of the requested fractions of cpu and
  memory) * 100, truncated, with the pod's real requests added (useRequested: no 100m / 200Mi defaults); best-effort
  pods are skipped. Up to 1.35 that is the score; since 1.36 (kubernetes PR #135573, CHANGELOG-1.36) the score is how
  much the pod improves the node's balance: 50 + (50 + with pod - without pod) / 2 in integers (the 1.36.2 source,
  balancedResourceScorer; no later change is listed in CHANGELOG-1.37).
- .../tainttoleration/taint_toleration.go: PreferNoSchedule taints the pod does not tolerate, normalized reversed.
- .../nodeaffinity/node_affinity.go: sum of the weights of matching preferred terms, normalized.
- .../dynamicresources/dynamicresources.go Score: 8 - i per firstAvailable request served by alternative i, normalized.
- pkg/scheduler/schedule_one.go numFeasibleNodesToFind: all nodes below 100; else 50 - nodes/125 percent (at least
  5%) of the nodes, at least 100.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, Final

from kubectl_wasdra.kube.selectors import matches_node_selector
from kubectl_wasdra.kube.taints import tolerates
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import CORE_RESOURCES, PodInfo
from kubectl_wasdra.sched.profiles import DEFAULT_SCORES

MAX_NODE_SCORE: Final = 100  # framework.MaxNodeScore
WEIGHT_FIT: Final = 1
WEIGHT_BALANCED: Final = 1
WEIGHT_TAINTS: Final = 3
WEIGHT_AFFINITY: Final = 2
WEIGHT_DRA: Final = 1
WEIGHT_DRA_1_36: Final = 2  # 1.36.2 default_plugins.go applyDynamicResources: DynamicResources with Weight 2
DRA_WEIGHT_MINOR: Final = 36
MIN_FEASIBLE_NODES: Final = 100  # schedule_one.go minFeasibleNodesToFind
MIN_FEASIBLE_PERCENTAGE: Final = 5  # minFeasibleNodesPercentageToFind
BALANCED_RESOURCES: Final = ("cpu", "memory")  # defaults.go defaultResourceSpec
BALANCE_CHANGE_MINOR: Final = 36  # the first release scoring BalancedAllocation by the change of balance (PR #135573)


def num_feasible_nodes_to_find(num_all_nodes: int, percentage: int = 0) -> int:
    """How many feasible nodes kube-scheduler looks for before it stops filtering (`percentage` 0: adaptive)."""
    if num_all_nodes < MIN_FEASIBLE_NODES:
        return num_all_nodes
    if percentage <= 0:
        percentage = max(50 - num_all_nodes // 125, MIN_FEASIBLE_PERCENTAGE)
    return max(num_all_nodes * percentage // 100, MIN_FEASIBLE_NODES)


def _least_allocated(requested: int, allocatable: int) -> int:
    if allocatable <= 0 or requested > allocatable:
        return 0
    return (allocatable - requested) * MAX_NODE_SCORE // allocatable


def _std_score(requested: Sequence[int], allocatable: Sequence[int]) -> int:
    """balancedResourceScore: (1 - std of requested/allocatable over the resources the node has, each capped at 1)
    * 100, truncated; float64 arithmetic in upstream's order (std of two is |f0 - f1| / 2)."""
    fractions = [min(float(r) / float(a), 1.0) for r, a in zip(requested, allocatable, strict=True) if a]
    std = 0.0
    if len(fractions) == 2:
        std = abs((fractions[0] - fractions[1]) / 2)
    elif len(fractions) > 2:
        mean = sum(fractions) / len(fractions)
        std = math.sqrt(sum((f - mean) * (f - mean) for f in fractions) / len(fractions))
    return int((1 - std) * MAX_NODE_SCORE)


def balanced_score(allocated: Sequence[int], pod_requests: Sequence[int], allocatable: Sequence[int], minor: int) -> int:
    """NodeResourcesBalancedAllocation's score from per-resource (node requested, pod requested, allocatable): the
    balance with the pod up to 1.35; since 1.36 how the pod changes it, 50 + (50 + with - without) / 2 (both scores
    lie in [50, 100], so the Go integer division truncates a non-negative number)."""
    with_pod = _std_score([a + p for a, p in zip(allocated, pod_requests, strict=True)], allocatable)
    if minor < BALANCE_CHANGE_MINOR:
        return with_pod
    half = MAX_NODE_SCORE // 2
    return half + (half + with_pod - _std_score(allocated, allocatable)) // 2


def balanced_allocation(pod_requests: Mapping[str, int], node_requested: Mapping[str, int],
                        allocatable: Mapping[str, int], resources: Sequence[str], minor: int) -> int:
    """NodeResourcesBalancedAllocation's Score over the plugin's `resources` (resource_allocation.go
    calculateNodeAllocatableRequest: a scalar resource the pod does not request, and a resource the node does not
    have, are left out); 0 for a pod requesting none of them (best-effort: PreScore skips the plugin)."""
    if not any(pod_requests.get(resource, 0) for resource in resources):
        return 0
    allocated, requested, capacity = [], [], []
    for resource in resources:
        wanted = pod_requests.get(resource, 0)
        if not wanted and resource not in CORE_RESOURCES:
            continue
        if not allocatable.get(resource, 0):
            continue
        allocated.append(node_requested.get(resource, 0))
        requested.append(wanted)
        capacity.append(allocatable[resource])
    return balanced_score(allocated, requested, capacity, minor)


def balanced(pod: PodInfo, node: NodeInfo) -> int:
    """NodeResourcesBalancedAllocation for `pod` on `node` in the node's
    state (its release picks the formula), over the profile's resources."""
    return balanced_allocation(pod.requests, node.requested, node.facts.allocatable, _balanced_resources(pod),
                               node.state.minor)


def _balanced_resources(pod: PodInfo) -> Sequence[str]:
    return BALANCED_RESOURCES if pod.profile is None else pod.profile.balanced_resources


def is_best_effort(pod: PodInfo) -> bool:
    """NodeResourcesBalancedAllocation's PreScore Skip: the pod requests none of the plugin's resources."""
    return not any(pod.requests.get(resource, 0) for resource in _balanced_resources(pod))


def resource_score(pod: PodInfo, node: NodeInfo, node_nonzero: tuple[int, int]) -> int:
    """NodeResourcesFit (LeastAllocated) plus NodeResourcesBalancedAllocation, weighted (neither is normalized); a
    profile from --scheduler-config may change the strategy, its resources and both weights."""
    profile = pod.profile
    if profile is not None and profile.score_weights is not DEFAULT_SCORES:
        return profile_resource_score(pod, node, node_nonzero)
    cpu, memory = pod.nonzero
    allocatable = node.facts.allocatable
    fit = (_least_allocated(node_nonzero[0] + cpu, allocatable.get("cpu", 0))
           + _least_allocated(node_nonzero[1] + memory, allocatable.get("memory", 0))) // 2
    return WEIGHT_FIT * fit + WEIGHT_BALANCED * balanced(pod, node)


def _most_allocated(requested: int, allocatable: int) -> int:
    """most_allocated.go mostRequestedScore: requested share of the node, capped at the whole node."""
    if allocatable <= 0:
        return 0
    return min(requested, allocatable) * MAX_NODE_SCORE // allocatable


def placement_fit_score(state: Any, nodes: Sequence[str], placed: Sequence[PodInfo],
                        resources: Sequence[tuple[str, int]]) -> int:
    """NodeResourcesFit's ScorePlacement (fit.go; resource_allocation.go scorePlacement with the MostAllocated
    strategy over the profile's scoring resources): per resource the placement's requested share, all its nodes
    summed, the placed group pods counted with the non-zero requests like the nodes' pods (read here from `state`,
    which still holds the attempt's pods); a scalar resource no placed pod requests, and one the nodes lack, is left
    out; the weighted average, truncated."""
    total = weights = 0
    for resource, weight in resources:
        if resource not in CORE_RESOURCES and not any(p.requests.get(resource) for p in placed):
            continue
        allocatable = sum(state.facts[n].allocatable.get(resource, 0) for n in nodes)
        if not allocatable:
            continue
        if resource in ("cpu", "memory"):
            index = 0 if resource == "cpu" else 1
            requested = sum(state.nonzero[n][index] for n in nodes)
        else:
            requested = sum(state.requested[n].get(resource, 0) for n in nodes)
        total += _most_allocated(requested, allocatable) * weight
        weights += weight
    return total // weights if weights else 0


def _ratio(shape: tuple[tuple[int, int], ...]) -> Any:
    """requested_to_capacity_ratio.go: the piecewise linear score of utilization (shape scores 0-10 scaled to 100)."""
    points = [(u, s * MAX_NODE_SCORE // 10) for u, s in shape]

    def score(requested: int, allocatable: int) -> int:
        if allocatable <= 0 or not points:
            return 0
        utilization = min(requested * 100 // allocatable, 100)
        if utilization <= points[0][0]:
            return points[0][1]
        for (u0, s0), (u1, s1) in itertools.pairwise(points):
            if utilization <= u1:
                return s0 + (s1 - s0) * (utilization - u0) // (u1 - u0)
        return points[-1][1]

    return score


def fit_score(pod: PodInfo, node: NodeInfo, node_nonzero: tuple[int, int]) -> int:
    """NodeResourcesFit's Score alone, unweighted, as resource_score counts it (per-plugin results: resource_score
    itself keeps the default profile's sum inline, since it runs for every feasible node)."""
    profile = pod.profile
    if profile is not None and profile.score_weights is not DEFAULT_SCORES:
        return _profile_fit(pod, node, node_nonzero)
    cpu, memory = pod.nonzero
    allocatable = node.facts.allocatable
    return (_least_allocated(node_nonzero[0] + cpu, allocatable.get("cpu", 0))
            + _least_allocated(node_nonzero[1] + memory, allocatable.get("memory", 0))) // 2


def fit_weights(profile: Any) -> tuple[int, int]:
    """(NodeResourcesFit, NodeResourcesBalancedAllocation) weights resource_score applies for `profile`."""
    if profile is None or profile.score_weights is DEFAULT_SCORES:
        return WEIGHT_FIT, WEIGHT_BALANCED
    return profile.score_weight("NodeResourcesFit"), profile.score_weight("NodeResourcesBalancedAllocation")


def profile_resource_score(pod: PodInfo, node: NodeInfo, node_nonzero: tuple[int, int]) -> int:
    """NodeResourcesFit with the profile's strategy and resource weights (resource_allocation.go: the weighted average
    over resources the node has), plus NodeResourcesBalancedAllocation, each with the profile's plugin weight."""
    profile = pod.profile
    return (profile.score_weight("NodeResourcesFit") * _profile_fit(pod, node, node_nonzero)
            + profile.score_weight("NodeResourcesBalancedAllocation") * balanced(pod, node))


def _profile_fit(pod: PodInfo, node: NodeInfo, node_nonzero: tuple[int, int]) -> int:
    """NodeResourcesFit's Score with the profile's strategy and resource weights."""
    fit_args = pod.profile.fit
    scorer = {"MostAllocated": _most_allocated, "RequestedToCapacityRatio": _ratio(fit_args.shape)}.get(
        fit_args.strategy, _least_allocated)
    cpu, memory = pod.nonzero
    total = weights = 0
    for resource, weight in fit_args.resources:
        allocatable = node.facts.allocatable.get(resource, 0)
        if not allocatable:
            continue
        if resource == "cpu":
            requested = node_nonzero[0] + cpu
        elif resource == "memory":
            requested = node_nonzero[1] + memory
        else:
            requested = node.requested.get(resource, 0) + pod.requests.get(resource, 0)
        total += scorer(requested, allocatable) * weight
        weights += weight
    return total // weights if weights else 0


def score_weights(profile: Any, minor: int = 37) -> tuple[int, int, int]:
    """(TaintToleration, NodeAffinity, DynamicResources) weights of the pod's profile (the defaults of release 1.`minor`
    without one)."""
    if profile is None or profile.score_weights is DEFAULT_SCORES:
        return WEIGHT_TAINTS, WEIGHT_AFFINITY, WEIGHT_DRA_1_36 if minor >= DRA_WEIGHT_MINOR else WEIGHT_DRA
    return (profile.score_weight("TaintToleration"), profile.score_weight("NodeAffinity"),
            profile.score_weight("DynamicResources"))


def intolerable_prefer_no_schedule(pod: PodInfo, node: NodeInfo) -> int:
    """TaintToleration's raw score: PreferNoSchedule taints of the node no (PreferNoSchedule or any-effect)
    toleration of the pod tolerates."""
    tolerations = [t for t in pod.tolerations if isinstance(t, Mapping) and t.get("effect") in (None, "", "PreferNoSchedule")]
    return sum(1 for taint in node.facts.taints if isinstance(taint, Mapping) and taint.get("effect") == "PreferNoSchedule"
               and not any(tolerates(t, taint) for t in tolerations))


def _preferred_terms(node_affinity: Any) -> list[Any]:
    terms = node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution") if isinstance(node_affinity, Mapping) else None
    return terms if isinstance(terms, list) else []


def preferred_affinity(pod: PodInfo, node: NodeInfo) -> int:
    """NodeAffinity's raw score: the weights of the preferred terms the node matches, the pod's and those of the
    profile's addedAffinity (node_affinity.go Score: addedPrefSchedTerms first)."""
    affinity = pod.spec.get("affinity")
    terms = _preferred_terms(affinity.get("nodeAffinity") if isinstance(affinity, Mapping) else None)
    if pod.profile is not None and pod.profile.added_affinity is not None:
        terms = _preferred_terms(pod.profile.added_affinity) + terms
    total = 0
    for term in terms:
        preference = term.get("preference") if isinstance(term, Mapping) else None
        weight = term.get("weight") if isinstance(term, Mapping) else None
        if isinstance(preference, Mapping) and isinstance(weight, int) and weight > 0 \
                and matches_node_selector({"nodeSelectorTerms": [preference]}, node.facts.node):
            total += weight
    return total


def normalized(raw: int, maximum: int, reverse: bool) -> int:
    """helper.DefaultNormalizeScore for one node."""
    if maximum == 0:
        return MAX_NODE_SCORE if reverse else 0
    score = MAX_NODE_SCORE * raw // maximum
    return MAX_NODE_SCORE - score if reverse else score


def best_node(scored: Mapping[str, tuple[int, int, int, int]],
              weights: tuple[int, int, int] = (WEIGHT_TAINTS, WEIGHT_AFFINITY, WEIGHT_DRA),
              extra: Mapping[str, int] | None = None) -> str:
    """The node with the highest weighted total among `scored` (name -> (resources, taints, affinity, dra), in node
    order); `weights` = (TaintToleration, NodeAffinity, DynamicResources) of the pod's profile; `extra` adds the
    weighted PodTopologySpread and InterPodAffinity scores (pod_scores.py) when they apply. kube-scheduler picks at
    random among equal totals (selectHost); we pick the first, so results are reproducible."""
    names, raws = list(scored), list(scored.values())
    resources = list(map(itemgetter(0), raws))
    max_taints, max_affinity, max_dra = (max(map(itemgetter(i), raws)) for i in (1, 2, 3))
    if not (max_taints or max_affinity or max_dra or extra):  # the normalized plugins give every node the same score
        return names[resources.index(max(resources))]  # index() finds the first of equal totals
    totals = weighted_totals(scored, weights, extra)
    return names[totals.index(max(totals))]


def weighted_totals(scored: Mapping[str, tuple[int, int, int, int]], weights: tuple[int, int, int],
                    extra: Mapping[str, int] | None) -> list[int]:
    """Each node's total score in `scored` order: the weighted resource scores plus TaintToleration, NodeAffinity
    and DynamicResources normalized over `scored` and weighted, plus `extra` (best_node's arguments)."""
    raws = list(scored.values())
    max_taints, max_affinity, max_dra = (max(map(itemgetter(i), raws)) for i in (1, 2, 3))
    w_taints, w_affinity, w_dra = weights
    return [res + w_taints * normalized(taints, max_taints, True)
            + w_affinity * normalized(affinity, max_affinity, False) + w_dra * normalized(dra, max_dra, False)
            + (extra.get(name, 0) if extra else 0)
            for name, (res, taints, affinity, dra) in zip(scored, raws, strict=True)]


def raw_scores(pod: PodInfo, node: NodeInfo, node_nonzero: tuple[int, int], dra_score: int) -> tuple[int, int, int, int]:
    """(resources, PreferNoSchedule taints, preferred affinity, DRA) of `pod` on a feasible `node`."""
    return (resource_score(pod, node, node_nonzero), intolerable_prefer_no_schedule(pod, node),
            preferred_affinity(pod, node), dra_score)


def dra_score(found: Any) -> int:
    """The DynamicResources raw score of an allocation the filter found (0 without one)."""
    allocation = getattr(found, "allocation", None)
    if allocation is None:
        return 0
    return int(getattr(allocation[1], "prioritized_list_score", 0))
