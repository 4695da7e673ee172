"""API availability per release and --runtime-config parsing (kube-apiserver syntax)."""

from __future__ import annotations

import pytest

from kubectl_wasdra.catalog.apis import api_status, format_releases, parse_runtime_config, served_kinds, version_enabled
from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.errors import UsageError


def _status(release: str, api_version: str, kind: str, config: dict[str, bool] | None = None, gates_off: tuple = ()):
    return api_status(Release.parse(release), api_version, kind, config or {}, lambda g: g not in gates_off)


@pytest.mark.parametrize(("release", "api_version", "kind", "served"), [
    ("1.33", "resource.k8s.io/v1", "ResourceClaim", False),
    ("1.34", "resource.k8s.io/v1", "ResourceClaim", True),
    ("1.37", "resource.k8s.io/v1", "DeviceTaintRule", True),
    ("1.36", "resource.k8s.io/v1", "DeviceTaintRule", False),
    ("1.36", "scheduling.k8s.io/v1beta1", "PodGroup", False),
    ("1.37", "scheduling.k8s.io/v1beta1", "PodGroup", True),
    ("1.35", "scheduling.k8s.io/v1alpha1", "Workload", True),
    ("1.37", "scheduling.k8s.io/v1alpha1", "Workload", False),
    ("1.36", "scheduling.k8s.io/v1alpha2", "PodGroup", True),
    ("1.37", "scheduling.k8s.io/v1alpha2", "PodGroup", False),
    ("1.37", "apps/v1", "Deployment", True),
    ("1.37", "apps/v1beta1", "Deployment", False),
], ids=lambda v: str(v))
def test_served(release: str, api_version: str, kind: str, served: bool) -> None:
    assert _status(release, api_version, kind).served is served


def test_not_served_names_releases_and_what_to_use() -> None:
    status = _status("1.37", "scheduling.k8s.io/v1alpha1", "Workload")
    assert status.not_served_message() == \
        "scheduling.k8s.io/v1alpha1 Workload is not served by Kubernetes 1.37 (served in 1.35 only)"
    hint = status.instead_hint()
    assert hint.startswith("use scheduling.k8s.io/v1beta1 (needs --runtime-config scheduling.k8s.io/v1beta1=true")


def test_dra_v1_before_134_points_at_a_beta_version() -> None:
    status = _status("1.33", "resource.k8s.io/v1", "ResourceClaim")
    assert "served in 1.34-1.37" in status.not_served_message()
    assert status.instead_hint().startswith("use resource.k8s.io/v1beta2")


def test_beta_off_by_default_needs_runtime_config_and_gates() -> None:
    off = _status("1.37", "scheduling.k8s.io/v1beta1", "PodGroup", gates_off=("GenericWorkload",))
    assert off.served and not off.enabled and off.missing_runtime_config and off.gates_off == ("GenericWorkload",)
    config_only = _status("1.37", "scheduling.k8s.io/v1beta1", "PodGroup", {"scheduling.k8s.io/v1beta1": True},
                          gates_off=("GenericWorkload",))
    assert not config_only.enabled and not config_only.missing_runtime_config
    on = _status("1.37", "scheduling.k8s.io/v1beta1", "PodGroup", {"scheduling.k8s.io/v1beta1": True})
    assert on.enabled


def test_ga_version_can_be_switched_off() -> None:
    assert not _status("1.37", "resource.k8s.io/v1", "ResourceClaim", {"resource.k8s.io/v1": False}).enabled
    assert not _status("1.37", "resource.k8s.io/v1", "ResourceClaim", {"api/all": False}).enabled


def test_deprecated_versions() -> None:
    assert _status("1.35", "resource.k8s.io/v1beta1", "ResourceClaim").deprecated
    assert not _status("1.34", "resource.k8s.io/v1beta1", "ResourceClaim").deprecated


@pytest.mark.parametrize(("items", "expected"), [
    (["scheduling.k8s.io/v1beta1=true"], {"scheduling.k8s.io/v1beta1": True}),
    (["resource.k8s.io/v1beta2"], {"resource.k8s.io/v1beta2": True}),
    (["api/alpha=false", "api/all=true"], {"api/alpha": False, "api/all": True}),
    (["api/v1=false"], {"v1": False}),
    (["batch/v1=f"], {"batch/v1": False}),
])
def test_parse_runtime_config(items: list[str], expected: dict[str, bool]) -> None:
    assert parse_runtime_config(items) == expected


@pytest.mark.parametrize("item", ["scheduling=true", "apps/v1=maybe", "example/notaversion=true"])
def test_parse_runtime_config_rejects(item: str) -> None:
    with pytest.raises(UsageError):
        parse_runtime_config([item])


def test_version_enabled_precedence() -> None:
    config = {"api/beta": True, "resource.k8s.io/v1beta1": False}
    assert not version_enabled(config, "resource.k8s.io", "v1beta1", default=False)
    assert version_enabled(config, "resource.k8s.io", "v1beta2", default=False)
    assert not version_enabled({}, "resource.k8s.io", "v1alpha3", default=False)


def test_every_release_serves_core_pods_and_format_releases() -> None:
    assert all(("v1", "Pod") in served_kinds(r) for r in SUPPORTED)
    assert format_releases([Release(1, 33), Release(1, 35)]) == "1.33, 1.35"


def test_misspelt_kind_gets_a_suggestion() -> None:
    status = _status("1.37", "apps/v1", "Deploymnet")
    assert not status.served and status.instead_hint() == "did you mean apps/v1 Deployment?"
    hint = _status("1.37", "resource.k8s.io/v1", "ResourceClam").instead_hint()
    assert hint == "did you mean resource.k8s.io/v1 ResourceClaim?"
