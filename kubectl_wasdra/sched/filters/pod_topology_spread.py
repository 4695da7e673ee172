"""PodTopologySpread filter (DoNotSchedule constraints): placing the pod must keep each constraint's skew <= maxSkew.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/podtopologyspread/{filtering.go,common.go,plugin.go}
and plugins/helper/spread.go (DefaultSelector), release-1.37. PreFilter counts matching pods (same namespace, not
terminating) per domain over the nodes that carry every constraint's topology key and pass the constraint's
nodeAffinityPolicy (Honor by default) and nodeTaintsPolicy (Ignore by default); the global minimum is 0 while fewer
domains than minDomains exist. A pod without constraints gets the profile's default constraints (the system defaults
are ScheduleAnyway, so they never filter), with the selector of the Services, ReplicaSets, StatefulSets and
ReplicationControllers that select it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from kubectl_wasdra.kube.labels import Selector, parse_label_selector, selector_from_set
from kubectl_wasdra.kube.selectors import matches_pod_node_constraints
from kubectl_wasdra.kube.taints import first_untolerated
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status

NAME: Final = "PodTopologySpread"
MESSAGE: Final = "node(s) didn't match pod topology spread constraints"  # ErrReasonConstraintsNotMatch
MESSAGE_LABEL: Final = "node(s) didn't match pod topology spread constraints (missing required label)"
ERROR_PREFIX: Final = f'running PreFilter plugin "{NAME}": get constraints from pod: '  # framework.go + filtering.go
_MAX_INT32: Final = 2**31 - 1
# plugin.go systemDefaultConstraints (defaultingType System)
SYSTEM_DEFAULT_CONSTRAINTS: Final = (
    {"topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway", "maxSkew": 3},
    {"topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway", "maxSkew": 5},
)


@dataclass(frozen=True)
class Constraint:
    """topologySpreadConstraint: a parsed constraint with its defaults applied."""

    max_skew: int
    topology_key: str
    selector: Selector
    min_domains: int
    honor_affinity: bool  # nodeAffinityPolicy Honor (default)
    honor_taints: bool  # nodeTaintsPolicy Honor (default Ignore)


def parse_constraints(raw: Any, labels: Mapping[str, str], when: str = "DoNotSchedule") -> list[Constraint] | str:
    """filterTopologySpreadConstraints for `when` (DoNotSchedule: the filter; ScheduleAnyway: the score),
    matchLabelKeys merged into the selector; or the error."""
    out = []
    for item in raw if isinstance(raw, list | tuple) else ():
        if not isinstance(item, Mapping) or item.get("whenUnsatisfiable", "DoNotSchedule") != when:
            continue
        selector = parse_label_selector(item.get("labelSelector"))
        if isinstance(selector, str):
            return selector
        keys = {k: labels[k] for k in item.get("matchLabelKeys") or () if k in labels}
        if keys and not selector.nothing:
            selector = selector_from_set(keys).add(*selector.requirements)
        out.append(Constraint(int(item.get("maxSkew", 1)), str(item.get("topologyKey", "")), selector,
                              int(item.get("minDomains") or 1), item.get("nodeAffinityPolicy", "Honor") == "Honor",
                              item.get("nodeTaintsPolicy", "Ignore") == "Honor"))
    return out


def default_selector(pod: PodInfo, snapshot: Any) -> Selector:
    """helper.DefaultSelector: the union of the selectors of Services selecting the pod and of its controlling
    ReplicaSet, StatefulSet or ReplicationController (objects the snapshot holds; none read: an empty selector)."""
    labels: dict[str, str] = {}
    of_kind = getattr(snapshot, "of_kind", lambda kind: ())
    for service in of_kind("Service"):
        meta, spec = service.get("metadata") or {}, service.get("spec") or {}
        selector = spec.get("selector")
        if (meta.get("namespace") or "default") == pod.namespace and isinstance(selector, Mapping) and selector \
                and all(pod.labels.get(k) == v for k, v in selector.items()):
            labels.update(selector)
    result = selector_from_set(labels)
    owner = next((o for o in (pod.pod.get("metadata") or {}).get("ownerReferences") or () if o.get("controller")), None)
    if owner is None:
        return result
    kind = owner.get("kind")
    obj = snapshot.get(kind, owner.get("name", ""), pod.namespace) if hasattr(snapshot, "get") else None
    if obj is None:
        return result
    if kind == "ReplicationController":
        return selector_from_set({**labels, **((obj.get("spec") or {}).get("selector") or {})})
    if kind in ("ReplicaSet", "StatefulSet"):
        other = parse_label_selector((obj.get("spec") or {}).get("selector"))
        if not isinstance(other, str) and not other.nothing:
            return result.add(*other.requirements)
    return result


@dataclass(frozen=True)
class PodTopologySpread:
    """The filter with its plugin args: `default_constraints` (PodTopologySpreadArgs.defaultConstraints, used with
    defaultingType List; System uses SYSTEM_DEFAULT_CONSTRAINTS)."""

    default_constraints: tuple[Mapping[str, Any], ...] = ()
    defaulting_type: str = "System"
    NAME: str = NAME

    @property
    def cache_key(self) -> str:
        """The key of this plugin instance's PreFilter data in SchedState.cached (profiles may differ in args)."""
        return f"{NAME}/{id(self)}"

    def constraints(self, pod: PodInfo, snapshot: Any) -> list[Constraint] | str:
        """getConstraints: the pod's own hard constraints, or the hard default constraints; or the error text."""
        if pod.spec.get("topologySpreadConstraints"):
            found = parse_constraints(pod.spec["topologySpreadConstraints"], pod.labels)
            return f"obtaining pod's hard topology spread constraints: {found}" if isinstance(found, str) else found
        defaults = SYSTEM_DEFAULT_CONSTRAINTS if self.defaulting_type == "System" else self.default_constraints
        found = parse_constraints(defaults, pod.labels)
        if isinstance(found, str):
            return f"setting default hard topology spread constraints: {found}"
        if not found:
            return []
        selector = default_selector(pod, snapshot)
        return [] if selector.empty else [Constraint(c.max_skew, c.topology_key, selector, c.min_domains,
                                                     c.honor_affinity, c.honor_taints) for c in found]

    def applies_to(self, pod: PodInfo) -> bool:
        """False when PreFilter would Skip for every pod without constraints of its own (the system defaults)."""
        return bool(pod.spread) or (not pod.spec.get("topologySpreadConstraints") and self.defaulting_type != "System"
                                    and any(c.get("whenUnsatisfiable") == "DoNotSchedule" for c in self.default_constraints))

    def pre_filter(self, pod: PodInfo, state: SchedState) -> Status | None:
        """PreFilter: constraints that do not parse are an Error (the pod is not scheduled, no "0/N nodes")."""
        if not self.applies_to(pod):
            return None
        found = self._data(pod, state)
        if isinstance(found, str):
            return Status(Code.ERROR, Reason.TOPOLOGY_SPREAD_MISMATCH, ERROR_PREFIX + found, plugin=NAME)
        return None

    def _data(self, pod: PodInfo, state: SchedState) -> Any:
        """PreFilter data (constraints, matching pods per domain for each), or the error text; shared by pods that
        read alike (namespace, labels, constraints, node affinity, tolerations, owner)."""
        key = pod.cache_keys.get(NAME)
        if key is None:
            spec = pod.spec
            key = pod.cache_keys[NAME] = (pod.namespace, tuple(sorted(pod.labels.items())), orjson.dumps(
                [spec.get("topologySpreadConstraints"), spec.get("nodeSelector"),
                 (spec.get("affinity") or {}).get("nodeAffinity"), spec.get("tolerations"),
                 (pod.pod.get("metadata") or {}).get("ownerReferences")], option=orjson.OPT_SORT_KEYS))
        return state.cached(self.cache_key, pod, self._compute, _update, key)

    def _compute(self, pod: PodInfo, state: SchedState) -> Any:
        constraints = self.constraints(pod, state.snapshot)
        if isinstance(constraints, str):
            return constraints
        return _with_minimums(constraints, [_domain_counts(pod, c, constraints, state) for c in constraints])


    def filter_node(self, pod: PodInfo, node: NodeInfo) -> Status | None:
        """None if every hard constraint keeps its skew after adding the pod here."""
        if not self.applies_to(pod):
            return None
        found = self._data(pod, node.state)
        if isinstance(found, str):
            return None  # PreFilter failed: the pod never reaches Filter
        labels = node.facts.labels
        for constraint, counts, minimum in zip(*found, strict=True):
            value = labels.get(constraint.topology_key)
            if value is None:
                return _status(MESSAGE_LABEL, constraint.topology_key)
            skew = counts.get(value, 0) + (1 if constraint.selector.matches(pod.labels) else 0) - minimum
            if skew > constraint.max_skew:
                return _status(MESSAGE, constraint.topology_key)
        return None


