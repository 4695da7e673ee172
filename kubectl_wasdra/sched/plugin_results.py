"""Per-plugin results of one pod's scheduling cycle: each Filter plugin's verdict per node, each Score plugin's score
per scored node, the totals and the chosen node, bounded to the nodes closest to being chosen.

Recorded only when a PluginRecorder sits on the SchedState (explain --plugin-results): placement.find_node then hands
it every cycle of a wanted pod, and the last cycle of each pod is kept (for a group, the one in the placement chosen).
Without a recorder nothing here runs. The shape users see: docs/plugin-results.md.
Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (RunFilterPlugins stops at the first
rejection; RunScorePlugins: Score, NormalizeScore, then weight), release-1.37.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Final

from kubectl_wasdra.sched.plugin_filters import (
    PREFILTERED,
    Cache,
    FilterResult,
    Verdict,
    filter_chain,
    for_pod,
    node_results,
    node_verdicts,
    result_of,
)
from kubectl_wasdra.sched.plugin_scores import NodeScores, node_scores, node_totals
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code

DEFAULT_NODES: Final = 20  # --plugin-nodes: the closest nodes listed besides the chosen one
SAMPLE_GROUPS: Final = 50  # -o html draws the first 50 groups in full (explain/render_html.py MAX_SECTIONS) ...
SAMPLE_PODS: Final = 8  # ... and the plugin tables of their first 8 pods (explain/html_plugins.py MAX_PODS)
_CODE_RANK: Final = {Code.UNSCHEDULABLE: 0, Code.UNRESOLVABLE: 1, Code.ERROR: 2}


@dataclass(frozen=True)
class NodeFilters:
    """Every Filter plugin of the profile on one node, in the profile's order."""

    node: str
    results: tuple[FilterResult, ...]


@dataclass(frozen=True)
class PodPlugins:
    """One pod's cycle: `nodes` considered, a PreFilter rejection (then no Filter ran), the listed nodes' Filter and
    Score results, the chosen node, how many nodes passed every filter and how many were scored, rejections per
    Filter plugin over all nodes, how many evaluated nodes are not listed, and the topology domain of the nodes."""

    pod: str
    nodes: int
    pre_filter: FilterResult | None
    filter: tuple[NodeFilters, ...]
    score: tuple[NodeScores, ...]
    chosen_node: str | None
    feasible: int
    scored: int
    rejected_by: Mapping[str, int]
    nodes_left_out: int
    domain: Mapping[str, str] | None = None  # the topology domain the nodes were (explain fills it in; None: all)


@dataclass
class PluginRecorder:
    """Collects PodPlugins for the pods in `pods` (keys "namespace/name"); `limit` closest nodes besides the chosen
    one are listed (None: every node). `records` holds the last cycle of each pod."""

    pods: frozenset[str]
    limit: int | None = DEFAULT_NODES
    records: dict[str, PodPlugins] = field(default_factory=dict)
    verdicts: Cache = field(default_factory=Cache)  # plugin_filters.node_verdicts: shared by pods of one shape

    def wants(self, pods: list[PodInfo]) -> bool:
        """True when any of `pods` is recorded."""
        return any(pod.key in self.pods for pod in pods)

    def observe(self, pod: PodInfo, state: SchedState, nodes: tuple[str, ...], chosen: str | None,
                scores: Mapping[str, tuple[int, int, int, int]]) -> None:
        """Record the cycle that just chose `chosen` (None: no node) among `nodes`, `scores` being the raw scores of
        the feasible nodes the simulator scored; state is still as the cycle saw it (the pod is not assumed yet)."""
        if pod.key in self.pods:
            self.records[pod.key] = record_pod(pod, state, nodes, chosen, scores, self.limit, self.verdicts)


