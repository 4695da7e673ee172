"""VALID rules: what the target release's kube-apiserver validation rejects in Workload, PodGroup,
CompositePodGroup, DeviceClass, ResourceClaim(Template), ResourceSlice, DeviceTaintRule, the Pod fields linking them
and the RBAC objects around them (rbac.py).

One rule per kind of failure; the per-kind validators (workload.py, podgroup.py, dra_*.py, taint_rules.py, pod.py)
yield Violations tagged with a Check, computed once per document and release.
Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go, pkg/apis/scheduling/validation/validation.go,
pkg/apis/core/validation/validation.go (release-1.33 .. release-1.37).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.problem import Problem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules.validation import (
    dra_claims,
    dra_classes,
    dra_slices,
    podgroup,
    rbac,
    taint_rules,
    workload,
)
from kubectl_wasdra.lint.rules.validation._base import Check, Violation
from kubectl_wasdra.lint.rules.validation.metadata import validate_metadata
from kubectl_wasdra.lint.rules.validation.pod import pod_spec_path, validate_pod_spec
from kubectl_wasdra.lint.rules.validation.pod_enums import validate_pod_enums
from kubectl_wasdra.lint.rules.validation.pod_tolerations import validate_pod_tolerations
from kubectl_wasdra.lint.rules.validation.restart_policy import validate_restart_policy
from kubectl_wasdra.load import Document

Validator = Callable[[dict[str, Any], str, Release], Iterator[Violation]]

VALIDATORS: dict[tuple[str, str], Validator] = {
    ("scheduling.k8s.io", "Workload"): workload.validate_workload,
    ("scheduling.k8s.io", "PodGroup"): podgroup.validate_pod_group,
    ("scheduling.k8s.io", "CompositePodGroup"): podgroup.validate_composite,
    ("resource.k8s.io", "ResourceClaim"): dra_claims.validate_claim,
    ("resource.k8s.io", "ResourceClaimTemplate"): dra_claims.validate_template,
    ("resource.k8s.io", "ResourceSlice"): dra_slices.validate_slice,
    ("resource.k8s.io", "DeviceClass"): dra_classes.validate_class,
    ("resource.k8s.io", "DeviceTaintRule"): taint_rules.validate_taint_rule,
    ("rbac.authorization.k8s.io", "Role"): rbac.validate_role,
    ("rbac.authorization.k8s.io", "ClusterRole"): rbac.validate_cluster_role,
    ("rbac.authorization.k8s.io", "RoleBinding"): rbac.validate_role_binding,
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"): rbac.validate_cluster_role_binding,
}


def validate(data: dict[str, Any], api_version: str, kind: str, release: Release) -> tuple[Violation, ...]:
    """Every violation of one object for one release (plain dicts in, data out; the matrix view uses it too)."""
    group, _, version = api_version.rpartition("/")
    named = tuple(validate_metadata(data, group, kind))
    return named + _validate_kind(data, group, version, kind, release)


def _validate_kind(data: dict[str, Any], group: str, version: str, kind: str, release: Release) -> tuple[Violation, ...]:
    validator = VALIDATORS.get((group, kind))
    if validator is not None:
        return tuple(validator(data, version, release))
    spec_path = pod_spec_path(group, kind)
    if spec_path is None:
        return ()
    spec: Any = data
    for step in spec_path:
        spec = spec.get(step) if isinstance(spec, dict) else None
    found = tuple(validate_pod_spec(spec, spec_path, release)) if isinstance(spec, dict) else ()
    found += tuple(validate_pod_tolerations(spec, spec_path, release)) if isinstance(spec, dict) else ()
    found += tuple(validate_restart_policy(data, group, kind, spec_path))
    found += tuple(validate_pod_enums(spec, spec_path)) if isinstance(spec, dict) else ()
    if (group, kind) == ("batch", "Job"):
        found += tuple(workload.validate_job_scheduling(data, release))
    return found


def is_validated(group: str, kind: str) -> bool:
    """True for the kinds the VALID family validates (DRA, scheduling and pod-carrying kinds)."""
    return (group, kind) in VALIDATORS or pod_spec_path(group, kind) is not None


@functools.lru_cache(maxsize=64)
def _violations_by_check(doc: Document, ctx: CheckContext) -> Mapping[Check, list[Violation]]:
    """The violations of one document, validated once and grouped by Check for the sixteen rules that each read one
    group (keyed on the context, hashed by identity, rather than on the release, whose hash is computed each time)."""
    if not doc.api_version or not doc.kind or not is_validated(doc.group, doc.kind):
        return _NO_VIOLATIONS
    grouped: dict[Check, list[Violation]] = {}
    for violation in validate(doc.data, doc.api_version, doc.kind, ctx.release):
        grouped.setdefault(violation.check, []).append(violation)
    return grouped


_NO_VIOLATIONS: Mapping[Check, list[Violation]] = MappingProxyType({})


@functools.lru_cache(maxsize=64)
def _dropped_paths(doc: Document, ctx: CheckContext) -> tuple[tuple[str | int, ...], ...]:
    """Paths of gated fields the release drops on create (GATE001 reports them): validation never sees them."""
    from kubectl_wasdra.lint.rules._gated import document_gated_fields

    return tuple(hit.path for hit in document_gated_fields(doc, ctx) if not hit.enabled and hit.field.effect == "dropped")


def problems(doc: Document, ctx: CheckContext, check: Check) -> Iterator[Problem]:
    found = _violations_by_check(doc, ctx).get(check)
    if not found:
        return
    dropped = _dropped_paths(doc, ctx)
    for violation in found:
        if not any(violation.path[:len(path)] == path for path in dropped):
            yield Problem(violation.path, violation.message, violation.hint, violation.at, covers=violation.covers)


@rule(codes.VALID_ONE_OF)
def one_of_violated(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags a one-of union with no member or several members set: `exactly` xor `firstAvailable` (requests),
    `basic` xor `gang` (scheduling policies), `podGroupTemplates` xor `compositePodGroupTemplates`,
    `resourceClaimName` xor `resourceClaimTemplateName`, `matchAttribute` or `distinctAttribute` (neither set; both
    set is only VALID018), the node selection
    of a ResourceSlice, `sharedCounters` xor `devices`, one value per device attribute, `validValues` xor `validRange`.

    ## Why is this bad?
    kube-apiserver rejects the object ("exactly one of ... is required").

    ## Example
        requests:
        - name: gpu
          exactly: {deviceClassName: gpu.example.com}
          firstAvailable: [{name: small, deviceClassName: gpu.example.com}]

    ## Fix
    Keep exactly one member of the union.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceRequest),
    pkg/apis/scheduling/validation/validation.go (validatePodGroupPolicy)
    """
    yield from problems(doc, ctx, Check.ONE_OF)


