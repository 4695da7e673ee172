"""VALID checks of Role/ClusterRole/RoleBinding/ClusterRoleBinding, case by case from kube-apiserver's
pkg/apis/rbac/validation/validation.go, after the v1 defaulting of pkg/apis/rbac/v1/defaults.go."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.lint.rules.validation.rules import validate

RBAC = "rbac.authorization.k8s.io/v1"
RELEASE = Release(1, 37)


def _found(kind: str, body: dict[str, Any]) -> list[tuple[str, str]]:
    data = {"apiVersion": RBAC, "kind": kind, "metadata": {"name": "x"}, **body}
    return [(v.check.value, ".".join(map(str, v.path))) for v in validate(data, RBAC, kind, RELEASE)]


SA = {"kind": "ServiceAccount", "name": "default"}
REF = {"kind": "ClusterRole", "name": "view"}


@pytest.mark.parametrize(("kind", "body", "expected"), [
    # validateRoleBindingSubject: a ClusterRoleBinding has no namespace to lend its ServiceAccount subjects
    ("ClusterRoleBinding", {"subjects": [SA], "roleRef": REF}, [("required", "subjects.0.namespace")]),
    ("ClusterRoleBinding", {"subjects": [{**SA, "namespace": "ml"}], "roleRef": REF}, []),
    ("RoleBinding", {"subjects": [SA], "roleRef": REF}, []),
    # defaulting fills an empty roleRef.apiGroup and User/Group apiGroup; explicit wrong ones are NotSupported
    ("RoleBinding", {"subjects": [{"kind": "User", "name": "alice"}], "roleRef": {"kind": "Role", "name": "r"}}, []),
    ("RoleBinding", {"subjects": [{**SA, "apiGroup": RBAC.split("/")[0]}], "roleRef": REF}, [("enum", "subjects.0.apiGroup")]),
    ("RoleBinding", {"subjects": [{"kind": "Group", "name": "g", "apiGroup": "x.io"}], "roleRef": REF},
     [("enum", "subjects.0.apiGroup")]),
    ("RoleBinding", {"subjects": [{"kind": "Robot", "name": "r2"}], "roleRef": REF}, [("enum", "subjects.0.kind")]),
    ("RoleBinding", {"subjects": [{"kind": "User", "name": ""}], "roleRef": REF}, [("required", "subjects.0.name")]),
    ("RoleBinding", {"subjects": [{**SA, "name": "Bad_SA"}], "roleRef": REF}, [("name", "subjects.0.name")]),
    ("ClusterRoleBinding", {"roleRef": {"kind": "Role", "name": "r"}}, [("enum", "roleRef.kind")]),
    ("RoleBinding", {"roleRef": {"apiGroup": "apps", "kind": "Role", "name": "r"}}, [("enum", "roleRef.apiGroup")]),
    ("RoleBinding", {"roleRef": {"kind": "Role", "name": "a/b"}}, [("name", "roleRef.name")]),
    # validatePolicyRule
    ("Role", {"rules": [{"apiGroups": [""], "resources": ["pods"]}]}, [("required", "rules.0.verbs")]),
    ("Role", {"rules": [{"nonResourceURLs": ["/metrics"], "verbs": ["get"]}]}, [("invalid-value", "rules.0.nonResourceURLs")]),
    ("ClusterRole", {"rules": [{"nonResourceURLs": ["/metrics"], "verbs": ["get"]}]}, []),
    ("ClusterRole", {"rules": [{"nonResourceURLs": ["/m"], "resources": ["pods"], "verbs": ["get"]}]},
     [("invalid-value", "rules.0.nonResourceURLs")]),
    ("ClusterRole", {"rules": [{"resources": ["pods"], "verbs": ["get"]}]}, [("required", "rules.0.apiGroups")]),
    ("ClusterRole", {"rules": [{"apiGroups": [""], "verbs": ["get"]}]}, [("required", "rules.0.resources")]),
    ("ClusterRole", {"rules": [{"apiGroups": [""], "resources": ["pods", "services"], "resourceNames": ["a"],
                                "verbs": ["get"]}]}, [("required", "rules.0.resourceNames")]),
    ("ClusterRole", {"aggregationRule": {"clusterRoleSelectors": [{}]}}, []),
], ids=lambda value: value if isinstance(value, str) else None)
def test_rbac_validation(kind: str, body: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert _found(kind, body) == expected


def test_rbac_garbage_never_raises() -> None:
    for value in (None, 3, "x", [], [None, 3, "y", {}], {"kind": 3, "name": []}):
        for kind in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"):
            validate({"rules": value, "subjects": value, "roleRef": value}, RBAC, kind, RELEASE)


def test_kueue_sample_cluster_role_binding_is_rejected(tmp_path: Path) -> None:
    """Kueue's docs ClusterRoleBinding (site/static/examples/admin/cluster-role-and-binding.yaml) binds
    ServiceAccount "default" without a namespace: kube-apiserver answers subjects[0].namespace: Required value."""
    path = tmp_path / "binding.yaml"
    path.write_text("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: b\n"
                    "subjects:\n- kind: ServiceAccount\n  name: default\nroleRef:\n  kind: ClusterRole\n  name: view\n"
                    "  apiGroup: rbac.authorization.k8s.io\n")
    report = run_check(CheckOptions(paths=(str(path),), jobs=1))
    assert [(f.rule, f.line) for f in report.findings] == [("VALID011", 6)]
