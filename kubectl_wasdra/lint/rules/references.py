"""REF rules: references between the objects of a manifest set (and the cluster snapshot when one is given).

Without a snapshot a name missing from the manifests may still exist in the cluster, so those rules warn; with
`--snapshot`/`--live` a name that is in neither is REF010, an error. Pods inside controller templates count as pods.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kubectl_wasdra.catalog.spelling import closest_name, did_you_mean
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._generated import without_generated
from kubectl_wasdra.lint.rules._objects import Found, ObjectIndex, object_index
from kubectl_wasdra.lint.rules._pods import containers, pod_claims, pod_sources
from kubectl_wasdra.lint.rules._priority import differ, resolve_priority
from kubectl_wasdra.lint.rules._refs import (
    CLAIM_SOURCES,
    Reference,
    claim_references,
    class_references,
    group_references,
    template_names,
    workload_references,
)
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list


def _missing_message(ref: Reference, found: Found) -> str:
    scope = f' in namespace "{ref.namespace}"' if ref.namespace and ref.kind != "DeviceClass" else ""
    if found is Found.NOWHERE:
        return f'{ref.kind} "{ref.name}"{scope} is defined neither in the manifests nor in the cluster snapshot'
    return f'{ref.kind} "{ref.name}"{scope} is not defined in the manifests'


def _missing_hint(ref: Reference, found: Found, index: ObjectIndex) -> str:
    close = closest_name(ref.name, index.names(ref.kind, ref.namespace))
    if close is not None:
        where = "defined in the manifests" if index.in_manifests(ref.kind, close, ref.namespace) else "in the cluster snapshot"
        return f'did you mean "{close}" ({where})?'
    if found is Found.NOWHERE:
        return f'create {ref.kind} "{ref.name}" (or fix the name)'
    return f'add the {ref.kind} to the manifests, check it exists in the cluster (--snapshot/--live), or fix the name'


def _check(docs: DocumentSet, ctx: CheckContext, references: Iterable[Reference], kinds: tuple[str, ...],
           wanted: Found) -> Iterator[SetProblem]:
    index = object_index(docs, ctx)
    hints: dict[tuple[str, str, str | None], str] = {}  # many references often name the same missing object
    for ref in references:
        if ref.kind in kinds and index.find(ref.kind, ref.name, ref.namespace) is wanted:
            key = (ref.kind, ref.name, ref.namespace)
            if key not in hints:
                hints[key] = _missing_hint(ref, wanted, index)
            yield SetProblem(ref.document, ref.path, _missing_message(ref, wanted), hints[key], at="value")


@rule(codes.REF_CLAIM_TEMPLATE_NOT_FOUND, scope="set")
def claim_template_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a `resourceClaimTemplateName` (in a pod, a pod template, a PodGroup, a Workload template or a Job's
    `spec.scheduling`) that names no ResourceClaimTemplate of the manifests. Without a snapshot the template may
    still exist in the cluster, hence a warning; with `--snapshot`/`--live` REF010 takes over. A template that a
    ComputeDomain of the set makes NVIDIA's DRA driver generate (`spec.channel.resourceClaimTemplate.name`) counts as
    defined.

    ## Why is this bad?
    The ResourceClaim controller cannot create the claim, so the pod stays Pending with
    `ClaimTemplateNotFound`-style events and nothing tells the author at apply time.

    ## Example
        resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu-tempalte}]

    ## Fix
    Fix the name (the hint suggests the closest template name in the manifests or the snapshot), add the
    ResourceClaimTemplate to the manifests, or check against the cluster with `--snapshot`.
    """
    references = without_generated(docs, claim_references(docs))  # a ComputeDomain's template is the manifests'
    yield from _check(docs, ctx, references, ("ResourceClaimTemplate",), Found.UNCHECKED)


@rule(codes.REF_CLAIM_NOT_FOUND, scope="set")
def claim_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a `resourceClaimName` that names no ResourceClaim of the manifests (warning: it may exist in the cluster).

    ## Why is this bad?
    kube-scheduler keeps the pod Pending until the claim exists (`ClaimNotFound`).

    ## Example
        resourceClaims: [{name: gpu, resourceClaimName: shared-gpu}]     # no ResourceClaim shared-gpu

    ## Fix
    Fix the name or add the ResourceClaim; check against the cluster with `--snapshot`.
    """
    yield from _check(docs, ctx, claim_references(docs), ("ResourceClaim",), Found.UNCHECKED)


@rule(codes.REF_DEVICE_CLASS_NOT_FOUND, scope="set")
def device_class_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a request's (or subrequest's) `deviceClassName` that names no DeviceClass of the manifests. DeviceClasses
    usually come with the driver's installation, so this is a warning; with a snapshot REF010 reports real misses.

    ## Why is this bad?
    The allocator fails the claim with `DeviceClassNotFound`; the pod stays Pending.

    ## Example
        exactly: {deviceClassName: gpu.exmaple.com}

    ## Fix
    Use the class name the driver installs (`kubectl get deviceclasses`; the hint suggests the closest class name in
    the manifests or the snapshot), or add the DeviceClass.
    """
    yield from _check(docs, ctx, class_references(docs), ("DeviceClass",), Found.UNCHECKED)


