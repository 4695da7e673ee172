"""Component configuration files (KubeSchedulerConfiguration, KubeletConfiguration, kubeadm, kind) beside manifests:
SCHEMA006 says what reads them and how to check them, never "pass its CRD" (no CRD describes them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.component_configs import component_config
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

SCHEDULER = """apiVersion: kubescheduler.config.k8s.io/{version}
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
"""


def _findings(tmp_path: Path, text: str) -> list[tuple[str, str, str]]:
    file = tmp_path / "config.yaml"
    file.write_text(text)
    report = run_check(CheckOptions(paths=(str(file),), jobs=1))
    return [(f.rule, f.message, f.hint) for f in report.findings]


def test_a_scheduler_configuration_points_at_scheduler_config(tmp_path: Path) -> None:
    [(rule, message, hint)] = _findings(tmp_path, SCHEDULER.format(version="v1"))
    assert rule == "SCHEMA006"
    assert "kube-scheduler configuration file" in message and "not an object of the Kubernetes API" in message
    assert "--scheduler-config" in hint and "CRD" not in hint


def test_a_removed_scheduler_configuration_version_says_so(tmp_path: Path) -> None:
    [(_, _, hint)] = _findings(tmp_path, SCHEDULER.format(version="v1beta3"))
    assert "reads only kubescheduler.config.k8s.io/v1" in hint


@pytest.mark.parametrize(("api_version", "reader"), [
    ("kubelet.config.k8s.io/v1beta1", "kubelet"),
    ("kubeadm.k8s.io/v1beta4", "kubeadm"),
    ("kind.x-k8s.io/v1alpha4", "kind"),
    ("audit.k8s.io/v1", "audit policy"),
])
def test_other_component_configurations(api_version: str, reader: str) -> None:
    config = component_config(api_version)
    assert config is not None and reader in config.what


def test_a_custom_resource_still_points_at_its_crd(tmp_path: Path) -> None:
    text = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js}\nspec: {}\n"
    [(rule, message, hint)] = _findings(tmp_path, text)
    assert rule == "SCHEMA006" and message.startswith("no schema for") and "--schema-location" in hint
    assert component_config("kubescheduler.config.k8s.io.example.com/v1") is None
