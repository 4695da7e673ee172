"""What documents define and name, as keys the repository index stores: "Kind/name" for objects, "ResourcePool/driver/pool"
for the pools ResourceSlices make up.

Keys leave the namespace out on purpose: an index lookup may bring in a file too many (the cross-object rules match
namespaces themselves), never one too few. A reference keeps its field path, so a finding can point at it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._pods import of_kind, pod_sources
from kubectl_wasdra.lint.rules._refs import claim_references, class_references, group_references, workload_references
from kubectl_wasdra.lint.rules.validation._base import as_dict
from kubectl_wasdra.load import Document, Path


@dataclass(frozen=True)
class Link:
    """`document` names the object with index key `key` at `path`."""

    document: Document
    path: Path
    key: str


def object_key(kind: str, name: str) -> str:
    """The index key of an object: "PodGroup/train"."""
    return f"{kind}/{name}"


def definitions(document: Document) -> tuple[str, ...]:
    """The keys `document` defines: its own object, and the pool a ResourceSlice belongs to."""
    keys = [object_key(document.kind, document.name)] if document.kind and document.name else []
    if document.kind == "ResourceSlice":
        spec = as_dict(document.data.get("spec"))
        driver, pool = spec.get("driver"), as_dict(spec.get("pool")).get("name")
        if isinstance(driver, str) and isinstance(pool, str):
            keys.append(f"ResourcePool/{driver}/{pool}")
    return tuple(keys)


def references(docs: DocumentSet) -> Iterator[Link]:
    """Every name the documents use that another object defines: claims, claim templates, device classes, pod
    groups, workloads (lint/rules/_refs.py), priority classes, scale targets, the namespace of an admin-access claim."""
    for ref in (*claim_references(docs), *class_references(docs), *group_references(docs)):
        yield Link(ref.document, ref.path, object_key(ref.kind, ref.name))
    for ref, _, _ in workload_references(docs):
        yield Link(ref.document, ref.path, object_key(ref.kind, ref.name))
    yield from _other_references(docs)


def _other_references(docs: DocumentSet) -> Iterator[Link]:
    for source in pod_sources(docs):
        name = source.spec.get("priorityClassName")
        if isinstance(name, str) and name:
            yield Link(source.document, (*source.spec_path, "priorityClassName"), object_key("PriorityClass", name))
    for document in of_kind(docs, "PodGroup"):
        name = document.get(("spec", "priorityClassName"))
        if isinstance(name, str) and name:
            yield Link(document, ("spec", "priorityClassName"), object_key("PriorityClass", name))
    for document in of_kind(docs, "HorizontalPodAutoscaler"):
        target = as_dict(document.get(("spec", "scaleTargetRef")))
        if isinstance(target.get("kind"), str) and isinstance(target.get("name"), str):
            yield Link(document, ("spec", "scaleTargetRef", "name"), object_key(target["kind"], target["name"]))
    for document in (*of_kind(docs, "ResourceClaim"), *of_kind(docs, "ResourceClaimTemplate")):
        if document.namespace:
            yield Link(document, ("metadata", "namespace"), object_key("Namespace", document.namespace))


def reference_keys(documents: tuple[Document, ...]) -> tuple[str, ...]:
    """The distinct keys `documents` reference, in first-use order."""
    return tuple(dict.fromkeys(link.key for link in references(DocumentSet(documents))))
