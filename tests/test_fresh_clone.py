"""The README's set-up, as a new user runs it: a `git clone` of this commit into an empty temporary folder (nothing
beside it, not even the steering folder; the clone is local, so no network either), then the README's two commands there,
verbatim, with `python3` being the interpreter that runs this suite (so a run on Python 3.11.2 checks 3.11.2).

What it runs, and why not more. The first command (venv, `pip install .`, the demo) runs whole. The second (the
test extra, then pytest) runs whole too, but pytest is narrowed through PYTEST_ADDOPTS to `-m smoke`: it still
collects every test module (an import that reaches outside the clone, or a missing file read at import time, fails
there), then runs a small cross-section marked `smoke` (the README demo, the upstream and real-world corpora and their
recorded verdicts) instead of the whole suite a second time: CI has 15 minutes, the suite alone takes about 5.
WASDRA_FRESH_CLONE=1 in the clone keeps this test from running itself inside the clone (it is not `smoke` either).

Packages come from pip's configured index, as on a user's machine (a local wheelhouse where pip is set up so). Only
committed files are cloned: commit before running this test. It is marked `slow` (a few minutes: two installs into a
new virtual environment); CI runs it, `-m "not slow"` leaves it out of a quick local run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import readme_setup  # noqa: E402

GUARD = "WASDRA_FRESH_CLONE"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bool(os.environ.get(GUARD)), reason="already inside a fresh clone (no recursion)"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout (an unpacked sdist, say): nothing to clone"),
]


def _python3_first(tmp_path: Path) -> dict[str, str]:
    """The environment of the clone's commands: `python3` is this suite's interpreter, nothing of this checkout is on
    PYTHONPATH, pytest has its narrowing options and the recursion guard is set."""
    shim = tmp_path / "python-shim"
    shim.mkdir()
    (shim / "python3").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    return env | {"PATH": f"{shim}{os.pathsep}{env.get('PATH', '')}", GUARD: "1", "NO_COLOR": "1",
                  "PYTEST_ADDOPTS": "-m smoke -p no:cacheprovider"}


def test_readme_commands_pass_in_a_fresh_clone(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    clone = empty / "kubectl-wasdra"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(clone)], check=True, timeout=300)
    assert sorted(p.name for p in empty.iterdir()) == ["kubectl-wasdra"]  # nothing beside it
    env = _python3_first(tmp_path)
    install, tests = readme_setup.setup_commands((clone / "README.md").read_text(encoding="utf-8"))
    first = subprocess.run(["bash", "-c", install], cwd=clone, env=env, capture_output=True, text=True, timeout=900,
                           check=False)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert "PodGroup ml/train — does NOT fit" in first.stdout and "PodGroup ml/finetune — fits" in first.stdout
    second = subprocess.run(["bash", "-c", tests], cwd=clone, env=env, capture_output=True, text=True, timeout=900,
                            check=False)
    summary = second.stdout.strip().splitlines()[-1] if second.stdout.strip() else ""
    assert second.returncode == 0, second.stdout[-5000:] + second.stderr[-3000:]
    passed = re.search(r"(\d+) passed", summary)
    smoke = sum(path.read_text(encoding="utf-8").count("@pytest.mark.smoke\n") for path in (ROOT / "tests").rglob("*.py"))
    assert passed and int(passed.group(1)) == smoke and "deselected" in summary, summary
    assert not re.search(r"\d+ (failed|errors?)\b", summary), summary
