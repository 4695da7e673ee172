"""REF001/REF010: the ResourceClaimTemplate a ComputeDomain (NVIDIA's DRA driver) generates counts as defined, in the
ComputeDomain's namespace only (lint/rules/_generated.py)."""

from __future__ import annotations

from pathlib import Path

from fixture_runner import ROOT, snapshot_at

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

DOMAIN = """apiVersion: {api_version}
kind: ComputeDomain
metadata: {{name: imex, namespace: {namespace}}}
spec:
  numNodes: 0
  channel:
    resourceClaimTemplate: {{name: imex-channel-0}}
---
"""
POD = """apiVersion: v1
kind: Pod
metadata: {name: worker, namespace: ml}
spec:
  containers: [{name: c, image: x, resources: {claims: [{name: imex}]}}]
  resourceClaims: [{name: imex, resourceClaimTemplateName: imex-channel-0}]
"""


def _rules(tmp_path: Path, text: str, *, snapshot: bool = False) -> list[str]:
    file = tmp_path / "imex.yaml"
    file.write_text(text)
    cluster = snapshot_at(str(ROOT / "fixtures" / "clusters" / "two-racks")) if snapshot else None
    report = run_check(CheckOptions(paths=(str(file),), snapshot=cluster, jobs=1, select=("REF",)))
    return [f.rule for f in report.findings]


def test_the_compute_domains_template_is_defined(tmp_path: Path) -> None:
    assert _rules(tmp_path, DOMAIN.format(api_version="resource.nvidia.com/v1beta1", namespace="ml") + POD) == []


def test_without_the_compute_domain_the_template_is_missing(tmp_path: Path) -> None:
    assert _rules(tmp_path, POD) == ["REF001"]


def test_a_compute_domain_of_another_namespace_does_not_count(tmp_path: Path) -> None:
    assert _rules(tmp_path, DOMAIN.format(api_version="resource.nvidia.com/v1beta1", namespace="other") + POD) == [
        "REF001"]


def test_a_compute_domain_of_another_group_does_not_count(tmp_path: Path) -> None:
    assert _rules(tmp_path, DOMAIN.format(api_version="example.com/v1", namespace="ml") + POD) == ["REF001"]


def test_with_a_snapshot_the_generated_template_is_no_miss(tmp_path: Path) -> None:
    assert _rules(tmp_path, POD, snapshot=True) == ["REF010"]
    assert _rules(tmp_path, DOMAIN.format(api_version="resource.nvidia.com/v1beta1", namespace="ml") + POD,
                  snapshot=True) == []
