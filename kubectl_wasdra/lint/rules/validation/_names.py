"""Name formats kube-apiserver enforces (DNS labels and subdomains, C identifiers, qualified names).

Upstream: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go and
pkg/apis/resource/validation/validation.go (validateQualifiedName, validateFullyQualifiedName).
"""

from __future__ import annotations

import re
from typing import Final

from kubectl_wasdra.kube.labels import label_value_errors
from kubectl_wasdra.kube.resources import is_extended_resource_name

DNS1123_LABEL_MAX: Final = 63
DNS1123_SUBDOMAIN_MAX: Final = 253
DEVICE_MAX_ID_LENGTH: Final = 32        # resource.DeviceMaxIDLength
DEVICE_MAX_DOMAIN_LENGTH: Final = 63    # resource.DeviceMaxDomainLength
# Matched whole (fullmatch): Go's `$` ends the text, where Python's also matches before a final newline
_LABEL_RE: Final = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_SUBDOMAIN_RE: Final = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_C_IDENTIFIER_RE: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_QUALIFIED_NAME_PART_RE: Final = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")


def dns_label_error(value: str) -> str | None:
    """apimachinery IsDNS1123Label message, or None when valid."""
    if len(value) > DNS1123_LABEL_MAX:
        return f"must be no more than {DNS1123_LABEL_MAX} characters"
    if not _LABEL_RE.fullmatch(value):
        return ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                "and must start and end with an alphanumeric character")
    return None


def dns_subdomain_error(value: str) -> str | None:
    """apimachinery IsDNS1123Subdomain message, or None when valid."""
    if len(value) > DNS1123_SUBDOMAIN_MAX:
        return f"must be no more than {DNS1123_SUBDOMAIN_MAX} characters"
    if not _SUBDOMAIN_RE.fullmatch(value):
        return ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                "and must start and end with an alphanumeric character")
    return None


def c_identifier_error(value: str) -> str | None:
    # upstream: validateCIdentifier: DeviceMaxIDLength and content.IsCIdentifier
    if len(value) > DEVICE_MAX_ID_LENGTH:
        return f"must be no more than {DEVICE_MAX_ID_LENGTH} characters"
    if not _C_IDENTIFIER_RE.fullmatch(value):
        return ("a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
                "characters or '_'")
    return None


def qualified_name_error(value: str, *, fully: bool = False) -> str | None:
    # upstream: validateQualifiedName / validateFullyQualifiedName
    """DRA QualifiedName (`id` or `domain/id`); `fully` requires the domain (FullyQualifiedName)."""
    parts = value.split("/")
    if len(parts) > 2:
        return "must not contain more than one slash"
    if len(parts) == 1:
        if fully:
            return "a fully qualified name must be a domain and a name separated by a slash"
        return c_identifier_error(parts[0])
    domain, name = parts
    if not domain:
        return "the domain must not be empty"
    if not name:
        return "the name must not be empty"
    if error := driver_name_error(domain):
        return f'the domain "{domain}": {error}'
    if error := c_identifier_error(name):
        return f'the name "{name}" after the slash: {error}'
    return None


def driver_name_error(value: str) -> str | None:
    """core ValidateCSIDriverName (DRA driver names and attribute domains): required, <= 63 characters, and a DNS
    subdomain once lower-cased (upper case is accepted; '_' and empty dot-separated parts are not)."""
    # pkg/apis/core/validation/validation.go ValidateCSIDriverName: IsDNS1123Subdomain(strings.ToLower(driverName))
    if not value:
        return "must not be empty"
    if len(value) > DEVICE_MAX_DOMAIN_LENGTH:
        return f"must be no more than {DEVICE_MAX_DOMAIN_LENGTH} characters"
    return dns_subdomain_error(value.lower())


def path_segment_name_error(value: str) -> str | None:
    """apimachinery path.IsValidPathSegmentName (content.IsPathSegmentName): not "." or "..", no '/' or '%'."""
    if value in (".", ".."):
        return f"may not be '{value}'"
    bad = next((c for c in "/%" if c in value), None)
    return f"may not contain '{bad}'" if bad else None


def label_key_error(value: str) -> str | None:
    """Kubernetes qualified name (label keys, taint keys): optional DNS-subdomain prefix and a name part of <= 63."""
    # staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsQualifiedName
    prefix, _, name = value.rpartition("/")
    if value.count("/") > 1:
        return "a qualified name must consist of an optional DNS subdomain prefix and a name separated by '/'"
    if "/" in value and not prefix:   # IsQualifiedName: "prefix part must be non-empty"
        return "prefix part must be non-empty"
    if prefix and dns_subdomain_error(prefix):
        return f"prefix part {dns_subdomain_error(prefix)}"
    if not name:
        return "name part must be non-empty"
    if len(name) > 63:
        return "name part must be no more than 63 characters"
    if not _QUALIFIED_NAME_PART_RE.fullmatch(name):
        return ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                "an alphanumeric character")
    return None


def extended_resource_name_error(value: str) -> str | None:
    """The message of a name core/v1 helper IsExtendedResourceName rejects (kube/resources.py), or None."""
    return None if is_extended_resource_name(value) else "must be a valid extended resource name"


def label_value_error(value: str) -> str | None:
    """apimachinery IsValidLabelValue (kube/labels.py): its first message without the examples, or None when valid."""
    errors = label_value_errors(value)
    return errors[0].split(" (e.g. ")[0] if errors else None
