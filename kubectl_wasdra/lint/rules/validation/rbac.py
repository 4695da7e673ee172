"""VALID checks of RBAC objects around workloads: Role, ClusterRole, RoleBinding, ClusterRoleBinding.

Upstream: kubernetes/kubernetes pkg/apis/rbac/validation/validation.go (ValidateRole, ValidateClusterRole,
validatePolicyRule, ValidateRoleBinding, ValidateClusterRoleBinding, validateRoleBindingSubject), unchanged from
release-1.33 to release-1.37. Validation runs after defaulting (pkg/apis/rbac/v1/defaults.go): an empty
`roleRef.apiGroup` becomes rbac.authorization.k8s.io, an empty subject `apiGroup` becomes "" for a ServiceAccount and
rbac.authorization.k8s.io for a User or Group, so leaving them out is valid.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict, as_list, as_str
from kubectl_wasdra.lint.rules.validation._names import dns_subdomain_error, path_segment_name_error

RBAC_GROUP: Final = "rbac.authorization.k8s.io"
SUBJECT_KINDS: Final = ("ServiceAccount", "User", "Group")


def validate_role(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateRole -> validatePolicyRule(rule, isNamespaced=true)
    del version, release
    yield from _rules(data, namespaced=True)


def validate_cluster_role(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateClusterRole -> validatePolicyRule(rule, isNamespaced=false)
    del version, release
    yield from _rules(data, namespaced=False)


def validate_role_binding(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateRoleBinding (roleRef kind Role or ClusterRole; subjects may leave out their namespace)
    del version, release
    yield from _binding(data, ("Role", "ClusterRole"), namespaced=True)


def validate_cluster_role_binding(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateClusterRoleBinding (roleRef kind ClusterRole; a ServiceAccount subject needs its namespace)
    del version, release
    yield from _binding(data, ("ClusterRole",), namespaced=False)


def _rules(data: dict[str, Any], *, namespaced: bool) -> Iterator[Violation]:
    for index, item in enumerate(as_list(data.get("rules"))):
        if isinstance(item, dict):
            yield from _policy_rule(item, ("rules", index), namespaced=namespaced)


def _policy_rule(item: dict[str, Any], path: Path, *, namespaced: bool) -> Iterator[Violation]:
    # upstream: validatePolicyRule
    if not as_list(item.get("verbs")):
        yield Violation(Check.REQUIRED, (*path, "verbs"), "verbs must contain at least one value",
                        hint="list the verbs, e.g. [get, list, watch]")
    if as_list(item.get("nonResourceURLs")):
        urls = (*path, "nonResourceURLs")
        if namespaced:
            yield Violation(Check.INVALID_VALUE, urls, "namespaced rules cannot apply to non-resource URLs",
                            hint="move the rule to a ClusterRole")
        if any(as_list(item.get(field)) for field in ("apiGroups", "resources", "resourceNames")):
            yield Violation(Check.INVALID_VALUE, urls, "rules cannot apply to both regular resources and non-resource URLs",
                            hint="split it into one rule for resources and one for nonResourceURLs")
        return
    if not as_list(item.get("apiGroups")):
        yield Violation(Check.REQUIRED, (*path, "apiGroups"), "resource rules must supply at least one api group",
                        hint='add apiGroups, e.g. [""] for the core group')
    if not as_list(item.get("resources")):
        yield Violation(Check.REQUIRED, (*path, "resources"), "resource rules must supply at least one resource",
                        hint="add the resources the rule grants")
    if as_list(item.get("resourceNames")) and len(as_list(item.get("resources"))) > 1:
        yield Violation(Check.REQUIRED, (*path, "resourceNames"), "resource names cannot apply to multiple resources",
                        hint="give each resource its own rule with its resourceNames")


def _binding(data: dict[str, Any], role_kinds: tuple[str, ...], *, namespaced: bool) -> Iterator[Violation]:
    role_ref = as_dict(data.get("roleRef"))
    group = as_str(role_ref.get("apiGroup"))
    if group and group != RBAC_GROUP:
        yield Violation(Check.ENUM, ("roleRef", "apiGroup"), f'unsupported value "{group}"',
                        hint=f"use {RBAC_GROUP}", at="value")
    kind = as_str(role_ref.get("kind"))
    if kind is not None and kind not in role_kinds:
        yield Violation(Check.ENUM, ("roleRef", "kind"), f'unsupported value "{kind}"',
                        hint=f"use {' or '.join(role_kinds)}", at="value")
    name = as_str(role_ref.get("name"))
    if isinstance(data.get("roleRef"), dict) and not name:
        yield Violation(Check.REQUIRED, ("roleRef", "name"), "roleRef.name is required", hint="name the role to bind")
    elif name and (error := path_segment_name_error(name)):
        yield Violation(Check.NAME, ("roleRef", "name"), f'invalid role name "{name}": {error}', at="value")
    for index, subject in enumerate(as_list(data.get("subjects"))):
        if isinstance(subject, dict):
            yield from _subject(subject, ("subjects", index), namespaced=namespaced)


def _subject(subject: dict[str, Any], path: Path, *, namespaced: bool) -> Iterator[Violation]:
    # upstream: validateRoleBindingSubject
    name, kind, group = as_str(subject.get("name")), as_str(subject.get("kind")), as_str(subject.get("apiGroup"))
    if not name:
        yield Violation(Check.REQUIRED, (*path, "name"), "subject name is required")
    if kind == "ServiceAccount":
        if name and (error := dns_subdomain_error(name)):
            yield Violation(Check.NAME, (*path, "name"), f'invalid ServiceAccount name "{name}": {error}', at="value")
        if group:
            yield Violation(Check.ENUM, (*path, "apiGroup"), f'unsupported value "{group}"',
                            hint='a ServiceAccount subject has apiGroup "" (leave it out)', at="value")
        if not namespaced and not as_str(subject.get("namespace")):
            yield Violation(Check.REQUIRED, (*path, "namespace"),
                            "a ServiceAccount subject of a ClusterRoleBinding needs its namespace",
                            hint="set the namespace the ServiceAccount lives in")
    elif kind in ("User", "Group"):
        if group and group != RBAC_GROUP:
            yield Violation(Check.ENUM, (*path, "apiGroup"), f'unsupported value "{group}"',
                            hint=f"use {RBAC_GROUP} (or leave it out)", at="value")
    elif kind is not None:
        yield Violation(Check.ENUM, (*path, "kind"), f'unsupported value "{kind}"',
                        hint=f"use one of {', '.join(SUBJECT_KINDS)}", at="value")