def _with_minimums(constraints: list[Constraint], counts: list[dict[str, int]]) -> Any:
    """(constraints, counts, global minimum per constraint): 0 while fewer domains than minDomains exist
    (minMatchNum), MaxInt32 when no domain is eligible."""
    minimums = [0 if len(c) < k.min_domains else min(c.values(), default=_MAX_INT32) for k, c in zip(constraints, counts,
                                                                                                    strict=True)]
    return constraints, counts, minimums


@functools.lru_cache(maxsize=256)
def _status(message: str, topology_key: str) -> Status:
    """One shared (immutable) rejection per message and topology key."""
    code = Status.unresolvable if message == MESSAGE_LABEL else Status.unschedulable
    return code(Reason.TOPOLOGY_SPREAD_MISMATCH, message, NAME, topologyKey=topology_key)


def is_eligible(pod: PodInfo, constraint: Constraint, node: Any) -> bool:
    """matchNodeInclusionPolicies: the pod's required node affinity (Honor) and its tolerations of the node's
    NoSchedule/NoExecute taints (Honor)."""
    if constraint.honor_affinity and not matches_pod_node_constraints(pod.spec, node.node):
        return False
    return not (constraint.honor_taints and first_untolerated(node.taints, pod.tolerations) is not None)


def _domain_counts(pod: PodInfo, constraint: Constraint, constraints: list[Constraint],
                   state: SchedState) -> dict[str, int]:
    """calPreFilterState for one constraint: matching pods per topology value over the eligible nodes."""
    counts: dict[str, int] = {}
    for name in state.node_names:
        facts = state.facts[name]
        if any(c.topology_key not in facts.labels for c in constraints) or not is_eligible(pod, constraint, facts):
            continue
        value = facts.labels[constraint.topology_key]
        counts[value] = counts.get(value, 0) + count_matching(state.pods[name], constraint.selector, pod.namespace)
    return counts


