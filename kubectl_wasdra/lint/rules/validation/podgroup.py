"""VALID checks of PodGroup (1.36+) and CompositePodGroup (1.37, v1alpha3).

Upstream: kubernetes/kubernetes pkg/apis/scheduling/validation/validation.go (ValidatePodGroup,
ValidateCompositePodGroup) at release-1.36 .. release-1.37; shapes from staging/src/k8s.io/api/scheduling/*/types.go.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation import _groups
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict
from kubectl_wasdra.lint.rules.validation._names import dns_label_error, dns_subdomain_error


def validate_pod_group(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidatePodGroup + Validate_PodGroupSpec (DependentRequired parentCompositePodGroupName -> workloadRef)
    spec = as_dict(data.get("spec"))
    yield from _groups.group_spec(spec, ("spec",), version)
    if version == "v1alpha2":
        ref = as_dict(as_dict(spec.get("podGroupTemplateRef")).get("workload"))
        if spec.get("podGroupTemplateRef") is not None:
            yield from _required_names(ref, ("spec", "podGroupTemplateRef", "workload"), ("workloadName", "podGroupTemplateName"))
        return
    if spec.get("workloadRef") is not None:
        yield from _required_names(as_dict(spec["workloadRef"]), ("spec", "workloadRef"), ("workloadName", "templateName"))
    elif spec.get("parentCompositePodGroupName"):
        yield Violation(Check.REQUIRED, ("spec", "workloadRef"),
                        "workloadRef is required when parentCompositePodGroupName is set",
                        hint="set spec.workloadRef to the Workload template this group was created from")


def validate_composite(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateCompositePodGroup + Validate_CompositePodGroupSpec (workloadRef +k8s:required)
    spec = as_dict(data.get("spec"))
    if spec.get("workloadRef") is None:
        yield Violation(Check.REQUIRED, ("spec", "workloadRef"), "workloadRef is required",
                        hint="set spec.workloadRef {workloadName, templateName}")
    else:
        yield from _required_names(as_dict(spec["workloadRef"]), ("spec", "workloadRef"), ("workloadName", "templateName"))
    yield from _groups.policy(spec.get("schedulingPolicy"), ("spec", "schedulingPolicy"), count_field="minGroupCount")
    yield from _groups.constraints(spec.get("schedulingConstraints"), ("spec", "schedulingConstraints"))
    yield from _groups.disruption(spec.get("disruptionMode"), ("spec", "disruptionMode"), version)
    yield from _groups.priority_fields(spec, ("spec",))


def _required_names(ref: dict[str, Any], path: Path, fields: tuple[str, ...]) -> Iterator[Violation]:
    # upstream: Validate_WorkloadReference: workloadName RequiredValue+LongName, templateName RequiredValue+ShortName
    for field in fields:
        value = ref.get(field)
        check = dns_subdomain_error if field == "workloadName" else dns_label_error
        if not value:
            yield Violation(Check.REQUIRED, (*path, field), f"{field} is required")
        elif error := check(str(value)):
            yield Violation(Check.NAME, (*path, field), f'invalid {field} "{value}": {error}', at="value")
