"""VALID016: `adminAccess: true` in a ResourceClaim(Template) is forbidden unless its namespace carries the
admin-access label; judged when the Namespace object is in the manifests or the snapshot.

Upstream: kubernetes/kubernetes pkg/registry/resource/utils.go (authorizedForAdmin, called from the resourceclaim and
resourceclaimtemplate strategies): `admin access to devices requires the `<key>: true` label on the containing
namespace`; k8s.io/api resource/v1 types.go DRAAdminNamespaceLabelKey (1.34+ "resource.kubernetes.io/admin-access",
1.33 "resource.k8s.io/admin-access"). KEP-5018.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._gated import api_unavailable
from kubectl_wasdra.lint.rules.validation._base import FLAT_VERSIONS, as_dict, as_list
from kubectl_wasdra.load import Document

LABEL_KEY: Final = "resource.kubernetes.io/admin-access"
LABEL_KEY_133: Final = "resource.k8s.io/admin-access"
GATE: Final = "DRAAdminAccess"


def label_key(release: Release) -> str:
    """The namespace label that allows admin access in `release`."""
    return LABEL_KEY_133 if release < Release(1, 34) else LABEL_KEY


def _admin_requests(document: Document) -> Iterator[tuple[str | int, ...]]:
    """Paths of `adminAccess: true` in the requests of a claim or template (v1beta1: on the request itself)."""
    spec = as_dict(document.data.get("spec"))
    base: tuple[str | int, ...] = ("spec", "devices")
    if document.kind == "ResourceClaimTemplate":
        spec, base = as_dict(spec.get("spec")), ("spec", "spec", "devices")
    for index, request in enumerate(as_list(as_dict(spec.get("devices")).get("requests"))):
        request = as_dict(request)
        if document.version in FLAT_VERSIONS:
            if request.get("adminAccess") is True:
                yield (*base, "requests", index, "adminAccess")
        elif as_dict(request.get("exactly")).get("adminAccess") is True:
            yield (*base, "requests", index, "exactly", "adminAccess")


def _namespace(docs: DocumentSet, ctx: CheckContext, name: str) -> Mapping[str, Any] | None:
    for document in docs.of_kind("Namespace"):
        if document.group == "" and document.name == name:
            return document.data
    return ctx.snapshot.get("Namespace", name, "") if ctx.snapshot is not None else None


@rule(codes.VALID_ADMIN_ACCESS_NAMESPACE, scope="set")
def admin_access_namespace_not_labelled(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags `adminAccess: true` in a ResourceClaim or ResourceClaimTemplate whose namespace is in the manifests or
    the snapshot (`--snapshot`/`--live`) without the label `resource.kubernetes.io/admin-access: "true"`
    (`resource.k8s.io/admin-access` in 1.33). Quiet when DRAAdminAccess is off (GATE001 reports the field) or when
    the namespace object is not available.

    ## Why is this bad?
    kube-apiserver forbids admin access outside labelled namespaces ("admin access to devices requires the ... label
    on the containing namespace"): the claim or template is rejected on create.

    ## Example
        kind: Namespace
        metadata: {name: monitoring}
        ---
        kind: ResourceClaimTemplate
        metadata: {name: gpu-monitor, namespace: monitoring}
        spec: {spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu, adminAccess: true}}]}}}

    ## Fix
    Have a cluster administrator label the namespace (`kubectl label namespace monitoring
    resource.kubernetes.io/admin-access=true`), or drop `adminAccess`.

    ## References
    kubernetes/kubernetes pkg/registry/resource/utils.go (authorizedForAdmin); KEP-5018
    """
    if ctx.gate_enabled(GATE) is False:
        return                                     # the field is dropped on create: GATE001 says so
    key = label_key(ctx.release)
    for kind in ("ResourceClaim", "ResourceClaimTemplate"):
        for document in docs.of_kind(kind):
            if document.group != "resource.k8s.io" or not document.namespace or api_unavailable(document, ctx):
                continue
            namespace = _namespace(docs, ctx, document.namespace)
            if namespace is None:
                continue
            value = as_dict(as_dict(namespace.get("metadata")).get("labels")).get(key)
            if value == "true":
                continue
            found = "no such label" if value is None else f'the label is "{value}"'
            for path in _admin_requests(document):
                yield SetProblem(document, path,
                                 f'admin access to devices requires the "{key}: true" label on namespace '
                                 f'"{document.namespace}" ({found}): kube-apiserver rejects the {kind}',
                                 f'label the namespace ("kubectl label namespace {document.namespace} {key}=true", needs '
                                 "cluster-admin rights) or remove adminAccess")
