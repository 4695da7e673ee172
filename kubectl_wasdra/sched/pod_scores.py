"""Score plugins that read where other pods run: PodTopologySpread (ScheduleAnyway constraints) and InterPodAffinity
(the pod's preferred terms, and the terms of the pods already placed). Both are normalized over the feasible nodes,
so they are computed for each pod over the nodes being scored, never cached between pods.

Upstream (kubernetes/kubernetes, 1.36.2 source):
- pkg/scheduler/framework/plugins/podtopologyspread/scoring.go: PreScore keeps the soft constraints (the pod's own
  ScheduleAnyway ones, else the default constraints when a Service or controller selects the pod); with constraints
  of its own, or List defaulting, a feasible node lacking a constraint's key is ignored (score 0). Matching pods are
  counted per topology value over every node that passes the constraint's node inclusion policies (hostname: the
  node's own pods). Score = round(sum of count * log(values + 2) + maxSkew - 1); NormalizeScore gives
  100 * (max + min - score) / max (100 everywhere when max is 0). Weight 2.
- pkg/scheduler/framework/plugins/interpodaffinity/scoring.go: for every placed pod (every node's pods when the pod
  has preferred terms, else only pods with pod affinity) on a node with labels, per topology value of the node: the
  pod's preferred affinity terms matching the placed pod add their weight, its preferred anti-affinity terms
  subtract it, the placed pod's required affinity terms matching the pod add hardPodAffinityWeight (1), its
  preferred affinity terms add and its preferred anti-affinity terms subtract their weight (the placed pod's
  preferred terms are skipped with ignorePreferredTermsOfExistingPods). A node scores the sum over its labels;
  NormalizeScore maps [min, max] onto [0, 100] (truncated). Weight 2.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson

from kubectl_wasdra.kube.podaffinity import AffinityTerm, WeightedTerms
from kubectl_wasdra.sched.filters import inter_pod_affinity, pod_topology_spread
from kubectl_wasdra.sched.filters.pod_topology_spread import DEFAULT, SYSTEM_DEFAULT_CONSTRAINTS, Constraint
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profile_plugins import plugins_for
from kubectl_wasdra.sched.profiles import DEFAULT_PROFILE
from kubectl_wasdra.sched.state import SchedState

MAX_NODE_SCORE: Final = 100
SPREAD_SCORE: Final = "PodTopologySpread/score"  # SchedState.cached keys of the scores' cluster-wide data
AFFINITY_SCORE: Final = "InterPodAffinity/score"
HOSTNAME: Final = "kubernetes.io/hostname"  # v1.LabelHostname: counted per node, not per value


def _soft_constraints(pod: PodInfo, state: SchedState) -> tuple[list[Constraint], bool]:
    """(the soft constraints, requireAllTopologies) as PreScore builds them; none when they do not parse."""
    plugin = plugins_for(pod.profile).spread or DEFAULT
    raw = pod.spec.get("topologySpreadConstraints")
    if raw:
        found = pod_topology_spread.parse_constraints(raw, pod.labels, "ScheduleAnyway")
        return (found if isinstance(found, list) else []), True
    if not _may_be_selected(pod, state):  # DefaultSelector would be empty: no default constraints
        return [], plugin.defaulting_type != "System"
    defaults = SYSTEM_DEFAULT_CONSTRAINTS if plugin.defaulting_type == "System" else plugin.default_constraints
    found = pod_topology_spread.parse_constraints(defaults, pod.labels, "ScheduleAnyway")
    if not isinstance(found, list) or not found:
        return [], plugin.defaulting_type != "System"
    selector = pod_topology_spread.default_selector(pod, state.snapshot)
    if selector.empty:
        return [], plugin.defaulting_type != "System"
    return [Constraint(c.max_skew, c.topology_key, selector, c.min_domains, c.honor_affinity, c.honor_taints)
            for c in found], plugin.defaulting_type != "System"


def _may_be_selected(pod: PodInfo, state: SchedState) -> bool:
    """False when no Service can select the pod and no controller owns it (the snapshot has no Services and the pod
    no controller reference): the default constraints' selector is then empty, without computing it."""
    of_kind = getattr(state.snapshot, "of_kind", None)
    if of_kind is not None and of_kind("Service"):
        return True
    return any(isinstance(o, Mapping) and o.get("controller")
               for o in (pod.pod.get("metadata") or {}).get("ownerReferences") or ())


