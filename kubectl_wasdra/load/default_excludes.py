"""Files that are YAML or JSON but never Kubernetes manifests, left out of `check` unless named in `--exclude` terms.

Patterns use load/excludes.py syntax. The loader's file classification may extend this list; keep it data only.
"""

from __future__ import annotations

from typing import Final

DEFAULT_EXCLUDES: Final[tuple[str, ...]] = (
    ".wasdra.yaml", ".wasdra.yml", ".wasdra-baseline.json",   # this tool's own configuration and baseline
    ".pre-commit-config.yaml", ".pre-commit-hooks.yaml",
    "Chart.yaml", "Chart.lock", "values*.yaml", "values*.yml", "values.schema.json",   # Helm chart metadata
    "kustomization.yaml", "kustomization.yml", "Kustomization",                          # Kustomize
    ".github/", ".gitlab-ci.yml",                                                         # CI definitions
)
