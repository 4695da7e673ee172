"""InterPodAffinity filter: the incoming pod's required pod affinity and anti-affinity, and the required anti-affinity
of the pods already placed (symmetry).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/interpodaffinity/filtering.go and plugin.go
(mergeAffinityTermNamespacesIfNotEmpty), release-1.37. PreFilter counts, per (topology key, value), the existing pods
matching all affinity terms, those matching each anti-affinity term, and the existing pods whose anti-affinity terms
match the incoming pod; Filter reads those counts for the node's labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from kubectl_wasdra.kube.labels import NOTHING
from kubectl_wasdra.kube.podaffinity import AffinityTerm
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Status

NAME: Final = "InterPodAffinity"
# ErrReasonExistingAntiAffinityRulesNotMatch
EXISTING_ANTI_MESSAGE: Final = "node(s) didn't satisfy existing pods anti-affinity rules"
AFFINITY_MESSAGE: Final = "node(s) didn't match pod affinity rules"  # ErrReasonAffinityRulesNotMatch
ANTI_MESSAGE: Final = "node(s) didn't match pod anti-affinity rules"  # ErrReasonAntiAffinityRulesNotMatch
PARSING: Final = "parsing pod: {error}"  # PreFilter: framework.NewPodInfo failed (UnschedulableAndUnresolvable)

Counts = dict[tuple[str, str], int]


@dataclass(frozen=True)
class PreFilterState:
    """What PreFilter computed for one pod in one state: its terms (namespace selectors merged into namespaces) and
    the three topology-pair counts."""

    affinity_terms: tuple[AffinityTerm, ...]
    anti_affinity_terms: tuple[AffinityTerm, ...]
    affinity_counts: Counts
    anti_affinity_counts: Counts
    existing_anti_affinity_counts: Counts


def merge_namespaces(term: AffinityTerm, namespaces: Mapping[str, Mapping[str, str]]) -> AffinityTerm:
    """mergeAffinityTermNamespacesIfNotEmpty: a non-empty namespace selector becomes the namespaces it selects now
    (`{}` stays: it selects every namespace, also ones created later)."""
    if term.namespace_selector.empty:
        return term
    selected = {name for name, labels in namespaces.items() if term.namespace_selector.matches(labels)}
    return replace(term, namespaces=term.namespaces | selected, namespace_selector=NOTHING)


def _add(counts: Counts, labels: Mapping[str, str], key: str) -> None:
    value = labels.get(key)
    if value is not None:
        counts[(key, value)] = counts.get((key, value), 0) + 1


def _count(other: PodInfo, labels: Mapping[str, str], pod: PodInfo, data: PreFilterState,
           ns_labels: Mapping[str, str] | None) -> None:
    """Add one placed pod (on a node with `labels`) to the three counts (AddPod's updateWithPod)."""
    for term in other.anti_affinity_terms:
        if term.matches(pod.namespace, pod.labels, ns_labels):
            _add(data.existing_anti_affinity_counts, labels, term.topology_key)
    # the incoming pod's terms have their namespace selectors merged: no namespace labels needed
    affinity = data.affinity_terms
    if affinity and all(t.matches(other.namespace, other.labels, None) for t in affinity):
        for term in affinity:
            _add(data.affinity_counts, labels, term.topology_key)
    for term in data.anti_affinity_terms:
        if term.matches(other.namespace, other.labels, None):
            _add(data.anti_affinity_counts, labels, term.topology_key)


def compute(pod: PodInfo, state: SchedState) -> PreFilterState:
    """PreFilter over every node of the state: getExistingAntiAffinityCounts (the nodes with pods that have required
    anti-affinity) and getIncomingAffinityAntiAffinityCounts (every pod, when the pod has terms)."""
    affinity = tuple(merge_namespaces(t, state.namespaces) for t in pod.affinity_terms)
    anti = tuple(merge_namespaces(t, state.namespaces) for t in pod.anti_affinity_terms)
    data = PreFilterState(affinity, anti, {}, {}, {})
    ns_labels = state.namespaces.get(pod.namespace)
    names = state.node_names if affinity or anti else tuple(state.anti_affinity_pods)
    for name in names:
        labels = state.facts[name].labels
        for other in state.pods[name]:
            _count(other, labels, pod, data, ns_labels)
    return data


def update(data: PreFilterState, added: list[tuple[str, PodInfo]], pod: PodInfo, state: SchedState) -> PreFilterState:
    """`data` with the pods placed since it was computed added (nothing was taken away since)."""
    new = PreFilterState(data.affinity_terms, data.anti_affinity_terms, dict(data.affinity_counts),
                         dict(data.anti_affinity_counts), dict(data.existing_anti_affinity_counts))
    ns_labels = state.namespaces.get(pod.namespace)
    for name, other in added:
        _count(other, state.facts[name].labels, pod, new, ns_labels)
    return new


def pre_filter_data(pod: PodInfo, state: SchedState) -> PreFilterState:
    """The PreFilter data of `pod` in `state`, shared by pods with the same namespace, labels and terms."""
    key = pod.cache_keys.get(NAME)
    if key is None:
        key = pod.cache_keys[NAME] = (pod.namespace, tuple(sorted(pod.labels.items())), pod.affinity_terms,
                                      pod.anti_affinity_terms)
    return state.cached(NAME, pod, compute, update, key)


def pre_filter(pod: PodInfo, state: SchedState) -> Status | None:
    """PreFilter: the pod's terms must parse (else UnschedulableAndUnresolvable "parsing pod: ...")."""
    if pod.affinity_error:
        return Status.unresolvable(Reason.POD_AFFINITY_MISMATCH, PARSING.format(error=pod.affinity_error), NAME)
    return None


def _satisfies_affinity(data: PreFilterState, labels: Mapping[str, str], pod: PodInfo) -> bool:
    """satisfyPodAffinity: every term's topology key on the node and matching pods in each domain; or the pod is the
    first of a collection that selects itself (no matching pod anywhere, and it matches all its own terms)."""
    pods_exist = True
    for term in data.affinity_terms:
        value = labels.get(term.topology_key)
        if value is None:
            return False
        if data.affinity_counts.get((term.topology_key, value), 0) <= 0:
            pods_exist = False
    if pods_exist:
        return True
    return not data.affinity_counts and all(t.matches(pod.namespace, pod.labels, None) for t in data.affinity_terms)


def _satisfies_anti_affinity(data: PreFilterState, labels: Mapping[str, str]) -> bool:
    """satisfyPodAntiAffinity: no domain of the node holds a pod matching one of the pod's anti-affinity terms."""
    for term in data.anti_affinity_terms:
        value = labels.get(term.topology_key)
        if value is not None and data.anti_affinity_counts.get((term.topology_key, value), 0) > 0:
            return False
    return True


def _satisfies_existing(data: PreFilterState, labels: Mapping[str, str]) -> bool:
    """satisfyExistingPodsAntiAffinity: no existing pod's anti-affinity term covers a domain of this node."""
    counts = data.existing_anti_affinity_counts
    return not counts or not any(counts.get((key, value), 0) > 0 for key, value in labels.items())


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if the node satisfies the pod's affinity, its anti-affinity and the existing pods' anti-affinity."""
    state = node.state
    if not (pod.affinity_terms or pod.anti_affinity_terms or state.anti_affinity_pods) or pod.affinity_error:
        return None  # PreFilter: Skip (or the pod never got past PreFilter)
    data = pre_filter_data(pod, state)
    labels = node.facts.labels
    if not (data.affinity_terms or data.anti_affinity_terms or data.existing_anti_affinity_counts):
        return None
    if data.affinity_terms and not _satisfies_affinity(data, labels, pod):
        return _AFFINITY
    if not _satisfies_anti_affinity(data, labels):
        return _ANTI
    if not _satisfies_existing(data, labels):
        return _EXISTING
    return None


# the three rejections carry no details: one shared (immutable) Status each
_AFFINITY: Final = Status.unresolvable(Reason.POD_AFFINITY_MISMATCH, AFFINITY_MESSAGE, NAME)
_ANTI: Final = Status.unschedulable(Reason.POD_AFFINITY_MISMATCH, ANTI_MESSAGE, NAME)
_EXISTING: Final = Status.unschedulable(Reason.POD_AFFINITY_MISMATCH, EXISTING_ANTI_MESSAGE, NAME)
