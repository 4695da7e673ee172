"""VALID checks of the Pod fields that tie pods to claims and groups (pods and pod templates alike).

Upstream: kubernetes/kubernetes pkg/apis/core/validation/validation.go (validatePodResourceClaims,
validateResourceClaimNames, validateSchedulingGroup / validateWorkloadReference) at release-1.33 .. release-1.37.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubectl_wasdra.catalog.field_gates import POD_TEMPLATE_PREFIXES
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.catalog.spelling import did_you_mean
from kubectl_wasdra.kube.resources import resource_list_problems
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict, as_list, as_str, duplicates
from kubectl_wasdra.lint.rules.validation._groups import claim_reference
from kubectl_wasdra.lint.rules.validation._names import dns_subdomain_error

CONTAINER_LISTS = ("initContainers", "containers")


def pod_spec_path(group: str, kind: str) -> Path | None:
    """Where the pod spec sits in an object of this kind (("spec",) for a Pod), or None."""
    if group == "" and kind == "Pod":
        return ("spec",)
    prefix = POD_TEMPLATE_PREFIXES.get((group, kind))
    return (*prefix, "spec") if prefix is not None else None


def validate_pod_spec(spec: dict[str, Any], path: Path, release: Release) -> Iterator[Violation]:
    # upstream: core validatePodResourceClaims (pkg/apis/core/validation/validation.go)
    claims = as_list(spec.get("resourceClaims"))
    for index, claim in enumerate(claims):
        yield from claim_reference(as_dict(claim), (*path, "resourceClaims", index))
    yield from duplicates(claims, lambda c: as_dict(c).get("name"), (*path, "resourceClaims"), "claim name")
    yield from _container_claims(spec, path, {as_str(as_dict(c).get("name")) for c in claims} - {None})
    yield from _group_link(spec, path, release)
    for where, message in resource_list_problems(spec):  # the verdict explain gives too (kube/resources.py)
        yield Violation(Check.QUANTITY, (*path, *where), message, at="value",
                        hint='write a quantity that is not negative, such as "500m", "2" or "8Gi"')


def _container_claims(spec: dict[str, Any], path: Path, names: set[str | None]) -> Iterator[Violation]:
    # upstream: core validateResourceClaimNames: "must be one of the names in pod.spec.resourceClaims"
    for list_name in CONTAINER_LISTS:
        for c_index, container in enumerate(as_list(spec.get(list_name))):
            for r_index, ref in enumerate(as_list(as_dict(as_dict(container).get("resources")).get("claims"))):
                name = as_str(as_dict(ref).get("name"))
                if name is not None and name not in names:
                    yield Violation(Check.REQUEST_REFERENCE, (*path, list_name, c_index, "resources", "claims", r_index, "name"),
                                    f'"{name}" must be one of the names in pod.spec.resourceClaims',
                                    hint=did_you_mean(name, {n for n in names if n is not None})
                                    or f'add a spec.resourceClaims entry named "{name}"', at="value")


def _group_link(spec: dict[str, Any], path: Path, release: Release) -> Iterator[Violation]:
    # upstream: core validateSchedulingGroup (1.36+) / validateWorkloadReference (1.35)
    group = spec.get("schedulingGroup")
    if group is not None:
        here = (*path, "schedulingGroup", "podGroupName")
        pod_group = as_dict(group).get("podGroupName")
        if not pod_group:
            yield Violation(Check.REQUIRED, here, "podGroupName is required")
        elif error := dns_subdomain_error(str(pod_group)):
            yield Violation(Check.NAME, here, f'invalid podGroupName "{pod_group}": {error}', at="value")
    ref = spec.get("workloadRef")
    if ref is not None and release == Release(1, 35):
        for field in ("name", "podGroup"):
            if not as_dict(ref).get(field):
                yield Violation(Check.REQUIRED, (*path, "workloadRef", field), f"workloadRef.{field} is required")
