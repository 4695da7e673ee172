"""GANG rules: gang groups that can never assemble, or whose placement kube-scheduler does not guarantee.

Upstream: shared/reference/workload-scheduling.md §2 (the 1.37 PodGroup cycle: fixed pod order, no backtracking,
hierarchy validation) and §3 (topology placements: one per distinct value of the key among the nodes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, Final

from kubectl_wasdra.catalog.spelling import closest_name
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.copies import nearest
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._gangs import groups
from kubectl_wasdra.lint.rules._pods import PodSource, containers, of_kind
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list
from kubectl_wasdra.load import Document

DEFAULT_SCHEDULER: Final = "default-scheduler"
# what the per-pod filters read; pods of a gang should agree on all of it (names and env do not matter)
_FILTERED_FIELDS: Final = ("nodeSelector", "affinity", "tolerations", "resourceClaims", "overhead", "resources",
                           "nodeName", "runtimeClassName")


def _counted(members: tuple[PodSource, ...]) -> int | None:
    counts = [m.count for m in members]
    return None if any(c is None for c in counts) else sum(counts)  # type: ignore[misc]


def _describe(members: tuple[PodSource, ...]) -> str:
    parts = []
    for member in members:
        if member.owner == "Pod":
            parts.append(member.label)
        else:
            field = member.count_path[-1] if member.count_path else "replicas"
            parts.append(f"{member.label} ({field} {member.count})")
    return ", ".join(parts)


@rule(codes.GANG_MIN_COUNT_EXCEEDS_PODS, scope="set")
def min_count_exceeds_pods(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a gang `minCount` larger than the number of pods the manifests' pods and controllers create for that
    group at once: bare Pods, Deployment/ReplicaSet/StatefulSet `replicas`, Job `parallelism` (capped by
    `completions`), JobSet `replicatedJobs[].replicas`, LeaderWorkerSet `replicas` x `size`, Kubeflow
    `*ReplicaSpecs.<role>.replicas` and Volcano `tasks[].replicas`. Groups whose pods the manifests do not create,
    whose members are all bare Pods (the rest of the gang may be created elsewhere), or whose counts are unknown
    (DaemonSet) are skipped. Likewise a
    CompositePodGroup `gang.minGroupCount` above the child groups that name it as parent.

    ## Why is this bad?
    The scheduler waits for minCount pods before the group's first cycle ("waiting for minCount pods from a gang
    to appear in scheduling queue"); with fewer pods the gang stays Pending forever.

    ## Example
        # PodGroup train: schedulingPolicy: {gang: {minCount: 8}}
        # Job train: parallelism: 4, pods with schedulingGroup: {podGroupName: train}

    ## Fix
    Lower `minCount` to the pod count, or raise `parallelism`/`replicas`.
    """
    del ctx
    for group in groups(docs):
        if group.min_count is None or not group.members or all(m.owner == "Pod" for m in group.members):
            continue        # bare Pods are created one by one: the rest of the gang may come from elsewhere
        pods = _counted(group.members)
        if pods is None or group.min_count <= pods:
            continue
        yield SetProblem(group.document, group.min_count_path,
                         f"gang minCount {group.min_count} of {group.label} is larger than the {pods} pod(s) "
                         f"created for it: {_describe(group.members)}",
                         f"lower minCount to {pods} or create more pods", at="value",
                         related=tuple((m.document, m.count_path or m.path) for m in group.members))
    yield from _composite_min_group_count(docs)


def _composite_min_group_count(docs: DocumentSet) -> Iterator[SetProblem]:
    """CompositePodGroups whose gang.minGroupCount exceeds the child groups of the set naming them as parent."""
    children: dict[str, list[str]] = {}
    for document in (*of_kind(docs, "PodGroup"), *of_kind(docs, "CompositePodGroup")):
        parent = document.get(("spec", "parentCompositePodGroupName"))
        if isinstance(parent, str) and document.name:
            children.setdefault(parent, []).append(document.name)
    for document in of_kind(docs, "CompositePodGroup"):
        path = ("spec", "schedulingPolicy", "gang", "minGroupCount")
        wanted, found = document.get(path), sorted(set(children.get(document.name or "", [])))
        if isinstance(wanted, int) and not isinstance(wanted, bool) and found and wanted > len(found):
            yield SetProblem(document, path,
                             f"gang minGroupCount {wanted} of CompositePodGroup \"{document.name}\" is larger than its "
                             f"{len(found)} child group(s): " + ", ".join(f'"{name}"' for name in found),
                             f"lower minGroupCount to {len(found)} or add child groups", at="value")


def _fingerprint(spec: Mapping[str, Any]) -> dict[str, Any]:
    fields = {field: spec.get(field) for field in _FILTERED_FIELDS if spec.get(field) is not None}
    for kind, index, container in containers(spec):
        fields[f"{kind}[{index}]"] = (container.get("resources"), container.get("restartPolicy"))
    return fields


def _first_difference(first: dict[str, Any], second: dict[str, Any]) -> str:
    """The first field (or "containers[i]") whose value differs, "" when none does."""
    for field in sorted(set(first) | set(second)):
        if json.dumps(first.get(field), sort_keys=True) != json.dumps(second.get(field), sort_keys=True):
            return field
    return ""


