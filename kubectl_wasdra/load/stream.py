"""Walking a multi-document YAML stream that may be broken: after a syntax error, carry on at the next `---` line.

Both the data loader and the position composer use this, so document numbers agree between them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import yaml

# a `---` line: the start of a document. `^---` as written, but starting with the literal and checking the line start
# behind it: a pattern that starts with `^` is tried at every character (7x as long on the bench corpus)
SEPARATOR_RE: Final = re.compile(r"---(?<=^---)(?:[ \t]|$)", re.MULTILINE)
TOO_DEEP: Final = "document is nested too deeply"


@dataclass(frozen=True)
class Segment:
    """One document of the stream: its index, the parsed value (None if empty or broken), the line offset of the
    text it was parsed from (add it to 0-based marks), and the error that broke it, if any."""

    index: int
    value: Any
    line_offset: int
    error: yaml.YAMLError | None = None


def error_line(error: yaml.YAMLError) -> int:
    """0-based line of a parse error (relative to the text parsed)."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    return mark.line if mark is not None else 0


def walk(text: str, parse: Callable[[str], Iterator[Any]]) -> Iterator[Segment]:
    """Segments of `text`: `parse(text)` yields one value per document; on a YAMLError the broken document is yielded
    with its error and parsing resumes after the next `---` line that follows the error."""
    import yaml

    index, offset, rest = 0, 0, text
    first_index = 0  # index of the first document of `rest`
    while True:
        try:
            for value in parse(rest):
                yield Segment(index, value, offset)
                index += 1
            return
        except RecursionError:
            # a document nested deeper than Python's stack (the composer recurses per level): report it at its
            # first line and carry on with the next document
            start, resume = document_span(rest, index - first_index)
            yield Segment(index, None, offset + start, yaml.MarkedYAMLError(problem=TOO_DEEP))
            index += 1
            if resume is None:
                return
            offset += rest.count("\n", 0, resume)
            rest = rest[resume:]
            first_index = index
            continue
        except yaml.YAMLError as exc:
            yield Segment(index, None, offset, exc)
            index += 1
            # the error may sit on the `---` that starts the next document (an unclosed flow collection); resume
            # there, but always make progress
            resume = _next_separator(rest, error_line(exc))
            if resume == 0:
                resume = _next_separator(rest, 1)
            if resume is None:
                return
            offset += rest.count("\n", 0, resume)
            rest = rest[resume:]
            first_index = index


def document_span(text: str, number: int) -> tuple[int, int | None]:
    """(0-based line where document `number` of `text` starts — its `---`, or the first content line of an implicit
    first document — and the character offset where the next document starts, or None)."""
    starts = document_starts(text)
    start = starts[min(number, len(starts) - 1)]
    following = starts[number + 1] if number + 1 < len(starts) else None
    line = text.count("\n", 0, start)
    if start == 0:  # an implicit first document starts at its first content line (a `---` at 0 is one)
        line = min(_content_lines(text[: following if following is not None else len(text)]), default=0)
    return line, following


def document_starts(text: str) -> list[int]:
    """Character offset where each document of `text` starts, by its `---` lines: the `---`, or 0 for a first
    document without one (content before the first `---`). Comments and blank lines before an explicit first `---`
    belong to no document."""
    separators = [match.start() for match in SEPARATOR_RE.finditer(text)]
    if separators and not _content_lines(text[: separators[0]]):
        return separators
    return [0, *separators]


def _content_lines(text: str) -> list[int]:
    """0-based numbers of the lines that hold YAML content (not blank, not comments, not directives)."""
    return [number for number, line in enumerate(text.splitlines())
            if line.strip() and not line.lstrip().startswith(("#", "%"))]


def _next_separator(text: str, after_line: int) -> int | None:
    """Character offset of the first `---` line at or after 0-based line `after_line`."""
    start = 0
    for _ in range(after_line):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    match = SEPARATOR_RE.search(text, start)
    return match.start() if match else None
