"""run_explain(): overlay the manifests on the snapshot, simulate the queue, diagnose the manifests' groups and attach
verified suggestions and the placement map."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Any, Final

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cluster.gaps import EXPLAIN_KINDS, unread_kinds
from kubectl_wasdra.cluster.shape import shape_problem
from kubectl_wasdra.cluster.snapshot import CLUSTER_SCOPED_KINDS, SNAPSHOT_KINDS, ClusterSnapshot
from kubectl_wasdra.cluster.target import Target
from kubectl_wasdra.explain.diagnose import diagnose
from kubectl_wasdra.explain.left_out import problem_error
from kubectl_wasdra.explain.model import ExplainReport, GroupDiagnosis, ReasonItem
from kubectl_wasdra.explain.overlay import MAX_JOB_PODS, Overlay, build_overlay
from kubectl_wasdra.explain.placement_map import MapInfo, allocated_in_snapshot, build_map
from kubectl_wasdra.explain.suggestions import suggest
from kubectl_wasdra.explain.unknown import mark_unknown
from kubectl_wasdra.explain.whatif import Budget, parse_budget
from kubectl_wasdra.kube.quantity import QuantityError
from kubectl_wasdra.load.document import LoadProblem
from kubectl_wasdra.load.heap import paused_gc
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import GENERIC_WORKLOAD, Gates, make_gates
from kubectl_wasdra.sched.gate_model import unmodelled_notes
from kubectl_wasdra.sched.plugin_results import DEFAULT_NODES, PluginRecorder, sampled_pods
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.profiles import DEFAULT_CONFIG, SchedulerConfig
from kubectl_wasdra.sched.queue import WAITING_MIN_COUNT
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.simulation import Simulation

SIMULATED_KINDS: Final = (*SNAPSHOT_KINDS, "Job")  # the manifest kinds the simulator reads
MAX_GRIDS: Final = 20  # groups whose cluster grid the HTML report draws (each costs one pass over the devices)


@dataclass(frozen=True)
class ExplainOptions:
    """What `kubectl wasdra explain` was asked: manifests, where the cluster comes from, release and gates."""

    files: Sequence[str]
    snapshot: Sequence[str] = ()
    live: Any = None  # the cluster flags (cli_options.CommonOptions) when the cluster is read live, else None
    release: Release | None = NEWEST  # None: --k8s-version auto, the snapshot header's server version
    release_given: bool = True  # False: `release` is only the default, and the cluster's server version replaces it
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    runtime_config: Mapping[str, bool] = field(default_factory=dict)
    suggestions: bool = True
    job_pod_cap: int = MAX_JOB_PODS  # pods materialised per Job (explain/overlay.py)
    scheduler_config: str | None = None  # --scheduler-config FILE (a KubeSchedulerConfiguration)
    preemption: bool = True  # False: --no-preemption
    numa_aware: bool = False  # --numa-aware-scheduler: every profile runs NodeResourceTopologyMatch
    what_if_budget: str = ""  # --what-if-budget "10s,40" (explain/whatif.py); "" for the default
    progress: Any = None  # callable(stage text) the CLI gives on a terminal (cli_progress.py); None: silent
    namespace: str | None = None  # for manifests that name none (kubectl apply's -n / context namespace); None: "default"
    grids: bool = False  # -o html: build each group's cluster grid (explain/grid.py)
    plugin_results: bool | str = False  # --plugin-results: record every Filter and Score plugin per node
    # (plugin_results.py); "sample" (-o html's default): only the pods the page draws tables for
    plugin_nodes: int | None = DEFAULT_NODES  # --plugin-nodes: closest nodes listed besides the chosen one; None: all


def load_cluster_leaving_out(snapshot: Sequence[str], live: Any = None) -> tuple[ClusterSnapshot, tuple[LoadProblem, ...]]:
    """The cluster read live with `live` (the parsed cluster flags) when given, else from the --snapshot files with
    the malformed objects left out of it, each reported."""
    from kubectl_wasdra.dra.inventory import with_device_selectors

    if live is not None:
        from kubectl_wasdra.cluster.live import read_live

        return with_device_selectors(read_live(live)), ()
    from kubectl_wasdra.cluster.files import read_snapshot_leaving_out

    cluster, problems = read_snapshot_leaving_out(list(snapshot))
    return with_device_selectors(cluster), problems


def resolve_release(options: Any, snapshot: ClusterSnapshot) -> Target:
    """The release, gates and runtime config to simulate, and notes saying where each came from: explain's or
    explain-pending's flags (`release` None for --k8s-version auto, `release_given` False when it is only the default),
    else what the snapshot header or live read records of the server (cluster/target.py)."""
    from kubectl_wasdra.cluster.target import resolve_target

    header = snapshot.header if (snapshot.header.server_version or options.release is None) else None
    return resolve_target(header, options.release, release_given=options.release_given,
                          feature_gates=options.feature_gates, runtime_config=options.runtime_config)


def _check_document(doc: Any) -> LoadProblem | None:
    """The problem (file:line:col) of a manifest the simulator cannot read: no name, or requests that do not parse;
    None when it can be read."""
    data = doc.data
    meta = data.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
        line, column = doc.position(("metadata",))
        return LoadProblem(doc.file, line, column, f"{data.get('kind')} has no metadata.name", "give the object a name")
    for pod in build_overlay([data], job_pod_cap=1).objects:  # a Job's pods are alike: one tells
        if pod.get("kind") == "Pod":
            try:
                build_pod_info(pod)
            except (QuantityError, ValueError, TypeError, AttributeError) as exc:
                path = ("spec", "template", "spec") if data.get("kind") == "Job" else ("spec",)
                line, column = doc.position(path)
                return LoadProblem(doc.file, line, column, f'{data.get("kind")} "{meta["name"]}": {exc}',
                                   "fix the pod spec (resources, claims)")
        problem = shape_problem(pod)
        if problem is not None:  # the snapshot could not index it (a namespace that is not a string, ...)
            line, column = doc.position(problem[0] if pod.get("kind") == data.get("kind") else ("spec",))
            return LoadProblem(doc.file, line, column, f'{data.get("kind")} "{meta["name"]}": {problem[1]}', "fix the field")
    return None


def load_documents(files: Sequence[str]) -> list[Any]:
    """The manifests' documents; a file that does not load stops the run with file:line:col (a file that is not
    manifests, such as a Helm template, is named with what it is)."""
    from kubectl_wasdra.load import load_paths

    loaded = load_paths(list(files))
    if loaded.problems:
        raise problem_error(loaded.problems[0])
    return [doc for doc in loaded.documents if isinstance(doc.data, dict)]


def overlay_leaving_out(documents: Sequence[Any], job_pod_cap: int = MAX_JOB_PODS, *,
                        namespace: str | None = None) -> tuple[Overlay, list[LoadProblem]]:
    """The documents as an overlay without the objects the simulator cannot read, and every such object's problem
    (file:line:col), so that the run goes on with the rest; objects that name no namespace go to `namespace`."""
    kept, problems = [], []
    for doc in documents:
        problem = _check_document(doc) if doc.data.get("kind") in SIMULATED_KINDS else None
        if problem is None:
            kept.append(doc)
        else:
            problems.append(problem)
    return build_overlay((_in_namespace(doc.data, namespace) for doc in kept), job_pod_cap=job_pod_cap), problems


def _in_namespace(obj: dict[str, Any], namespace: str | None) -> dict[str, Any]:
    """The object as `kubectl apply -n NAMESPACE` would create it: namespaced objects that name none get `namespace`."""
    meta = obj.get("metadata")
    if namespace is None or obj.get("kind") in CLUSTER_SCOPED_KINDS or not isinstance(meta, dict) or meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": namespace}}


def load_manifests_leaving_out(files: Sequence[str]) -> tuple[Overlay, list[LoadProblem]]:
    """The manifests' objects as an overlay without the ones the simulator cannot read, and their problems."""
    return overlay_leaving_out(load_documents(files))


