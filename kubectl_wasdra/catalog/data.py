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


COMPILED_DIRECTORY = "compiled"  # rules/compiled/<name>.json: tools/gen_compiled_data.py


@functools.cache
def read_yaml(name: str) -> object:
    """A YAML data file parsed once. Its compiled twin (rules/compiled/<name>.json) is read instead when it was made
    from these very bytes: json.loads is 4-7x faster than a YAML parser, a few ms of every short run. The data files
    hold plain values (quoted versions, true/false, string keys), which the parsers and JSON read alike. Callers must
    not mutate the result."""
    data = read_data(name)
    compiled = _read_compiled(name, data)
    if compiled is not None:
        return compiled["value"]
    return parse_yaml_data(data)


def parse_yaml_data(data: bytes) -> object:
    """One YAML data file's value (yaml-rs when installed, libyaml otherwise)."""
    text = data.decode("utf-8")
    try:
        import yaml_rs
    except ImportError:
        import yaml

        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return yaml_rs.loads(text, parse_datetime=False)


def compiled_name(name: str) -> str:
    """"rules/feature-gates.yaml" -> "rules/compiled/feature-gates.json"."""
    directory, _, file = name.rpartition("/")
    return f"{directory}/{COMPILED_DIRECTORY}/{file.removesuffix('.yaml')}.json"


def source_stamp(data: bytes) -> dict[str, int]:
    """What a compiled file records of its YAML source, to be used only for exactly those bytes."""
    import zlib

    return {"size": len(data), "crc32": zlib.crc32(data)}


def render_compiled(data: bytes) -> str:
    """The compiled twin's text for a YAML data file's bytes."""
    import json

    return json.dumps({"source": source_stamp(data), "value": parse_yaml_data(data)}, separators=(",", ":")) + "\n"


def _read_compiled(name: str, data: bytes) -> dict[str, object] | None:
    """The compiled twin of `name` when there is one made from `data`; None sends the caller to the YAML."""
    import json

    try:
        compiled = json.loads(read_data(compiled_name(name)))
    except (WasdraError, ValueError):
        return None
    return compiled if compiled.get("source") == source_stamp(data) else None
