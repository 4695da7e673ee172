"""The built-in cluster-scoped kinds are exactly those the official Kubernetes client lists without a namespace."""

from __future__ import annotations

import inspect

from kubernetes import client

from kubectl_wasdra.kube.scope import BUILTIN_CLUSTER_SCOPED, is_cluster_scoped


def _client_cluster_scoped() -> set[str]:
    """Resources with list_<resource> but neither list_namespaced_<resource> nor a for-all-namespaces list."""
    found: set[str] = set()
    for name, api in inspect.getmembers(client, inspect.isclass):
        if not name.endswith("Api") or name in ("ApiClient", "CustomObjectsApi"):
            continue
        methods = {m for m in dir(api) if m.startswith("list_") and not m.endswith("_with_http_info")}
        for method in methods:
            resource = method.removeprefix("list_")
            if resource.startswith("namespaced_") or resource.endswith("_for_all_namespaces"):
                continue
            if f"list_namespaced_{resource}" not in methods:
                found.add(resource.replace("_", ""))
    return found


def test_the_table_matches_the_official_client() -> None:
    assert {kind.lower() for kind in BUILTIN_CLUSTER_SCOPED} == _client_cluster_scoped()


def test_custom_kinds_are_told_apart_by_group() -> None:
    assert is_cluster_scoped("scheduling.volcano.sh", "Queue")
    assert not is_cluster_scoped("kueue.x-k8s.io", "Queue")     # Kueue's old v1alpha1 Queue was namespaced
    assert is_cluster_scoped("kueue.x-k8s.io", "Topology") and not is_cluster_scoped("apps", "Deployment")
