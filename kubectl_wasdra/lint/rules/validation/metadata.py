"""VALID checks of metadata.name: the name validator each kind's Validate<Kind> hands to ValidateObjectMeta.

Upstream (release-1.37): pkg/apis/core/validation/validation.go (ValidateObjectMeta; ValidatePodName,
ValidateResourceClaimName, ValidateResourceClaimTemplateName = NameIsDNSSubdomain), pkg/apis/resource/validation/
validation.go (ValidateResourceSlice, ValidateDeviceTaintRule: NameIsDNSSubdomain; ValidateDeviceClass:
validate.LongName, the same DNS-subdomain rule), pkg/apis/scheduling/validation/validation.go (Workload and
CompositePodGroup: NameIsDNSSubdomain; PodGroup: ValidatePodGroupName), pkg/apis/batch/validation/validation.go (Job).
The API server turns generateName into a name before validating, so an object with only generateName is valid;
generateName itself is checked as a prefix (a trailing '-' is allowed).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.lint.rules.validation._base import Check, Violation, as_dict
from kubectl_wasdra.lint.rules.validation._names import dns_subdomain_error

# (group, kind) whose metadata.name kube-apiserver validates: each Validate<Kind> hands ValidateObjectMeta a
# DNS-subdomain name validator (<= 253 characters)
DNS_SUBDOMAIN_NAMED: Final = frozenset({
    ("", "Pod"), ("batch", "Job"),
    ("resource.k8s.io", "ResourceClaim"), ("resource.k8s.io", "ResourceClaimTemplate"),
    ("resource.k8s.io", "DeviceClass"), ("resource.k8s.io", "ResourceSlice"), ("resource.k8s.io", "DeviceTaintRule"),
    ("scheduling.k8s.io", "Workload"), ("scheduling.k8s.io", "PodGroup"), ("scheduling.k8s.io", "CompositePodGroup"),
})


def validate_metadata(data: dict[str, Any], group: str, kind: str) -> Iterator[Violation]:
    """metadata.name (or generateName) of one object in the format its kind requires."""
    if (group, kind) not in DNS_SUBDOMAIN_NAMED:
        return
    metadata = as_dict(data.get("metadata"))
    name, generate = metadata.get("name"), metadata.get("generateName")
    if isinstance(generate, str) and generate and (error := dns_subdomain_error(generate.removesuffix("-") or "a")):
        yield Violation(Check.NAME, ("metadata", "generateName"), f'invalid generateName "{generate}": {error}',
                        hint=_hint(kind), at="value")
    if not name and not generate:
        yield Violation(Check.REQUIRED, ("metadata", "name"), "name or generateName is required",
                        hint=f"give the {kind} a name in metadata.name")
    elif isinstance(name, str) and name and (error := dns_subdomain_error(name)):
        yield Violation(Check.NAME, ("metadata", "name"), f'invalid {kind} name "{name}": {error}',
                        hint=_hint(kind), at="value")


def _hint(kind: str) -> str:
    return f"a {kind} name is lower case alphanumerics, '-' and '.', starting and ending with an alphanumeric"
