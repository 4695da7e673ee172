"""pre-commit runs the `.pre-commit-config.yaml` of docs/check.md (a `repo: local` hook using the installed tool, so nothing is
downloaded) in a temporary git repository; that hook agrees with the `wasdra-check` definition of .pre-commit-hooks.yaml."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GIT = shutil.which("git")
pytestmark = [pytest.mark.skipif(GIT is None, reason="git not installed"),
              pytest.mark.skipif(shutil.which("pre-commit") is None and not shutil.which("kubectl-wasdra"),
                                 reason="pre-commit or kubectl-wasdra not installed")]


def _hook() -> dict:
    (hook,) = [h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text()) if h["id"] == "wasdra-check"]
    return hook


def _readme_config() -> dict:
    """The YAML block of docs/check.md (pre-commit and CI) that starts with `# .pre-commit-config.yaml`."""
    text = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if b.startswith("# .pre-commit-config.yaml")]
    return yaml.safe_load(block)


def test_hook_definition() -> None:
    hook = _hook()
    assert hook["types_or"] == ["yaml", "json"] and hook["require_serial"] is True
    assert hook["entry"] == "kubectl-wasdra check" and hook["language"] == "python"


def test_readme_hook_matches_the_definition() -> None:
    (repo,) = _readme_config()["repos"]
    (local,) = repo["hooks"]
    assert repo["repo"] == "local" and "rev" not in repo  # nothing pinned that could not exist
    hook = _hook()
    for key in ("id", "entry", "types_or", "require_serial", "pass_filenames"):
        assert local.get(key, True) == hook[key], key
    # no flags and no exclude list of its own: .wasdra.yaml and the tool's default excludes decide
    assert "args" not in local and "exclude" not in local and "exclude" not in hook


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    work = tmp_path / "repo"
    work.mkdir()
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", NO_COLOR="1")
    config = _readme_config()  # exactly as docs/check.md shows it, run with the tool installed here (no network)
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    subprocess.run([GIT, "init", "-q"], cwd=work, env=env, check=True)
    return work, env


def _run(work: Path, env: dict[str, str], files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    for name, text in files.items():
        (work / name).write_text(text)
    subprocess.run([GIT, "add", "-A"], cwd=work, env=env, check=True)
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=work, env=env,
                          capture_output=True, text=True, check=False)


def test_hook_passes_clean_manifests(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    files = {p.name: p.read_text() for p in (ROOT / "fixtures" / "manifests" / "check").iterdir()}
    result = _run(work, env, {**files, "README.md": "# not a manifest\n"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "kubectl-wasdra check" in result.stdout and "Passed" in result.stdout


def test_hook_fails_on_findings(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    broken = (ROOT / "fixtures" / "manifests" / "check-broken" / "train.yaml").read_text()
    result = _run(work, env, {"train.yaml": broken})
    assert result.returncode == 1
    assert "SCHEMA002" in result.stdout and "train.yaml" in result.stdout


def test_hook_needs_no_flags_when_the_config_file_carries_them(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    gang = (ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml").read_text()
    gang += "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
    files = {"train.yaml": gang, "Chart.yaml": "apiVersion: v2\nname: x\nversion: 0.1.0\n", "values.yaml": "replicas: 2\n"}
    result = _run(work, env, files)
    assert result.returncode == 1 and "API002" in result.stdout   # the gang needs gates and runtime config
    # left out by the default excludes (Chart.yaml, values*.yaml ...): no note, no error, no count
    assert "LOAD013" not in result.stdout and "Chart.yaml" not in result.stdout and "skipped" not in result.stdout
    config = ('k8sVersion: "1.37"\nfeatureGates: {GenericWorkload: true, TopologyAwareWorkloadScheduling: true}\n'
              "runtimeConfig: {scheduling.k8s.io/v1beta1: true}\n")
    result = _run(work, env, {".wasdra.yaml": config})
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_staged_file_is_checked_against_the_whole_repository(tmp_path: Path) -> None:
    """pre-commit passes only the staged job.yaml; its references resolve against the unchanged groups.yaml, and
    the gang its new parallelism breaks (GANG001, on the PodGroup there) is reported on the Job."""
    sys.path.insert(0, str(ROOT / "tests" / "lint" / "repo"))
    from layouts import GROUPS, job

    work = tmp_path / "repo"
    work.mkdir()
    hook = {key: value for key, value in _hook().items() if key not in ("description",)}
    config = {"repos": [{"repo": "local", "hooks": [hook | {"language": "system"}]}]}   # the tool installed here
    env = {k: v for k, v in os.environ.items() if k != "WASDRA_REPO_CONTEXT"}
    env |= {"PRE_COMMIT_HOME": str(tmp_path / "pc"), "WASDRA_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1",
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "GIT_AUTHOR_NAME": "t",
                "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    (work / "deploy").mkdir()
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    (work / ".wasdra.yaml").write_text('featureGates: {GenericWorkload: true}\n'
                                      'runtimeConfig: {scheduling.k8s.io/v1beta1: true}\n')
    (work / "deploy" / "groups.yaml").write_text(GROUPS)
    (work / "deploy" / "job.yaml").write_text(job(8))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start", "--no-verify"]):
        subprocess.run([GIT, *args], cwd=work, env=env, check=True)

    def commit_job(text: str) -> subprocess.CompletedProcess[str]:
        (work / "deploy" / "job.yaml").write_text(text)
        subprocess.run([GIT, "add", "deploy/job.yaml"], cwd=work, env=env, check=True)
        return subprocess.run([sys.executable, "-m", "pre_commit", "run"], cwd=work, env=env, capture_output=True,
                              text=True, check=False)

    result = commit_job(job(8).replace("completions: 8", "completions: 8\n  backoffLimit: 2"))
    assert result.returncode == 0, result.stdout + result.stderr   # no REF001/REF004: both names are defined
    result = commit_job(job(6))
    assert result.returncode == 1, result.stdout
    assert "GANG001" in result.stdout and "deploy/job.yaml" in result.stdout and "deploy/groups.yaml:16" in result.stdout
    assert "REF004" not in result.stdout and "REF001" not in result.stdout
