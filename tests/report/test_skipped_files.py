"""Files skipped as not manifests are not results: a count line in text and github output (listed with -v), SARIF
tool execution notifications instead of results, and never a reason to fail; the default excludes (what --help
promises: Chart.yaml, values*.yaml, kustomization.yaml, .github/) are not even counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_runner import run

FILES = {
    "deploy/pod.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n",
    "chart/templates/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Values.name }}\n",
    "compose/docker-compose.yml": "services:\n  web: {image: nginx}\n",
    "chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
    "chart/values.yaml": "name: x\n",
    "kustomization.yaml": "resources: [deploy/pod.yaml]\n",
    ".pre-commit-config.yaml": "repos: []\n",
}


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _named() -> list[str]:
    return sorted(FILES)   # as pre-commit passes them: every file by name


def test_text_counts_skipped_files_and_lists_them_with_verbose(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", *_named(), "--fail-on", "info"], capsys)
    assert code == 0 and "LOAD013" not in out
    assert "2 files skipped: not manifests; -v to list" in out
    assert "Chart.yaml" not in out and "values.yaml" not in out and "pre-commit" not in out   # default excludes
    code, out, _ = run(["check", *_named(), "-v"], capsys)
    assert code == 0 and out.count("LOAD013") == 2 and "templates/job.yaml" in out and "docker-compose.yml" in out
    assert "-v to list" not in out


def test_github_gives_no_notice_per_skipped_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["check", ".", "-o", "github"], capsys)
    assert "::notice" not in out and "2 files skipped" in out
    _, out, _ = run(["check", ".", "-o", "github", "--verbose"], capsys)
    assert out.count("::notice") == 2


def test_sarif_puts_skipped_files_in_tool_notifications(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["check", ".", "-o", "sarif"], capsys)
    (sarif_run,) = json.loads(out)["runs"]
    assert sarif_run["results"] == []
    (invocation,) = sarif_run["invocations"]
    notes = invocation["toolExecutionNotifications"]
    assert invocation["executionSuccessful"] is True
    assert sorted(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes) == [
        "chart/templates/job.yaml", "compose/docker-compose.yml"]
    assert {n["level"] for n in notes} == {"note"} and {n["descriptor"]["id"] for n in notes} == {"LOAD013"}


def test_no_default_excludes_reads_the_well_known_files(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["check", *_named(), "--no-default-excludes"], capsys)
    assert "6 files skipped" in out
