"""A document's nesting depth read off its characters, before any parser or pattern sees it: flow brackets (`[`,
`{` open a level, `]`, `}` close one) and compact block sequences (`- - - x` on one line). A document deeper than
MAX_DEPTH this way is refused as a whole, so no regular expression, Rust or C parser meets 100,000 levels (the
parsers overflow their stacks; some patterns backtrack over each level).

The count is a superset: brackets inside quoted strings or comments count too, so a document with more than
MAX_DEPTH unbalanced `[`/`{` characters in its strings is refused as well (no Kubernetes object has that).
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Final, TypeVar

from kubectl_wasdra.load.stream import document_starts

_Text = TypeVar("_Text", str, bytes)
_KEEP_BRACKETS: Final = str.maketrans({chr(c): None for c in range(128) if chr(c) not in "[]{}"})
_VALUES: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
# the brackets only, every opener as "[" and every closer as "]": the running count above treats them alike
_AS_SQUARE: Final = str.maketrans({**{chr(c): None for c in range(128) if chr(c) not in "[]{}"}, "{": "[", "}": "]"})


def _compact_sequences(limit: int) -> re.Pattern[str]:
    return re.compile(r"(?:-[ \t]++){" + str(limit + 1) + "}")


def _running(text: str) -> list[int]:
    brackets = text.translate(_KEEP_BRACKETS)
    if not brackets.isascii():  # non-ASCII characters survive the table: drop them as well
        brackets = "".join(ch for ch in brackets if ch in _VALUES)
    return list(accumulate(map(_VALUES.__getitem__, brackets)))


def _nested_within(text: str, limit: int) -> bool:
    """True when the brackets of `text` close in order and nest at most `limit` deep, proven at C speed: each pass
    deletes every innermost "[]" pair, so a nest `d` deep is gone after `d` passes. False means "not proven" (deeper,
    unbalanced, or non-ASCII characters left over): the caller then counts exactly."""
    brackets = text.translate(_AS_SQUARE)
    return brackets.isascii() and _peeled(brackets, "[]", limit)


def _peeled(brackets: _Text, pair: _Text, limit: int) -> bool:
    """True when deleting every innermost `pair` at most `limit` times leaves nothing of `brackets` (openers as "[",
    closers as "]"); False when something is left or no pair is found ("][" left: unbalanced)."""
    for _ in range(limit):
        if not brackets:
            return True
        shorter = brackets.replace(pair, pair[:0])
        if len(shorter) == len(brackets):
            return False
        brackets = shorter
    return not brackets


_BRACKET_BYTES: Final = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS: Final = bytes(c for c in range(256) if c not in b"[]{}")


def within_depth(raw: bytes, limit: int, *, json: bool = False) -> bool:
    """True when the UTF-8 text in `raw` is proven to nest at most `limit` levels by brackets and `- ` runs (what
    too_deep_documents would find nothing in), at bytes speed; False means "not proven": call too_deep_documents.
    In UTF-8 the bytes of `[]{}- ` occur only as those characters. `json`: the text is JSON, where `- ` nests nothing
    (it can only stand inside a string), so only brackets are counted."""
    brackets = raw.translate(_BRACKET_BYTES, _NOT_BRACKETS)
    return _peeled(brackets, b"[]", limit) and (json or raw.count(b"- ") <= limit)


def flow_depth(text: str) -> int:
    """The deepest running count of opening minus closing brackets in `text` (0 when none)."""
    return max(_running(text), default=0)


def too_deep_documents(text: str, limit: int) -> list[int]:
    """Indexes of the documents of a YAML/JSON stream nested more than `limit` levels by brackets or `- ` runs.
    Costs two C-speed scans when the whole text has at most `limit` brackets and no run of `- ` that long."""
    openers = text.count("[") + text.count("{")
    compact = _compact_sequences(limit)
    flow_deep = openers > limit and not _nested_within(text, limit)
    if flow_deep:
        running = _running(text)
        # never below 0 and never above `limit` over the whole text: no document can be deeper on its own
        flow_deep = min(running, default=0) < 0 or max(running, default=0) > limit
    if not flow_deep and (text.count("- ") <= limit or not compact.search(text)):
        return []
    starts = document_starts(text) or [0]
    ends = [*starts[1:], len(text)]
    deep = []
    for index, (start, end) in enumerate(zip(starts, ends, strict=True)):
        part = text[start:end]
        if flow_depth(part) > limit or compact.search(part):
            deep.append(index)
    return deep