def load_manifests(files: Sequence[str]) -> Overlay:
    """The manifests' objects as an overlay; a file that does not load, or an object the simulator cannot read, stops
    the run with file:line:col."""
    overlay, problems = load_manifests_leaving_out(files)
    if problems:
        raise problem_error(problems[0])
    return overlay


def _is_ours(result: GroupResult, overlay: Overlay) -> bool:
    if result.kind == "Pod":
        return (result.namespace, result.name) in overlay.pods
    in_groups = (result.namespace, result.name) in overlay.groups
    return in_groups or any((p.namespace, p.name) in overlay.pods for p in result.pods)


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


def _recorder(sim: Simulation, overlay: Overlay, mode: bool | str, nodes: int | None) -> PluginRecorder | None:
    """The per-plugin recorder for the overlay's pods (--plugin-results), for the sample -o html draws, or none."""
    if not mode:
        return None
    wanted = frozenset(f"{ns}/{name}" for ns, name in overlay.pods)
    if mode == "sample":
        wanted = sampled_pods(sim.entries, wanted)
    return PluginRecorder(wanted, nodes)


def explain_results(snapshot: ClusterSnapshot, gates: Gates, overlay: Overlay, *, with_suggestions: bool = True,
                    notes: bool = False, config: SchedulerConfig | None = None, preemption: bool = True,
                    budget: Budget | None = None, progress: Callable[[str], None] | None = None,
                    plugin_results: bool | str = False, plugin_nodes: int | None = DEFAULT_NODES,
                    grids: bool = False) -> Any:
    """Diagnoses of the overlay's groups in queue order, with placement maps and (optionally) suggestions; with
    `notes`, (diagnoses, notes about objects the simulation left out); `config` = the scheduler profiles;
    `preemption=False` leaves preemption out; `budget` bounds the what-ifs of all groups together. A verdict that
    depends on a kind the snapshot's header says was not read is unknown (explain/unknown.py). `plugin_results`
    records each overlay pod's Filter and Score plugins per node (`plugin_nodes` closest nodes; None: all) into the
    diagnoses' `plugins`."""
    from kubectl_wasdra.explain.kubelet_stage import apply_stage, claim_numa, run_stage

    progress = progress or _silent
    unread = unread_kinds(snapshot.header.gaps, EXPLAIN_KINDS)
    budget = budget if budget is not None else Budget()
    claimed = cache(partial(allocated_in_snapshot, snapshot))  # devices the snapshot's claims hold: read once, when needed
    progress("preparing the simulation")
    with paused_gc():  # pod infos, devices and the ledger of bound pods live as long as the run: frozen, never rescanned
        sim = Simulation(snapshot, gates, config=config)
    sim.preemption = preemption
    recorder = _recorder(sim, overlay, plugin_results, plugin_nodes)
    sim.state.recorder = recorder
    progress(f"simulating {len(sim.entries):,} queue entries")
    try:
        everything = sim.run(progress=progress)
    finally:
        sim.state.recorder = None  # the what-ifs and stages below are not the pods' own cycles
    stage = run_stage(sim, everything)  # the kubelets' answers after binding, in queue order
    results = [r for r in everything if _is_ours(r, overlay)]
    out: list[GroupDiagnosis] = []
    previous: GroupDiagnosis | None = None
    like: tuple[GroupResult, GroupDiagnosis] | None = None
    drawn, grid_memo = 0, {}  # grids built; which devices each set of requests selects (explain/grid.py)
    for index, result in enumerate(results, 1):
        progress(f"explaining {result.kind} {result.namespace}/{result.name} ({index:,} of {len(results):,}; "
                 f"{budget.used_runs} what-ifs so far)")
        diagnosis = diagnose(result, like)
        shared = like is not None and diagnosis.placement_map is like[1].placement_map and bool(diagnosis.placement_map)
        like = (result, diagnosis)
        if recorder is not None:
            diagnosis.plugins = pod_plugins(recorder, result)
        if mark_unknown(diagnosis, result, unread):
            out.append(diagnosis)
            continue
        apply_stage(diagnosis, result, stage)
        diagnosis.claim_numa = claim_numa(snapshot, diagnosis.claims) if diagnosis.claims else {}
        key = topology_key_of(result)
        wants_devices = any(p.claims_or_extended for p in result.pods)
        if wants_devices and (result.kind != "Pod" or not result.fits) and not shared:
            diagnosis.map_info = MapInfo()
            diagnosis.placement_map = build_map(snapshot, result, key, diagnosis.map_info, claimed())
        if grids and wants_devices and not shared and drawn < MAX_GRIDS:
            from kubectl_wasdra.explain.grid import build_grid

            diagnosis.grid = build_grid(snapshot, result, key, claimed(), grid_memo)
            drawn += diagnosis.grid is not None
        if with_suggestions:
            same = _same_failure(diagnosis, previous)
            if same is not None:  # a pod failing exactly as the one before it: the same what-ifs would say the same
                diagnosis.suggestions, diagnosis.tried = same.suggestions, same.tried
                diagnosis.suggestions_note = same.suggestions_note
            else:
                diagnosis.suggestions, diagnosis.tried, diagnosis.suggestions_note = suggest(
                    snapshot, gates, result, sim, budget, progress)
            previous = diagnosis
        out.append(diagnosis)
    seen = {(r.namespace, r.name) for r in results}
    diagnoses = out + _podless(sim, overlay, seen)
    return (diagnoses, list(sim.queue.skipped)) if notes else diagnoses


