"""The real-world regression corpus (tests/corpus/realworld, sources in its SOURCES.md): the verdict of every document
at every release 1.33-1.37, each repository checked on its own, matches the reviewed record in
tests/corpus/realworld-verdicts.json, and `check` over it with tests/corpus/upstream exits 0 or 1 at every
release, never with an internal error.

Regenerate the record after an intended change (then review each changed verdict against the Kubernetes sources):
    WASDRA_UPDATE_CORPUS=1 python -m pytest tests/test_realworld_corpus.py
"""

from __future__ import annotations

import functools
import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.cli import main
from kubectl_wasdra.lint.pipeline import INTERNAL_ERROR_HINT, CheckOptions, CheckReport, document_label, run_check

ROOT = Path(__file__).resolve().parent.parent
REALWORLD = ROOT / "tests" / "corpus" / "realworld"
VERDICTS = ROOT / "tests" / "corpus" / "realworld-verdicts.json"
UPSTREAM = ROOT / "tests" / "corpus" / "upstream"


@functools.cache
def _reports(release: Release) -> tuple[CheckReport, ...]:
    """One check per repository, as its owners would run it: references resolve only within a repository."""
    repositories = sorted(p for p in REALWORLD.iterdir() if p.is_dir())
    return tuple(run_check(CheckOptions(paths=(str(repo),), releases=(release,), jobs=1)) for repo in repositories)


def _key(file: str, label: str) -> str:
    return f"{Path(file).relative_to(REALWORLD).as_posix()}::{label or '(file)'}"


def _verdicts() -> dict[str, dict[str, list[str]]]:
    """{"path::object": {release: sorted rule IDs or ["ok"]}} for every document and every file with findings."""
    verdicts: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for release in SUPPORTED:
        reports = _reports(release)
        rules: dict[str, set[str]] = defaultdict(set)
        for finding in (f for report in reports for f in report.findings):
            rules[_key(finding.file, finding.object)].add(finding.rule)
        keys = {_key(d.file, document_label(d)) for report in reports for d in report.documents} | set(rules)
        for key in keys:
            verdicts[key][str(release)] = sorted(rules[key]) or ["ok"]
    return dict(sorted(verdicts.items()))


def test_the_corpus_is_large_enough_and_sourced() -> None:
    files = [p for p in REALWORLD.rglob("*") if p.is_file() and p.name != "SOURCES.md"]
    sources = (REALWORLD / "SOURCES.md").read_text()
    assert len(files) >= 300
    for path in files:
        owner_repo, _, inner = path.relative_to(REALWORLD).as_posix().partition("/")
        assert f"| {owner_repo.replace('__', '/')} |" in sources and f"`{inner}`" in sources, path


@pytest.mark.smoke
def test_verdicts_match_the_reviewed_record() -> None:
    verdicts = _verdicts()
    if os.environ.get("WASDRA_UPDATE_CORPUS"):
        VERDICTS.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")
    assert verdicts == json.loads(VERDICTS.read_text())


def test_known_verdicts() -> None:
    """A few verdicts checked by hand against the sources (see the module docstring of each rule)."""
    verdicts = json.loads(VERDICTS.read_text())
    templates = "kubernetes-sigs__jobset/charts/jobset/templates/controller/service_account.yaml::(file)"
    assert all(v == ["LOAD013"] for v in verdicts[templates].values())   # a Helm template: skipped with a note
    go_template = "kubernetes__kubernetes/test/integration/scheduler_perf/templates/podgroup.yaml::(file)"
    assert verdicts[go_template]["1.37"] == ["LOAD013"]                   # scheduler_perf's Go template
    lws = "kubernetes-sigs__lws/docs/examples/sample/lws-exclusive-placement.yaml::LeaderWorkerSet leaderworkerset-sample"
    assert "REF013" in verdicts[lws]["1.37"]   # three files of one folder define the same LeaderWorkerSet
    removed = "kubernetes__kubernetes/test/e2e/dra/test-driver/deploy/example/pod-inline.yaml::ResourceClaimTemplate " \
              "default/test-inline-claim-template"
    assert all("API001" in v for v in verdicts[removed].values())         # resource.k8s.io/v1alpha2: gone since 1.31
    tpu = "kubernetes-sigs__lws/config/samples/leaderworkerset_tpu.yaml::LeaderWorkerSet leaderworkerset-sample"
    assert "REF013" not in verdicts[tpu]["1.37"]   # the fourth copy is in another folder: named by the REF013 above
    binding = "kubernetes-sigs__kueue/site/static/examples/admin/cluster-role-and-binding.yaml::ClusterRoleBinding " \
              "kueue-api-get"
    assert verdicts[binding]["1.37"] == ["VALID011"]   # ServiceAccount subject without namespace (rbac validation)


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_check_exits_0_or_1_without_internal_error(release: Release, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "-R", str(REALWORLD), str(UPSTREAM), "--k8s-version", str(release), "-o", "json", "-j", "1"])
    out, err = capsys.readouterr()
    findings = json.loads(out)["findings"]
    assert exit_info.value.code in (0, 1), err
    assert not [f for f in findings if f["hint"] == INTERNAL_ERROR_HINT]
