"""Real manifests (tests/corpus/upstream, with its SOURCES.md): every file loads without a crash, the whole check
runs over them, and the LOAD/API/SCHEMA verdict per file and release 1.33-1.37 matches tests/corpus_verdicts.json.

Known facts are asserted directly (resource.k8s.io/v1 is not served before 1.34; scheduling.k8s.io/v1alpha1 Workload
only in 1.35). Regenerate the recorded verdicts after an intended change with:
    WASDRA_UPDATE_CORPUS=1 python -m pytest tests/test_corpus.py
"""

from __future__ import annotations

import functools
import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

from kubectl_wasdra.catalog.apis import served_kinds
from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.lint.pipeline import CheckOptions, CheckReport, run_check
from kubectl_wasdra.load import load_file

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "upstream"
VERDICTS = Path(__file__).resolve().parent / "corpus_verdicts.json"


@functools.cache
def _report(release: Release, select: tuple[str, ...] = ("LOAD", "API", "SCHEMA")) -> CheckReport:
    return run_check(CheckOptions(paths=(str(CORPUS),), releases=(release,), select=select, jobs=1))


def _name(file: str) -> str:
    return Path(file).relative_to(CORPUS).as_posix()


def _verdicts() -> dict[str, dict[str, list[str]]]:
    verdicts: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for release in SUPPORTED:
        report = _report(release)
        rules: dict[str, set[str]] = defaultdict(set)
        for finding in report.findings:
            rules[_name(finding.file)].add(finding.rule)
        for file in report.files:
            verdicts[_name(file)][str(release)] = sorted(rules[_name(file)]) or ["ok"]
    return dict(sorted(verdicts.items()))


@pytest.mark.smoke
def test_every_file_loads_without_a_crash() -> None:
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file())
    assert files
    for path in files:
        documents, problems = load_file(str(path))
        assert all(p.line >= 1 and p.column >= 1 and p.message for p in problems), path
        assert all(d.api_version and d.kind for d in documents), path


def test_the_whole_check_runs_over_the_corpus() -> None:
    report = _report(Release(1, 37), ())
    assert len(report.files) >= 200 and len(report.documents) >= 400
    assert all(f.line >= 1 and f.column >= 1 for f in report.findings)


def _flagged(release: Release, rule: str) -> set[tuple[str, int]]:
    return {(f.file, f.line) for f in _report(release).findings if f.rule == rule}


def _api_version_lines(api_version: str, kind: str | None = None) -> set[tuple[str, int]]:
    report = _report(Release(1, 37))
    return {(d.file, d.position(("apiVersion",), "value")[0]) for d in report.documents
            if d.api_version == api_version and (kind is None or d.kind == kind)}


@pytest.mark.parametrize("kind", ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"])
def test_resource_v1_is_not_served_before_134(kind: str) -> None:
    documents = _api_version_lines("resource.k8s.io/v1", kind)
    assert documents
    assert documents <= _flagged(Release(1, 33), "API001")
    for release in SUPPORTED[1:]:
        assert not documents & _flagged(release, "API001")


def test_device_taint_rule_v1_is_served_from_137() -> None:
    documents = _api_version_lines("resource.k8s.io/v1", "DeviceTaintRule")
    assert documents
    for release in SUPPORTED:
        assert (documents & _flagged(release, "API001") == set()) is (str(release) == "1.37"), release


def test_workload_v1alpha1_is_served_in_135_only() -> None:
    documents = _api_version_lines("scheduling.k8s.io/v1alpha1", "Workload")
    assert documents
    for release in SUPPORTED:
        flagged = documents & _flagged(release, "API001")
        assert (flagged == set()) if str(release) == "1.35" else (flagged == documents), release


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_api001_agrees_with_the_served_table(release: Release) -> None:
    flagged = _flagged(release, "API001")
    for document in _report(release).documents:
        key = (document.file, document.position(("apiVersion",), "value")[0])
        if (document.api_version, document.kind) in served_kinds(release):
            assert key not in flagged, key


@pytest.mark.smoke
def test_verdicts_match_the_record() -> None:
    verdicts = _verdicts()
    if os.environ.get("WASDRA_UPDATE_CORPUS"):
        VERDICTS.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")
    assert verdicts == json.loads(VERDICTS.read_text())