@rule(codes.REF_POD_GROUP_NOT_FOUND, scope="set")
def pod_group_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a pod (or pod template) whose `schedulingGroup.podGroupName` names no PodGroup of the manifests, or
    whose 1.35 `workloadRef.name` names no Workload (warning: the controller may create them).

    ## Why is this bad?
    The scheduler holds the pod back ("waiting for pod's pod group to appear in scheduling queue") until the
    group exists; with a typo it waits forever without an event.

    ## Example
        schedulingGroup: {podGroupName: trian}

    ## Fix
    Fix the name or add the PodGroup (Workload for 1.35) to the manifests.
    """
    yield from _check(docs, ctx, group_references(docs), ("PodGroup", "Workload"), Found.UNCHECKED)


@rule(codes.REF_WORKLOAD_NOT_FOUND, scope="set")
def workload_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a PodGroup or CompositePodGroup whose `workloadRef.workloadName` (1.36: `podGroupTemplateRef.workload`)
    names no Workload of the manifests (warning: it may exist in the cluster).

    ## Why is this bad?
    The group points at templates that do not exist; controllers and tools that follow the reference find nothing.

    ## Example
        workloadRef: {workloadName: llm-trian, templateName: workers}

    ## Fix
    Fix the name or add the Workload.
    """
    references = (ref for ref, _, _ in workload_references(docs) if ref.document.kind != "Pod" and
                  ref.path[-1] == "workloadName")
    yield from _check(docs, ctx, references, ("Workload",), Found.UNCHECKED)


@rule(codes.REF_POD_GROUP_TEMPLATE_NOT_FOUND, scope="set")
def pod_group_template_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a `workloadRef.templateName` (1.36: `podGroupTemplateName`; 1.35 pods: `workloadRef.podGroup`) that the
    referenced Workload (from the manifests or the snapshot) does not define.

    ## Why is this bad?
    The group is tied to a template that does not exist: the 1.35 scheduler reports the pod group as missing, and
    controllers that reconcile groups from templates never create or update it.

    ## Example
        workloadRef: {workloadName: llm-train, templateName: worker}     # the Workload has "workers"

    ## Fix
    Use one of the Workload's `podGroupTemplates[].name`.
    """
    index = object_index(docs, ctx)
    for ref, template_path, template in workload_references(docs):
        workload = index.get("Workload", ref.name, ref.namespace, near=ref.document)
        if workload is None or template is None or template_path is None:
            continue
        names = template_names(workload)
        if template not in names:
            known = ", ".join(f'"{n}"' for n in sorted(names)) or "none"
            yield SetProblem(ref.document, template_path,
                             f'Workload "{ref.name}" has no pod group template "{template}" (it has {known})',
                             did_you_mean(template, names) or "use one of the Workload's template names", at="value")


@rule(codes.REF_UNUSED_POD_CLAIM, scope="set")
def unused_pod_claim(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags an entry of a pod's `spec.resourceClaims` that no container, init container or pod-level
    `resources.claims` names.

    ## Why is this bad?
    The claim is still allocated and reserved for the pod, so its devices are held, but no container gets access
    to them: often a forgotten `resources.claims` entry. It is right for devices a driver attaches to the pod as a
    whole (network interfaces, e.g. dranet), hence only information.

    ## Example
        resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]
        containers: [{name: c, image: x}]                 # no resources.claims: [{name: gpu}]

    ## Fix
    Add `resources: {claims: [{name: gpu}]}` to the containers that use the devices, or drop the claim.
    """
    del ctx
    for source in pod_sources(docs):
        lists = [as_dict(c.get("resources")).get("claims") for _, _, c in containers(source.spec)]
        lists.append(as_dict(source.spec.get("resources")).get("claims"))
        used = {str(claim.get("name")) for claims in lists for claim in as_list(claims) if isinstance(claim, dict)}
        for index, entry in pod_claims(source.spec):
            name = entry.get("name")
            if isinstance(name, str) and name not in used:
                yield SetProblem(source.document, (*source.spec_path, "resourceClaims", index, "name"),
                                 f'pod claim "{name}" is not used by any container of {source.label}',
                                 f'add resources.claims: [{{name: {name}}}] to the container that needs it, or remove it',
                                 at="value")


def _source_of(entry: dict) -> tuple[str | None, str | None]:
    return tuple(entry.get(field) for field, _ in CLAIM_SOURCES)  # type: ignore[return-value]


