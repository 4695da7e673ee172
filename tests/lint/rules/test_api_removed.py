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
