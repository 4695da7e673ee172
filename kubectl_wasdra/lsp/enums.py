"""The values an enumerated string field takes in a release, for completion: the strict schemas carry almost no enums,
so the sets come from the validation rules that reject any other value (VALID013's pod spec table and the other
`Check.ENUM` checks), keyed by the schema type that declares the field. One table, no second copy of the values.

Upstream: the sets' sources are cited beside each table (lint/rules/validation/pod_enums.py, restart_policy.py,
pod_tolerations.py, dra_claims.py, _devices.py, taint_rules.py, _groups.py, rbac.py).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from kubectl_wasdra.catalog.releases import Release

Path = tuple[str | int, ...]


@functools.cache
def _table() -> Mapping[tuple[str, str], tuple[str, ...]]:
    """(schema type name, field) -> the values every supported release accepts."""
    from kubectl_wasdra.lint.rules.validation import pod_enums as pod
    from kubectl_wasdra.lint.rules.validation._devices import TOLERATION_EFFECTS, TOLERATION_OPERATORS
    from kubectl_wasdra.lint.rules.validation._groups import PREEMPTION_POLICIES
    from kubectl_wasdra.lint.rules.validation.dra_claims import ALLOCATION_MODES
    from kubectl_wasdra.lint.rules.validation.rbac import SUBJECT_KINDS
    from kubectl_wasdra.lint.rules.validation.restart_policy import POLICIES
    from kubectl_wasdra.lint.rules.validation.taint_rules import TAINT_EFFECTS

    table: dict[tuple[str, str], tuple[str, ...]] = {}
    for container in ("Container", "EphemeralContainer"):
        for steps, values in pod.CONTAINER_FIELDS.items():
            table[container, steps[-1]] = values
    owners = {("dnsPolicy",): "PodSpec", ("os", "name"): "PodOS", ("securityContext", "fsGroupChangePolicy"):
              "PodSecurityContext", ("securityContext", "seccompProfile", "type"): "SeccompProfile",
              ("securityContext", "appArmorProfile", "type"): "AppArmorProfile"}
    for steps, values in pod.POD_FIELDS.items():
        table[owners[steps], steps[-1]] = values
    table.update({
        ("TopologySpreadConstraint", "whenUnsatisfiable"): pod.WHEN_UNSATISFIABLE,
        ("TopologySpreadConstraint", "nodeAffinityPolicy"): pod.INCLUSION_POLICIES,
        ("TopologySpreadConstraint", "nodeTaintsPolicy"): pod.INCLUSION_POLICIES,
        ("NodeSelectorRequirement", "operator"): pod.NODE_SELECTOR_OPERATORS,
        ("ContainerPort", "protocol"): pod.PROTOCOLS,
        ("HTTPGetAction", "scheme"): pod.SCHEMES,
        ("VolumeMount", "mountPropagation"): pod.MOUNT_PROPAGATION,
        ("VolumeMount", "recursiveReadOnly"): pod.RECURSIVE_READ_ONLY,
        ("ContainerResizePolicy", "restartPolicy"): pod.RESIZE_RESTART,
        ("PodSpec", "restartPolicy"): POLICIES,
        ("ExactDeviceRequest", "allocationMode"): ALLOCATION_MODES,
        ("DeviceSubRequest", "allocationMode"): ALLOCATION_MODES,
        ("DeviceRequest", "allocationMode"): ALLOCATION_MODES,     # v1beta1: the request itself
        ("DeviceToleration", "operator"): TOLERATION_OPERATORS,
        ("DeviceToleration", "effect"): TOLERATION_EFFECTS,
        ("DeviceTaint", "effect"): TAINT_EFFECTS,
        ("Subject", "kind"): SUBJECT_KINDS,
    })
    for owner in ("PodGroupSpec", "PodGroupTemplate", "CompositePodGroupSpec", "CompositePodGroupTemplate"):
        table[owner, "preemptionPolicy"] = PREEMPTION_POLICIES
    return MappingProxyType(table)


def enum_values(release: Release, owner: str | None, field: str | int | None, path: Path) -> tuple[str, ...]:
    """The values `field` of schema type `owner` (a definition name, "io.k8s.api.core.v1.Container") takes in
    `release` at `path`; () when it is not an enumerated field this tool knows."""
    if owner is None or not isinstance(field, str):
        return ()
    type_name = owner.rpartition(".")[2]
    if (type_name, field) == ("Container", "restartPolicy"):
        # only an init container takes one (a sidecar): pkg/apis/core/validation/validation.go validateInitContainers
        return ("Always",) if "initContainers" in path else ()
    if (type_name, field) == ("Toleration", "operator"):
        from kubectl_wasdra.lint.rules.validation.pod_tolerations import COMPARISONS, COMPARISONS_FROM, OPERATORS

        return OPERATORS + COMPARISONS if release >= COMPARISONS_FROM else OPERATORS
    return _table().get((type_name, field), ())