def _claim_mismatch(pod_entry: dict, group_claims: list) -> str | None:
    name, source = pod_entry.get("name"), _source_of(pod_entry)
    for group_entry in group_claims:
        if not isinstance(group_entry, dict):
            continue
        same_name, same_source = group_entry.get("name") == name, _source_of(group_entry) == source
        if same_name and not same_source:
            return (f'claim "{name}" differs from the PodGroup claim of the same name in its source: it becomes a '
                    "per-pod claim instead of the group's shared claim")
        if same_source and not same_name:
            return (f'claim "{name}" uses the same source as PodGroup claim "{group_entry.get("name")}" under another '
                    "name: it becomes a per-pod claim instead of the group's shared claim")
    return None


@rule(codes.REF_GROUP_CLAIM_MISMATCH, scope="set")
def group_claim_mismatch(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a pod claim of a grouped pod that has the same name as a claim of its PodGroup but another source, or the
    same `resourceClaimName`/`resourceClaimTemplateName` under another name.

    ## Why is this bad?
    Only a pod claim equal to the group claim in name and source is the group's shared claim
    (DRAWorkloadResourceClaims). Anything else silently becomes a per-pod claim: each pod gets its own devices, and
    a rack-wide fabric claim turns into N separate ones.

    ## Example
        # PodGroup: resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabric}]
        resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabrik}]

    ## Fix
    Copy the PodGroup's claim entry into the pod spec unchanged.
    """
    index = object_index(docs, ctx)
    for source in pod_sources(docs):
        if not source.group_name:
            continue
        candidates = [as_dict(group.get("spec")).get("resourceClaims") for group in
                      index.candidates("PodGroup", source.group_name, source.namespace, near=source.document)]
        candidates = [claims for claims in candidates if isinstance(claims, list) and claims]
        if not candidates:
            continue
        for position, entry in pod_claims(source.spec):
            messages = [_claim_mismatch(dict(entry), claims) for claims in candidates]
            message = messages[0] if all(messages) else None
            if message:
                yield SetProblem(source.document, (*source.spec_path, "resourceClaims", position, "name"), message,
                                 "use exactly the PodGroup's name and resourceClaimName/resourceClaimTemplateName",
                                 at="value")


@rule(codes.REF_GROUP_PRIORITY_MISMATCH, scope="set")
def group_priority_mismatch(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags a grouped pod whose priority (explicit `priority`, else `priorityClassName`, else the global default
    class) differs from its PodGroup's, resolving PriorityClasses from the manifests and the snapshot.

    ## Why is this bad?
    The 1.37 scheduler validates the whole hierarchy before each group cycle: "all pods in a pod group hierarchy
    should have the same priority as the root pod group's priority". On a mismatch every pod of the group gets
    `SchedulerError` and none is scheduled.

    ## Example
        # PodGroup train: priorityClassName: training-high
        priorityClassName: training-low

    ## Fix
    Give the pods (or their template) the PodGroup's priorityClassName.
    """
    index = object_index(docs, ctx)
    for source in pod_sources(docs):
        if not source.group_name:
            continue
        pod_priority = resolve_priority(source.spec, index)
        priorities = [resolve_priority(group["spec"], index) for group in
                      index.candidates("PodGroup", source.group_name, source.namespace, near=source.document)
                      if isinstance(group.get("spec"), dict)]
        if not priorities or not all(differ(pod_priority, other) for other in priorities):
            continue
        group_priority = priorities[0]
        field = "priorityClassName" if "priorityClassName" in source.spec else "schedulingGroup"
        yield SetProblem(source.document, (*source.spec_path, field),
                         f'{source.label} has priority {pod_priority.text()} but PodGroup "{source.group_name}" has '
                         f"{group_priority.text()}: the scheduler rejects the whole group",
                         "use the same priorityClassName on the pods and the PodGroup")


@rule(codes.REF_NOT_IN_CLUSTER, scope="set")
def reference_not_in_cluster(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    With `--snapshot`/`--live`: flags a referenced ResourceClaimTemplate, ResourceClaim, DeviceClass, PodGroup or
    Workload that exists neither in the manifests nor in the cluster. Kinds the snapshot could not read are left
    to the warnings REF001-REF005.

    ## Why is this bad?
    Applied to that cluster, the pods stay Pending (`ClaimTemplateNotFound`, `ClaimNotFound`,
    `DeviceClassNotFound`, or waiting for the group to appear).

    ## Example
        exactly: {deviceClassName: gpu.example.com}       # the cluster has only gpu.nvidia.com

    ## Fix
    Create the object, add it to the manifests, or fix the name.
    """
    if ctx.snapshot is None:
        return
    kinds = ("ResourceClaimTemplate", "ResourceClaim", "DeviceClass", "PodGroup", "Workload")
    workloads = (ref for ref, _, _ in workload_references(docs) if ref.document.kind != "Pod")
    claims = without_generated(docs, claim_references(docs))
    for references in (claims, class_references(docs), group_references(docs), workloads):
        yield from _check(docs, ctx, references, kinds, Found.NOWHERE)
