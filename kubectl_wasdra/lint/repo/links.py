"""What documents define and name, as keys the repository index stores: "Kind/namespace/name" for objects
("DeviceClass//gpu.example.com" for cluster-scoped ones), "ResourcePool//driver/pool" for the pools ResourceSlices
make up.

An empty namespace matches every namespace (`keys_match`): a manifest without `metadata.namespace` is applied with
`kubectl -n`, so a lookup may bring in a file too many (the cross-object rules match namespaces themselves), never
one too few. A reference keeps its field path, so a finding can point at it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, NamedTuple

from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._pods import of_kind, pod_sources
from kubectl_wasdra.lint.rules._refs import claim_references, class_references, group_references, workload_references
from kubectl_wasdra.lint.rules.validation._base import as_dict
from kubectl_wasdra.load import Document, Path


class Link(NamedTuple):
    """`document` names the object with index key `key` at `path`. (A NamedTuple: a dataclass costs start-up time.)"""

    document: Document
    path: Path
    key: str


# kinds referenced across namespaces: their keys carry no namespace
CLUSTER_SCOPED: Final = frozenset({"DeviceClass", "PriorityClass", "Namespace", "ResourceSlice", "DeviceTaintRule",
                                   "Node", "ResourcePool"})


def object_key(kind: str, name: str, namespace: str | None = None) -> str:
    """The index key of an object: "PodGroup/ml/train", "DeviceClass//gpu.example.com"."""
    return f"{kind}/{'' if kind in CLUSTER_SCOPED else namespace or ''}/{name}"


def split_key(key: str) -> tuple[str, str, str]:
    """(kind, namespace, name) of a key; the name may hold `/` (pools)."""
    kind, namespace, name = key.split("/", 2)
    return kind, namespace, name


def keys_match(first: str, second: str) -> bool:
    """Whether two keys may name the same object: same kind and name, namespaces equal or one of them empty."""
    kind, namespace, name = split_key(first)
    other_kind, other_namespace, other_name = split_key(second)
    return (kind, name) == (other_kind, other_name) and (namespace == other_namespace or not namespace
                                                         or not other_namespace)


def definitions(document: Document) -> tuple[str, ...]:
    """The keys `document` defines: its own object, and the pool a ResourceSlice belongs to."""
    keys = [object_key(document.kind, document.name, document.namespace)] if document.kind and document.name else []
    if document.kind == "ResourceSlice":
        spec = as_dict(document.data.get("spec"))
        driver, pool = spec.get("driver"), as_dict(spec.get("pool")).get("name")
        if isinstance(driver, str) and isinstance(pool, str):
            keys.append(object_key("ResourcePool", f"{driver}/{pool}"))
    return tuple(keys)


def references(docs: DocumentSet) -> Iterator[Link]:
    """Every name the documents use that another object defines: claims, claim templates, device classes, pod
    groups, workloads (lint/rules/_refs.py), priority classes, scale targets, the namespace of an admin-access claim."""
    for ref in (*claim_references(docs), *class_references(docs), *group_references(docs)):
        yield Link(ref.document, ref.path, object_key(ref.kind, ref.name, ref.namespace))
    for ref, _, _ in workload_references(docs):
        yield Link(ref.document, ref.path, object_key(ref.kind, ref.name, ref.namespace))
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
            yield Link(document, ("spec", "scaleTargetRef", "name"),
                       object_key(target["kind"], target["name"], document.namespace))
    for document in (*of_kind(docs, "ResourceClaim"), *of_kind(docs, "ResourceClaimTemplate")):
        if document.namespace:
            yield Link(document, ("metadata", "namespace"), object_key("Namespace", document.namespace))


def reference_keys(documents: tuple[Document, ...]) -> tuple[str, ...]:
    """The distinct keys `documents` reference, in first-use order."""
    return tuple(dict.fromkeys(link.key for link in references(DocumentSet(documents))))
