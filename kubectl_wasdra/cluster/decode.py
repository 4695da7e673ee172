"""Fast decoding of big snapshot files: bytes -> documents of plain data, scalars resolved as Kubernetes resolves them.

JSON goes through orjson (json as fallback). YAML goes through yaml-rs, the fastest parser available here; it follows the
YAML 1.2 core schema while Kubernetes (sigs.k8s.io/yaml over go-yaml v2) resolves YAML 1.1 plain scalars: `yes/no/on/off/y/n`
are booleans, `0755` is octal, `1_000` is an integer, and timestamps stay strings. kubectl quotes every such string when it
writes YAML, so dumps never contain them; a file that has one plain is decoded with PyYAML's C parser and a resolver table
reproducing go-yaml v2 instead (load/yaml11.py; slower, still correct). Merge keys, tags and complex keys take that
path too. Only values are scanned: a plain `y:`/`on:` mapping key (a boolean key for go-yaml v2) stays a string here;
kubectl quotes such keys, and scanning keys too would double the cost on big files.
Upstream: go-yaml v2 resolve.go as vendored by sigs.k8s.io/yaml (goyaml.v2), used by kubectl and kube-apiserver.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

import yaml

from kubectl_wasdra.load.yaml11 import KubeLoader

try:  # orjson is several times faster than json on big snapshots
    import orjson

    _json_loads = orjson.loads
    _JSON_ERRORS: tuple[type[Exception], ...] = (orjson.JSONDecodeError, ValueError)
except ImportError:  # pragma: no cover - orjson is a dependency
    _json_loads = json.loads
    _JSON_ERRORS = (ValueError,)

# A plain scalar whose meaning differs between YAML 1.2 (yaml-rs) and go-yaml v2: booleans, octal, underscores, 0o/0b.
# Patterns with a literal first character each (block mapping values, block sequence items, flow items): a regular
# expression that starts with a literal is searched fast, one that starts with an alternation or a class is not.
_YAML11_WORD: Final = (r"(?:[yYnN]|[Yy]es|YES|[Nn]o|NO|[Oo]n|ON|[Oo]ff|OFF|[-+]?0[0-7_]+|[-+]?0[bo][0-7_]+"
                       r"|[-+]?[0-9][0-9_]*_[0-9_]*(?:\.[0-9_]*)?|[-+]?0x[0-9a-fA-F]*_[0-9a-fA-F_]*)")
_GUARD: Final = r"(?=[yYnNoO0-9+-])"  # a cheap first-character test before the alternation
_YAML11_SCALARS: Final = (
    re.compile(rf": ++{_GUARD}{_YAML11_WORD}[ \t]*(?:#[^\n]*)?(?:$|[,\]}}])", re.MULTILINE),
    re.compile(rf"- ++{_GUARD}{_YAML11_WORD}[ \t]*(?:#[^\n]*)?$", re.MULTILINE),
    re.compile(rf"\[ *+{_GUARD}{_YAML11_WORD} *[,\]]"),
    re.compile(rf", *+{_GUARD}{_YAML11_WORD} *[,\]]"),
)
# A plain mapping key go-yaml v2 resolves to something other than a string (`on:`, `y:`, `no:`, `true:`, `~:`, `1:`);
# Kubernetes (sigs.k8s.io/yaml) turns it into its string form ("true", "1"), yaml-rs keeps a YAML 1.2 string or a
# bool/int. Block keys begin after a newline (the first line is matched on its own), flow keys after `{` or `,`;
# possessive quantifiers keep the per-line cost to the indentation.
_KEY_WORD: Final = (r"(?=[-+.0-9~yYnNoOtTfF])(?:[yYnN]|[Yy]es|YES|[Nn]o|NO|[Oo]n|ON|[Oo]ff|OFF|[tT]rue|TRUE|[fF]alse"
                    r"|FALSE|[nN]ull|NULL|~|[-+]?\.?[0-9][^:\n]*?)[ \t]*:(?:[ \t\r]|$)")
_PLAIN_KEYS: Final = (re.compile(rf"\n[ \t]*+(?:-[ \t]++)*+{_KEY_WORD}", re.MULTILINE),
                      re.compile(rf"\{{[ \t]*+{_KEY_WORD}", re.MULTILINE), re.compile(rf",[ \t]*+{_KEY_WORD}", re.MULTILINE))
_FIRST_KEY: Final = re.compile(rf"[ \t]*+(?:-[ \t]++)*+{_KEY_WORD}", re.MULTILINE)
_SPECIAL_SYNTAX: Final = re.compile(r"<<|\s!|^!|^[ \t]*\?(?:\s|$)", re.MULTILINE)
_DOCUMENT_MARKER: Final = re.compile(r"^(?:---|\.\.\.)(?:[ \t]|$)", re.MULTILINE)
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
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
    Bytes (UTF-8) decode fastest."""
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
        values.append(value)
    # orjson refuses a lone surrogate escape ("\ud800x"); Go's encoding/json decodes each one as U+FFFD
    # (encoding/json decode.go unquoteBytes), and so do we
    return replace_surrogates(values) if _SURROGATE_ESCAPE.search(text) else values


def replace_surrogates(value: Any) -> Any:
    """`value` with every lone surrogate in its strings and keys replaced by U+FFFD (strings without one unchanged)."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {replace_surrogates(key): replace_surrogates(item) for key, item in value.items()}
    if isinstance(value, list):
        return [replace_surrogates(item) for item in value]
    return value


def decode_yaml(text: str) -> list[Any]:
    """The documents of a YAML stream (None for empty ones), scalars resolved as go-yaml v2 does."""
    if any(pattern.search(text) for pattern in _YAML11_SCALARS) or _has_plain_key(text) or _special_syntax(text):
        return _decode_yaml11(text)
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


def _has_plain_key(text: str) -> bool:
    """A mapping key that go-yaml v2 reads as a boolean, null or number (see _PLAIN_KEYS)."""
    return _FIRST_KEY.match(text) is not None or any(pattern.search(text) for pattern in _PLAIN_KEYS)


def _special_syntax(text: str) -> bool:
    """Merge keys, tags and complex keys, which yaml-rs does not resolve as Kubernetes does (cheap literal test first)."""
    return ("<<" in text or "!" in text or "?" in text) and _SPECIAL_SYNTAX.search(text) is not None


def _is_multi_document(text: str) -> bool:
    """yaml-rs returns a list both for several documents and for one top-level sequence: look for a second marker."""
    start = _LEADING.match(text)
    return _DOCUMENT_MARKER.search(text, start.end() if start else 0) is not None


_ERROR_AT: Final = re.compile(r"line (\d+), column (\d+)")


def _yaml_rs_error(exc: Exception) -> DecodeError:
    text = str(exc)
    match = _ERROR_AT.search(text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    message = lines[-1] if lines else text
    return DecodeError(message, int(match.group(1)), int(match.group(2))) if match else DecodeError(message)


def _decode_yaml11(text: str) -> list[Any]:
    try:
        return list(yaml.load_all(text, Loader=KubeLoader))  # FOUNDATION's go-yaml v2 resolution (load/yaml11.py)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise DecodeError(str(exc.problem or exc), mark.line + 1 if mark else 0, mark.column + 1 if mark else 0) from None
    except yaml.YAMLError as exc:
        raise DecodeError(str(exc)) from None


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
