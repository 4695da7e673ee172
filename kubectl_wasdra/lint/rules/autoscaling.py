"""HorizontalPodAutoscaler rules that the GATE family does not cover (GATE001 already reports `minReplicas: 0`
without HPAScaleToZero and the tolerance fields without HPAConfigurableTolerance), and HPA scale targets.

Upstream: kubernetes/kubernetes pkg/apis/autoscaling/validation/validation.go (validateMetrics: minReplicas 0 needs an
Object or External metric); autoscaling/v1 has only targetCPUUtilizationPercentage, a Resource metric.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import Problem, SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._objects import Found, object_index
from kubectl_wasdra.lint.rules._pods import of_kind
from kubectl_wasdra.load import Document

HPA: Final = "HorizontalPodAutoscaler"
ZERO_METRICS: Final = frozenset({"Object", "External"})
# kube-apiserver's text (validation.go validateMetrics)
ZERO_MESSAGE: Final = "must specify at least one Object or External metric to support scaling to zero replicas"


@rule(codes.VALID_SCALE_TO_ZERO_METRICS)
def scale_to_zero_without_object_metrics(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags a HorizontalPodAutoscaler with `minReplicas: 0` whose metrics include no `Object` or `External` metric
    (autoscaling/v1 can only express a CPU target, so `minReplicas: 0` is always rejected there). Whether the
    release allows 0 at all (HPAScaleToZero) is GATE001's job.

    ## Why is this bad?
    kube-apiserver rejects the object: "must specify at least one Object or External metric to support scaling to
    zero replicas". Resource and Pods metrics need running pods to measure, so they could never scale up from zero.

    ## Example
        spec: {minReplicas: 0, metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization,
               averageUtilization: 80}}}]}

    ## Fix
    Add an Object or External metric (e.g. queue length) or set `minReplicas` to 1 or more.
    """
    del ctx
    if doc.kind != HPA or doc.get(("spec", "minReplicas")) != 0 or isinstance(doc.get(("spec", "minReplicas")), bool):
        return
    metrics = doc.get(("spec", "metrics"))
    if isinstance(metrics, list) and any(isinstance(m, dict) and str(m.get("type")) in ZERO_METRICS for m in metrics):
        return
    path = ("spec", "metrics") if isinstance(metrics, list) else ("spec", "minReplicas")
    yield Problem(path, f"minReplicas is 0: {ZERO_MESSAGE}",
                  "add an Object or External metric, or set minReplicas to 1", at="key" if path[-1] == "metrics" else "value")


@rule(codes.REF_SCALE_TARGET_NOT_FOUND, scope="set")
def scale_target_not_found(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags an HPA whose `scaleTargetRef` (kind and name) names no object of the manifests. The cluster snapshot does
    not hold Deployments and the like, so this stays a warning.

    ## Why is this bad?
    The HPA controller reports `FailedGetScale` and never scales anything; a renamed Deployment leaves its HPA behind.

    ## Example
        scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web-frontend}     # the Deployment is "frontend"

    ## Fix
    Point `scaleTargetRef` at the workload's exact kind and name.
    """
    index = object_index(docs, ctx)
    for document in of_kind(docs, HPA):
        target = document.get(("spec", "scaleTargetRef"))
        if not isinstance(target, dict):
            continue
        kind, name = target.get("kind"), target.get("name")
        if not isinstance(kind, str) or not isinstance(name, str) or not kind or not name:
            continue
        if index.find(kind, name, document.namespace) in (Found.MANIFESTS, Found.CLUSTER):
            continue
        yield SetProblem(document, ("spec", "scaleTargetRef", "name"),
                         f'scale target {kind} "{name}" is not defined in the manifests',
                         "fix scaleTargetRef, or check that the target exists in the cluster", at="value")
