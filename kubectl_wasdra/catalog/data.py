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


@functools.cache
def read_yaml(name: str) -> object:
    """A YAML data file parsed once (yaml-rs when installed, libyaml otherwise). The data files hold plain values
    (quoted versions, true/false), which both parsers read alike. Callers must not mutate the result."""
    text = read_data(name).decode("utf-8")
    try:
        import yaml_rs
    except ImportError:
        import yaml

        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return yaml_rs.loads(text, parse_datetime=False)
