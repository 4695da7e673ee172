"""`check --simulate`: run the explain simulation for the manifests' groups and say which do not fit now.

The manifests are overlaid on the snapshot exactly as `kubectl wasdra explain` does (explain/overlay.py: Jobs expand
to their pods and 1.37 PodGroup), the queue is simulated once, and every group that does not fit yields its first
reason and, when only a few groups fail, the best verified suggestion (each suggestion costs several more
simulations, so a change that leaves many groups pending gets reasons only and a pointer to `explain`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._devices import cluster_devices
from kubectl_wasdra.lint.rules._fitting import pod_never_matches
from kubectl_wasdra.lint.rules._objects import ObjectIndex, object_index
from kubectl_wasdra.lint.rules._pods import document_pod_sources, latest_documents
from kubectl_wasdra.lint.rules.validation._base import as_dict
from kubectl_wasdra.load import Document
from kubectl_wasdra.reasons import Reason

if TYPE_CHECKING:
    from kubectl_wasdra.lint.context import CheckContext

LOG: Final = logging.getLogger(__name__)
MAX_SUGGESTED: Final = 3   # suggestions are simulated only when at most this many groups do not fit
RESTRICTION_REASONS: Final = frozenset({"NodeAffinityMismatch", "NodeNameMismatch", "UntoleratedTaint",
                                         "NodeUnschedulable"})
# reasons another rule already explains as a broken reference or a setting: no suggestion is simulated for them
CONFIGURATION_REASONS: Final = frozenset({
    "ClaimNotFound", "ClaimTemplateNotFound", "DeviceClassNotFound", "GroupNotFound", "WorkloadNotFound", "GroupInvalid",
    "APINotServed", "FeatureGateDisabled", "SelectorError", "GangTooFewPods"})
GROUP_KINDS: Final = ("PodGroup", "CompositePodGroup", "Workload")


@dataclass(frozen=True)
class NoFitNow:
    """A manifest group (or lone pod) that stays pending: where it is defined and why."""

    document: Document
    label: str
    reason: str
    suggestion: str | None
    preemption: Any = None  # sched/preemption_model.Preemption when evicting lower-priority pods would make it fit


def _never_fits(document: Document, ctx: CheckContext, index: ObjectIndex) -> bool:
    """A pod (or controller) with a claim that matches no device of the cluster: FIT001 reports it as "can never
    fit", and leaving it out of the overlay changes nothing for the others (it would never hold anything)."""
    if ctx.snapshot is None or not ctx.snapshot.of_kind("ResourceSlice"):
        return False
    devices = cluster_devices(ctx.snapshot)
    return any(pod_never_matches(source.spec, document.namespace, devices, index, ctx.release)
               for source in document_pod_sources(document) if source.spec.get("resourceClaims"))


def _well_formed(obj: object, shape_problem: Callable[[object], object]) -> bool:
    """True when the simulator can read `obj` (string apiVersion and kind first: shape_problem assumes them)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str) or not isinstance(obj.get("apiVersion"), str):
        return False
    return shape_problem(obj) is None


# what the simulator raises on a malformed field; SCHEMA/VALID findings already report those fields
MALFORMED: Final = (AttributeError, TypeError, KeyError, ValueError, IndexError)


def _readable(obj: dict) -> bool:
    """True when the simulator's own readers accept a pod or group object (a malformed field is left to SCHEMA)."""
    from kubectl_wasdra.sched.groups import group_from_object
    from kubectl_wasdra.sched.podinfo import build_pod_info

    try:
        if obj.get("kind") == "Pod":
            build_pod_info(obj)
        elif obj.get("kind") in ("PodGroup", "CompositePodGroup"):
            group_from_object(obj)
    except MALFORMED:
        LOG.debug("left out of the simulation: %s %s", obj.get("kind"), as_dict(obj.get("metadata")).get("name"))
        return False
    return True


