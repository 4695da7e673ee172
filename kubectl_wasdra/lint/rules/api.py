"""API rules: is the object's apiVersion/kind served by the target release, enabled, and not deprecated?

Upstream: kubernetes/kubernetes pkg/controlplane/apiserver/options (--runtime-config), k8s.io/api
zz_generated.prerelease-lifecycle.go (introduced/deprecated/removed), KEP-3136 (new beta APIs off by default).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.problem import Problem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.load import Document

if TYPE_CHECKING:
    from kubectl_wasdra.catalog.apis import ApiStatus


def _status(doc: Document, ctx: CheckContext) -> ApiStatus | None:
    """The document's API status, shared by the three API rules and by every document of its apiVersion/kind."""
    if not doc.api_version or not doc.kind:
        return None
    return _kind_status(doc.api_version, doc.kind, ctx)


@functools.lru_cache(maxsize=256)
def _kind_status(api_version: str, kind: str, ctx: CheckContext) -> ApiStatus:
    from kubectl_wasdra.catalog.apis import api_status

    return api_status(ctx.release, api_version, kind, ctx.runtime_config, ctx.gate_enabled)


@rule(codes.API_NOT_SERVED)
def api_not_served(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags an object whose apiVersion/kind the target release (`--k8s-version`) does not serve at all, and says in
    which releases it is served and which apiVersion to use instead. Built-in APIs removed since 1.16
    (`extensions/v1beta1`, `policy/v1beta1`, `batch/v1beta1` ...) name the release that removed them and the successor
    the target release serves (rules/api-lifecycle.yaml, from the k8s.io/api prerelease-lifecycle markers).
    ## Why is this bad?
    kube-apiserver answers `no matches for kind "PodGroup" in version "scheduling.k8s.io/v1alpha2"`; nothing is created.
    ## Example
        apiVersion: scheduling.k8s.io/v1alpha1   # checked for 1.37
        kind: Workload
        ---
        apiVersion: extensions/v1beta1           # removed in 1.22: use networking.k8s.io/v1
        kind: Ingress
    ## Fix
    Use the apiVersion the target release serves (the message names it), or check against the release you run.
    """
    status = _status(doc, ctx)
    if status is not None and status.known_group and not status.served:
        yield Problem(("apiVersion",), status.not_served_message(), status.instead_hint(), at="value")


@rule(codes.API_NOT_ENABLED)
def api_not_enabled(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags an object whose apiVersion the release serves only when it is switched on: an alpha or (since 1.24) new
    beta version needs `--runtime-config group/version=true` on kube-apiserver, and some also feature gates. Pass the
    cluster's settings with `--runtime-config` and `--feature-gates`.
    ## Why is this bad?
    With the version off, kube-apiserver does not serve it: `kubectl apply` fails with "no matches for kind".
    ## Example
        apiVersion: scheduling.k8s.io/v1beta1     # 1.37 without scheduling.k8s.io/v1beta1=true
        kind: PodGroup
    ## Fix
    Enable the version on the cluster and say so with `--runtime-config group/version=true` (plus the gates it needs),
    or use a version that is on by default.
    """
    status = _status(doc, ctx)
    if status is not None and status.served and not status.enabled:
        yield Problem(("apiVersion",), status.not_enabled_message(), status.enable_hint(), at="value")


@rule(codes.API_DEPRECATED)
def api_deprecated(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Warns about an apiVersion that is deprecated in the target release (it is still served, and slated for removal).
    Deprecation is per kind: a kind added to a version later is deprecated later (resource.k8s.io/v1beta2
    DeviceTaintRule, introduced in 1.36, is not deprecated in 1.36/1.37 while the other v1beta2 kinds are).
    ## Why is this bad?
    kube-apiserver answers with a deprecation warning; after the removal release the manifests stop applying.
    ## Example
        apiVersion: resource.k8s.io/v1beta1      # deprecated in 1.35, removed in 1.38
        kind: ResourceClaim
    ## Fix
    Move to the newer apiVersion named in the message.
    """
    status = _status(doc, ctx)
    if status is not None and status.served and status.deprecated:
        yield Problem(("apiVersion",), status.deprecated_message(), status.instead_hint(), at="value")
