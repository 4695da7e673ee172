"""CEL selectors of a document and where a compile error sits in the YAML source.

The DRA CEL environment compiles each expression (kubectl_wasdra/dra/cel.py, imported only when a document has an
expression). A CEL error's 1-based line/column is relative to the expression text; `source_position` maps it onto
the file, accounting for block scalars (`|`, `>`), quoted strings and multi-line plain scalars.
Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateSelector, validateCELExpression).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.lint.rules.validation._base import FLAT_VERSIONS, Path, as_dict, as_list

# comprehension macros (cel-go parser macros plus the two-variable ones of the ext library)
_COMPREHENSION: Final = re.compile(
    r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\.\s*(?P<macro>all|exists_one|exists|map|filter|transformList|transformMap'
    r'|transformMapEntry)\s*\(|(?P<open>\()|(?P<close>\))')


def deepest_comprehension(expression: str) -> tuple[int, int, int]:
    """(nesting depth, 1-based line, column) of the first most deeply nested comprehension macro (`.all(`, `.map(`
    ...) of `expression`, the position being that of the macro name; depth 0 and (1, 1) when there is none."""
    stack: list[bool] = []
    depth = best = 0
    offset = 0
    for match in _COMPREHENSION.finditer(expression):
        if match.group("macro"):
            stack.append(True)
            depth += 1
            if depth > best:
                best, offset = depth, match.start("macro")
        elif match.group("open"):
            stack.append(False)
        elif match.group("close") and stack:
            depth -= stack.pop()
    line = expression.count("\n", 0, offset) + 1
    return best, line, offset - (expression.rfind("\n", 0, offset) + 1) + 1


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

    Builds the file position of every character of the scalar's value: block scalars (`|`, `>`) take their content
    lines after the indentation, quoted scalars skip the quote and count an escape as one character, and the line
    break between two source lines (a newline, or a space when folded) sits just after the earlier line.
    """
    lines = text.split("\n")
    start = lines[value_line - 1] if 0 < value_line <= len(lines) else ""
    indicator = start[value_column - 1: value_column]
    if indicator in ("|", ">"):
        positions = _block_positions(lines, value_line)
    elif indicator in ('"', "'"):
        positions = _quoted_positions(lines, value_line, value_column)
    else:
        positions = _plain_positions(lines, value_line, value_column)
    if not positions:
        return value_line, value_column
    if offset < len(positions):
        return positions[offset]
    last_line, last_column = positions[-1]      # past the end (an error at end of input): just after the last character
    return last_line, last_column + 1


def _line_positions(number: int, first_column: int, length: int) -> list[tuple[int, int]]:
    """Positions of `length` characters plus the line break after them."""
    return [(number, first_column + i) for i in range(length + 1)]


def _block_positions(lines: list[str], value_line: int) -> list[tuple[int, int]]:
    positions: list[tuple[int, int]] = []
    indent = None
    pending: list[tuple[int, int]] = []       # blank lines count only when text follows
    for number in range(value_line + 1, len(lines) + 1):
        line = lines[number - 1]
        if not line.strip():
            pending.append((number, (indent or 0) + 1))
            continue
        current = len(line) - len(line.lstrip(" "))
        indent = current if indent is None else indent
        if current < indent:
            break
        positions += pending + _line_positions(number, indent + 1, len(line.rstrip()) - indent)
        pending = []
    return positions[:-1] if positions else positions


def _plain_positions(lines: list[str], value_line: int, value_column: int) -> list[tuple[int, int]]:
    first = lines[value_line - 1]
    positions = _line_positions(value_line, value_column, len(first.rstrip()) - (value_column - 1))
    base = len(first) - len(first.lstrip(" "))
    for number in range(value_line + 1, len(lines) + 1):
        line = lines[number - 1]
        current = len(line) - len(line.lstrip(" "))
        if not line.strip() or current <= base or line.lstrip().startswith("#"):
            break
        positions += _line_positions(number, current + 1, len(line.strip()))
    return positions[:-1]


def _quoted_positions(lines: list[str], value_line: int, value_column: int) -> list[tuple[int, int]]:
    quote = lines[value_line - 1][value_column - 1]
    positions: list[tuple[int, int]] = []
    for number in range(value_line, len(lines) + 1):
        line = lines[number - 1]
        index = value_column if number == value_line else len(line) - len(line.lstrip(" "))
        while index < len(line):
            char = line[index]
            if char == quote and not (quote == "'" and line[index + 1: index + 2] == "'"):
                return positions
            positions.append((number, index + 1))
            index += 2 if (quote == '"' and char == "\\") or (quote == "'" and char == "'") else 1
        positions.append((number, len(line) + 1))     # folded line break
    return positions
