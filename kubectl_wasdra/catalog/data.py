"""The one place that knows where the data directories `schemas/` and `rules/` live (checkout or installed wheel)."""

from __future__ import annotations

import functools
from pathlib import Path

from kubectl_wasdra.errors import WasdraError

_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_CANDIDATE_ROOTS = (
    _PACKAGE_DIR / "_data",      # installed wheel: data copied into the package
    _PACKAGE_DIR.parent,         # checkout / editable install: repository root
)


@functools.cache
def data_path(name: str) -> Path:
    """Path of a data file or directory such as "rules/feature-gates.yaml" or "schemas"."""
    for root in _CANDIDATE_ROOTS:
        candidate = root / name
        if candidate.exists():
            return candidate
    raise WasdraError(f"data file {name!r} is missing from the installation", hint="reinstall kubectl-wasdra")


def read_data(name: str) -> bytes:
    """Bytes of one data file, e.g. read_data("rules/feature-gates.yaml")."""
    return data_path(name).read_bytes()
