"""Line/column of any field of a loaded document, computed lazily from the source text.

The fast loaders (load/parse.py) return plain data without positions. When a finding needs a position, only the
document it is in is composed, with libyaml's C composer (PyYAML `compose`), whose nodes carry 0-based start marks;
that node tree is cached on the `SourceText`. A file whose documents cannot be told apart by their `---` lines alone
(directives, `...` markers, a part that is not exactly one document, a syntax error) is composed whole instead, as
the data loader walked it. JSON is valid YAML flow syntax, so the same composer serves both (tabs, legal JSON
whitespace, are replaced by spaces of the same width first).
"""

from __future__ import annotations

import functools
import re
import threading
from typing import Any, Final, Literal

from kubectl_wasdra.load.stream import document_starts, walk

# directives, document end markers; searched in "\n" + text, so that the pattern starts with a literal (see SEPARATOR_RE)
_UNSPLITTABLE_RE: Final = re.compile(r"\n(?:%|\.\.\.(?:[ \t]|$))", re.MULTILINE)


@functools.cache
def _compose_loader() -> type:
    """libyaml's composer with a resolver that does no work: nodes are composed only for their marks."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class PositionLoader(base):  # type: ignore[misc, valid-type]
        def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
            return "tag:yaml.org,2002:str" if kind is yaml.ScalarNode else (
                "tag:yaml.org,2002:seq" if kind is yaml.SequenceNode else "tag:yaml.org,2002:map")

    return PositionLoader


class SourceText:
    """The decoded text of one file plus, on demand, the position-carrying node tree of each of its documents."""

    __slots__ = ("_lock", "_nodes", "_parts", "_plain", "_start_lines", "_starts", "is_json", "text")

    def __init__(self, text: str, *, is_json: bool = False) -> None:
        self.text = text
        self.is_json = is_json
        self._nodes: list[tuple[Any, int]] | None = None
        self._parts: dict[int, tuple[Any, int]] = {}
        self._plain: dict[int, tuple[Any, int] | None] = {}
        self._starts: list[int] | None = None
        self._start_lines: list[int] = []
        self._lock = threading.Lock()

    def __getstate__(self) -> tuple[str, bool]:
        return self.text, self.is_json

    def __setstate__(self, state: tuple[str, bool]) -> None:
        self.text, self.is_json = state
        self._nodes = None
        self._parts = {}
        self._plain = {}
        self._starts = None
        self._start_lines = []
        self._lock = threading.Lock()

    def document(self, index: int) -> tuple[Any, int]:
        """(root node, line offset) of document `index`: that document alone when the file splits cleanly at its
        `---` lines, else from the whole stream (None for an empty or broken document)."""
        with self._lock:
            if self._nodes is None and index not in self._parts:
                part = self._part(index)
                root = _compose_part(part[0]) if part is not None else None
                if part is not None and root is not None:
                    self._parts[index] = root, part[1]
            if index in self._parts:
                return self._parts[index]
        nodes = self.nodes()
        return nodes[index] if index < len(nodes) else (None, 0)

    def nodes(self) -> list[tuple[Any, int]]:
        """(root node, line offset) of every document in the stream (node None for an empty or broken one)."""
        with self._lock:
            if self._nodes is None:
                self._nodes = _compose(self.text.replace("\t", " ") if self.is_json else self.text, self.is_json)
            return self._nodes

    def plain_document(self, index: int) -> tuple[Any, int] | None:
        """(plain_block node tree, line offset) of document `index` when the file splits cleanly at its `---` lines
        and that document is plain block YAML (load/plain_block.py); None otherwise."""
        from kubectl_wasdra.load.plain_block import parse_plain

        with self._lock:
            if index not in self._plain:
                part = self._part(index)
                root = parse_plain(part[0]) if part is not None else None
                self._plain[index] = (root, part[1]) if part is not None and root is not None else None
            return self._plain[index]

    def _split(self) -> list[int]:
        """Where each document starts (and, beside it, its first line), found once; under the lock."""
        if self._starts is None:
            self._starts = [] if self.is_json else _part_starts(self.text)
            self._start_lines = _line_numbers(self.text, self._starts)
        return self._starts

    def segments(self) -> list[tuple[str, int]] | None:
        """(text, line offset) of every document when the file splits cleanly at its `---` lines (None for JSON): what
        an editor's incremental check compares to tell an unchanged document. One pass over the text."""
        with self._lock:
            starts, lines = self._split(), self._start_lines
        if not starts:
            return None
        ends = [*starts[1:], len(self.text)]
        return [(self.text[start:end], line) for start, end, line in zip(starts, ends, lines, strict=True)]

    def _part(self, index: int) -> tuple[str, int] | None:
        """(text, line offset) of document `index` when the file splits cleanly at its `---` lines; under the lock."""
        starts = self._split()
        if index >= len(starts):
            return None
        end = starts[index + 1] if index + 1 < len(starts) else len(self.text)
        return self.text[starts[index]:end], self._start_lines[index]

    def position(self, index: int, path: tuple[str | int, ...], at: Literal["key", "value"]) -> tuple[int, int]:
        """1-based (line, column) of `path` in document `index`; the deepest existing ancestor when it is missing.
        Plain block YAML is read off its lines; anything else is composed."""
        from kubectl_wasdra.load.plain_block import find_mark

        plain = self.plain_document(index)
        if plain is not None:
            mark = find_mark(plain[0], path, at)
            if mark is not None:
                return plain[1] + mark[0] + 1, mark[1] + 1
        root, offset = self.document(index)
        if root is None:
            return offset + 1, 1
        mark = _find(root, path, at)
        return offset + mark.line + 1, mark.column + 1


