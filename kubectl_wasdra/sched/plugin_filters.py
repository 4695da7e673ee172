"""Each Filter plugin's verdict for one pod on every node, as kube-scheduler's framework runs them: in the profile's
order, stopping at a node's first rejection (the plugins after it are "skipped"), after NodeAffinity's PreFilter has
left out the nodes its required terms cannot match (those run no Filter at all).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (RunFilterPlugins) and
pkg/scheduler/schedule_one.go (findNodesThatPassFilters; nodes outside the PreFilterResult get "node(s) didn't
satisfy plugin(s) [...]"), release-1.37. The statuses are those placement.diagnose_pod gives, so messages agree with
the FitError line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.filters import node_affinity, volume_restrictions
from kubectl_wasdra.sched.filters.base import FilterPlugin
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
    passed, index = len(chain)), and whether the filters ran or PreFilter left the node out."""

    index: int
    status: Status | None
    kind: str = RAN


def filter_chain(pod: PodInfo) -> tuple[FilterPlugin, ...]:
    """The Filter plugins the pod's profile runs for it, in order (the volume plugins only for pods with volumes:
    their PreFilter skips the others, as placement.run_filters does)."""
    plugins = plugins_for(pod.profile)
    return plugins.static + (plugins.dynamic if pod.has_volumes else plugins.dynamic_without_volumes)


def node_verdicts(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], chain: tuple[FilterPlugin, ...],
                  in_use: Status | None) -> dict[str, Verdict]:
    """Every node's Verdict, with filters giving full detail (state.diagnosing) and the DRA allocations the filters
    find for this pod put back as they were (the cycle keeps only the chosen node's). `in_use`: a ReadWriteOncePod
    claim in use, VolumeRestrictions' verdict on every node."""
    allowed = node_affinity.pre_filter_nodes(pod) if plugins_for(pod.profile).node_affinity is not None else None
    affinity_index = next((i for i, p in enumerate(chain) if p.NAME == node_affinity.NAME), 0)
    narrowed = Verdict(affinity_index, Status.unresolvable(
        Reason.NODE_AFFINITY_MISMATCH, node_affinity.NARROWED.format(plugins=node_affinity.NAME), node_affinity.NAME),
        PREFILTERED)
    saved = _dra_found(pod, state, nodes)
    diagnosing, state.diagnosing = state.diagnosing, True
    try:
        out = {}
        for name in nodes:
            if allowed is not None and name not in allowed:
                out[name] = narrowed
                continue
            out[name] = _run_chain(pod, state.node(name), chain, in_use)
    finally:
        state.diagnosing = diagnosing
        _restore_found(pod, state, nodes, saved)
    return out


def _run_chain(pod: PodInfo, node: Any, chain: tuple[FilterPlugin, ...], in_use: Status | None) -> Verdict:
    for index, plugin in enumerate(chain):
        if in_use is not None and plugin.NAME == volume_restrictions.NAME:
            return Verdict(index, in_use)
        status = plugin.filter_node(pod, node)
        if status is not None:
            return Verdict(index, status)
    return Verdict(len(chain), None)


def _dra_found(pod: PodInfo, state: SchedState, nodes: tuple[str, ...]) -> dict[str, Any]:
    """The DRA allocations the cycle kept for `pod` (the chosen node's), to put back after the filters ran again."""
    found = state.dra.found if state.dra is not None else None
    if not found or not pod.claims_or_extended:
        return {}
    return {name: found[(id(pod), name)] for name in nodes if (id(pod), name) in found}


def _restore_found(pod: PodInfo, state: SchedState, nodes: tuple[str, ...], saved: Mapping[str, Any]) -> None:
    if state.dra is None or not pod.claims_or_extended:
        return
    found = state.dra.found
    for name in nodes:
        found.pop((id(pod), name), None)
    for name, allocation in saved.items():
        found[(id(pod), name)] = allocation


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
