"""The repository as context (lint/repo/context.py): references in the files given resolve against every manifest of
the project root, findings are reported for the given files only, and what a given file causes elsewhere is
reported on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from layouts import GATES, GIT, GROUPS, RUNTIME, job, repository, write

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.lint.repo.context import project_root

pytestmark = pytest.mark.skipif(GIT is None, reason="git not installed")


def _check(work: Path, paths: tuple[str, ...], *, context: bool = True,
           cache: Path | None = None) -> list[tuple[str, str, int, str]]:
    old = os.getcwd()
    os.chdir(work)
    try:
        report = run_check(CheckOptions(paths=paths, feature_gates=GATES, runtime_config=RUNTIME,
                                        project_root=project_root() if context else None,
                                        cache_dir=str(cache) if cache else None))
    finally:
        os.chdir(old)
    return [(f.rule, f.file, f.line, f.path) for f in report.findings]


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    return repository(tmp_path / "repo", {"deploy/groups.yaml": GROUPS, "deploy/job.yaml": job(8)})


def test_references_resolve_against_the_repository(layout: Path, tmp_path: Path) -> None:
    assert _check(layout, ("deploy/job.yaml",), cache=tmp_path / "cache") == []
    alone = {rule for rule, *_ in _check(layout, ("deploy/job.yaml",), context=False)}
    assert alone == {"REF001", "REF004"}   # what the file on its own gets: both names are defined elsewhere


def test_a_change_reports_what_it_causes_elsewhere_on_the_given_object(layout: Path, tmp_path: Path) -> None:
    write(layout, {"deploy/job.yaml": job(6)})
    findings = _check(layout, ("deploy/job.yaml",), cache=tmp_path / "cache")
    # GANG001 belongs to the PodGroup in groups.yaml; the Job's change causes it, so it is reported at the Job's
    # reference to that PodGroup, naming the other place
    assert findings == [("GANG001", "deploy/job.yaml", 10, "spec.template.spec.schedulingGroup.podGroupName")]
    old = os.getcwd()
    os.chdir(layout)
    try:
        report = run_check(CheckOptions(paths=("deploy/job.yaml",), feature_gates=GATES, runtime_config=RUNTIME,
                                        project_root=str(layout)))
    finally:
        os.chdir(old)
    (finding,) = report.findings
    assert "deploy/groups.yaml:16:" in finding.message and "minCount 8" in finding.message
    assert report.summary.files == 1 and report.summary.documents == 1   # the context is not counted as checked


def test_findings_of_other_files_not_caused_by_the_given_ones_stay_out(layout: Path) -> None:
    broken = GROUPS.replace("  selectors:", "  selectorz: []\n  selectors:")
    other = job(6).replace("name: train,", "name: other,").replace("podGroupName: train-workers", "podGroupName: ghost")
    write(layout, {"deploy/groups.yaml": broken, "deploy/other.yaml": other})
    assert _check(layout, ("deploy/job.yaml",)) == []   # groups.yaml's SCHEMA002, other.yaml's REF004: not the Job's
    assert {rule for rule, *_ in _check(layout, ("deploy/",))} == {"SCHEMA002", "REF004"}


def test_a_duplicate_defined_in_a_given_file_names_the_copy_elsewhere(layout: Path) -> None:
    copy = GROUPS.split("---\n")[2].replace("deviceClassName: gpu.example.com", "deviceClassName: other")
    write(layout, {"deploy/zz-copy.yaml": copy})
    rules = {rule for rule, *_ in _check(layout, ("deploy/zz-copy.yaml",))}
    assert "REF013" in rules or "REF012" in rules


def test_a_copy_in_another_folder_is_another_environment(layout: Path) -> None:
    # REF012 says "check one environment's folder at a time": the context does not bring the other folders' copies back
    copy = GROUPS.split("---\n")[2].replace("deviceClassName: gpu.example.com", "deviceClassName: other")
    write(layout, {"prod/copy.yaml": copy, "deploy/zz-copy.yaml": copy})
    assert {rule for rule, *_ in _check(layout, ("prod/copy.yaml",))} & {"REF012", "REF013"} == set()
    assert {rule for rule, *_ in _check(layout, ("prod/", "deploy/"))} & {"REF012", "REF013"}


def test_transitive_definitions_are_reached(layout: Path) -> None:
    # the Workload the PodGroup names lives in a third file: the PodGroup's template lookup still resolves
    workload, podgroup, template, device_class = GROUPS.split("---\n")
    write(layout, {"deploy/groups.yaml": "---\n".join((podgroup, template, device_class)), "base/workload.yaml": workload})
    assert _check(layout, ("deploy/job.yaml",)) == []
    rules = {rule for rule, *_ in _check(layout, ("deploy/job.yaml", "deploy/groups.yaml"), context=False)}
    assert "REF005" in rules or "REF006" in rules   # without the repository the Workload is missing


def test_project_root_is_the_config_directory_else_the_work_tree(layout: Path) -> None:
    old = os.getcwd()
    try:
        os.chdir(layout / "deploy")
        assert project_root() == str(layout)
        (layout / "deploy" / ".wasdra.yaml").write_text('k8sVersion: "1.37"\n')
        assert project_root() == str(layout / "deploy")
    finally:
        os.chdir(old)
    assert project_root(str(layout.parent)) is None or project_root(str(layout.parent)) != str(layout)


def test_files_from_outside_the_project_get_no_context(layout: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "job.yaml").write_text(job(8))
    assert {rule for rule, *_ in _check(layout, (str(outside / "job.yaml"),))} == {"REF001", "REF004"}


def test_the_command_line_uses_the_repository_unless_told_not_to(layout: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli_runner import run

    monkeypatch.chdir(layout)
    monkeypatch.delenv("WASDRA_REPO_CONTEXT", raising=False)
    monkeypatch.setenv("WASDRA_CACHE_DIR", str(tmp_path / "cache"))
    gates = ["--feature-gates", "GenericWorkload=true", "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
    code, out, _ = run(["check", "deploy/job.yaml", *gates, "-o", "json"], capsys)
    assert code == 0 and '"findings": []' in out
    code, out, _ = run(["check", "deploy/job.yaml", *gates, "-o", "json", "--no-repo-context"], capsys)
    assert "REF004" in out and "REF001" in out
    monkeypatch.setenv("WASDRA_REPO_CONTEXT", "false")
    code, out, _ = run(["check", "deploy/job.yaml", *gates, "-o", "json"], capsys)
    assert "REF004" in out
    assert list((tmp_path / "cache").glob("index-repo-*.json"))   # the index was kept on disk


def test_renaming_an_object_reports_the_references_it_breaks_elsewhere(layout: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _check(layout, ("deploy/groups.yaml",), cache=cache) == []   # the index remembers what groups.yaml defines
    write(layout, {"deploy/groups.yaml": GROUPS.replace("name: train-workers,", "name: train-workerz,")})
    findings = _check(layout, ("deploy/groups.yaml",), cache=cache)
    # job.yaml's podGroupName now names nothing: reported on the renamed PodGroup, naming job.yaml
    assert findings == [("REF004", "deploy/groups.yaml", 12, "metadata.name")]   # at the PodGroup's new name
