"""run_explain(): overlay the manifests on the snapshot, simulate the queue, diagnose the manifests' groups and attach
verified suggestions and the placement map."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cluster.shape import shape_problem
from kubectl_wasdra.cluster.snapshot import CLUSTER_SCOPED_KINDS, SNAPSHOT_KINDS, ClusterSnapshot
from kubectl_wasdra.errors import LoadError
from kubectl_wasdra.explain.diagnose import diagnose
from kubectl_wasdra.explain.model import ExplainReport, GroupDiagnosis, ReasonItem
from kubectl_wasdra.explain.overlay import Overlay, build_overlay
from kubectl_wasdra.explain.placement_map import build_map
from kubectl_wasdra.explain.suggestions import suggest
from kubectl_wasdra.kube.quantity import QuantityError
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import GENERIC_WORKLOAD, Gates, make_gates
from kubectl_wasdra.sched.gate_model import unmodelled_notes
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.profiles import DEFAULT_CONFIG, SchedulerConfig
from kubectl_wasdra.sched.queue import WAITING_MIN_COUNT
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.simulation import Simulation


@dataclass(frozen=True)
class ExplainOptions:
    """What `kubectl wasdra explain` was asked: manifests, where the cluster comes from, release and gates."""

    files: Sequence[str]
    snapshot: Sequence[str] = ()
    live: bool = False
    release: Release | None = NEWEST  # None: --k8s-version auto, the snapshot header's server version
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    runtime_config: Mapping[str, bool] = field(default_factory=dict)
    suggestions: bool = True
    live_options: Any = None
    scheduler_config: str | None = None  # --scheduler-config FILE (a KubeSchedulerConfiguration)
    namespace: str | None = None  # for manifests that name none (kubectl apply's -n / context namespace); None: "default"


def load_cluster(options: Any) -> ClusterSnapshot:
    """The snapshot from --snapshot files, or read live; problems in snapshot files stop the run (exit 2)."""
    from kubectl_wasdra.dra.inventory import with_device_selectors

    if getattr(options, "live", False):
        from kubectl_wasdra.cluster.live import read_live

        return with_device_selectors(read_live(options.live_options))
    from kubectl_wasdra.cluster.files import read_snapshot

    return with_device_selectors(read_snapshot(list(options.snapshot)))


def resolve_release(release: Release | None, snapshot: ClusterSnapshot) -> tuple[Release, list[str]]:
    """The release to simulate and notes: `release`, or for auto (None) the snapshot header's server version, else the
    newest supported release with a note saying it was assumed."""
    if release is not None:
        return release, []
    from kubectl_wasdra.cluster.header import server_release

    found = server_release(snapshot.header.server_version)
    if found is not None:
        return found, []
    return NEWEST, [f"--k8s-version auto: the snapshot records no server version, so Kubernetes {NEWEST} is assumed "
                    "(pass --k8s-version to choose)"]


def _check_document(doc: Any) -> None:
    """LoadError (file:line:col) for a manifest the simulator cannot read: no name, or requests that do not parse."""
    data = doc.data
    where = "{file}:{line}:{column}"
    meta = data.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
        line, column = doc.position(("metadata",))
        raise LoadError(f"{data.get('kind')} has no metadata.name", where=where.format(file=doc.file, line=line, column=column),
                        hint="give the object a name")
    for pod in build_overlay([data]).objects:
        if pod.get("kind") == "Pod":
            try:
                build_pod_info(pod)
            except (QuantityError, ValueError, TypeError, AttributeError) as exc:
                path = ("spec", "template", "spec") if data.get("kind") == "Job" else ("spec",)
                line, column = doc.position(path)
                raise LoadError(f'{data.get("kind")} "{meta["name"]}": {exc}', hint="fix the pod spec (resources, claims)",
                                where=where.format(file=doc.file, line=line, column=column)) from exc
        problem = shape_problem(pod)
        if problem is not None:  # the snapshot could not index it (a namespace that is not a string, ...)
            line, column = doc.position(problem[0] if pod.get("kind") == data.get("kind") else ("spec",))
            raise LoadError(f'{data.get("kind")} "{meta["name"]}": {problem[1]}', hint="fix the field",
                            where=where.format(file=doc.file, line=line, column=column))


def load_manifests(files: Sequence[str], namespace: str | None = None) -> Overlay:
    """The manifests' objects as an overlay; a file that does not load stops the run with file:line:col. Namespaced
    objects that name no namespace go to `namespace` when given, as `kubectl apply -n` would create them."""
    from kubectl_wasdra.load import load_paths

    loaded = load_paths(list(files))
    if loaded.problems:
        first = loaded.problems[0]
        raise LoadError(first.message, where=f"{first.file}:{first.line}:{first.column}", hint=first.hint)
    documents = [doc for doc in loaded.documents if isinstance(doc.data, dict)]
    for doc in documents:
        if doc.data.get("kind") in (*SNAPSHOT_KINDS, "Job"):
            _check_document(doc)
    return build_overlay(_in_namespace(doc.data, namespace) for doc in documents)


def _in_namespace(obj: dict[str, Any], namespace: str | None) -> dict[str, Any]:
    meta = obj.get("metadata")
    if namespace is None or obj.get("kind") in CLUSTER_SCOPED_KINDS or not isinstance(meta, dict) or meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": namespace}}


def _is_ours(result: GroupResult, overlay: Overlay) -> bool:
    if result.kind == "Pod":
        return (result.namespace, result.name) in overlay.pods
    pods = [p for c in [result, *result.children] for p in c.entry.pods]
    return (result.namespace, result.name) in overlay.groups or any((p.namespace, p.name) in overlay.pods for p in pods)


def _podless(sim: Simulation, overlay: Overlay, seen: set[tuple[str, str]]) -> list[GroupDiagnosis]:
    """Manifest PodGroups no queued pod refers to: rejected by the API server, links dropped, or no pods at all."""
    out = []
    for namespace, name in sorted(overlay.groups - seen):
        obj = sim.snapshot.get("PodGroup", name, namespace)
        if obj is None:
            continue
        rejected = sim.queue.rejected.get(("PodGroup", namespace, name))
        reasons = []
        if rejected:
            reasons.append(ReasonItem(Reason.API_NOT_SERVED.value, f"PodGroup rejected by the API server: {rejected}", None,
                                      {"apiVersion": obj.get("apiVersion", ""), "kind": "PodGroup"}))
        if not sim.gates.enabled(GENERIC_WORKLOAD):
            reasons.append(ReasonItem(Reason.FEATURE_GATE_DISABLED.value,
                                      f"pod.spec.schedulingGroup is dropped: feature gate {GENERIC_WORKLOAD} is off in "
                                      f"Kubernetes {sim.gates.release}; the pods are scheduled one by one, not as a gang",
                                      None, {"gate": GENERIC_WORKLOAD, "field": "spec.schedulingGroup"}))
        if not reasons:
            reasons.append(ReasonItem(Reason.GANG_TOO_FEW_PODS.value, WAITING_MIN_COUNT, None, {"pods": 0}))
        out.append(GroupDiagnosis("PodGroup", namespace, name, False, reasons=reasons, scheduler_message=reasons[-1].message,
                                  scheduler_record="nowhere: the group is not scheduled as a group"))
    return out


def explain_results(snapshot: ClusterSnapshot, gates: Gates, overlay: Overlay, *, with_suggestions: bool = True,
                    notes: bool = False, config: SchedulerConfig | None = None) -> Any:
    """Diagnoses of the overlay's groups in queue order, with placement maps and (optionally) suggestions; with
    `notes`, (diagnoses, notes about objects the simulation left out); `config` = the scheduler profiles."""
    sim = Simulation(snapshot, gates, config=config)
    results = [r for r in sim.run() if _is_ours(r, overlay)]
    out = []
    for result in results:
        diagnosis = diagnose(result)
        key = result.entry.topology_key or (result.entry.group.topology_keys[0] if result.entry.group and
                                            result.entry.group.topology_keys else None)
        wants_devices = any(p.claims_or_extended for c in [result, *result.children] for p in c.entry.pods)
        if wants_devices and (result.kind != "Pod" or not result.fits):
            diagnosis.placement_map = build_map(snapshot, result, key)
        if with_suggestions:
            diagnosis.suggestions = suggest(snapshot, gates, result, sim)
        out.append(diagnosis)
    seen = {(r.namespace, r.name) for r in results}
    diagnoses = out + _podless(sim, overlay, seen)
    return (diagnoses, list(sim.queue.skipped)) if notes else diagnoses


def run_explain(options: ExplainOptions) -> ExplainReport:
    """The explanation of every group the manifests define, against the snapshot or live cluster."""
    overlay = load_manifests(options.files, options.namespace)
    cluster = load_cluster(options)
    release, assumed = resolve_release(options.release, cluster)
    gates = make_gates(release, options.feature_gates, options.runtime_config)
    config = scheduler_config(options.scheduler_config)
    snapshot = cluster.overlay(list(overlay.objects))
    groups, notes = explain_results(snapshot, gates, overlay, with_suggestions=options.suggestions, notes=True,
                                    config=config)
    ignored = [*unmodelled_notes(options.feature_gates or {}, gates.enabled_gates), *config_notes(config)]
    return ExplainReport(str(release), groups, [*assumed, *ignored, *notes])


def scheduler_config(file: str | None) -> SchedulerConfig:
    """The profiles of --scheduler-config FILE (read from the file, also in live mode), or kube-scheduler's defaults."""
    if not file:
        return DEFAULT_CONFIG
    from kubectl_wasdra.sched.config_file import load_scheduler_config

    return load_scheduler_config(file)


def config_notes(config: SchedulerConfig) -> list[str]:
    """What the scheduler configuration sets that the simulation does not model."""
    return [f'{config.source}: profile "{p.scheduler_name}": {item} are not modelled by the simulator'
            for p in config.profiles for item in p.unmodelled]
