"""Directories are walked as git walks them (load/gitignore.py): .gitignore, nested .gitignore files and
.git/info/exclude leave files out; a tracked file stays in; a file named on the command line is read anyway;
--no-gitignore walks everything."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kubectl_wasdra.load.files import expand_paths
from tests.cli_runner import run

GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="git not installed")
GOOD = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n"
BROKEN = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n"


def _git(work: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run([GIT or "git", *args], cwd=work, env=env, check=True, capture_output=True)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"deploy/app.yaml": GOOD, "node_modules/pkg/broken.yaml": BROKEN, "build/out.yaml": BROKEN,
             "deploy/local/secret.yaml": BROKEN, "deploy/keep/tracked.yaml": GOOD, "notes/draft.yaml": BROKEN,
             ".gitignore": "node_modules/\n/build\n", "deploy/.gitignore": "local/\n*.tracked-too\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    _git(tmp_path, "init", "-q")
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("notes/\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _walked(gitignore: bool) -> list[str]:
    files, _ = expand_paths(["."], gitignore=gitignore)
    return sorted(os.path.relpath(f) for f in files)


def test_walk_leaves_out_what_git_ignores(work: Path) -> None:
    assert _walked(True) == ["deploy/app.yaml", "deploy/keep/tracked.yaml"]
    assert len(_walked(False)) == 6


def test_a_tracked_file_matching_an_ignore_rule_is_still_walked(work: Path) -> None:
    _git(work, "add", "-f", "build/out.yaml")
    assert "build/out.yaml" in _walked(True)


def test_check_dot_reports_nothing_under_node_modules(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", ".", "-o", "json"], capsys)
    assert code == 0 and "node_modules" not in out and "notes/" not in out
    code, out, _ = run(["check", ".", "-o", "json", "--no-gitignore"], capsys)
    assert code == 1 and "node_modules/pkg/broken.yaml" in out and "notes/draft.yaml" in out


def test_a_file_named_on_the_command_line_is_read_even_if_ignored(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "node_modules/pkg/broken.yaml", "-o", "json"], capsys)
    assert code == 1 and "LOAD001" in out


def test_outside_a_work_tree_nothing_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.yaml").write_text(GOOD)
    (tmp_path / ".gitignore").write_text("node_modules/\n")
    monkeypatch.chdir(tmp_path)
    assert _walked(True) == ["node_modules/x.yaml"]


def test_a_glob_leaves_out_what_git_ignores(work: Path) -> None:
    files, _ = expand_paths(["**/*.yaml"], gitignore=True)
    assert sorted(os.path.relpath(f) for f in files) == ["deploy/app.yaml", "deploy/keep/tracked.yaml"]
    files, _ = expand_paths(["**/*.yaml"], gitignore=False)
    assert len(files) == 6
