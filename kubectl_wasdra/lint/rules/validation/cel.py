"""CEL selectors of a document and where a compile error sits in the YAML source.

The DRA CEL environment compiles each expression (kubectl_wasdra/dra/cel.py, imported only when a document has an
expression). A CEL error's 1-based line/column is relative to the expression text; `source_position` maps it onto
the file, accounting for block scalars (`|`, `>`), quoted strings and multi-line plain scalars.
Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateSelector, validateCELExpression).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubectl_wasdra.lint.rules.validation._base import Path, as_dict, as_list

FLAT_VERSIONS = frozenset({"v1alpha3", "v1beta1"})


def selector_paths(data: dict[str, Any], group: str, version: str, kind: str) -> Iterator[tuple[Path, str]]:
    """(path of `cel.expression`, expression) for every device selector of a DRA object."""
    if group != "resource.k8s.io":
        return
    spec = as_dict(data.get("spec"))
    if kind == "DeviceClass":
        yield from _selectors(spec.get("selectors"), ("spec", "selectors"))
    elif kind in ("ResourceClaim", "ResourceClaimTemplate"):
        devices_path: Path = ("spec", "devices") if kind == "ResourceClaim" else ("spec", "spec", "devices")
        devices = as_dict(as_dict(spec.get("spec")).get("devices")) if kind == "ResourceClaimTemplate" else as_dict(
            spec.get("devices"))
        for index, request in enumerate(as_list(devices.get("requests"))):
            request = as_dict(request)
            here = (*devices_path, "requests", index)
            if version in FLAT_VERSIONS:
                yield from _selectors(request.get("selectors"), (*here, "selectors"))
            else:
                yield from _selectors(as_dict(request.get("exactly")).get("selectors"), (*here, "exactly", "selectors"))
            for sub_index, sub in enumerate(as_list(request.get("firstAvailable"))):
                yield from _selectors(as_dict(sub).get("selectors"), (*here, "firstAvailable", sub_index, "selectors"))
    elif kind == "DeviceTaintRule":
        yield from _selectors(as_dict(spec.get("deviceSelector")).get("selectors"), ("spec", "deviceSelector", "selectors"))


def _selectors(items: Any, path: Path) -> Iterator[tuple[Path, str]]:
    for index, selector in enumerate(as_list(items)):
        expression = as_dict(as_dict(selector).get("cel")).get("expression")
        if isinstance(expression, str) and expression.strip():
            yield (*path, index, "cel", "expression"), expression


def expression_offset(expression: str, line: int, column: int) -> int:
    """0-based character offset of a 1-based (line, column) inside the expression text."""
    lines = expression.split("\n")
    line = max(1, min(line, len(lines)))
    return sum(len(text) + 1 for text in lines[: line - 1]) + max(0, column - 1)


def source_position(text: str, value_line: int, value_column: int, offset: int) -> tuple[int, int]:
    """1-based (line, column) in the file of character `offset` of a scalar whose value starts at (value_line, value_column).

    Each source line of the scalar contributes one segment; consecutive segments are joined by one character
    (a newline in literal blocks, a space when folded), so offsets walk the segments in order.
    """
    lines = text.split("\n")
    start = lines[value_line - 1] if 0 < value_line <= len(lines) else ""
    indicator = start[value_column - 1: value_column]
    if indicator in ("|", ">"):
        segments = _block_segments(lines, value_line)
    elif indicator in ('"', "'"):
        segments = _flow_segments(lines, value_line, value_column + 1, quoted=True)
    else:
        segments = _flow_segments(lines, value_line, value_column, quoted=False)
    remaining = offset
    for seg_line, seg_column, length in segments:
        if remaining <= length:
            return seg_line, seg_column + remaining
        remaining -= length + 1
    return value_line, value_column


def _block_segments(lines: list[str], value_line: int) -> list[tuple[int, int, int]]:
    segments: list[tuple[int, int, int]] = []
    indent = None
    for number in range(value_line + 1, len(lines) + 1):
        line = lines[number - 1]
        if not line.strip():
            segments.append((number, (indent or 0) + 1, 0))
            continue
        current = len(line) - len(line.lstrip(" "))
        if indent is None:
            indent = current
        if current < indent:
            break
        segments.append((number, indent + 1, len(line) - indent))
    while segments and segments[-1][2] == 0:
        segments.pop()
    return segments


def _flow_segments(lines: list[str], value_line: int, column: int, *, quoted: bool) -> list[tuple[int, int, int]]:
    first = lines[value_line - 1]
    segments = [(value_line, column, len(first) - (column - 1))]
    if quoted:
        quote = first[column - 2] if column >= 2 else '"'
        body = first[column - 1:]
        if quote in body:
            return [(value_line, column, body.index(quote))]
    base = len(first) - len(first.lstrip(" "))
    for number in range(value_line + 1, len(lines) + 1):
        line = lines[number - 1]
        current = len(line) - len(line.lstrip(" "))
        if line.strip() and current <= base and not quoted:
            break
        stripped = line.lstrip(" ")
        segments.append((number, current + 1, len(stripped)))
        if quoted and any(q in stripped for q in "\"'"):
            break
    return segments
