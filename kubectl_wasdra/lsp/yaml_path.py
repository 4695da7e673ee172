"""The field path at a cursor in block YAML that is being typed (and so may not parse): read off the indentation.

A line holds list-item markers (`- `) and at most one `key:`; a key whose value is empty opens a mapping, an item
opens a list entry. The ancestors of a column are the nearest such openers above it with a smaller column (an item
may sit at its key's own column, as `kubectl` writes lists). Flow collections (`{...}`, `[...]`) are not entered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_KEY: Final = re.compile(r"""(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<plain>[^\s#'"{\[\]}:,-][^:#]*?|-[^\s:#][^:#]*?))"""
                         r"""\s*:(?:[ \t]+(?P<rest>.*))?$""")
_TOP: Final = re.compile(r"""^(apiVersion|kind):[ \t]*["']?([^\s"'#]+)""")


@dataclass(frozen=True)
class Entry:
    """One opener or key of a line: its 0-based column, "item" or "key", the key's name, whether it opens a block."""

    column: int
    type: str
    key: str | None = None
    opens: bool = True
    value_column: int | None = None


def entries(line: str) -> list[Entry]:
    """The item markers and the key of one line, left to right (empty for blank and comment lines)."""
    text = line.rstrip("\r\n")
    position = len(text) - len(text.lstrip(" "))
    found: list[Entry] = []
    while text[position:].startswith("- ") or text[position:] == "-":
        found.append(Entry(position, "item"))
        position += 1
        while position < len(text) and text[position] == " ":
            position += 1
    if position >= len(text) or text[position] == "#":
        return found
    match = _KEY.match(text, position)
    if match is None:
        return found if found or text[position:].strip() else []
    key = match["dq"] if match["dq"] is not None else match["sq"] if match["sq"] is not None else match["plain"]
    rest = match["rest"] or ""
    opens = not rest.strip() or rest.lstrip().startswith("#")
    value_column = None if opens else match.start("rest")
    found.append(Entry(position, "key", key.strip(), opens, value_column))
    return found


def document_bounds(lines: list[str], row: int) -> tuple[int, int]:
    """(first, end) rows of the YAML document holding `row` (between `---` lines)."""
    first = row
    while first > 0 and not lines[first - 1].startswith("---"):
        first -= 1
    end = row + 1
    while end < len(lines) and not lines[end].startswith("---"):
        end += 1
    return first, end


def type_of(lines: list[str], row: int) -> tuple[str | None, str | None]:
    """(apiVersion, kind) of the document holding `row`, from its top-level lines."""
    first, end = document_bounds(lines, row)
    found: dict[str, str] = {}
    for line in lines[first:end]:
        match = _TOP.match(line)
        if match is not None:
            found.setdefault(match[1], match[2])
    return found.get("apiVersion"), found.get("kind")


def ancestors(lines: list[str], row: int, column: int) -> tuple[str | int, ...]:
    """The path of the block that holds something at (row, column): keys and list indices, outermost first."""
    first, _ = document_bounds(lines, row)
    path: list[str | int] = []
    own = [e for e in entries(lines[row]) if e.type == "item" and e.column < column] if row < len(lines) else []
    item: Entry | None = own[-1] if own else None   # the list entry being climbed out of, while its index is counted
    limit, index = (item.column if item else column), 0
    for current in range(row - 1, first - 1, -1):
        found = entries(lines[current])
        if not found or (item is not None and min(e.column for e in found) > item.column):
            continue   # blank, or deeper content of an earlier entry of the same list
        if item is not None:
            if any(e.type == "item" and e.column == item.column for e in found) and \
                    min(e.column for e in found) >= item.column:
                index += 1   # an earlier entry of the same list
                continue
            path.append(index)
            limit, item, index = item.column + 1, None, 0   # a list may sit at its key's own column
        parent = next((e for e in reversed(found) if e.column < limit), None)
        if parent is None or (parent.type == "key" and not parent.opens):
            continue
        if parent.type == "item":   # the entry of a list that holds the content below it
            item, limit, index = parent, parent.column, 0
            continue
        path.append(parent.key or "")
        items = [e for e in found if e.type == "item" and e.column < parent.column]
        item = items[-1] if items else None
        limit = item.column if item else parent.column
    if item is not None:
        path.append(index)
    return tuple(reversed(path))


def key_at(lines: list[str], row: int, column: int) -> tuple[tuple[str | int, ...], str, bool] | None:
    """(path of the field, its key, whether the cursor is on the value) for a cursor on a key or its value."""
    if row >= len(lines):
        return None
    found = [e for e in entries(lines[row]) if e.type == "key"]
    if not found:
        return None
    key = found[0]
    if column < key.column:
        return None
    on_value = key.value_column is not None and column >= key.value_column
    return (*ancestors(lines, row, key.column), key.key or ""), key.key or "", on_value
