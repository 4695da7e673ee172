"""run_capacity(): read the shape and the cluster as `explain` does (release, gates, admission, overlay), prepare the
simulation once and count the copies that fit (capacity.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cluster.gaps import EXPLAIN_KINDS, unread_kinds
from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.explain.capacity import MAX_COPIES, count_copies
from kubectl_wasdra.explain.capacity_model import CapacityReport
from kubectl_wasdra.explain.left_out import problem_error
from kubectl_wasdra.explain.run import (
    SIMULATED_KINDS,
    config_notes,
    load_cluster_leaving_out,
    load_documents,
    overlay_leaving_out,
    resolve_release,
    scheduler_config,
)
from kubectl_wasdra.load.document import Document
from kubectl_wasdra.load.heap import paused_gc

# controllers whose pods are alike: a copy is one pod of the template (the controller's own count is not the question)
TEMPLATE_KINDS: Final = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"})


@dataclass(frozen=True)
class CapacityOptions:
    """What `kubectl wasdra capacity` was asked: the shape's files, the cluster, release and gates, the cap."""

    files: Sequence[str]
    snapshot: Sequence[str] = ()
    live: Any = None  # the parsed cluster flags when the cluster is read live, else None
    release: Release | None = NEWEST  # None: --k8s-version auto
    release_given: bool = True
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    runtime_config: Mapping[str, bool] = field(default_factory=dict)
    scheduler_config: str | None = None
    namespace: str | None = None
    max_copies: int = MAX_COPIES
    topology_key: str | None = None  # --topology-key: count per value of this node label
    preemption: bool = True  # the queue before the shape runs as explain runs it (preemption on unless told)
    progress: Any = None


def template_pod(document: Document) -> Document:
    """A Deployment's (ReplicaSet's, StatefulSet's, a Job's whose pods are in no group) pod template as one Pod named
    after the object; other documents unchanged (a Job with spec.scheduling, or whose template names a group, is the
    group's pods: explain/overlay.py)."""
    spec = document.data.get("spec")
    if not isinstance(spec, dict):
        return document
    template = spec.get("template")
    template = template if isinstance(template, dict) else {}
    pod_spec = template.get("spec") if isinstance(template.get("spec"), dict) else {}
    grouped = spec.get("scheduling") is not None or any(pod_spec.get(f) for f in ("schedulingGroup", "workloadRef"))
    if not (document.kind in TEMPLATE_KINDS or (document.kind == "Job" and not grouped)):
        return document
    meta = template.get("metadata") if isinstance(template.get("metadata"), dict) else {}
    meta = {**meta, "name": document.name or "pod"}
    if document.namespace:
        meta["namespace"] = document.namespace
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": template.get("spec") or {}}
    return Document(document.file, document.index, pod, document.item, document.source)


def run_capacity(options: CapacityOptions) -> CapacityReport:
    """How many more copies of the manifests' one pod or group fit in the snapshot or live cluster now."""
    from kubectl_wasdra.explain.admitted import admit
    from kubectl_wasdra.sched.admission import make_gates
    from kubectl_wasdra.sched.gate_model import unmodelled_notes
    from kubectl_wasdra.sched.simulation import Simulation

    progress = options.progress or (lambda _: None)
    progress("reading the manifests")
    documents = [template_pod(doc) for doc in load_documents(options.files)]
    progress("reading the cluster" if options.live is not None else "loading the snapshot")
    cluster, skipped = load_cluster_leaving_out(options.snapshot, options.live)
    target = resolve_release(options, cluster)
    config = scheduler_config(options.scheduler_config)
    schedulers = frozenset(profile.scheduler_name for profile in config.profiles)
    admitted = admit(documents, target.release, target.feature_gates, target.runtime_config, SIMULATED_KINDS,
                     schedulers, namespace=options.namespace)
    if admitted.left_out:
        first = admitted.left_out[0]
        raise WasdraError(f"{first.kind} {first.namespace}/{first.name} is not scheduled by kube-scheduler: "
                          f"{first.reasons[0].message if first.reasons else 'left out'}", where="-f",
                          hint="fix the manifest (kubectl wasdra check) or its release and gates")
    overlay, left_out = overlay_leaving_out(admitted.documents, namespace=options.namespace)
    if left_out:  # the shape itself cannot be read: there is nothing to count
        raise problem_error(left_out[0])
    gates = make_gates(target.release, target.feature_gates, target.runtime_config)
    progress("preparing the simulation")
    # the simulation builds large, lasting data (pod infos, ledgers, each copy's results): without the pause the
    # collector rescans the whole snapshot every few hundred allocations (2.8 of 11 CPU s at 5,000 nodes)
    with paused_gc():
        sim = Simulation(cluster.overlay(list(overlay.objects)), gates, config=config)
        sim.preemption = options.preemption
        progress("placing copies")
        report = count_copies(sim, overlay, max_copies=options.max_copies, topology_key=options.topology_key,
                              release=str(target.release))
    report.notes = [*target.notes, *admitted.notes, *overlay.capped, *sim.queue.skipped,
                    *unmodelled_notes(options.feature_gates or {}, gates.enabled_gates), *config_notes(config)]
    report.left_out = list(skipped)
    report.unread = unread_kinds(cluster.header.gaps, EXPLAIN_KINDS)
    return report