def record_pod(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], chosen: str | None,
               scores: Mapping[str, tuple[int, int, int, int]], limit: int | None,
               cache: Cache | None = None) -> PodPlugins:
    """The PodPlugins of one cycle: PreFilter first, else every node's filter chain, the scored nodes' breakdown and
    the closest nodes listed."""
    pre_filter = state.pre_filter(pod)
    in_use = pre_filter if pre_filter is not None and pre_filter.details.get("perNode") else None
    if pre_filter is not None and in_use is None:
        return PodPlugins(pod.key, len(nodes), result_of(pre_filter.plugin, pre_filter), (), (), None, 0, 0, {}, 0)
    chain = filter_chain(pod)
    verdicts = node_verdicts(pod, state, nodes, chain, in_use, Cache() if cache is None else cache)
    totals = node_totals(pod, state, scores) if len(scores) > 1 else {}  # one feasible node: kube-scheduler skips Score
    listed = _closest(verdicts, totals, chosen, limit)
    scored = node_scores(pod, state, scores, listed) if totals else {}
    counts = Counter(map(attrgetter("index"), verdicts.values()))  # a rejected node's index: its plugin's
    rejected = {chain[index].NAME: counts[index] for index in sorted(counts) if index < len(chain)}
    return PodPlugins(
        pod.key, len(nodes), None,
        tuple(NodeFilters(name, node_results(chain, for_pod(state, pod, verdicts[name]))) for name in listed),
        tuple(scored[name] for name in listed if name in scored), chosen, counts[len(chain)], len(totals),
        rejected, len(nodes) - len(listed))


def _closest(verdicts: Mapping[str, Verdict], totals: Mapping[str, int], chosen: str | None,
             limit: int | None) -> list[str]:
    """The nodes to list, closest first: the chosen node, the scored ones by total (highest first, then in the order
    they were scored), feasible unscored ones by name, then rejected ones that got furthest through the filters,
    Unschedulable before UnschedulableAndUnresolvable, then by name. Each tier is only sorted when the ones before
    it leave room (the scored nodes usually fill the listing)."""
    wanted = len(verdicts) if limit is None else limit + (1 if chosen is not None else 0)
    out = [chosen] if chosen is not None else []
    position = {name: i for i, name in enumerate(totals)}
    tiers = (
        lambda: _smallest((n for n in totals if n != chosen), lambda n: (-totals[n], position[n]), wanted - len(out)),
        lambda: _smallest((n for n, v in verdicts.items() if v.status is None and n not in totals and n != chosen),
                          lambda n: n, wanted - len(out)),
        lambda: _smallest((n for n, v in verdicts.items() if v.status is not None), lambda n: _rejected_rank(n, verdicts[n]),
                          wanted - len(out)),
    )
    for tier in tiers:
        if len(out) >= wanted:
            break
        out.extend(tier())
    return out[:wanted]


def _smallest(names: Iterable[str], key: Callable[[str], Any], count: int) -> list[str]:
    return heapq.nsmallest(count, names, key=key) if count > 0 else []


def _rejected_rank(name: str, verdict: Verdict) -> tuple[Any, ...]:
    index = -1 if verdict.kind == PREFILTERED else verdict.index
    status = verdict.status
    return (-index, _CODE_RANK.get(status.code, 3) if status is not None else 3, name)


def sampled_pods(entries: Iterable[Any], wanted: frozenset[str], groups: int = SAMPLE_GROUPS,
                 pods: int = SAMPLE_PODS) -> frozenset[str]:
    """The first `pods` wanted pods of each of the first `groups` queue entries that hold any (composite roots'
    children count one by one): what -o html draws by default, so a 5,000-pod Job records 50 pods, not 5,000."""
    keys: list[str] = []
    stack = list(reversed(list(entries)))
    taken = 0
    while stack and taken < groups:
        entry = stack.pop()
        stack.extend(reversed(entry.children))
        mine = [pod.key for pod in entry.pods if pod.key in wanted][:pods]
        if mine:
            keys.extend(mine)
            taken += 1
    return frozenset(keys)
