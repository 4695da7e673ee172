"""Positions in plain block YAML, read off its lines without composing it.

Most documents that hold a finding are written as plain block YAML: `key: value` lines, `- ` items and comments, with
no anchors, tags, flow collections, block scalars or values over several lines. For those, the 0-based line and
column of a key or a value can be read off the text. Composing the document with PyYAML (and importing PyYAML) was
nearly all that findings cost. `parse_plain` returns None for anything outside that subset, and load/positions.py
composes as before; tests/load/test_plain_block.py checks that both give the same marks on every document of the
test corpora.
"""

from __future__ import annotations

import re
from typing import Final, Literal

Mark = tuple[int, int]  # 0-based line and column in the document's text, as PyYAML's start_mark

_KEY_LINE: Final = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_./-]*):(?:( +)(\S.*))?$")
_NOT_PLAIN_START: Final = frozenset("&*!|>{}[]%@`#,?\"'")


class _Plain(Exception):
    """The text is outside the plain block subset: compose it instead."""


class Node:
    """A scalar, mapping or sequence with the mark PyYAML gives it."""

    __slots__ = ("items", "keys", "mark")

    def __init__(self, mark: Mark, keys: dict[str, tuple[Mark, Node]] | None = None,
                 items: list[Node] | None = None) -> None:
        self.mark, self.keys, self.items = mark, keys, items


class _Line:
    """One content line: where it starts and what it holds (a key, perhaps after a `- `, or an item's scalar)."""

    __slots__ = ("indent", "item", "key", "key_col", "number", "value_col")

    def __init__(self, number: int, text: str) -> None:
        self.number = number
        self.indent = len(text) - len(text.lstrip(" "))
        rest = text[self.indent:].rstrip(" ")
        self.item = rest.startswith("- ")
        col = self.indent
        if self.item:
            body = rest[1:].lstrip(" ")
            col = self.indent + len(rest) - len(body)
            rest = body
            if rest == "-" or rest.startswith("- "):
                raise _Plain  # a nested sequence on one line
        self.key_col = col
        match = _KEY_LINE.match(rest)
        if match is None:
            if not self.item:
                raise _Plain
            _check_scalar(rest)
            self.key, self.value_col = None, col  # an item that is a scalar
            return
        self.key = match.group(1)
        value = match.group(3)
        if value is None:
            self.value_col = None
            return
        _check_scalar(value)
        self.value_col = col + len(self.key) + 1 + len(match.group(2))


def _check_scalar(text: str) -> None:
    """A one-line plain or quoted scalar, perhaps followed by a comment (` #` starts one), or _Plain."""
    text = text.split(" #", 1)[0].rstrip(" ")
    if not text or (text[0] in _NOT_PLAIN_START and text[0] not in "\"'"):
        raise _Plain
    if text[0] in "\"'":
        if len(text) < 2 or text[-1] != text[0] or "\\" in text or text.count(text[0]) != 2:
            raise _Plain
        return
    if ": " in text or text.endswith(":") or text.startswith("- "):
        raise _Plain


def parse_plain(text: str) -> Node | None:
    """The node tree of one document in plain block YAML, or None when the text is anything else."""
    if "\t" in text or "\r" in text or "\ufeff" in text:
        return None
    lines = []
    try:
        for number, line in enumerate(text.split("\n")):
            stripped = line.strip(" ")
            if not stripped or stripped.startswith("#"):
                continue
            if not lines and line.rstrip(" ") == "---":
                continue  # the document's own separator line
            lines.append(_Line(number, line))
        if not lines:
            return None
        root, end = _block(lines, 0, lines[0].indent)
    except _Plain:
        return None
    return root if end == len(lines) else None


def _block(lines: list[_Line], i: int, col: int) -> tuple[Node, int]:
    line = lines[i]
    if line.indent != col:
        raise _Plain
    return _sequence(lines, i, col) if line.item else _mapping(lines, i, col, item=False)


def _mapping(lines: list[_Line], i: int, col: int, *, item: bool) -> tuple[Node, int]:
    """The mapping whose keys start at column `col`, from line `i` (`item`: its first key follows a `- `)."""
    keys: dict[str, tuple[Mark, Node]] = {}
    first = lines[i]
    while i < len(lines):
        line = lines[i]
        if line is not first or not item:
            if line.indent < col:
                break
            if line.indent > col or line.item:
                raise _Plain
        if line.key is None or line.key in keys:
            raise _Plain  # an item scalar where a key belongs; a duplicate key (the last would win)
        i += 1
        if line.value_col is not None:
            keys[line.key] = ((line.number, line.key_col), Node((line.number, line.value_col)))
            continue
        if i == len(lines):
            raise _Plain  # an empty value
        nested = lines[i]
        if nested.indent > line.key_col:
            value, i = _block(lines, i, nested.indent)
        elif nested.indent == line.key_col and nested.item:
            value, i = _sequence(lines, i, line.key_col)  # an indentless sequence
        else:
            raise _Plain
        keys[line.key] = ((line.number, line.key_col), value)
    return Node((first.number, first.key_col), keys=keys), i


def _sequence(lines: list[_Line], i: int, col: int) -> tuple[Node, int]:
    """The block sequence whose `- ` are at column `col`, from line `i`."""
    mark = (lines[i].number, col)
    items = []
    while i < len(lines) and lines[i].indent == col and lines[i].item:
        line = lines[i]
        if line.key is None:
            items.append(Node((line.number, line.key_col)))
            i += 1
        else:
            node, i = _mapping(lines, i, line.key_col, item=True)
            items.append(node)
    if i < len(lines) and lines[i].indent > col:
        raise _Plain
    return Node(mark, items=items), i


def find_mark(root: Node, path: tuple[str | int, ...], at: Literal["key", "value"]) -> Mark | None:
    """The mark load/positions.py would find for `path` (the key, or the value; the deepest existing ancestor when
    the path is missing), or None for a step it treats specially (lone surrogates)."""
    node, mark = root, root.mark
    for step in path:
        if isinstance(step, str) and "\ufffd" in step:
            return None
        if node.keys is not None:
            found = node.keys.get(str(step))
        elif node.items is not None and isinstance(step, int) and -len(node.items) <= step < len(node.items):
            item = node.items[step]
            found = (item.mark, item)
        else:
            found = None
        if found is None:
            return mark
        mark, node = found
    if path and at == "value":
        mark = node.mark
    return mark
