"""Where a finding is in the editor: `check`'s 1-based line and column become an LSP range over the key or value there.

`check` points at the first character of the offending key (or value); the range runs to the end of that token on
the same line: a quoted scalar to its closing quote, a plain one to the `: ` that ends a key, a ` #` comment, a flow
indicator or the line's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

_FLOW_END: Final = frozenset(",]}")


def token_end(line: str, start: int) -> int:
    """The character index just past the token that starts at `start` in `line` (at least `start + 1` when the line
    has a character there; `start` on an empty remainder)."""
    if start >= len(line.rstrip()):
        return start
    if line[start] in "\"'":
        return _quoted_end(line, start)
    end = start
    while end < len(line):
        char = line[end]
        if char == ":" and (end + 1 == len(line) or line[end + 1] in " \t"):
            break
        if char == "#" and end > start and line[end - 1] in " \t":
            break
        if char in _FLOW_END and end > start:
            break
        end += 1
    while end > start + 1 and line[end - 1] in " \t":
        end -= 1
    return max(end, start + 1)


def _quoted_end(line: str, start: int) -> int:
    quote = line[start]
    end = start + 1
    while end < len(line):
        if line[end] == "\\" and quote == '"':
            end += 2
            continue
        if line[end] == quote:
            if quote == "'" and line[end + 1:end + 2] == "'":  # '' is a quote inside a single-quoted scalar
                end += 2
                continue
            return end + 1
        end += 1
    return len(line)


def finding_range(lines: Sequence[str], line: int, column: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """((line, character), (line, character)), 0-based characters, for `check`'s 1-based (line, column); the server
    turns characters into the client's position encoding (UTF-16 unless negotiated otherwise)."""
    row = max(line - 1, 0)
    text = lines[row].rstrip("\r\n") if row < len(lines) else ""
    start = max(column - 1, 0)
    end = token_end(text, start)  # the start stays check's own point, so ranges compare with `check -o json`
    return (row, start), (row, end)
