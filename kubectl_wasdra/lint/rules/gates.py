"""GATE rules: fields the target release drops, ignores or rejects because their feature gate is off.

Upstream: kubernetes/api `+featureGate=` markers (staging/src/k8s.io/api/*/types.go) and the registry strategies'
dropDisabledFields (kubernetes/kubernetes pkg/registry/*/strategy.go, pkg/api/pod/util.go), release-1.33 .. release-1.37.
"""

from __future__ import annotations

from collections.abc import Iterator

from kubectl_wasdra.lint import codes, profiles
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.problem import Problem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._gated import (
    GatedField,
    components_text,
    disabled_message,
    document_gated_fields,
    enable_hint,
    stage_text,
)
from kubectl_wasdra.load import Document


@rule(codes.GATE_FIELD_OFF)
def gated_field_off(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags a field whose feature gate is off for `--k8s-version` with `--feature-gates`, naming the gate, its
    stage and default in that release, the components that read it, and what happens to the field.

    ## Why is this bad?
    kube-apiserver drops a disabled field on create (or the scheduler ignores it, or validation rejects the object):
    the manifest applies cleanly and the gang policy, topology constraint or capacity request is simply gone.

    ## Example
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        spec:
          schedulingPolicy: {gang: {minCount: 4}}
          schedulingConstraints: {topology: [{key: example.com/rack}]}   # TopologyAwareWorkloadScheduling is alpha, off

    ## Fix
    Enable the gate on every component listed (and pass it to `--feature-gates`), or remove the field:
        kubectl wasdra check train.yaml --feature-gates GenericWorkload=true,TopologyAwareWorkloadScheduling=true

    ## References
    kubernetes/api staging/src/k8s.io/api/*/types.go `+featureGate` markers; pkg/api/pod/util.go dropDisabledFields
    """
    if not profiles.is_active(codes.GATE_FIELD_OFF, ctx.profile):
        return
    for hit in document_gated_fields(doc, ctx):
        if not hit.enabled:
            yield Problem(hit.path, disabled_message(hit, ctx.release), enable_hint(hit))


@rule(codes.GATE_FIELD_ALPHA)
def gated_field_alpha(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Under `--profile production`, flags a field whose feature gate is alpha in the target release, even when the
    gate is enabled.

    ## Why is this bad?
    Alpha features may change incompatibly or disappear in the next minor (GangScheduling was merged into
    GenericWorkload in 1.37), have no upgrade guarantees and are off on managed clusters.

    ## Example
        kind: PodGroup
        spec: {preemptionPolicy: Never}      # PodGroupPreemptionPolicy is alpha in 1.37

    ## Fix
    Remove the field for production clusters, or check with `--profile default` on clusters that opted in.

    ## References
    https://kubernetes.io/docs/reference/command-line-tools-reference/feature-gates/ (feature stages)
    """
    if not profiles.is_active(codes.GATE_FIELD_ALPHA, ctx.profile):
        return
    for hit in document_gated_fields(doc, ctx):
        if hit.enabled and hit.info is not None and hit.info.stage == "alpha":
            yield Problem(hit.path, _describe(hit, ctx, "needs alpha feature gate"),
                          "production clusters should not rely on alpha features: remove the field")


@rule(codes.GATE_FIELD_BETA_OFF)
def gated_field_beta_off(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Under `--profile production`, flags a field whose feature gate is beta but off by default in the target release.

    ## Why is this bad?
    A beta gate that is off by default must be switched on explicitly on every component; clusters built with
    defaults (and most managed offerings) drop the field.

    ## Example
        kind: PodGroup
        spec: {resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabric}]}   # DRAWorkloadResourceClaims

    ## Fix
    Confirm the gate is on in every target cluster, or remove the field.

    ## References
    kubernetes/kubernetes pkg/features/kube_features.go (versioned feature specs)
    """
    if not profiles.is_active(codes.GATE_FIELD_BETA_OFF, ctx.profile):
        return
    for hit in document_gated_fields(doc, ctx):
        if hit.enabled and hit.info is not None and hit.info.stage == "beta" and not hit.info.default:
            yield Problem(hit.path, _describe(hit, ctx, "needs feature gate"),
                          f"make sure {hit.gate} is on in every target cluster, or remove the field")


@rule(codes.GATE_FIELD_PRERELEASE)
def gated_field_prerelease(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Under `--profile experimental` (every gate assumed on), reports the stage of each field that needs an alpha or
    beta feature gate, for information.

    ## Why is this bad?
    It is not: it lists what a manifest depends on so that the gates can be planned for each cluster.

    ## Example
        kind: ResourceClaim
        spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu, capacity: {requests: {memory: 8Gi}}}}]}}

    ## Fix
    Nothing to fix; enable the listed gates where the manifest is applied.

    ## References
    kubernetes/kubernetes pkg/features/kube_features.go
    """
    if not profiles.is_active(codes.GATE_FIELD_PRERELEASE, ctx.profile):
        return
    for hit in document_gated_fields(doc, ctx):
        if hit.info is not None and hit.info.is_prerelease:
            yield Problem(hit.path, _describe(hit, ctx, "uses feature gate"), f"enable {hit.gate} where this manifest is applied")


def _describe(hit: GatedField, ctx: CheckContext, verb: str) -> str:
    return f"{verb} {hit.gate} ({stage_text(hit.info, ctx.release)}; {components_text(hit.info)})"
