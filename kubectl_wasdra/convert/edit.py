"""In-place edits of round-trip mappings that keep each moved key's comments and the order of the keys around it.

Works on ruamel's CommentedMap (YAML) and on plain dicts (JSON): a plain dict is rebuilt in the new order."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.tokens import CommentToken

from kubectl_wasdra.load.document import value_at

_LINE_COMMENT = re.compile(r"\n( *)#")


@dataclass(frozen=True)
class ConversionError(Exception):
    """What the target version cannot express, at a path of the object, and what the user can do about it."""

    path: str
    message: str
    hint: str = ""


def _comments(node: Any) -> dict[Any, Any] | None:
    return node.ca.items if isinstance(node, CommentedMap) else None


def insert_at(node: dict[str, Any], position: int, key: str, value: Any) -> None:
    """Put key at `position` of the mapping's key order."""
    if isinstance(node, CommentedMap):
        node.insert(position, key, value)
        return
    items = list(node.items())
    items.insert(position, (key, value))
    node.clear()
    node.update(items)


def rename_key(node: dict[str, Any], old: str, new: str) -> bool:
    """Rename `old` to `new` where it stands, keeping its value and comments; False when `old` is absent."""
    if old not in node:
        return False
    position = list(node).index(old)
    comment = _pop_comment(node, old)
    value = node.pop(old)
    insert_at(node, position, new, value)
    _put_comment(node, new, comment)
    return True


def move_into(node: dict[str, Any], keys: Iterable[str], into: str) -> bool:
    """Move the present `keys` of `node` into a new mapping `node[into]`, placed where the first of them stood."""
    present = [k for k in node if k in set(keys)]
    if not present:
        return False
    position = list(node).index(present[0])
    inner = same_shape(node)
    for key in present:
        comment = _pop_comment(node, key)
        inner[key] = node.pop(key)
        _put_comment(inner, key, _shift(comment, 2))
    insert_at(node, position, into, inner)
    return True


def lift_from(node: dict[str, Any], key: str) -> bool:
    """The inverse of move_into: replace `node[key]` (a mapping) by its keys, in place."""
    inner = node.get(key)
    if not isinstance(inner, dict):
        return False
    position = list(node).index(key)
    _pop_comment(node, key)
    node.pop(key)
    for offset, (inner_key, value) in enumerate(list(inner.items())):
        comment = _pop_comment(inner, inner_key)
        insert_at(node, position + offset, inner_key, value)
        _put_comment(node, inner_key, _shift(comment, -2))
    return True


def _pop_comment(node: Any, key: str) -> Any:
    comments = _comments(node)
    return comments.pop(key, None) if comments is not None else None


def _shift(comment: Any, delta: int) -> Any:
    """Re-indent the full-line comments carried by a moved key (they follow it, at its old depth)."""
    for token in comment or ():
        if not isinstance(token, CommentToken):
            continue
        if token.value.startswith("#"):  # the comment at the end of the key's line moves with the line
            token.column = max(0, token.column + delta)
        token.value = _LINE_COMMENT.sub(lambda m: "\n" + " " * max(0, len(m.group(1)) + delta) + "#", token.value)
    return comment


def _put_comment(node: Any, key: str, comment: Any) -> None:
    comments = _comments(node)
    if comments is not None and comment is not None:
        comments[key] = comment


def mapping(node: Any, *path: str) -> dict[str, Any] | None:
    """node[path[0]][path[1]]... when every step is a mapping, else None."""
    found = value_at(node, path)
    return found if isinstance(found, dict) else None


def mappings(node: Any, *path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(index, item) for the mapping items of the list at `path`."""
    parent_path, last = path[:-1], path[-1]
    parent = mapping(node, *parent_path) if parent_path else node
    items = parent.get(last) if isinstance(parent, dict) else None
    if isinstance(items, list):
        yield from ((i, item) for i, item in enumerate(items) if isinstance(item, dict))


def same_shape(value: Any) -> Any:
    """A new empty mapping of the kind `value` is (round-trip or plain), in its flow or block style."""
    if not isinstance(value, CommentedMap):
        return {}
    new = CommentedMap()
    if value.fa.flow_style():
        new.fa.set_flow_style()
    return new
