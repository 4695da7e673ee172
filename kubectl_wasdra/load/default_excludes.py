"""This tool's own files, left out of `check` silently (--no-default-excludes checks them too).

Patterns use load/excludes.py syntax. Other well-known non-manifests (Helm charts and values, kustomizations, CI and
tool configuration) are not excluded here: load/classify.py skips each with one LOAD013 note saying how to check it.
"""

from __future__ import annotations

from typing import Final

DEFAULT_EXCLUDES: Final[tuple[str, ...]] = (
    ".wasdra.yaml", ".wasdra.yml", ".wasdra-baseline.json",
)
