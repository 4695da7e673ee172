"""Where each definition sits in schemas/k8s-<release>.json, so that checking a few kinds parses only their schemas.

json.loads of a whole 300 KB schema file was about a twentieth of a one-document `check`. The index
(schemas/k8s-<release>.index.json, written by `python tools/gen_schema_index.py`, checked fresh by
tests/catalog/test_schema_index.py) holds the file's size, its "apiVersion/Kind" -> definition map and, per
definition, the [start, end) offsets of its JSON value; `Definitions` parses a definition on first access.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

# a reference in compact JSON (tools/gen_schemas.py writes no spaces; definition names need no escapes)
_REFERENCE: Final = b'"$ref":"#/$defs/'


def build_index(data: bytes) -> dict[str, Any]:
    """The index of one schema file: compact JSON (tools/gen_schemas.py) whose last key is "$defs"."""
    text = data.decode("ascii")  # json.dumps escapes everything else, so character offsets are byte offsets
    whole = json.loads(text)
    decoder = json.JSONDecoder()
    position = text.rindex('"$defs":{') + len('"$defs":{')
    spans: dict[str, list[int]] = {}
    while text[position] != "}":
        name, position = decoder.raw_decode(text, position)
        _, end = decoder.raw_decode(text, position + 1)  # after the ":"
        spans[name] = [position + 1, end]
        position = end + (text[end] == ",")
    if list(spans) != list(whole["$defs"]):
        raise ValueError("the schema file is not compact JSON ending with its $defs")
    return {"size": len(data), "kinds": whole["kinds"], "spans": spans}


def render_index(data: bytes) -> str:
    """The index file's text for a schema file's bytes."""
    return json.dumps(build_index(data), separators=(",", ":")) + "\n"


def map_file(path: Path) -> bytes | None:
    """The file's bytes as a read-only memory map: the pages of the definitions a run parses are all it reads (a
    ConfigMap's six definitions, not the 300 KB file). None when it cannot be mapped (empty, missing)."""
    import mmap

    try:
        with path.open("rb") as file:
            return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)  # type: ignore[return-value]  # bytes-like
    except (OSError, ValueError):
        return None


class Definitions(Mapping[str, Any]):
    """A schema file's definitions, each parsed from its span on first access and then shared (callers must not
    change them)."""

    def __init__(self, data: bytes, spans: Mapping[str, list[int]]) -> None:
        self._data = data
        self._spans = spans
        self._parsed: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        found = self._parsed.get(name)
        if found is None:
            start, end = self._spans[name]
            found = self._parsed[name] = json.loads(self._data[start:end])
        return found

    def raw(self, name: str) -> str:
        """The definition's JSON text as the file holds it (compact, ASCII)."""
        start, end = self._spans[name]
        return self._data[start:end].decode("ascii")

    def references(self, name: str) -> list[str]:
        """The definitions `name` refers to, read off its raw JSON without parsing it."""
        start, end = self._spans[name]
        after = self._data[start:end].split(_REFERENCE)[1:]
        return [text[:text.index(b'"')].decode("ascii") for text in after]

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)
