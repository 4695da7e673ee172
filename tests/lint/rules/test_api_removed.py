"""Objects of removed built-in APIs are errors (API001), never custom resources without a schema (SCHEMA006)."""

from __future__ import annotations

from pathlib import Path

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "lint" / "API001" / "bad-removed-since-116.yaml"


def test_removed_api_is_one_api001_with_release_and_successor() -> None:
    report = run_check(CheckOptions(paths=(str(FIXTURE),), releases=(Release(1, 33), Release(1, 37)), jobs=1))
    found = [(f.rule, f.line, f.message, f.hint) for f in report.findings]
    assert found[0] == ("API001", 5, "extensions/v1beta1 Ingress was removed in Kubernetes 1.22 (deprecated since 1.14)",
                        "use networking.k8s.io/v1")
    assert {rule for rule, *_ in found} == {"API001"}          # no SCHEMA006, no per-release duplicates
    assert len(found) == 5


def test_a_kind_removed_without_a_successor_api_names_what_took_over_its_function() -> None:
    website = Path(__file__).resolve().parents[3] / "tests/corpus/realworld/kubernetes__website/content/en/examples"
    report = run_check(CheckOptions(paths=(str(website / "policy/restricted-psp.yaml"),), releases=(Release(1, 37),),
                                    jobs=1))
    [finding] = report.findings
    assert finding.message == "policy/v1beta1 PodSecurityPolicy was removed in Kubernetes 1.25 (deprecated since 1.21)"
    assert finding.hint is not None and "use Pod Security Admission" in finding.hint


def test_classic_dra_class_points_at_device_class(tmp_path: Path) -> None:
    (tmp_path / "class.yaml").write_text("apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\n"
                                         "metadata: {name: gpu}\ndriverName: gpu.example.com\n")
    [finding] = run_check(CheckOptions(paths=(str(tmp_path),), releases=(Release(1, 37),), jobs=1)).findings
    assert finding.rule == "API001" and finding.hint is not None and "resource.k8s.io/v1 DeviceClass" in finding.hint
