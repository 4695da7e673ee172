"""rules/api-lifecycle.yaml (per-kind API lifecycle from the prerelease-lifecycle markers) against the bundled schemas,
the served-API table, and the coverage of pluto's list of removed built-in APIs."""

from __future__ import annotations

import pytest

from kubectl_wasdra.catalog.apis import api_status, served_kinds
from kubectl_wasdra.catalog.lifecycle import kind_lifecycle, lifecycle_table, successor
from kubectl_wasdra.catalog.releases import SUPPORTED, Release, minor_key
from kubectl_wasdra.catalog.schemas import schema_set

# FairwindsOps/pluto versions.yaml, component k8s: every built-in (apiVersion, kind) it knows to be removed. Its List
# kinds are covered by their item kinds (the loader flattens Lists); "FlowControl" and "FLowSchema" are its spellings
# of flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema and PriorityLevelConfiguration.
PLUTO_K8S = [
    ("extensions/v1beta1", "Deployment"), ("apps/v1beta2", "Deployment"), ("apps/v1beta1", "Deployment"),
    ("apps/v1beta1", "StatefulSet"), ("apps/v1beta2", "StatefulSet"), ("extensions/v1beta1", "NetworkPolicy"),
    ("extensions/v1beta1", "Ingress"), ("networking.k8s.io/v1beta1", "Ingress"),
    ("networking.k8s.io/v1beta1", "IngressClass"), ("apps/v1beta2", "DaemonSet"), ("extensions/v1beta1", "DaemonSet"),
    ("extensions/v1beta1", "PodSecurityPolicy"), ("policy/v1beta1", "PodSecurityPolicy"),
    ("extensions/v1beta1", "ReplicaSet"), ("apps/v1beta2", "ReplicaSet"),
    ("scheduling.k8s.io/v1beta1", "PriorityClass"), ("scheduling.k8s.io/v1alpha1", "PriorityClass"),
    ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition"),
    ("admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration"),
    ("admissionregistration.k8s.io/v1beta1", "ValidatingWebhookConfiguration"),
    *((f"rbac.authorization.k8s.io/{v}", k) for v in ("v1alpha1", "v1beta1")
      for k in ("ClusterRoleBinding", "ClusterRole", "Role", "RoleBinding")),
    ("node.k8s.io/v1beta1", "RuntimeClass"), ("policy/v1beta1", "PodDisruptionBudget"),
    ("autoscaling/v2beta1", "HorizontalPodAutoscaler"), ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
    ("batch/v1beta1", "CronJob"), ("storage.k8s.io/v1beta1", "CSINode"), ("storage.k8s.io/v1beta1", "CSIDriver"),
    ("storage.k8s.io/v1beta1", "CSIStorageCapacity"), ("storage.k8s.io/v1beta1", "StorageClass"),
    ("storage.k8s.io/v1beta1", "VolumeAttachment"), ("apiregistration.k8s.io/v1beta1", "APIService"),
    ("authentication.k8s.io/v1beta1", "TokenReview"), ("certificates.k8s.io/v1beta1", "CertificateSigningRequest"),
    ("coordination.k8s.io/v1beta1", "Lease"), ("events.k8s.io/v1beta1", "Event"),
    ("discovery.k8s.io/v1beta1", "EndpointSlice"),
    *((f"flowcontrol.apiserver.k8s.io/{v}", k) for v in ("v1beta1", "v1beta2")
      for k in ("FlowSchema", "PriorityLevelConfiguration")),
]
# Named in the issue beyond pluto's list
ALSO_REMOVED = [("batch/v2alpha1", "CronJob"), ("flowcontrol.apiserver.k8s.io/v1alpha1", "FlowSchema"),
                ("flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration"),
                ("apps/v1beta1", "ControllerRevision"), ("resource.k8s.io/v1alpha2", "ResourceClaim")]


def _served_by_markers(api_version: str, kind: str, release: Release) -> bool:
    entry = kind_lifecycle(api_version, kind)
    assert entry is not None and entry.introduced is not None
    return minor_key(entry.introduced) <= (release.major, release.minor) and not entry.removed_by(release)


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_every_entry_agrees_with_the_schemas_and_the_served_table(release: Release) -> None:
    kinds, served = schema_set(release).kinds, served_kinds(release)
    wrong = [(api_version, kind) for api_version, kind in lifecycle_table()
             if not _served_by_markers(api_version, kind, release)
             == (f"{api_version}/{kind}" in kinds) == ((api_version, kind) in served)]
    assert wrong == []


