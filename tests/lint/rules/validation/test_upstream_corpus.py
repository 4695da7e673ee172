"""The upstream corpus (real manifests from Kubernetes, drivers and docs) through the GATE and VALID rules, per release:
nothing crashes, and VALID errors appear only on the files known to be invalid for the API server."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import module_rules

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import check_documents
from kubectl_wasdra.load import load_paths

ROOT = Path(__file__).resolve().parents[4]
CORPUS = ROOT / "tests" / "corpus" / "upstream"

# Files the API server rejects, and why (all releases unless noted).
KNOWN_INVALID = {
    "sharing-demo-job.yaml": "pre-1.31 `source:` wrapper in pod resourceClaims",
    "gpu-test4__at-b13a15f.yaml": "pre-1.31 `source:` wrapper in pod resourceClaims",
    "pods-shared-gpu.yaml": "Pod name with a `__INDEX__` placeholder the test script replaces (not a DNS subdomain)",
    "resourceslice-consumablecapacity.yaml": "sharedCounters and devices in one slice (rejected from 1.35)",
    "resourceslice-partitionable.yaml": "sharedCounters and devices in one slice (rejected from 1.35)",
    "resourceslice-list-attributes.yaml": "attribute name with '-' is not a C identifier",
    "podgroup-priority.yaml": "docs example without basic/gang policy",
    "examples__dra__resourceclaim.yaml": "docs example: cel.expression mis-indented, so cel is empty",
    # served but not enabled (v1alpha3 in 1.33/1.34): validated as written since API002 no longer silences VALID
    "dynamic-resource-allocation.md__at-a59a7c35__v1alpha3.yaml": "docs example: DeviceClass without metadata.name",
}
# 1.33/1.34 only: counter sets must be in the same slice, no distinctAttribute, allowMultipleAllocations unknown.
KNOWN_INVALID_BEFORE_135 = ("partitionable", "compatibilitygroups", "countersets", "distinct", "consumablecapacity")
# Before 1.36 DRAConsumableCapacity is alpha (off): selectors on device.allowMultipleAllocations do not compile.
KNOWN_INVALID_BEFORE_136 = ("deviceclass-consumablecapacity",)
OWN = module_rules("gates", "validation")


@pytest.fixture(scope="module")
def documents() -> tuple:
    return load_paths([str(CORPUS)]).documents


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_corpus_verdicts(documents: tuple, release: Release) -> None:
    findings = check_documents(documents, OWN, CheckContext(release=release))
    unexpected = sorted({f.file for f in findings if f.rule.startswith("VALID") and f.severity == "error"
                         and not any(name in f.file for name in KNOWN_INVALID)
                         and not (release < Release(1, 35) and any(k in f.file for k in KNOWN_INVALID_BEFORE_135))
                         and not (release < Release(1, 36) and any(k in f.file for k in KNOWN_INVALID_BEFORE_136))})
    assert unexpected == []


def test_corpus_gate_findings_follow_defaults(documents: tuple) -> None:
    by_release = {r: {f.path for f in check_documents(documents, OWN, CheckContext(release=r)) if f.rule == "GATE001"
                      and "capacity" in f.path} for r in (Release(1, 35), Release(1, 36))}
    assert by_release[Release(1, 35)] and not by_release[Release(1, 36)]   # DRAConsumableCapacity: alpha off -> beta on


def _file_findings(documents: tuple, name: str, release: Release) -> list[tuple[str, str, int]]:
    chosen = tuple(d for d in documents if d.file.endswith(name))
    assert chosen, name
    return sorted((f.rule, str(f.severity), f.line) for f in check_documents(chosen, OWN, CheckContext(release=release))
                  if f.rule.startswith("VALID"))


@pytest.mark.parametrize("release", [Release(1, 36), Release(1, 37)], ids=str)   # DRADeviceTaints on by default
def test_device_tolerations_without_key_are_accepted_with_a_warning(documents: tuple, release: Release) -> None:
    # intel-resource-drivers-for-kubernetes monitor-pod-inline.yaml: `- effect: NoExecute` / `- effect: NoSchedule`
    # (no key, operator defaulted to Equal): accepted by validateDeviceToleration, but it matches only taints without
    # a value; the author meant operator: Exists
    found = _file_findings(documents, "deployments__gpu__examples__monitor-pod-inline.yaml", release)
    assert found == [("VALID018", "warning", 16), ("VALID018", "warning", 17)]


def test_placeholder_pod_name_is_invalid(documents: tuple) -> None:
    # NVIDIA k8s-dra-driver-gpu tests/bats/specs/pods-shared-gpu.yaml: `stress-pod-__INDEX__` before the test script
    # substitutes it; ValidatePodName (a DNS subdomain) rejects '_'
    assert _file_findings(documents, "tests__bats__specs__pods-shared-gpu.yaml", Release(1, 37)) == [
        ("VALID004", "error", 8)]