@rule(codes.VALID_LIMIT)
def limit_exceeded(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags lists and strings longer than the API allows: 32 requests, 8 subrequests, 32 selectors/constraints/config,
    16 tolerations or taints, 128 devices per slice (64 with taints or counter consumption from 1.35), 32
    attributes+capacities per device, 8 counter sets, 8 pod group templates, 4 group claims, 1 topology constraint,
    10 Ki of JSON in a config's `opaque.parameters`.

    ## Why is this bad?
    kube-apiserver rejects the object with "Too many".

    ## Example
        spec: {schedulingConstraints: {topology: [{key: example.com/rack}, {key: example.com/block}]}}

    ## Fix
    Split the object (more slices in the pool, more claims) or drop entries.

    ## References
    kubernetes/kubernetes pkg/apis/resource/types.go and staging/src/k8s.io/api/scheduling/*/types.go (limits)
    """
    yield from problems(doc, ctx, Check.LIMIT)


@rule(codes.VALID_MINIMUM)
def value_below_minimum(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags numbers below their minimum: `count` (> 0), `gang.minCount` / `minGroupCount` (>= 1),
    `pool.resourceSliceCount` (> 0), `pool.generation` (>= 0).

    ## Why is this bad?
    kube-apiserver rejects the object ("must be greater than zero").

    ## Example
        schedulingPolicy: {gang: {minCount: -1}}

    ## Fix
    Use a positive number.

    ## References
    kubernetes/kubernetes pkg/apis/scheduling/validation/validation.go (validateGangSchedulingPolicy)
    """
    yield from problems(doc, ctx, Check.MINIMUM)


@rule(codes.VALID_NAME)
def invalid_name(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags names in the wrong format: request, subrequest, device, counter and template names (DNS labels),
    device class, claim and pool names (DNS subdomains), driver names, taint and topology keys (label keys),
    extended resource names, `metadata.name` (and `generateName`, as a prefix) of Pods, Jobs and the DRA and
    workload-scheduling kinds as their `ValidateObjectMeta` name validator wants it, and a ResourceSlice's
    `spec.nodeName` (validateNodeName).

    ## Why is this bad?
    kube-apiserver rejects the object; the message is the apimachinery one.

    ## Example
        metadata: {name: Bad_Claim}
        spec: {devices: {requests: [{name: GPU_0, exactly: {deviceClassName: gpu.example.com}}]}}

    ## Fix
    Use lower-case alphanumerics and '-' (and '.' in subdomains), starting and ending with an alphanumeric.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go
    """
    yield from problems(doc, ctx, Check.NAME)


@rule(codes.VALID_QUALIFIED_NAME)
def invalid_qualified_name(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags device attribute and capacity names that are not a C identifier (<= 32) optionally prefixed by a domain,
    and `matchAttribute` / `distinctAttribute` values without a domain.

    ## Why is this bad?
    kube-apiserver rejects the object.

    ## Example
        constraints: [{matchAttribute: numaNode}]      # needs a domain: gpu.example.com/numaNode

    ## Fix
    Write `domain/identifier`, e.g. `resource.kubernetes.io/pcieRoot`.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateQualifiedName, validateFullyQualifiedName)
    """
    yield from problems(doc, ctx, Check.QUALIFIED_NAME)


@rule(codes.VALID_REQUEST_REFERENCE)
def unknown_request_reference(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags a constraint or config naming a request (or `request/subrequest`) the claim does not have, a container
    `resources.claims[].name` that is not in the pod's `spec.resourceClaims`, and (1.37) a derived attribute that no
    matchAttribute/distinctAttribute constraint targeting its request uses.

    ## Why is this bad?
    kube-apiserver rejects the object.

    ## Example
        requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
        constraints: [{requests: [gpus], matchAttribute: gpu.example.com/numaNode}]

    ## Fix
    Use the exact request name; for prioritized lists, `request/subrequest`. The hint suggests the closest request
    (or pod claim) name.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateRequestNameRef)
    """
    yield from problems(doc, ctx, Check.REQUEST_REFERENCE)


@rule(codes.VALID_ALLOCATION_MODE)
def allocation_mode_conflict(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags `count` set together with `allocationMode: All`, and a `count` that is not an integer.

    ## Why is this bad?
    kube-apiserver rejects the object ("must not be specified when allocationMode is 'All'").

    ## Example
        exactly: {deviceClassName: gpu.example.com, allocationMode: All, count: 4}

    ## Fix
    Drop `count` for All, or use `allocationMode: ExactCount`.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceAllocationMode)
    """
    yield from problems(doc, ctx, Check.ALLOCATION_MODE)


@rule(codes.VALID_CAPACITY_POLICY)
def invalid_capacity_request_policy(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags consumable-capacity request policies that kube-apiserver rejects: a policy on a device without
    `allowMultipleAllocations`, both `validValues` and `validRange`, a missing or out-of-range `default`, unsorted
    values, bounds above the capacity, `min` + `step` above the capacity, a `default` or `max` that is not a whole
    number of steps from `min` (each read as a whole number, rounded up, while DRAFractionalCapacityRange is off).

    ## Why is this bad?
    The ResourceSlice is rejected, so the driver publishes no devices for that pool.

    ## Example
        capacity: {memory: {value: 40Gi, requestPolicy: {default: 3Gi, validValues: [1Gi, 2Gi, 4Gi]}}}

    ## Fix
    Make `default` one of `validValues` (or inside `validRange` on a step).

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateRequestPolicy)
    """
    yield from problems(doc, ctx, Check.CAPACITY_POLICY)


@rule(codes.VALID_COUNTER_REFERENCE)
def unknown_counter_reference(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    In 1.33 and 1.34, flags a device that consumes a counter set or counter not defined in the same slice's
    `sharedCounters` (from 1.35 counter sets live in their own slices of the pool).

    ## Why is this bad?
    kube-apiserver rejects the ResourceSlice.

    ## Example
        sharedCounters: [{name: gpu-0, counters: {memory: {value: 40Gi}}}]
        devices: [{name: p0, consumesCounters: [{counterSet: gpu-1, counters: {memory: {value: 10Gi}}}]}]

    ## Fix
    Name a counter set (and counters) defined in `sharedCounters`.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (release-1.34, validateResourceSliceSpec)
    """
    yield from problems(doc, ctx, Check.COUNTER_REFERENCE)


@rule(codes.VALID_QUANTITY)
def invalid_quantity(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags capacity values, capacity requests, counter values and request-policy bounds that are not Quantities.

    ## Why is this bad?
    kube-apiserver cannot decode the object ("quantities must match the regular expression").

    ## Example
        capacity: {requests: {memory: 8 GB}}

    ## Fix
    Write a quantity such as `8Gi`, `8G`, `500m` or `1e3`.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go
    """
    yield from problems(doc, ctx, Check.QUANTITY)


@rule(codes.VALID_REQUIRED)
def required_value_missing(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags values validation requires: `deviceClassName`, `cel.expression`, `opaque` with its `driver` and
    `parameters` in a DeviceClass or claim config, `gang.minCount`, `workloadRef` of a
    CompositePodGroup, taint key and effect, pool name, `podGroupName`, the template list of a Workload,
    `metadata.name` (unless `generateName` is set), RBAC rule verbs, apiGroups and resources, the namespace of a
    ServiceAccount subject of a ClusterRoleBinding, a Job's (or CronJob job template's) pod `restartPolicy` (it
    defaults to Always, which a Job rejects). A value the schema already requires is reported once, as SCHEMA003.

    ## Why is this bad?
    kube-apiserver rejects the object ("Required value").

    ## Example
        schedulingPolicy: {gang: {}}

    ## Fix
    Set the value named in the message.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go, pkg/apis/scheduling/validation/validation.go
    """
    yield from problems(doc, ctx, Check.REQUIRED)


@rule(codes.VALID_DUPLICATE)
def duplicate_entry(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags repeated names where they must be unique: requests, subrequests, devices in a slice, counter sets, pod
    claims, group claims, Workload templates.

    ## Why is this bad?
    kube-apiserver rejects the object ("Duplicate value").

    ## Example
        requests: [{name: gpu, exactly: {deviceClassName: a}}, {name: gpu, exactly: {deviceClassName: b}}]

    ## Fix
    Rename one of the entries.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateSet)
    """
    yield from problems(doc, ctx, Check.DUPLICATE)


@rule(codes.VALID_ENUM)
def unsupported_value(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags values outside their set: `allocationMode` (ExactCount, All), toleration `operator` and `effect`,
    taint `effect`, `preemptionPolicy`, the 1.36 string `disruptionMode`, RBAC `roleRef` kind and apiGroup and subject
    kind and apiGroup, a pod's `restartPolicy` (Always, OnFailure, Never; only Always in a Deployment, ReplicaSet,
    StatefulSet, DaemonSet or ReplicationController), a pod toleration's `operator` (Equal, Exists; Lt and Gt from
    1.35, where GATE001 reports their gate), and every other enumerated pod spec field (`imagePullPolicy`,
    `terminationMessagePolicy`, port `protocol`, probe `scheme`, `dnsPolicy`, `os.name`, topology spread
    `whenUnsatisfiable`/`nodeAffinityPolicy`/`nodeTaintsPolicy`, node affinity `operator`, `mountPropagation`,
    `recursiveReadOnly`, `resizePolicy[].restartPolicy`, an init container's `restartPolicy`, seccomp/AppArmor
    profile `type`, `fsGroupChangePolicy`) in pods and in every pod template.

    ## Why is this bad?
    kube-apiserver rejects the object ("Unsupported value").

    ## Example
        exactly: {deviceClassName: gpu.example.com, allocationMode: Exact}

    ## Fix
    Use one of the values listed in the hint.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go, pkg/apis/core/validation/validation.go
    (validateRestartPolicy), pkg/apis/apps/validation/validation.go
    """
    yield from problems(doc, ctx, Check.ENUM)


@rule(codes.VALID_ATTRIBUTE_VALUE)
def invalid_attribute_value(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags device attribute values that are not semver 2.0.0 (`version`), longer than 64 bytes (`string`, `version`)
    or not integers (`int`).

    ## Why is this bad?
    kube-apiserver rejects the ResourceSlice.

    ## Example
        attributes: {driverVersion: {version: v1.2}}

    ## Fix
    Write `1.2.0`.

    ## References
    kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateDeviceAttribute)
    """
    yield from problems(doc, ctx, Check.ATTRIBUTE_VALUE)