def _compose(text: str, is_json: bool) -> list[tuple[Any, int]]:
    """(root node, line offset) per document; (None, offset) for empty or broken ones."""
    import yaml

    loader = _compose_loader()
    if is_json:
        try:
            return [(yaml.compose(text, Loader=loader), 0)]
        except (yaml.YAMLError, RecursionError):
            return []
    return [(segment.value, segment.line_offset) for segment in walk(text, lambda part: yaml.compose_all(part, Loader=loader))]


def _line_numbers(text: str, offsets: list[int]) -> list[int]:
    """0-based line of each of the ascending character `offsets`, counted in one pass (counting from the start of
    the text for each document took 27 s on 100,000 documents)."""
    lines, line, previous = [], 0, 0
    for offset in offsets:
        line += text.count("\n", previous, offset)
        previous = offset
        lines.append(line)
    return lines


def _part_starts(text: str) -> list[int]:
    """Where each document of `text` starts, by its `---` lines; [] when directives or `...` markers make that unsure."""
    return [] if _UNSPLITTABLE_RE.search("\n" + text) else document_starts(text)


def _compose_part(part: str) -> Any:
    """The root node of one document's text composed on its own, or None when it does not hold exactly one document
    that composes without error (then the whole stream is composed instead)."""
    import yaml

    try:
        documents = list(yaml.compose_all(part, Loader=_compose_loader()))
    except (yaml.YAMLError, RecursionError):
        return None
    return documents[0] if len(documents) == 1 else None


def _child(node: Any, step: str | int) -> tuple[Any, Any] | None:
    """(key node or item node, value node) for one path step, or None when the step does not exist."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        found = None
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(step):
                found = (key, value)  # the last duplicate wins, as it does in the data
        if found is None and isinstance(step, str) and "\ufffd" in step:  # the data has U+FFFD for lone surrogates
            from kubectl_wasdra.load.parse import without_surrogates

            found = next((pair for pair in reversed(node.value)
                          if isinstance(pair[0], yaml.ScalarNode) and without_surrogates(pair[0].value) == step), None)
        if found is None:
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value == "<<":
                    merged = _merged_child(value, step)
                    if merged is not None:
                        return merged
        return found
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and -len(node.value) <= step < len(node.value):
        item = node.value[step]
        return item, item
    return None


def _merged_child(value: Any, step: str | int) -> tuple[Any, Any] | None:
    import yaml

    sources = value.value if isinstance(value, yaml.SequenceNode) else [value]
    for source in sources:
        found = _child(source, step)
        if found is not None:
            return found
    return None


def _find(root: Any, path: tuple[str | int, ...], at: str) -> Any:
    """Start mark of the key (or value) at `path`, or of the deepest existing ancestor."""
    node, mark = root, root.start_mark
    for step in path:
        found = _child(node, step)
        if found is None:
            return mark
        key, node = found
        mark = key.start_mark
    if path and at == "value":
        mark = node.start_mark
    return mark