def _owners(docs: DocumentSet, ctx: CheckContext) -> tuple[dict[tuple[str, str, str], Document], list[dict]]:
    """(kind, namespace, name) of every simulated pod and group -> the document that defines it; overlay objects."""
    from kubectl_wasdra.cluster.shape import shape_problem
    from kubectl_wasdra.explain.overlay import build_overlay

    owners: dict[tuple[str, str, str], Document] = {}
    objects: list[dict] = []
    index = object_index(docs, ctx)
    for document in latest_documents(docs):
        if not _well_formed(document.data, shape_problem) or _never_fits(document, ctx, index):
            continue  # malformed objects are LOAD/SCHEMA findings; the simulator reads only well-formed ones
        try:
            overlay = build_overlay([document.data])
        except MALFORMED:
            continue
        if not all(_well_formed(obj, shape_problem) and _readable(obj) for obj in overlay.objects):
            continue
        objects.extend(overlay.objects)
        for namespace, name in overlay.pods:
            owners.setdefault(("Pod", namespace, name), document)
        for namespace, name in overlay.groups:
            for kind in GROUP_KINDS:
                owners.setdefault((kind, namespace, name), document)
    return owners, objects


def _other_scheduler(result: Any) -> bool:
    """True for pods that name a scheduler other than kube-scheduler's default profile: the manifests say nothing
    about that scheduler, so `check` has no verdict on them (`explain --scheduler-config` has)."""
    blocked = result.entry.blocked
    return blocked is not None and blocked.reason is Reason.OTHER_SCHEDULER


def _first_reason(diagnosis: object) -> tuple[str, str]:
    """(reason code, "Code: message (N nodes)"): the first group-level reason of the diagnosis, else the per-node
    reason most nodes gave (kube-scheduler sorts "<count> <reason>" as strings, which puts "17 ..." before "483 ...")."""
    reasons = list(getattr(diagnosis, "reasons", None) or [])
    if not reasons:
        return "", str(getattr(diagnosis, "scheduler_message", "") or "does not fit")
    group_level = [r for r in reasons if r.count is None]
    # nodes the pod may not use at all say little; what blocks it on the nodes it may use says more
    blocking = [r for r in reasons if r.code not in RESTRICTION_REASONS] or reasons
    first = group_level[0] if group_level else max(blocking, key=lambda r: r.count or 0)
    count = f" ({first.count} nodes)" if first.count else ""
    return first.code, f"{first.code}: {first.message}{count}"


def groups_not_fitting(docs: DocumentSet, ctx: CheckContext) -> Iterator[NoFitNow]:
    """The manifests' groups that the simulation leaves pending, in queue order."""
    from kubectl_wasdra.explain.diagnose import diagnose
    from kubectl_wasdra.explain.suggestions import suggest
    from kubectl_wasdra.sched.admission import make_gates
    from kubectl_wasdra.sched.simulation import Simulation

    if ctx.snapshot is None:
        return
    owners, objects = _owners(docs, ctx)
    if not objects:
        return
    gates = make_gates(ctx.release, ctx.feature_gates, ctx.runtime_config)
    snapshot = ctx.snapshot.overlay(objects)
    try:
        simulation = Simulation(snapshot, gates)
        simulation.preemption = ctx.preemption
        results = simulation.run()
    except MALFORMED as exc:  # a malformed object the readers above let through: no verdict rather than a crash
        LOG.debug("simulation skipped: %s", exc)
        return
    failing = []
    for result in results:
        document = owners.get((result.kind, result.namespace, result.name)) or _member_owner(result, owners)
        if document is not None and not result.fits and not _other_scheduler(result):
            failing.append((document, result))
    with_suggestions = len(failing) <= MAX_SUGGESTED
    for document, result in failing:
        code, reason = _first_reason(diagnose(result))
        suggestion = None
        if with_suggestions and code not in CONFIGURATION_REASONS:
            found = suggest(snapshot, gates, result)[0]  # (suggestions, what-ifs tried, note)
            suggestion = f"{found[0].message} -> {found[0].outcome}" if found else None
        answer = result.extra.get("preemption")
        yield NoFitNow(document, f"{result.kind} {result.namespace}/{result.name}", reason, suggestion,
                       answer if answer is not None and answer.helps else None)


def _member_owner(result: object, owners: dict[tuple[str, str, str], Document]) -> Document | None:
    entry = getattr(result, "entry", None)
    for pod in getattr(entry, "pods", None) or ():
        document = owners.get(("Pod", pod.namespace, pod.name))
        if document is not None:
            return document
    return None