def _difference_path(member: PodSource, field: str) -> tuple[tuple, str]:
    """(path to report, words for the message) of a differing fingerprint field."""
    kind, _, index = field.partition("[")
    if index:
        position = int(index.rstrip("]"))
        if kind in member.spec and position < len(as_list(member.spec.get(kind))):
            return (*member.spec_path, kind, position, "resources"), f"{kind}[{position}] resources"
        return member.spec_path, f"{kind}[{position}]"
    return ((*member.spec_path, field) if field in member.spec else member.spec_path), field


@rule(codes.GANG_HETEROGENEOUS_PODS, scope="set")
def heterogeneous_gang(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a gang fed by several pod templates (or pods) that differ in what the scheduler filters on: container
    resources and claims, node selector and affinity, tolerations, pod claims, overhead, runtime class.

    ## Why is this bad?
    The 1.37 group cycle places pods one by one in a fixed order without backtracking; upstream only guarantees
    to find a placement for homogeneous groups. A mixed gang can stay Pending although a placement exists.

    ## Example
        # Job a (4 GPUs per pod) and Job b (1 GPU per pod) both set schedulingGroup: {podGroupName: train}

    ## Fix
    Split the gang into homogeneous PodGroups (a CompositePodGroup can hold them together), or make the templates
    request the same.
    """
    del ctx
    for group in groups(docs):
        if not group.is_gang or len(group.members) < 2:
            continue
        first = group.members[0]
        reference = _fingerprint(first.spec)
        for member in group.members[1:]:
            field = _first_difference(reference, _fingerprint(member.spec))
            if field:
                path, words = _difference_path(member, field)
                yield SetProblem(member.document, path,
                                 f"{member.label} differs from {first.label} in {words}, both in gang {group.label}: "
                                 "placement is only guaranteed for homogeneous gangs",
                                 "make the pods of one gang identical, or split them into separate groups",
                                 related=((first.document, first.spec_path), (group.document, group.path)))


@rule(codes.GANG_INTER_POD_CONSTRAINTS, scope="set")
def gang_inter_pod_constraints(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags gang pods with required inter-pod affinity or anti-affinity, or with topologySpreadConstraints.

    ## Why is this bad?
    The group cycle places members in a fixed order and never backtracks, so constraints between the members can
    make it miss a placement that exists; upstream documents placement as guaranteed only without them.

    ## Example
        affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [...]}}

    ## Fix
    Express co-location with `schedulingConstraints.topology` on the PodGroup instead.
    """
    del ctx
    seen: set[tuple[int, tuple]] = set()
    for group in groups(docs):
        if not group.is_gang:
            continue
        for member in group.members:
            for path in _inter_pod_paths(member):
                if (id(member.document), path) not in seen:
                    seen.add((id(member.document), path))
                    yield SetProblem(member.document, path,
                                     f"{member.label} is in gang {group.label} and uses {path[-1]}: the group cycle does "
                                     "not backtrack, so a placement that exists may be missed",
                                     "use schedulingConstraints.topology on the group instead")


def _inter_pod_paths(member: PodSource) -> Iterator[tuple]:
    affinity = member.spec.get("affinity")
    for field in ("podAffinity", "podAntiAffinity"):
        terms = affinity.get(field) if isinstance(affinity, dict) else None
        if isinstance(terms, dict) and terms.get("requiredDuringSchedulingIgnoredDuringExecution"):
            yield (*member.spec_path, "affinity", field)
    if member.spec.get("topologySpreadConstraints"):
        yield (*member.spec_path, "topologySpreadConstraints")


@rule(codes.GANG_TOPOLOGY_KEY_UNKNOWN, scope="set")
def topology_key_not_on_nodes(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    With `--snapshot`/`--live`: flags a `schedulingConstraints.topology[].key` that no node of the cluster carries
    as a label.

    ## Why is this bad?
    Topology-aware scheduling makes one placement per value of the key among the nodes; with no node labelled there
    is no placement at all and the group never schedules.

    ## Example
        schedulingConstraints: {topology: [{key: example.com/rak}]}     # nodes carry example.com/rack

    ## Fix
    Use a label key the nodes carry (`kubectl get nodes -L KEY`), or label the nodes.
    """
    snapshot = ctx.snapshot
    if snapshot is None or not snapshot.of_kind("Node"):
        return
    known = snapshot.node_index.by_label
    for group in groups(docs):
        for path, key in group.topology_keys():
            if key not in known:
                close = closest_name(key, known, cutoff=0.7)
                yield SetProblem(group.document, path,
                                 f'no node of the cluster carries label "{key}": {group.label} has no placement',
                                 f'did you mean "{close}"?' if close else "use a label key the nodes carry", at="value")


@rule(codes.GANG_SCHEDULER_NAME_MISMATCH, scope="set")
def group_scheduler_name_mismatch(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags pods of one group (any policy) whose `schedulerName` differs from the group's first pod source.

    ## Why is this bad?
    The 1.37 scheduler validates the hierarchy before each cycle ("all pods in a pod group hierarchy should have the
    same .spec.schedulerName set") and fails every pod with `SchedulerError`.

    ## Example
        # Job a: schedulerName: default-scheduler; Job b: schedulerName: volcano; same podGroupName

    ## Fix
    Use one schedulerName for every pod of the group.
    """
    del ctx
    for group in groups(docs):
        if len(group.members) < 2:
            continue
        first = group.members[0]
        wanted = first.spec.get("schedulerName") or DEFAULT_SCHEDULER
        for member in group.members[1:]:
            name = member.spec.get("schedulerName") or DEFAULT_SCHEDULER
            if name != wanted:
                field = "schedulerName" if "schedulerName" in member.spec else "schedulingGroup"
                yield SetProblem(member.document, (*member.spec_path, field),
                                 f'{member.label} uses schedulerName "{name}" but {first.label} uses "{wanted}", both in '
                                 f"{group.label}: the scheduler rejects the whole group",
                                 "use one schedulerName for every pod of the group",
                                 related=((first.document, first.spec_path), (group.document, group.path)))


def _policy_summary(spec: Mapping[str, Any]) -> tuple[str, int | None] | None:
    """("gang", minCount) or ("basic", None) of a schedulingPolicy (1.36+), None when there is none to compare."""
    policy = spec.get("schedulingPolicy")
    if not isinstance(policy, dict):
        return None
    gang = policy.get("gang")
    if isinstance(gang, dict):
        count = gang.get("minCount")
        return "gang", count if isinstance(count, int) and not isinstance(count, bool) else None
    return ("basic", None) if "basic" in policy else None


def _describe_policy(summary: tuple[str, int | None]) -> str:
    return f"gang minCount {summary[1]}" if summary[0] == "gang" else "basic"


def _template(workload: Document, name: str) -> Mapping[str, Any] | None:
    """The pod group template `name` of a Workload: podGroupTemplates, or any level of compositePodGroupTemplates."""
    found: list[Mapping[str, Any]] = []

    def walk(node: Any) -> None:
        for key in ("podGroupTemplates", "compositePodGroupTemplates"):
            for item in as_list(node.get(key)) if isinstance(node, dict) else ():
                if isinstance(item, dict):
                    if item.get("name") == name and key == "podGroupTemplates":
                        found.append(item)
                    walk(item)

    walk(workload.get(("spec",)))
    return found[0] if found else None


@rule(codes.GANG_POLICY_DIFFERS_FROM_TEMPLATE, scope="set")
def policy_differs_from_template(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a PodGroup whose `schedulingPolicy` (basic, or gang with its `minCount`) differs from the Workload pod group
    template it names in `workloadRef` (1.37; `podGroupTemplateRef.workload` in 1.36), when both are in the manifests.

    ## Why is this bad?
    A PodGroup is the runtime copy of its template: workload controllers create it with the template's policy
    (shared/reference/workload-scheduling.md §1.2). A hand-written PodGroup that says minCount 4 under a template
    that says 8 gangs half the pods the Workload promises, and nothing else reports it.

    ## Example
        # Workload train: podGroupTemplates: [{name: workers, schedulingPolicy: {gang: {minCount: 8}}}]
        # PodGroup train-workers: workloadRef: {workloadName: train, templateName: workers}
        #                         schedulingPolicy: {gang: {minCount: 4}}

    ## Fix
    Copy the template's policy into the PodGroup, or change the template.
    """
    del ctx
    from kubectl_wasdra.lint.rules._refs import workload_references

    for ref, _, template_name in workload_references(docs):
        if ref.document.kind != "PodGroup" or not template_name:
            continue
        mine = _policy_summary(as_dict(ref.document.get(("spec",))))
        copies = [d for d in docs.of_kind("Workload") if d.name == ref.name and
                  (ref.namespace is None or d.namespace in (None, ref.namespace))]
        templates = [t for t in (_template(d, template_name) for d in copies) if t is not None]
        theirs = [_policy_summary(t) for t in templates]
        if mine is None or not theirs or any(policy in (None, mine) for policy in theirs):
            continue     # no policy to compare, or a copy of the Workload agrees (copies: REF012/REF013 say so)
        workload = nearest(copies, ref.document)
        template = _template(workload, template_name) if workload is not None else None
        nearest_policy = _policy_summary(template) if template is not None else theirs[0]
        yield _policy_problem(ref.document, ref.name, template_name, mine, nearest_policy or theirs[0])


def _policy_problem(document: Document, workload: str, template: str, mine: tuple[str, int | None],
                    theirs: tuple[str, int | None]) -> SetProblem:
    gang = mine[0] == theirs[0] == "gang"
    path: tuple[str | int, ...] = ("spec", "schedulingPolicy", "gang", "minCount") if gang else ("spec", "schedulingPolicy")
    return SetProblem(document, path,
                      f'{_describe_policy(mine)} of PodGroup "{document.name}" differs from its Workload "{workload}" '
                      f'template "{template}" ({_describe_policy(theirs)})',
                      f"PodGroups copy their template's policy: use {_describe_policy(theirs)} here, or change the "
                      "template", at="value" if gang else "key")
