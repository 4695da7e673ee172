"""Decoding one big `List` a slice of items at a time, with the same result as decoding the text whole.

Both fast parsers build a tree of their own before the Python objects: orjson a yyjson document, yaml-rs a Rust node
tree. For a whole 5,000-node snapshot those add 200 MiB (JSON) and 300 MiB (YAML) at the peak; parsed a slice of about
a megabyte at a time they stay that small. yaml-rs also makes a new string for every mapping key (3 million for that
snapshot, 160 MiB): each YAML slice goes once through orjson, whose key cache shares them.

Only the common shape is sliced: one object whose `items` is an indented list (`kubectl get -o json|yaml`). Item
boundaries are found by layout (`},<indent>{` in JSON, a line `<indent>- ` in YAML) and proven by the parse: every
slice and the object without its items must decode, or None is returned and the caller decodes the text whole (so
errors keep their positions). JSON strings hold no raw newline, so a boundary can only be cut between values; a YAML
line `<indent>- ` can only open the next entry of the list, and a cut anywhere else leaves a slice unterminated.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any, Final

import orjson

SLICE_CHARS: Final = 1 << 20  # below this a text is decoded whole; above it, slices of about this size
_JSON_ITEMS: Final = re.compile(r'"items"[ \t]*:[ \t]*\[(\n[ \t]*)\{')
_YAML_ITEMS: Final = re.compile(r"items:[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*( *)-[ \t]")  # at column 0
_YAML_DIRECTIVE: Final = re.compile(r"^%", re.MULTILINE)
_FINITE: Final = json.JSONEncoder(allow_nan=False, check_circular=False)
_LIST_ENDS: Final = re.compile(r"\n(?=[^ \t\n#])")  # a line at column 0 that is no comment ends `items:` at an indent
_FLUSH_LIST_ENDS: Final = re.compile(r"\n(?=[^ \t\n#-]|-[^ \t\n])")  # ... and one not opening an entry, `items:` at 0


def decode_json_list(text: str, slice_chars: int = SLICE_CHARS) -> list[Any] | None:
    """[the List in `text`] decoded slice by slice, as orjson.loads(text) would; None when the text is small or not
    one List with indented items, or a slice does not decode."""
    match = _JSON_ITEMS.search(text) if len(text) > slice_chars else None
    if match is None:
        return None
    start, indent = match.end(1), match.group(1)  # start: where the first item opens
    closing = re.compile(re.escape(indent) + r"\}[ \t\n]*\]")
    try:
        if not isinstance(orjson.loads(text[:start] + "]}"), dict):  # `items` opens at the top level of one object
            return None
        last = max(_cut_points(text, start, "}," + indent + "{", slice_chars))
        closed = closing.search(text, last)
        if closed is None or '"items"' in text[closed.end():]:
            return None
        end = closed.start() + len(indent) + 1  # just past the last item's closing brace
        skeleton = orjson.loads(text[:start] + text[end:])
        items = _decoded(_parts(text, start, end, "}," + indent + "{", slice_chars),
                         lambda part: orjson.loads("[" + part.lstrip(",") + "]"))
    except orjson.JSONDecodeError:
        return None
    return _with_items(skeleton, items)


def decode_yaml_list(text: str, slice_chars: int = SLICE_CHARS) -> list[Any] | None:
    """[the List in `text`] decoded slice by slice with yaml-rs, keys shared; None when the text is small, not one List
    whose items are a block sequence, has anchors or directives, or a slice does not decode. The caller has checked
    that the text is one document that yaml-rs reads as Kubernetes does (decode.py)."""
    match = _top_level_items(text) if len(text) > slice_chars else None
    if match is None or _may_have_anchor(text) or _YAML_DIRECTIVE.search(text, 0, match.start()):
        return None
    import yaml_rs

    def loads(part: str) -> Any:
        return yaml_rs.loads(part, parse_datetime=False)

    head_end, indent = text.index("\n", match.start()), match.group(1)
    end = _yaml_list_end(text, match.start(1), indent)
    try:
        skeleton = loads(text[:head_end] + " []\n" + text[end:])
        parts = _parts(text, match.start(1), end, "\n" + indent + "- ", slice_chars)
        items = _decoded(parts, lambda part: _shared_keys(loads(part)))
    except yaml_rs.YAMLDecodeError:
        return None
    return _with_items(skeleton, items)


def _top_level_items(text: str) -> re.Match[str] | None:
    """The first `items:` line at column 0 up to the `- ` of its first entry, or None."""
    at = 0 if text.startswith("items:") else text.find("\nitems:") + 1
    return _YAML_ITEMS.match(text, at) if at or text.startswith("items:") else None


def _may_have_anchor(text: str) -> bool:
    """Whether an `&` may open a YAML anchor (an alias in another slice would not resolve): one at the start of a line
    or after `:`, `-`, `?` or a flow indicator, blanks between. `&&` inside a CEL expression is none."""
    at = text.find("&")
    while at >= 0:
        before = text[text.rfind("\n", 0, at) + 1:at].rstrip(" \t")
        if not before or before[-1] in ":-?[{,":
            return True
        at = text.find("&", at + 1)
    return False


def _cut_points(text: str, start: int, boundary: str, slice_chars: int) -> Iterator[int]:
    """Where each slice starts: `start`, then one character into the first `boundary` at least `slice_chars` on."""
    yield start
    position = start
    while (found := text.find(boundary, position + slice_chars)) >= 0:
        position = found + 1
        yield position


def _parts(text: str, start: int, end: int, boundary: str, slice_chars: int) -> Iterator[str]:
    """text[start:end] in slices cut at `boundary` (see _cut_points)."""
    cuts = [cut for cut in _cut_points(text, start, boundary, slice_chars) if cut < end]
    for first, after in zip(cuts, [*cuts[1:], end], strict=True):
        yield text[first:after]


def _yaml_list_end(text: str, start: int, indent: str) -> int:
    """Where the block sequence at `indent` starting at `start` ends: at the first line at column 0 that is neither
    blank nor a comment (nor, at indent 0, another entry) after its last entry. Searched from the last `<indent>- `
    line, so only the last entry and the rest are scanned: a column-0 line before it lands inside a slice, which then
    fails to decode (and so does a line indented less than `indent` but not at column 0)."""
    last = text.rfind("\n" + indent + "- ", start) + 1 or start
    found = (_LIST_ENDS if indent else _FLUSH_LIST_ENDS).search(text, last)
    return found.start() + 1 if found else len(text)


def _decoded(parts: Iterator[str], loads: Callable[[str], Any]) -> list[Any] | None:
    """The items of every slice in order; None when a slice is not a list."""
    items: list[Any] = []
    for part in parts:
        values = loads(part)
        if not isinstance(values, list):
            return None
        items.extend(values)
    return items


def _with_items(skeleton: Any, items: list[Any] | None) -> list[Any] | None:
    """[skeleton with its empty `items` filled], or None when the skeleton is not that object."""
    if items is None or not isinstance(skeleton, dict) or skeleton.get("items") != []:
        return None
    skeleton["items"] = items
    return [skeleton]


def _shared_keys(values: Any) -> Any:
    """`values` rebuilt by orjson, whose key cache makes equal keys one string; as they are when a value would not
    survive JSON: an integer beyond 64 bits or a non-string key (orjson refuses them), inf or nan (written as null)."""
    try:
        data = orjson.dumps(values)
    except orjson.JSONEncodeError:
        return values
    if b"null" in data:  # None, or inf or nan written as null
        try:
            _FINITE.encode(values)
        except ValueError:
            return values
    return orjson.loads(data)
