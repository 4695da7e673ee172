"""Fast decoding of big snapshot files: bytes -> documents of plain data, scalars resolved as Kubernetes resolves them.

JSON goes through orjson (json as fallback). YAML goes through yaml-rs, the fastest parser available here; it follows the
YAML 1.2 core schema while Kubernetes (sigs.k8s.io/yaml over go-yaml v2) resolves YAML 1.1 plain scalars: `yes/no/on/off/y/n`
are booleans, `0755` is octal, `1_000` is an integer, and timestamps stay strings. kubectl quotes every such string when it
writes YAML, so dumps never contain them; a file that has one plain is decoded with PyYAML's C parser and a resolver table
reproducing go-yaml v2 instead (load/yaml11.py; slower, still correct). Merge keys, tags and complex keys take that
path too. The test is the loader's own (load/parse.py needs_yaml11), so snapshots and manifests resolve alike.
Upstream: go-yaml v2 resolve.go as vendored by sigs.k8s.io/yaml (goyaml.v2), used by kubectl and kube-apiserver.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.cluster.slices import SLICE_CHARS, decode_json_list, decode_yaml_list
from kubectl_wasdra.load.parse import (
    LONG_NUMBER,
    TOO_DEEP_LEVELS,
    long_number_position,
    needs_yaml11,
    without_surrogates,
)

try:  # orjson is several times faster than json on big snapshots
    import orjson

    _json_loads = orjson.loads
    _JSON_ERRORS: tuple[type[Exception], ...] = (orjson.JSONDecodeError, ValueError)
except ImportError:  # pragma: no cover - orjson is a dependency
    _json_loads = json.loads
    _JSON_ERRORS = (ValueError,)

_DOCUMENT_MARKER: Final = re.compile(r"^(?:---|\.\.\.)(?:[ \t]|$)", re.MULTILINE)
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_LEADING: Final = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*(?:---(?:[ \t]+[^\n]*)?\n)?")


@dataclass(frozen=True)
class DecodeError(Exception):
    """The text does not parse; line/column are 1-based (0 when unknown)."""

    message: str
    line: int = 0
    column: int = 0


def is_json_text(name: str, text: str) -> bool:
    """JSON when the file is named .json or its first non-blank character opens a JSON object or array."""
    if name.endswith(".json"):
        return True
    stripped = text.lstrip()
    return stripped.startswith("{") or (stripped.startswith("[") and not stripped.startswith("[]"))


def decode_json(data: bytes | str) -> list[Any]:
    """The JSON values of a file: one value, or several concatenated (`kubectl get a -o json; kubectl get b -o json`).
    Bytes (UTF-8) decode fastest; a big List in text is decoded a slice of items at a time (slices.py)."""
    if isinstance(data, str) and (listed := decode_json_list(data, SLICE_CHARS)) is not None:
        return listed
    try:
        return [_json_loads(data)]
    except _JSON_ERRORS:
        pass
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    decoder = json.JSONDecoder()
    values, offset, end = [], 0, len(text)
    while True:
        while offset < end and text[offset] in " \t\r\n":
            offset += 1
        if offset >= end:
            break
        try:
            value, offset = decoder.raw_decode(text, offset)
        except json.JSONDecodeError as exc:
            raise DecodeError(exc.msg, exc.lineno, exc.colno) from None
        except RecursionError:
            raise DecodeError(TOO_DEEP_LEVELS) from None
        except ValueError:  # more than 4,300 digits
            raise DecodeError(LONG_NUMBER, *long_number_position(text)) from None
        values.append(value)
    # orjson refuses a lone surrogate escape ("\ud800x"); Go's encoding/json decodes each one as U+FFFD
    # (encoding/json decode.go unquoteBytes), and so do we
    return without_surrogates(values) if _SURROGATE_ESCAPE.search(text) else values


def decode_yaml(text: str) -> list[Any]:
    """The documents of a YAML stream (None for empty ones), scalars resolved as go-yaml v2 does; one big List is
    decoded a slice of items at a time (slices.py)."""
    if needs_yaml11(text):
        return _decode_yaml11(text)
    if len(text) > SLICE_CHARS and not _is_multi_document(text) and (listed := decode_yaml_list(text, SLICE_CHARS)) is not None:
        return listed
    import yaml_rs

    try:
        data = yaml_rs.loads(text, parse_datetime=False)
    except yaml_rs.YAMLDecodeError as exc:
        raise _yaml_rs_error(exc) from None
    if data is None:
        return []
    if isinstance(data, list) and _is_multi_document(text):
        return data
    return [data]


def _is_multi_document(text: str) -> bool:
    """yaml-rs returns a list both for several documents and for one top-level sequence: look for a second marker."""
    start = _LEADING.match(text)
    at = start.end() if start else 0
    return _DOCUMENT_MARKER.match(text, at) is not None or _marker_line(text, "\n---", at) or _marker_line(text, "\n...", at)


def _marker_line(text: str, marker: str, at: int) -> bool:
    """Whether a line after `at` is `marker` (a newline first) alone or followed by a blank: str.find goes through a big
    snapshot in half the time of a multi-line regex."""
    found = text.find(marker, at)
    while found >= 0:
        if text[found + len(marker):found + len(marker) + 1] in ("", " ", "\t", "\n"):
            return True
        found = text.find(marker, found + 1)
    return False


_ERROR_AT: Final = re.compile(r"line (\d+), column (\d+)")


def _yaml_rs_error(exc: Exception) -> DecodeError:
    text = str(exc)
    match = _ERROR_AT.search(text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    message = lines[-1] if lines else text
    return DecodeError(message, int(match.group(1)), int(match.group(2))) if match else DecodeError(message)


def _decode_yaml11(text: str) -> list[Any]:
    import yaml  # here, not at the top: a JSON snapshot never needs PyYAML (~10 ms to import)

    from kubectl_wasdra.load.yaml11 import KubeLoader

    try:
        return list(yaml.load_all(text, Loader=KubeLoader))  # go-yaml v2 resolution (load/yaml11.py)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise DecodeError(str(exc.problem or exc), mark.line + 1 if mark else 0, mark.column + 1 if mark else 0) from None
    except yaml.YAMLError as exc:
        raise DecodeError(str(exc)) from None
    except RecursionError:
        raise DecodeError(TOO_DEEP_LEVELS) from None


def split_yaml_documents(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each document of a stream, split at `---` lines; used to salvage the parseable documents of
    a file in which one document is broken."""
    parts: list[tuple[int, str]] = []
    start_line, current, started = 1, [], False
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if _DOCUMENT_MARKER.match(line) and line.startswith("---"):
            if current or started:
                parts.append((start_line, "".join(current)))
            start_line, current, started = number + 1, [], True
            continue
        current.append(line)
    if current:
        parts.append((start_line, "".join(current)))
    return parts