def test_dates_are_in_order() -> None:
    for entry in lifecycle_table().values():
        dates = [minor_key(d) for d in (entry.introduced, entry.deprecated, entry.removed) if d is not None]
        assert dates == sorted(dates), entry


@pytest.mark.parametrize(("api_version", "kind"), PLUTO_K8S + ALSO_REMOVED, ids=lambda v: str(v))
def test_removed_apis_are_covered(api_version: str, kind: str) -> None:
    entry = kind_lifecycle(api_version, kind)
    assert entry is not None and entry.removed_by(SUPPORTED[0])
    for release in SUPPORTED:
        status = api_status(release, api_version, kind, {})
        assert status.known_group and not status.served
        assert status.not_served_message() == (
            f"{api_version} {kind} was removed in Kubernetes {entry.removed}"
            + (f" (deprecated since {entry.deprecated})" if entry.deprecated else ""))


@pytest.mark.parametrize(("api_version", "kind", "expected"), [
    ("extensions/v1beta1", "Ingress", "networking.k8s.io/v1"),
    ("extensions/v1beta1", "Deployment", "apps/v1"),
    ("flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", "flowcontrol.apiserver.k8s.io/v1"),  # via v1beta3
    ("autoscaling/v2beta2", "HorizontalPodAutoscaler", "autoscaling/v2"),
    ("extensions/v1beta1", "PodSecurityPolicy", None),                                     # policy/v1beta1: gone too
])
def test_successor_follows_removed_replacements(api_version: str, kind: str, expected: str | None) -> None:
    assert successor(api_version, kind, Release(1, 37)) == expected


@pytest.mark.parametrize("release", [Release(1, 36), Release(1, 37)], ids=str)
def test_lifecycle_is_per_kind(release: Release) -> None:
    config = {"resource.k8s.io/v1beta2": True}
    assert not api_status(release, "resource.k8s.io/v1beta2", "DeviceTaintRule", config).deprecated
    assert api_status(release, "resource.k8s.io/v1beta2", "DeviceClass", config).deprecated


def _generator():  # type: ignore[no-untyped-def]
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "gen_api_lifecycle.py"
    spec = importlib.util.spec_from_file_location("gen_api_lifecycle", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_api_lifecycle"] = module
    spec.loader.exec_module(module)
    return module


# the shape prerelease-lifecycle-gen writes (zz_generated.prerelease-lifecycle.go), two kinds and a List
GENERATED = """
func (in *Ingress) APILifecycleIntroduced() (major, minor int) {
	return 1, 1
}
func (in *Ingress) APILifecycleDeprecated() (major, minor int) {
	return 1, 14
}
func (in *Ingress) APILifecycleReplacement() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}
}
func (in *Ingress) APILifecycleRemoved() (major, minor int) {
	return 1, 22
}
func (in *IngressList) APILifecycleIntroduced() (major, minor int) {
	return 1, 1
}
func (in *Scale) APILifecycleIntroduced() (major, minor int) {
	return 1, 1
}
"""


def test_generator_reads_the_generated_markers() -> None:
    assert _generator().parse(GENERATED) == {
        "Ingress": {"introduced": "1.1", "deprecated": "1.14", "replacement": "networking.k8s.io/v1", "removed": "1.22"},
        "Scale": {"introduced": "1.1"},
    }


def test_checked_in_data_matches_the_generator() -> None:
    import os
    from pathlib import Path

    import yaml

    repo = os.environ.get("WASDRA_K8S_API_REPO")   # the git directory of a kubernetes/api clone with its tags
    if not repo:
        pytest.skip("set WASDRA_K8S_API_REPO to a kubernetes/api clone to compare with the generator")
    checked_in = yaml.safe_load((Path(__file__).resolve().parents[2] / "rules" / "api-lifecycle.yaml").read_text())
    assert _generator().build(Path(repo)) == checked_in