def _has_keys(labels: Mapping[str, str], constraints: Sequence[Constraint]) -> bool:
    return all(c.topology_key in labels for c in constraints)


def _count_pod(counts: list[dict[str, int]], pod: PodInfo, constraints: list[Constraint], require_all: bool,
               facts: Any, others: tuple[PodInfo, ...]) -> None:
    """Add the matching pods among `others` on the node of `facts` to each (non-hostname) constraint's values."""
    if require_all and not _has_keys(facts.labels, constraints):
        return
    for i, constraint in enumerate(constraints):
        if constraint.topology_key != HOSTNAME and pod_topology_spread.is_eligible(pod, constraint, facts):
            value = str(facts.labels.get(constraint.topology_key, ""))
            counts[i][value] = counts[i].get(value, 0) + pod_topology_spread.count_matching(
                others, constraint.selector, pod.namespace)


def _spread_data(pod: PodInfo, state: SchedState, constraints: list[Constraint], require_all: bool) -> Any:
    """Matching pods per topology value and constraint over every node passing the inclusion policies (PreScore's
    processAllNode), shared by pods that read the same of themselves and updated with the pods added since."""
    def compute(pod: PodInfo, state: SchedState) -> list[dict[str, int]]:
        counts: list[dict[str, int]] = [{} for _ in constraints]
        for name in state.node_names:
            _count_pod(counts, pod, constraints, require_all, state.facts[name], state.pods[name])
        return counts

    def update(data: list[dict[str, int]], added: list[tuple[str, PodInfo]], pod: PodInfo,
               state: SchedState) -> list[dict[str, int]]:
        counts = [dict(c) for c in data]
        for name, other in added:
            _count_pod(counts, pod, constraints, require_all, state.facts[name], (other,))
        return counts

    spec = pod.spec
    owners = (pod.pod.get("metadata") or {}).get("ownerReferences")  # the default constraints' selector reads them
    key = orjson.dumps([pod.namespace, pod.labels, spec.get("topologySpreadConstraints"), spec.get("nodeSelector"),
                        (spec.get("affinity") or {}).get("nodeAffinity"), pod.tolerations, require_all, owners,
                        id(pod.profile)], option=orjson.OPT_SORT_KEYS, default=str)
    return state.cached(SPREAD_SCORE, pod, compute, update, key)


def _spread_counts(pod: PodInfo, state: SchedState, nodes: Collection[str], constraints: list[Constraint],
                   require_all: bool) -> tuple[set[str], list[dict[str, int]], list[float]]:
    """(ignored nodes, matching pods per topology value per constraint, normalizing weight per constraint)."""
    ignored: set[str] = set()
    values: list[set[str]] = [set() for _ in constraints]
    for name in nodes:
        labels = state.facts[name].labels
        if require_all and not _has_keys(labels, constraints):
            ignored.add(name)
            continue
        for i, constraint in enumerate(constraints):
            if constraint.topology_key != HOSTNAME:
                values[i].add(str(labels.get(constraint.topology_key, "")))
    sizes = [len(nodes) - len(ignored) if c.topology_key == HOSTNAME else len(values[i])
             for i, c in enumerate(constraints)]
    return ignored, _spread_data(pod, state, constraints, require_all), [math.log(size + 2) for size in sizes]


