"""explain-pending: for each pending pod or group of a cluster (or snapshot), our diagnosis next to what the cluster
recorded (PodScheduled / group condition, latest FailedScheduling event), flagging where they disagree."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cluster.gaps import EXPLAIN_KINDS, unread_kinds
from kubectl_wasdra.errors import ClusterReadError, UsageError
from kubectl_wasdra.explain.diagnose import diagnose
from kubectl_wasdra.explain.model import ExplainReport, GroupDiagnosis
from kubectl_wasdra.explain.nominations import recorded_nominations
from kubectl_wasdra.explain.placement_map import allocated_in_snapshot
from kubectl_wasdra.explain.recorded import Recorded, condition, group_condition, latest_failed_scheduling
from kubectl_wasdra.explain.run import (
    MAX_GRIDS,
    config_notes,
    load_cluster_leaving_out,
    resolve_release,
    scheduler_config,
    topology_key_of,
)
from kubectl_wasdra.explain.unknown import mark_unknown
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.gate_model import unmodelled_notes
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.simulation import Simulation

TARGET_KINDS: Final = {"pod": "Pod", "pods": "Pod", "po": "Pod", "podgroup": "PodGroup", "podgroups": "PodGroup",
                       "pg": "PodGroup", "workload": "Workload", "workloads": "Workload"}
# phrases of kube-scheduler messages -> the topic they are about, to compare ours with the cluster's
_TOPICS: Final = (
    (re.compile(r"untolerated taint"), "taint"), (re.compile(r"Insufficient|Too many pods"), "resources"),
    (re.compile(r"allocate all claims|resourceclaim|ResourceClaim"), "devices"),
    (re.compile(r"node affinity|selector"), "affinity"), (re.compile(r"unschedulable"), "cordon"),
    (re.compile(r"minCount|placements|pod group|gang"), "gang"), (re.compile(r"topology spread|anti-affinity|affinity rules"),
                                                                 "pod-affinity"),
)


@dataclass(frozen=True)
class PendingOptions:
    """What `kubectl wasdra explain-pending` was asked."""

    target: str | None = None
    snapshot: Sequence[str] = ()
    live: Any = None  # the cluster flags (cli_options.CommonOptions) when the cluster is read live, else None
    release: Release | None = NEWEST  # None: --k8s-version auto, the snapshot header's server version
    release_given: bool = True  # False: `release` is only the default, and the cluster's server version replaces it
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    runtime_config: Mapping[str, bool] = field(default_factory=dict)
    namespace: str | None = None
    scheduler_config: str | None = None  # --scheduler-config FILE
    preemption: bool = True  # False: --no-preemption
    grids: bool = False  # -o html: each group's cluster grid (explain/grid.py), for the first MAX_GRIDS groups


def parse_target(target: str | None) -> tuple[str, str] | None:
    """("Pod" | "PodGroup" | "Workload", name) from "pod/NAME", or from a bare NAME, which kubectl reads as a pod;
    UsageError for anything else."""
    if not target:
        return None
    if "/" not in target:
        return "Pod", target
    kind, sep, name = target.partition("/")
    if not sep or not name or kind.lower() not in TARGET_KINDS:
        raise UsageError(f'"{target}" is not a target', where="TARGET", hint="use pod/NAME, podgroup/NAME or workload/NAME")
    return TARGET_KINDS[kind.lower()], name


def _workload_of(result: GroupResult) -> str | None:
    group = result.entry.group
    if group is None:
        return None
    if group.kind == "Workload":
        return group.name.split("/")[0]
    ref = (group.obj.get("spec") or {}).get("workloadRef") or {}
    return ref.get("workloadName") or ((group.obj.get("spec") or {}).get("podGroupTemplateRef") or {}).get("workload", {}).get(
        "workloadName")


def _matches(result: GroupResult, target: tuple[str, str] | None, namespace: str | None) -> bool:
    if namespace is not None and result.namespace != namespace:
        return False
    if target is None:
        return True
    kind, name = target
    if kind == "Pod":
        return any(p.name == name for p in result.pods)
    if kind == "Workload":
        return _workload_of(result) == name
    return result.kind in ("PodGroup", "Workload", "CompositePodGroup") and result.name == name


def _topics(text: str) -> set[str]:
    return {topic for pattern, topic in _TOPICS if pattern.search(text)}


def _recorded(result: GroupResult, snapshot: Any, events: Mapping[tuple[str, str, str], Recorded]) -> list[Recorded]:
    out: list[Recorded] = []
    group = result.entry.group
    if group is not None and group.kind == "PodGroup":
        obj = snapshot.get("PodGroup", group.name, group.namespace)
        found = group_condition(obj) if obj is not None else None
        if found is not None:
            out.append(found)
        # a FailedScheduling event about the PodGroup itself (involvedObject/regarding kind PodGroup)
        group_event = events.get(("PodGroup", group.namespace, group.name))
        if group_event is not None:
            out.append(group_event)
    for pod in result.entry.pods[:1]:
        found = condition(pod.pod, ("PodScheduled",))
        if found is not None:
            out.append(found)
        event = events.get(("Pod", pod.namespace, pod.name))
        if event is not None:
            out.append(event)
    return out


def _age(since: str, now: str | None) -> str:
    """"2h14m" between two RFC 3339 times, or "" when either is missing or malformed."""
    try:
        start = datetime.fromisoformat(since.replace("Z", "+00:00"))
        end = datetime.fromisoformat((now or "").replace("Z", "+00:00"))
    except ValueError:
        return ""
    minutes = max(int((end - start).total_seconds() // 60), 0)
    days, rest = divmod(minutes, 1440)
    return (f"{days}d" if days else "") + (f"{rest // 60}h" if rest >= 60 or days else "") + f"{rest % 60}m"


def compare(ours: GroupDiagnosis, recorded: list[Recorded]) -> tuple[str, str]:
    """("yes" | "no" | "unknown", why) comparing our verdict and topics with what the cluster recorded."""
    if not recorded:
        return "unknown", "the cluster recorded nothing for it (no condition, no FailedScheduling event)"
    if ours.fits:
        return "no", "we find it fits now: the cluster may not have retried since capacity changed, or the snapshot differs"
    theirs = set().union(*(_topics(r.message) for r in recorded))
    mine = _topics(" ".join([ours.scheduler_message, ours.pod_message, *(r.message for r in ours.reasons)]))
    common = sorted(theirs & mine)
    if common:
        return "yes", f"both point at {', '.join(common)}"
    return "no", f"the cluster points at {', '.join(sorted(theirs)) or 'something else'}, we at {', '.join(sorted(mine)) or '-'}"


def run_explain_pending(options: PendingOptions) -> ExplainReport:
    """Diagnoses of the pending entries selected by target and namespace, each with the cluster's own record."""
    target = parse_target(options.target)
    snapshot, left_out = load_cluster_leaving_out(options.snapshot, options.live)
    chosen = resolve_release(options, snapshot)
    release, assumed = chosen.release, list(chosen.notes)
    gates = make_gates(release, chosen.feature_gates, chosen.runtime_config)
    config = scheduler_config(options.scheduler_config)
    events = latest_failed_scheduling(snapshot.of_kind("Event"))  # files and live reads both keep Events (cluster/snapshot.py)
    unread = unread_kinds(snapshot.header.gaps, EXPLAIN_KINDS)
    if "Pod" in unread:
        raise ClusterReadError(f"cannot tell what is Pending: Pods could not be read from the cluster ({unread['Pod']})",
                               hint="read with a user that may list pods in every namespace (kubectl auth can-i list pods -A)")
    groups, grid_memo = [], {}  # grid_memo: which devices each set of requests selects (explain/grid.py)
    drawn, used = 0, None  # grids built; devices the snapshot's claims hold, read for the first grid
    simulation = Simulation(snapshot, gates, config=config)
    simulation.preemption = options.preemption
    for result in simulation.run():
        if not _matches(result, target, options.namespace):
            continue
        diagnosis = diagnose(result)
        if mark_unknown(diagnosis, result, unread):
            groups.append(diagnosis)
            continue
        diagnosis.nominations = recorded_nominations(result)
        diagnosis.recorded = _recorded(result, snapshot, events)
        created = min((p.created for p in result.entry.pods if p.created), default="")
        diagnosis.pending_for = _age(created, snapshot.header.taken_at)
        diagnosis.agreement = compare(diagnosis, diagnosis.recorded)
        if options.grids and drawn < MAX_GRIDS and any(p.claims_or_extended for p in result.pods):
            from kubectl_wasdra.explain.grid import build_grid

            used = allocated_in_snapshot(snapshot) if used is None else used
            diagnosis.grid = build_grid(snapshot, result, topology_key_of(result), used, grid_memo)
            drawn += diagnosis.grid is not None
        groups.append(diagnosis)
    if target is None and not groups:
        _require_namespace(snapshot, options.namespace)
        return ExplainReport(str(release), [], [*assumed, "nothing is Pending" + (f" in {options.namespace}"
                                                                                   if options.namespace else "")],
                             gaps=dict(snapshot.header.gaps), left_out=list(left_out))
    if target is not None and not groups:
        raise UsageError(f"no pending {target[0]} named \"{target[1]}\"", where="TARGET",
                         hint="list pending pods with kubectl get pods --field-selector status.phase=Pending")
    return ExplainReport(str(release), groups, [*assumed, *unmodelled_notes(options.feature_gates or {}, gates.enabled_gates),
                                                *config_notes(config)],
                         gaps=dict(snapshot.header.gaps), left_out=list(left_out))


def _require_namespace(snapshot: Any, namespace: str | None) -> None:
    """UsageError for `-n NS` naming a namespace the cluster does not have (then "nothing is Pending in NS" would
    mislead): judged by the Namespace objects and the pods' namespaces, when Namespaces were read at all."""
    if not namespace or "Namespace" in snapshot.header.gaps:
        return
    known = {(obj.get("metadata") or {}).get("name") for obj in snapshot.of_kind("Namespace")}
    known |= {(obj.get("metadata") or {}).get("namespace") for obj in snapshot.of_kind("Pod")}
    known = {name for name in known if isinstance(name, str) and name}
    if not known or namespace in known:
        return
    from kubectl_wasdra.catalog.spelling import closest_name

    close = closest_name(namespace, sorted(known))
    hint = f'did you mean "{close}"?' if close else "namespaces: " + ", ".join(sorted(known)[:10])
    raise UsageError(f'namespace "{namespace}" does not exist in the cluster', where="-n/--namespace", hint=hint)