def count_matching(pods: tuple[PodInfo, ...], selector: Selector, namespace: str) -> int:
    """countPodsMatchSelector: an empty selector counts nothing; terminating pods and other namespaces are skipped."""
    if selector.empty:
        return 0
    return sum(1 for p in pods if not p.terminating and p.namespace == namespace and selector.matches(p.labels))


def _add_placed(pod: PodInfo, constraints: list[Constraint], counts: list[dict[str, int]], facts: Any,
                other: PodInfo) -> None:
    """Count one placed pod on the node of `facts` into each constraint's domains (upstream's updateWithPod)."""
    if any(c.topology_key not in facts.labels for c in constraints):
        return
    for constraint, domain in zip(constraints, counts, strict=True):
        if is_eligible(pod, constraint, facts):
            value = facts.labels[constraint.topology_key]
            domain[value] = domain.get(value, 0) + count_matching((other,), constraint.selector, pod.namespace)


def _update(data: Any, added: list[tuple[str, PodInfo]], pod: PodInfo, state: SchedState) -> Any:
    """PreFilter data with the pods placed since it was computed counted in (upstream's AddPod)."""
    if isinstance(data, str):
        return data
    constraints, old, _minimums = data
    counts = [dict(c) for c in old]
    for name, other in added:
        _add_placed(pod, constraints, counts, state.facts[name], other)
    return _with_minimums(constraints, counts)


DEFAULT: Final = PodTopologySpread()
filter_node = DEFAULT.filter_node
pre_filter = DEFAULT.pre_filter
