"""The references a manifest set makes: claim templates, claims, device classes, pod groups and workloads, each
with the document and field path that names it. Used by the REF rules.

Upstream shapes: kubernetes/kubernetes staging/src/k8s.io/api/core/v1/types.go (PodResourceClaim, PodSchedulingGroup,
1.35 WorkloadReference), resource/v1 and v1beta1 types.go (DeviceRequest), scheduling/v1alpha1..v1beta1 types.go.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._pods import of_kind, pod_sources
from kubectl_wasdra.load import Document, Path

CLAIM_SOURCES = (("resourceClaimTemplateName", "ResourceClaimTemplate"), ("resourceClaimName", "ResourceClaim"))


@dataclass(frozen=True)
class Reference:
    """`document` names object `kind`/`name` at `path` (the value's position is reported)."""

    document: Document
    path: Path
    kind: str
    name: str

    @property
    def namespace(self) -> str | None:
        return self.document.namespace


def _claim_entries(document: Document, path: Path, entries: Any) -> Iterator[Reference]:
    if not isinstance(entries, list):
        return
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        for field, kind in CLAIM_SOURCES:
            name = entry.get(field)
            if isinstance(name, str) and name:
                yield Reference(document, (*path, index, field), kind, name)


def claim_references(docs: DocumentSet) -> Iterator[Reference]:
    """ResourceClaimTemplate and ResourceClaim references of pods (templates included), PodGroups, Workload
    templates and 1.37 Job spec.scheduling."""
    for source in pod_sources(docs):
        yield from _claim_entries(source.document, (*source.spec_path, "resourceClaims"), source.spec.get("resourceClaims"))
    for document in of_kind(docs, "PodGroup"):
        yield from _claim_entries(document, ("spec", "resourceClaims"), document.get(("spec", "resourceClaims")))
    for document in of_kind(docs, "Workload"):
        templates = document.get(("spec", "podGroupTemplates"))
        for index, template in enumerate(templates if isinstance(templates, list) else []):
            if isinstance(template, dict):
                yield from _claim_entries(document, ("spec", "podGroupTemplates", index, "resourceClaims"),
                                          template.get("resourceClaims"))
    for document in of_kind(docs, "Job"):
        yield from _claim_entries(document, ("spec", "scheduling", "resourceClaims"),
                                  document.get(("spec", "scheduling", "resourceClaims")))


def device_requests(document: Document) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """(path, request or subrequest) of a ResourceClaim or ResourceClaimTemplate, whatever resource.k8s.io version:
    v1 `exactly`, v1beta1 fields directly on the request, and `firstAvailable` subrequests."""
    base: Path = ("spec", "devices") if document.kind == "ResourceClaim" else ("spec", "spec", "devices")
    requests = document.get((*base, "requests"))
    for index, request in enumerate(requests if isinstance(requests, list) else []):
        if not isinstance(request, dict):
            continue
        path = (*base, "requests", index)
        exactly = request.get("exactly")
        if isinstance(exactly, dict):
            yield (*path, "exactly"), exactly
        elif "deviceClassName" in request:
            yield path, request
        subrequests = request.get("firstAvailable")
        for sub, subrequest in enumerate(subrequests if isinstance(subrequests, list) else []):
            if isinstance(subrequest, dict):
                yield (*path, "firstAvailable", sub), subrequest


def claim_documents(docs: DocumentSet) -> Iterator[Document]:
    """ResourceClaims and ResourceClaimTemplates of the set."""
    yield from of_kind(docs, "ResourceClaim")
    yield from of_kind(docs, "ResourceClaimTemplate")


def class_references(docs: DocumentSet) -> Iterator[Reference]:
    """deviceClassName of every request and subrequest of every claim and claim template."""
    for document in claim_documents(docs):
        for path, request in device_requests(document):
            name = request.get("deviceClassName")
            if isinstance(name, str) and name:
                yield Reference(document, (*path, "deviceClassName"), "DeviceClass", name)


def group_references(docs: DocumentSet) -> Iterator[Reference]:
    """Pods naming their group: schedulingGroup.podGroupName (1.36+) -> PodGroup, workloadRef.name (1.35) -> Workload."""
    for source in pod_sources(docs):
        if source.group_name:
            yield Reference(source.document, (*source.spec_path, "schedulingGroup", "podGroupName"), "PodGroup",
                            source.group_name)
        workload = source.spec.get("workloadRef")
        name = workload.get("name") if isinstance(workload, dict) else None
        if isinstance(name, str) and name:
            yield Reference(source.document, (*source.spec_path, "workloadRef", "name"), "Workload", name)


# (path of the workload name, path of the template name) per group kind and API shape
_WORKLOAD_REFS = (
    (("spec", "workloadRef", "workloadName"), ("spec", "workloadRef", "templateName")),                      # 1.37
    (("spec", "podGroupTemplateRef", "workload", "workloadName"),
     ("spec", "podGroupTemplateRef", "workload", "podGroupTemplateName")),                                # 1.36
)


def workload_references(docs: DocumentSet) -> Iterator[tuple[Reference, Path | None, str | None]]:
    """(reference to the Workload, path of the template name, template name) of PodGroups and CompositePodGroups,
    and of 1.35 pods (workloadRef.podGroup)."""
    for document in (*of_kind(docs, "PodGroup"), *of_kind(docs, "CompositePodGroup")):
        for name_path, template_path in _WORKLOAD_REFS:
            name, template = document.get(name_path), document.get(template_path)
            if isinstance(name, str) and name:
                yield (Reference(document, name_path, "Workload", name), template_path,
                       template if isinstance(template, str) else None)
    for source in pod_sources(docs):
        workload = source.spec.get("workloadRef")
        if isinstance(workload, dict) and isinstance(workload.get("name"), str) and workload.get("name"):
            template = workload.get("podGroup")
            yield (Reference(source.document, (*source.spec_path, "workloadRef", "name"), "Workload", workload["name"]),
                   (*source.spec_path, "workloadRef", "podGroup"), template if isinstance(template, str) else None)


def template_names(workload: Mapping[str, Any]) -> frozenset[str]:
    """Names of every pod group template of a Workload: 1.35 podGroups, podGroupTemplates, and the
    compositePodGroupTemplates tree (any depth)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("podGroups", "podGroupTemplates", "compositePodGroupTemplates"):
                items = node.get(key)
                for item in items if isinstance(items, list) else []:
                    if isinstance(item, dict):
                        if isinstance(item.get("name"), str):
                            names.add(item["name"])
                        walk(item)

    walk(workload.get("spec"))
    return frozenset(names)