def topology_spread_scores(pod: PodInfo, state: SchedState, nodes: Collection[str]) -> dict[str, int] | None:
    """PodTopologySpread's normalized score of each of `nodes` (the feasible ones), or None when PreScore skips."""
    found = topology_spread_raw(pod, state, nodes)
    if found is None:
        return None
    raw, ignored = found
    low, high = min(raw.values(), default=0), max(raw.values(), default=0)
    return {name: 0 if name in ignored else MAX_NODE_SCORE if high == 0
            else MAX_NODE_SCORE * (high + low - raw[name]) // high for name in nodes}


def topology_spread_raw(pod: PodInfo, state: SchedState, nodes: Collection[str]) -> tuple[dict[str, int], set[str]] | None:
    """PodTopologySpread's Score of each of `nodes` but the ignored ones (a key missing), and those ignored; None when
    PreScore skips."""
    constraints, require_all = _soft_constraints(pod, state)
    if not constraints:
        return None
    ignored, counts, weights = _spread_counts(pod, state, nodes, constraints, require_all)
    raw: dict[str, int] = {}
    for name in nodes:
        if name in ignored:
            continue
        labels, score = state.facts[name].labels, 0.0
        for i, constraint in enumerate(constraints):
            value = labels.get(constraint.topology_key)
            if value is None:
                continue
            count = pod_topology_spread.count_matching(state.pods[name], constraint.selector, pod.namespace) \
                if constraint.topology_key == HOSTNAME else counts[i].get(str(value), 0)
            score += count * weights[i] + (constraint.max_skew - 1)
        raw[name] = math.floor(score + 0.5)  # math.Round of a non-negative number
    return raw, ignored


def _add(scores: dict[tuple[str, str], int], term: AffinityTerm, labels: Mapping[str, str], weight: int) -> None:
    value = labels.get(term.topology_key)
    if value is not None:
        key = (term.topology_key, str(value))
        scores[key] = scores.get(key, 0) + weight


def _weighted(scores: dict[tuple[str, str], int], terms: WeightedTerms, namespace: str, labels: Mapping[str, str],
              ns_labels: Mapping[str, str] | None, node_labels: Mapping[str, str], sign: int) -> None:
    for weight, term in terms:
        if term.matches(namespace, labels, ns_labels):
            _add(scores, term, node_labels, weight * sign)


def _process(scores: dict[tuple[str, str], int], pod: PodInfo, terms: tuple[WeightedTerms, WeightedTerms],
             profile: Any, ns_labels: Mapping[str, str] | None, node_labels: Mapping[str, str], other: PodInfo) -> None:
    """processExistingPod: one placed pod's contribution to the topology scores."""
    preferred, anti = terms
    _weighted(scores, preferred, other.namespace, other.labels, None, node_labels, 1)
    _weighted(scores, anti, other.namespace, other.labels, None, node_labels, -1)
    if profile.hard_pod_affinity_weight > 0:
        for term in other.affinity_terms:
            if term.matches(pod.namespace, pod.labels, ns_labels):
                _add(scores, term, node_labels, profile.hard_pod_affinity_weight)
    if not profile.ignore_preferred_terms_of_existing_pods:
        _weighted(scores, other.preferred_affinity_terms, pod.namespace, pod.labels, ns_labels, node_labels, 1)
        _weighted(scores, other.preferred_anti_affinity_terms, pod.namespace, pod.labels, ns_labels, node_labels, -1)


@dataclass(frozen=True)
class _AffinityScorer:
    """InterPodAffinity's PreScore for one pod: its terms (namespace selectors merged), its profile's args and
    whether it has preferred terms of its own (else only placed pods with pod affinity count)."""

    pod: PodInfo
    terms: tuple[WeightedTerms, WeightedTerms]
    profile: Any
    own_terms: bool

    def visit(self, scores: dict[tuple[str, str], int], state: SchedState, name: str, others: tuple[PodInfo, ...]) -> None:
        node_labels = state.facts[name].labels
        if not node_labels:
            return
        ns_labels = state.namespaces.get(self.pod.namespace)
        for other in others:
            if self.own_terms or other.has_pod_affinity:
                _process(scores, self.pod, self.terms, self.profile, ns_labels, node_labels, other)

    def compute(self, _pod: PodInfo, state: SchedState) -> dict[tuple[str, str], int]:
        scores: dict[tuple[str, str], int] = {}
        names = state.node_names if self.own_terms else tuple(n for n, c in state.affinity_pods.items() if c > 0)
        for name in names:
            self.visit(scores, state, name, state.pods[name])
        return scores

    def update(self, data: dict[tuple[str, str], int], added: list[tuple[str, PodInfo]], _pod: PodInfo,
               state: SchedState) -> dict[tuple[str, str], int]:
        scores = dict(data)
        for name, other in added:
            self.visit(scores, state, name, (other,))
        return scores


def _topology_scores(pod: PodInfo, state: SchedState) -> dict[tuple[str, str], int] | None:
    """InterPodAffinity's PreScore: the score of each (topology key, value), or None when it skips. Shared by pods
    with the same namespace, labels and preferred terms, and updated with the pods added since."""
    own_terms = bool(pod.preferred_affinity_terms or pod.preferred_anti_affinity_terms)
    profile = pod.profile or DEFAULT_PROFILE
    if profile.ignore_preferred_terms_of_existing_pods and not own_terms:
        return None
    if not own_terms and not any(count > 0 for count in state.affinity_pods.values()):
        return None
    terms = (tuple((w, inter_pod_affinity.merge_namespaces(t, state.namespaces)) for w, t in pod.preferred_affinity_terms),
             tuple((w, inter_pod_affinity.merge_namespaces(t, state.namespaces))
                   for w, t in pod.preferred_anti_affinity_terms))
    scorer = _AffinityScorer(pod, terms, profile, own_terms)
    key = (pod.namespace, tuple(sorted(pod.labels.items())), pod.preferred_affinity_terms,
           pod.preferred_anti_affinity_terms, id(profile))
    return state.cached(AFFINITY_SCORE, pod, scorer.compute, scorer.update, key) or None


def inter_pod_affinity_scores(pod: PodInfo, state: SchedState, nodes: Collection[str]) -> dict[str, int] | None:
    """InterPodAffinity's normalized score of each of `nodes`, or None when PreScore skips."""
    raw = inter_pod_affinity_raw(pod, state, nodes)
    if raw is None:
        return None
    low, high = min(raw.values()), max(raw.values())
    return {name: int(MAX_NODE_SCORE * ((score - low) / (high - low))) if high > low else 0
            for name, score in raw.items()}


def inter_pod_affinity_raw(pod: PodInfo, state: SchedState, nodes: Collection[str]) -> dict[str, int] | None:
    """InterPodAffinity's Score of each of `nodes` (may be negative), or None when PreScore skips."""
    topology = _topology_scores(pod, state)
    if topology is None:
        return None
    keys = {key for key, _ in topology}
    raw = {}
    for name in nodes:
        labels = state.facts[name].labels
        raw[name] = sum(topology.get((key, str(labels[key])), 0) for key in keys if key in labels)
    return raw


def pod_scores(pod: PodInfo, state: SchedState, nodes: Collection[str]) -> dict[str, int] | None:
    """Both plugins' weighted normalized scores per node (the profile's weights), or None when both skip."""
    profile = pod.profile or DEFAULT_PROFILE
    out: dict[str, int] | None = None
    for plugin, scorer in (("PodTopologySpread", topology_spread_scores), ("InterPodAffinity", inter_pod_affinity_scores)):
        weight = profile.score_weight(plugin)
        scores = scorer(pod, state, nodes) if weight else None
        if scores is not None:
            out = out or dict.fromkeys(nodes, 0)
            for name, score in scores.items():
                out[name] += weight * score
    return out
