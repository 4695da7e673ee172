"""VALID rules for values kube-apiserver rejects as Invalid (VALID017), and for values it accepts whose meaning is
probably not the one intended (VALID018, a warning that says the object is accepted).

The per-kind validators yield the Violations (Check.INVALID_VALUE, Check.UNINTENDED); see rules.py.
Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceToleration),
staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/devicetoleration.go (ToleratesTaint) at release-1.37.
"""

from __future__ import annotations

from collections.abc import Iterator

from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.problem import Problem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules.validation._base import Check
from kubectl_wasdra.lint.rules.validation.rules import problems
from kubectl_wasdra.load import Document


@rule(codes.VALID_INVALID_VALUE)
def invalid_field_value(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags values kube-apiserver rejects as Invalid that no narrower VALID rule covers: a device toleration `value`
    with operator `Exists` ("must be empty for operator `Exists`"), and with operator `Equal` a value that is not a
    label value (<= 63 alphanumerics, '-', '_' or '.'); `opaque.parameters` of a DeviceClass or claim config that is
    not a JSON object ("must be a valid JSON object"); from 1.37, pod group templates of one Workload with different
    `priorityClassName` or `priority` ("all priority and priorityClassName values must be identical"); a Job
    with a `podFailurePolicy` whose pods restart `OnFailure` ("only Never is supported").

    ## Why is this bad?
    kube-apiserver rejects the object.

    ## Example
        tolerations: [{key: gpu.example.com/unhealthy, operator: Exists, value: "true"}]

    ## Fix
    Drop the value for `Exists`, or use `operator: Equal` with a valid label value.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceToleration, validateRawExtension),
    pkg/apis/scheduling/validation/validation.go (release-1.37 validateWorkloadPriority),
    pkg/apis/batch/validation/validation.go (validateJobSpec)
    """
    yield from problems(doc, ctx, Check.INVALID_VALUE)


@rule(codes.VALID_UNINTENDED)
def accepted_but_likely_unintended(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Warns about values kube-apiserver accepts but that probably do not mean what was meant. A device toleration
    with an empty `key` and operator `Equal` (the default when `operator` is unset) is valid for a
    ResourceClaim, unlike a Pod toleration, but it tolerates every device taint with the same `value` (empty:
    every taint without a value), whatever its key. A `capacity.requests` name of a device request that is not a
    qualified name: kube-apiserver does not check these names, but no device capacity can be named that way, so the
    request can never be met. A claim constraint with both `matchAttribute` and `distinctAttribute`: accepted, but
    only `matchAttribute` takes effect.

    ## Why is this bad?
    The object is created, and the request may then run on devices that are tainted for a reason (maintenance,
    unhealthy) that the author meant to avoid, or tolerate fewer taints than meant.

    ## Example
        tolerations: [{effect: NoSchedule}]        # no key, no operator

    ## Fix
    Set `operator: Exists` to tolerate every taint on purpose, or set the `key` of the taint to tolerate.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceToleration: no rule for an empty
    key), staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/devicetoleration.go (ToleratesTaint)
    """
    yield from problems(doc, ctx, Check.UNINTENDED)
