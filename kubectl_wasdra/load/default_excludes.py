"""Files `check` leaves out silently unless --no-default-excludes: this tool's own files and the well-known YAML
files that are never Kubernetes objects (what `check --help` promises: Chart.yaml, values*.yaml, kustomization.yaml,
.github/), so a repository-wide run or a pre-commit hook says nothing about them.

Patterns use load/excludes.py syntax. Other non-manifests that reach `check` (a Helm template, a Compose file, a file
named on the command line with --no-default-excludes ...) are skipped by load/classify.py with a LOAD013 note.
"""

from __future__ import annotations

from typing import Final

DEFAULT_EXCLUDES: Final[tuple[str, ...]] = (
    ".wasdra.yaml", ".wasdra.yml", ".wasdra-baseline.json",
    ".pre-commit-config.yaml", ".pre-commit-hooks.yaml",
    "Chart.yaml", "values*.yaml", "values*.yml",
    "kustomization.yaml", "kustomization.yml",
    ".github/",
)
