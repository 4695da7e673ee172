"""The line-start patterns written for speed (a literal first, the line start checked behind it or found through a
prefixed "\\n") match exactly where the plain `^` patterns they replace match, on every short string of the
characters that matter."""

from __future__ import annotations

import itertools
import re

from kubectl_wasdra.load.positions import _UNSPLITTABLE_RE
from kubectl_wasdra.load.stream import SEPARATOR_RE

PLAIN_SEPARATOR = re.compile(r"^---(?:[ \t]|$)", re.MULTILINE)
PLAIN_UNSPLITTABLE = re.compile(r"^(?:%|\.\.\.(?:[ \t]|$))", re.MULTILINE)
ALPHABET = "- \t\n\r.%a"


def strings() -> list[str]:
    return ["".join(chars) for size in range(1, 6) for chars in itertools.product(ALPHABET, repeat=size)]


def test_separator_pattern_matches_where_the_plain_one_does() -> None:
    for text in strings():
        assert [m.span() for m in SEPARATOR_RE.finditer(text)] == [m.span() for m in PLAIN_SEPARATOR.finditer(text)]
        for start in range(len(text) + 1):
            new, plain = SEPARATOR_RE.search(text, start), PLAIN_SEPARATOR.search(text, start)
            assert (new and new.span()) == (plain and plain.span()), (text, start)


def test_unsplittable_pattern_matches_where_the_plain_one_does() -> None:
    for text in strings():
        assert bool(_UNSPLITTABLE_RE.search("\n" + text)) == bool(PLAIN_UNSPLITTABLE.search(text)), text