def pod_plugins(recorder: PluginRecorder, result: GroupResult) -> dict[str, Any]:
    """Pod name -> PodPlugins of the entry's pods that had a cycle, in the entry's order (a gang's pods after an
    early stop had none), each with the topology domain its cycle ran in when the group has a topology constraint."""
    key = topology_key_of(result)
    out = {}
    for pod in result.pods:
        record = recorder.records.get(pod.key)
        if record is None:
            continue
        listed = [n.node for n in record.filter]
        if key and listed and result.state is not None and key in result.state.facts[listed[0]].labels:
            record = replace(record, domain={key: str(result.state.facts[listed[0]].labels[key])})
        out[pod.name] = record
    return out


def topology_key_of(result: GroupResult) -> str | None:
    """The node label the group's domains are drawn by: its topology constraint's key, else the group's first key."""
    group = result.entry.group
    return result.entry.topology_key or (group.topology_keys[0] if group and group.topology_keys else None)


def _silent(_: str) -> None:
    """No progress reporting."""


def _same_failure(diagnosis: GroupDiagnosis, previous: GroupDiagnosis | None) -> GroupDiagnosis | None:
    """`previous` when both are standalone pods of one namespace that do not fit for the very same reasons (queued one
    after the other: a Job's or a Deployment's pods), else None."""
    if previous is None or diagnosis.kind != "Pod" or previous.kind != "Pod" or diagnosis.fits or previous.fits:
        return None
    same = (diagnosis.namespace == previous.namespace and diagnosis.pod_message == previous.pod_message
            and [(r.code, r.message) for r in diagnosis.reasons] == [(r.code, r.message) for r in previous.reasons])
    return previous if same else None


