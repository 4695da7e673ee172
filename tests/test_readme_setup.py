"""The README's set-up: two commands, which .ci/run runs as written there; the first installs into a virtual
environment without test tooling and ends with a demo that exits 0 while showing a gang that does not fit (and why)
and one that fits; the second installs the test extra and runs the suite."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import readme_setup  # noqa: E402


def test_two_commands_in_a_virtual_environment() -> None:
    install, tests = readme_setup.setup_commands()
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/kubectl-wasdra explain ")
    assert "[test]" not in install and "sudo" not in install
    assert tests == ".venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"  # a normal install, not -e


def test_ci_runs_the_readme_commands_and_checks_the_user_install() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line for line in script.splitlines() if line.strip() and not line.startswith("#")]
    commands = [line for line in lines if line.startswith((".venv/", "python3 -m venv"))]
    assert commands == readme_setup.setup_commands()   # exactly the README's two commands, in order
    assert lines[-1] == commands[1]                     # the README's test command is the last thing CI runs
    assert "--no-test-tooling .venv/bin/python" in script


def test_user_install_declares_no_test_tooling() -> None:
    assert not set(readme_setup.requirements()) & set(readme_setup.test_extra())


@pytest.mark.smoke
def test_the_demo_exits_0_and_shows_both_verdicts() -> None:
    install, _ = readme_setup.setup_commands()
    demo = shlex.split(install.rsplit(" && ", 1)[1])
    assert demo[0] == ".venv/bin/kubectl-wasdra"
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "kubectl_wasdra", *demo[1:]], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "PodGroup ml/train — does NOT fit" in result.stdout and "What would make it fit" in result.stdout
    assert "PodGroup ml/finetune — fits" in result.stdout
    without = [arg for arg in demo[1:] if arg not in ("--fail-on", "never")]
    result = subprocess.run([sys.executable, "-m", "kubectl_wasdra", *without], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 1  # without --fail-on never, a group that does not fit is exit 1
