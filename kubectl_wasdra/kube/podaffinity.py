"""Pod affinity terms as the scheduler parses them, and the API server's matchLabelKeys/mismatchLabelKeys merge.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/types.go (AffinityTerm, newAffinityTerm,
getNamespacesFromPodAffinityTerm, AffinityTerm.Matches, PodInfo.Update: "requiredAffinityTerms: ..." parse errors)
and pkg/registry/core/pod/strategy.go (applyMatchLabelKeysAndMismatchLabelKeys, on create only), release-1.37.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubectl_wasdra.kube.labels import Selector, aggregate, parse_label_selector


@dataclass(frozen=True)
class AffinityTerm:
    """A parsed PodAffinityTerm. `namespaces` holds the listed namespaces (or the pod's own when neither namespaces
    nor namespaceSelector is set); `namespace_selector` is NOTHING when absent and EVERYTHING for `{}`."""

    namespaces: frozenset[str]
    selector: Selector
    namespace_selector: Selector
    topology_key: str

    def matches(self, namespace: str, labels: Mapping[str, str], namespace_labels: Mapping[str, str] | None) -> bool:
        """AffinityTerm.Matches: the pod's namespace is listed or its labels satisfy the namespace selector, and the
        pod's labels satisfy the term's selector."""
        if namespace in self.namespaces or self.namespace_selector.matches(namespace_labels or {}):
            return self.selector.matches(labels)
        return False


def _term(namespace: str, term: Mapping[str, Any]) -> AffinityTerm | str:
    """newAffinityTerm: the term or its parse error."""
    selector = parse_label_selector(term.get("labelSelector"))
    if isinstance(selector, str):
        return selector
    listed = term.get("namespaces") or ()
    raw_ns_selector = term.get("namespaceSelector")
    namespaces = frozenset(str(n) for n in listed) if listed or raw_ns_selector is not None else frozenset({namespace})
    ns_selector = parse_label_selector(raw_ns_selector)
    if isinstance(ns_selector, str):
        return ns_selector
    return AffinityTerm(namespaces, selector, ns_selector, str(term.get("topologyKey") or ""))


def _terms(namespace: str, raw: Any, weighted: bool) -> tuple[AffinityTerm, ...] | str:
    """GetAffinityTerms / getWeightedAffinityTerms: every term, or the first parse error."""
    out = []
    for item in raw if isinstance(raw, list | tuple) else ():
        item = item if isinstance(item, Mapping) else {}
        term = _term(namespace, (item.get("podAffinityTerm") or {}) if weighted else item)
        if isinstance(term, str):
            return term
        out.append(term)
    return tuple(out)


def parse_pod_affinity(namespace: str, affinity: Mapping[str, Any]) -> tuple[tuple[AffinityTerm, ...],
                                                                               tuple[AffinityTerm, ...], str]:
    """(required affinity terms, required anti-affinity terms, parse error text or "") of a pod's spec.affinity;
    preferred terms are parsed only for their errors, which upstream reports too."""
    pod_affinity = affinity.get("podAffinity") or {}
    pod_anti = affinity.get("podAntiAffinity") or {}
    errors: list[str] = []
    parsed: list[tuple[AffinityTerm, ...]] = []
    for label, block, key, weighted in (
            ("requiredAffinityTerms", pod_affinity, "requiredDuringSchedulingIgnoredDuringExecution", False),
            ("requiredAntiAffinityTerms", pod_anti, "requiredDuringSchedulingIgnoredDuringExecution", False),
            ("preferredAffinityTerms", pod_affinity, "preferredDuringSchedulingIgnoredDuringExecution", True),
            ("preferredAntiAffinityTerms", pod_anti, "preferredDuringSchedulingIgnoredDuringExecution", True)):
        terms = _terms(namespace, block.get(key) if isinstance(block, Mapping) else None, weighted)
        if isinstance(terms, str):
            errors.append(f"{label}: {terms}")
            terms = ()
        parsed.append(terms)
    return parsed[0], parsed[1], aggregate(errors) if errors else ""


WeightedTerms = tuple[tuple[int, AffinityTerm], ...]


def _weighted(namespace: str, raw: Any) -> WeightedTerms:
    """getWeightedAffinityTerms: (weight, term) of every preferred term; () when one does not parse (the pod then
    fails PreFilter on its parse error, parse_pod_affinity)."""
    out = []
    for item in raw if isinstance(raw, list | tuple) else ():
        item = item if isinstance(item, Mapping) else {}
        term = _term(namespace, item.get("podAffinityTerm") or {})
        if isinstance(term, str):
            return ()
        weight = item.get("weight")
        out.append((weight if isinstance(weight, int) else 0, term))
    return tuple(out)


def parse_preferred_terms(namespace: str, affinity: Mapping[str, Any]) -> tuple[WeightedTerms, WeightedTerms]:
    """(preferred affinity terms, preferred anti-affinity terms) of a pod's spec.affinity, with their weights."""
    blocks = [affinity.get(kind) for kind in ("podAffinity", "podAntiAffinity")]
    pod_affinity, pod_anti = (b if isinstance(b, Mapping) else {} for b in blocks)
    key = "preferredDuringSchedulingIgnoredDuringExecution"
    return _weighted(namespace, pod_affinity.get(key)), _weighted(namespace, pod_anti.get(key))


def merge_label_keys(term: Mapping[str, Any], pod_labels: Mapping[str, str]) -> Mapping[str, Any]:
    """The term as the API server stores it on create: for each matchLabelKeys key the pod has, `key In (value)` is
    added to the labelSelector, for each mismatchLabelKeys key `key NotIn (value)`; a nil labelSelector stays nil."""
    match_keys: Sequence[str] = term.get("matchLabelKeys") or ()
    mismatch_keys: Sequence[str] = term.get("mismatchLabelKeys") or ()
    selector = term.get("labelSelector")
    if not (match_keys or mismatch_keys) or not isinstance(selector, Mapping):
        return term
    added = [{"key": k, "operator": "In", "values": [pod_labels[k]]} for k in match_keys if k in pod_labels]
    added += [{"key": k, "operator": "NotIn", "values": [pod_labels[k]]} for k in mismatch_keys if k in pod_labels]
    if not added:
        return term
    expressions = list(selector.get("matchExpressions") or ())
    return {**term, "labelSelector": {**selector, "matchExpressions": expressions + added}}


def merged_affinity(affinity: Mapping[str, Any], pod_labels: Mapping[str, str]) -> Mapping[str, Any]:
    """spec.affinity with merge_label_keys applied to every pod (anti-)affinity term, required and preferred."""
    out = dict(affinity)
    for kind in ("podAffinity", "podAntiAffinity"):
        block = affinity.get(kind)
        if not isinstance(block, Mapping):
            continue
        new_block = dict(block)
        required = block.get("requiredDuringSchedulingIgnoredDuringExecution")
        if isinstance(required, list):
            new_block["requiredDuringSchedulingIgnoredDuringExecution"] = [
                merge_label_keys(t, pod_labels) if isinstance(t, Mapping) else t for t in required]
        preferred = block.get("preferredDuringSchedulingIgnoredDuringExecution")
        if isinstance(preferred, list):
            new_block["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {**w, "podAffinityTerm": merge_label_keys(w.get("podAffinityTerm") or {}, pod_labels)}
                if isinstance(w, Mapping) and isinstance(w.get("podAffinityTerm"), Mapping) else w for w in preferred]
        out[kind] = new_block
    return out