def run_explain(options: ExplainOptions) -> ExplainReport:
    """The explanation of every group the manifests define, against the snapshot or live cluster. Objects the API
    server would reject and pods of other schedulers are reported as such, not simulated (explain/admitted.py)."""
    from kubectl_wasdra.explain.admitted import admit

    progress = options.progress or _silent
    progress("reading the manifests")
    documents = load_documents(options.files)
    progress("reading the cluster" if options.live is not None else "loading the snapshot")
    cluster, skipped = load_cluster_leaving_out(options.snapshot, options.live)
    target = resolve_release(options, cluster)
    release = target.release
    config = scheduler_config(options.scheduler_config)
    if options.numa_aware:
        from kubectl_wasdra.sched.filters.node_resource_topology import enabled_in

        config = enabled_in(config)
    schedulers = frozenset(profile.scheduler_name for profile in config.profiles)
    admitted = admit(documents, release, target.feature_gates, target.runtime_config, SIMULATED_KINDS, schedulers,
                     namespace=options.namespace)
    overlay, left_out = overlay_leaving_out(admitted.documents, options.job_pod_cap, namespace=options.namespace)
    gates = make_gates(release, target.feature_gates, target.runtime_config)
    snapshot = cluster.overlay(list(overlay.objects))
    budget = parse_budget(options.what_if_budget) if options.what_if_budget else Budget()
    groups, notes = explain_results(snapshot, gates, overlay, with_suggestions=options.suggestions, notes=True,
                                    config=config, preemption=options.preemption, budget=budget, progress=progress,
                                    plugin_results=options.plugin_results, plugin_nodes=options.plugin_nodes,
                                    grids=options.grids)
    ignored = [*unmodelled_notes(options.feature_gates or {}, gates.enabled_gates), *config_notes(config)]
    return ExplainReport(str(release), [*admitted.left_out, *groups],
                         [*target.notes, *admitted.notes, *overlay.capped, *ignored, *notes], gaps=dict(cluster.header.gaps),
                         left_out=[*left_out, *skipped])


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
