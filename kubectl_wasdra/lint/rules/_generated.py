"""Objects that a custom resource of the set makes its controller create, so that references to them resolve.

NVIDIA's DRA driver: a ComputeDomain (resource.nvidia.com) names in `spec.channel.resourceClaimTemplate.name` the
ResourceClaimTemplate that its controller generates in the ComputeDomain's namespace; pods of the IMEX demos name that
template in `resourceClaims` without defining it (NVIDIA/k8s-dra-driver-gpu api/nvidia.com/resource/v1beta1/
computedomain.go, ComputeDomainResourceClaimTemplate: "the ResourceClaimTemplate to generate").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._refs import Reference

_COMPUTE_DOMAIN_GROUP: Final = "resource.nvidia.com/"
_TEMPLATE_NAME: Final = ("spec", "channel", "resourceClaimTemplate", "name")


def generated_templates(docs: DocumentSet) -> frozenset[tuple[str, str | None]]:
    """(name, namespace) of every ResourceClaimTemplate a ComputeDomain of the set generates."""
    found: set[tuple[str, str | None]] = set()
    for document in docs:
        if document.kind == "ComputeDomain" and (document.api_version or "").startswith(_COMPUTE_DOMAIN_GROUP):
            name = document.get(_TEMPLATE_NAME)
            if isinstance(name, str) and name:
                found.add((name, document.namespace))
    return frozenset(found)


def without_generated(docs: DocumentSet, references: Iterable[Reference]) -> Iterator[Reference]:
    """The references less those to a generated ResourceClaimTemplate visible from the referring namespace (an
    object without a namespace matches any namespace, as in lint/rules/_objects.py)."""
    generated = generated_templates(docs)
    for ref in references:
        if ref.kind == "ResourceClaimTemplate" and any(
                name == ref.name and (namespace is None or ref.namespace is None or namespace == ref.namespace)
                for name, namespace in generated):
            continue
        yield ref
