"""The upstream corpus (real manifests from Kubernetes, drivers and docs) through the GATE and VALID rules, per release:
nothing crashes, and VALID errors appear only on the files known to be invalid for the API server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fixture_runner import module_rules

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import check_documents
from kubectl_wasdra.load import load_paths

ROOT = Path(__file__).resolve().parents[4]
CANDIDATES = (ROOT.parent / "shared" / "corpus" / "upstream", Path(os.environ.get("WASDRA_CORPUS", "/nonexistent")))
CORPUS = next((p for p in CANDIDATES if p.is_dir()), None)

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
}
# 1.33/1.34 only: counter sets must be in the same slice, no distinctAttribute, allowMultipleAllocations unknown.
KNOWN_INVALID_BEFORE_135 = ("partitionable", "compatibilitygroups", "countersets", "distinct", "consumablecapacity")
# Before 1.36 DRAConsumableCapacity is alpha (off): selectors on device.allowMultipleAllocations do not compile.
KNOWN_INVALID_BEFORE_136 = ("deviceclass-consumablecapacity",)
OWN = module_rules("gates", "validation")


@pytest.fixture(scope="module")
def documents() -> tuple:
    if CORPUS is None:
        pytest.skip("upstream corpus not available")
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
