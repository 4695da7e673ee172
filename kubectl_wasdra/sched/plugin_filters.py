"""Each Filter plugin's verdict for one pod on every node, as kube-scheduler's framework runs them: in the profile's
order, stopping at a node's first rejection (the plugins after it are "skipped"), after NodeAffinity's PreFilter has
left out the nodes its required terms cannot match (those run no Filter at all).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (RunFilterPlugins) and
pkg/scheduler/schedule_one.go (findNodesThatPassFilters; nodes outside the PreFilterResult get "node(s) didn't
satisfy plugin(s) [...]"), release-1.37. The statuses are those placement.diagnose_pod gives, so messages agree with
the FitError line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.filters import node_affinity, volume_restrictions
from kubectl_wasdra.sched.filters.base import FilterPlugin
from kubectl_wasdra.sched.placement import pod_shape, renamed_cached
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profile_plugins import plugins_for
from kubectl_wasdra.sched.state import SchedState
from kubectl_wasdra.sched.status import Code, Status

PASS: Final = "pass"
SKIPPED: Final = "skipped"
RAN: Final = "ran"
PREFILTERED: Final = "prefiltered"  # left out by NodeAffinity's PreFilter: no Filter plugin ran on the node
STATUS_NAMES: Final = {Code.UNSCHEDULABLE: "fail", Code.UNRESOLVABLE: "unschedulable_and_unresolvable",
                       Code.ERROR: "error"}


@dataclass(frozen=True)
class FilterResult:
    """One Filter plugin on one node: status pass | fail | unschedulable_and_unresolvable | error | skipped, the
    rejection's reason code (None unless rejected) and kube-scheduler's message ("" unless rejected)."""

    plugin: str
    status: str
    reason: str | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One node: the index in the chain of the plugin that rejected the pod and its status (None: every plugin
    passed, index = len(chain)), whether the filters ran or PreFilter left the node out, and the claim names
    its messages use."""

    index: int
    status: Status | None
    kind: str = RAN
    refs: tuple[str, ...] = ()  # the claim names the status's messages use (a verdict shared between pods)


PASSED: Final = tuple(Verdict(index, None) for index in range(32))  # one object per chain length


def filter_chain(pod: PodInfo) -> tuple[FilterPlugin, ...]:
    """The Filter plugins the pod's profile runs for it, in order (the volume plugins only for pods with volumes:
    their PreFilter skips the others, as placement.run_filters does)."""
    plugins = plugins_for(pod.profile)
    return plugins.static + (plugins.dynamic if pod.has_volumes else plugins.dynamic_without_volumes)


Cache = dict[bytes, dict[str, tuple[int, int, "Verdict"]]]  # shape -> node -> (node_gen, shared_gen, verdict)


def node_verdicts(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], chain: tuple[FilterPlugin, ...],
                  in_use: Status | None, cache: Cache) -> dict[str, Verdict]:
    """Every node's Verdict, with filters giving full detail (state.diagnosing) and the DRA allocations the filters
    find for this pod put back as they were (the cycle keeps only the chosen node's). `in_use`: a ReadWriteOncePod
    claim in use, VolumeRestrictions' verdict on every node. Pods of one shape (placement.pod_shape) share verdicts
    in `cache` while the node is unchanged, as the simulation's own caches do, so a queue of identical pods filters
    each node once, not once per pod; a shared verdict still names the claims of the pod it was made for
    (Verdict.refs: for_pod() renames them, only for the nodes shown)."""
    allowed = node_affinity.pre_filter_nodes(pod) if plugins_for(pod.profile).node_affinity is not None else None
    affinity_index = next((i for i, p in enumerate(chain) if p.NAME == node_affinity.NAME), 0)
    narrowed = Verdict(affinity_index, Status.unresolvable(
        Reason.NODE_AFFINITY_MISMATCH, node_affinity.NARROWED.format(plugins=node_affinity.NAME), node_affinity.NAME),
        PREFILTERED)
    shape = pod_shape(pod, state) if in_use is None else None
    refs = state.dra.claim_refs(pod) if shape is not None and state.dra is not None else ()
    shared = cache.setdefault(shape, {}) if shape is not None else {}
    node_gen, shared_gen = state.node_gen, state.shared_gen
    found = state.dra.found if state.dra is not None and pod.claims_or_extended else None
    saved: dict[str, Any] = {}
    diagnosing, state.diagnosing = state.diagnosing, True
    out = {}
    try:
        for name in nodes:
            if allowed is not None and name not in allowed:
                out[name] = narrowed
                continue
            hit = shared.get(name)
            if hit is not None and hit[0] == node_gen[name] and hit[1] == shared_gen:
                out[name] = hit[2]
                continue
            if found is not None:
                saved[name] = found.get((id(pod), name))
            verdict = out[name] = _run_chain(pod, state.node(name), chain, in_use, refs)
            if shape is not None:
                shared[name] = (node_gen[name], shared_gen, verdict)
    finally:
        state.diagnosing = diagnosing
        if found is not None:  # the allocations the cycle kept, back as they were
            for name, allocation in saved.items():
                if allocation is None:
                    found.pop((id(pod), name), None)
                else:
                    found[(id(pod), name)] = allocation
    return out


def for_pod(state: SchedState, pod: PodInfo, verdict: Verdict) -> Verdict:
    """`verdict` with the claim names of `pod` (a verdict shared from a pod of the same shape names that pod's)."""
    if verdict.status is None or not verdict.refs or state.dra is None:
        return verdict
    refs = state.dra.claim_refs(pod)
    if refs == verdict.refs:
        return verdict
    return Verdict(verdict.index, renamed_cached(state, verdict.status, verdict.refs, refs), verdict.kind, refs)


def _run_chain(pod: PodInfo, node: Any, chain: tuple[FilterPlugin, ...], in_use: Status | None,
               refs: tuple[str, ...]) -> Verdict:
    for index, plugin in enumerate(chain):
        if in_use is not None and plugin.NAME == volume_restrictions.NAME:
            return Verdict(index, in_use)
        status = plugin.filter_node(pod, node)
        if status is not None:
            return Verdict(index, status, RAN, refs)
    return PASSED[len(chain)] if len(chain) < len(PASSED) else Verdict(len(chain), None)


def result_of(plugin: str, status: Status | None) -> FilterResult:
    """A FilterResult: pass, or the status's code with its reason and message (several reasons of one plugin joined
    by ", ", as upstream's Status.Message())."""
    if status is None:
        return FilterResult(plugin, PASS)
    message = ", ".join(s.message for s in status.all_reasons())
    return FilterResult(plugin, STATUS_NAMES[status.code], str(status.reason), message)


def node_results(chain: tuple[FilterPlugin, ...], verdict: Verdict) -> tuple[FilterResult, ...]:
    """Every plugin of the chain on one node: pass up to the rejecting plugin, its status, skipped after it (and
    before it too when PreFilter left the node out)."""
    out = []
    for index, plugin in enumerate(chain):
        if index == verdict.index:
            out.append(result_of(plugin.NAME, verdict.status))
        elif index > verdict.index or verdict.kind == PREFILTERED:
            out.append(FilterResult(plugin.NAME, SKIPPED))
        else:
            out.append(FilterResult(plugin.NAME, PASS))
    return tuple(out)
