"""Where the project configuration is: `--config`, `WASDRA_CONFIG`, or `.wasdra.yaml` from a directory upward.

Kept free of YAML and catalogue imports: `check` pays a few `stat` calls when no config file exists.
"""

from __future__ import annotations

import os
from typing import Final

CONFIG_NAMES: Final = (".wasdra.yaml", ".wasdra.yml")


def find_config(start: str | None = None) -> str | None:
    """The nearest `.wasdra.yaml` (or `.yml`) from `start` (default: the working directory) upward, stopping at the
    repository root (the first directory holding `.git`); None when there is none."""
    directory = os.path.abspath(start or os.getcwd())
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        parent = os.path.dirname(directory)
        if parent == directory or os.path.exists(os.path.join(directory, ".git")):
            return None
        directory = parent


def repository_root(start: str | None = None) -> str:
    """The nearest directory upward holding `.git`, else `start` (default: the working directory)."""
    return git_root(start) or os.path.abspath(start or os.getcwd())


def git_root(start: str | None = None) -> str | None:
    """The nearest directory upward from `start` (default: the working directory) holding `.git`; None outside git."""
    directory = os.path.abspath(start or os.getcwd())
    for candidate in (directory, *_parents(directory)):
        if os.path.exists(os.path.join(candidate, ".git")):
            return candidate
    return None


def _parents(directory: str) -> list[str]:
    parents = []
    while (parent := os.path.dirname(directory)) != directory:
        parents.append(parent)
        directory = parent
    return parents
