"""Text in, text out: split a file into YAML documents, parse the ones that may change with ruamel.yaml, and put the
file back together so that untouched documents, separators, line endings and a BOM stay byte for byte as they were."""

from __future__ import annotations

import difflib
import io
import json
import re
from dataclasses import dataclass
from typing import Any, Final

from ruamel.yaml import YAML

BOM: Final = "\ufeff"
_MARKER: Final = re.compile(r"^(?:---|\.\.\.)(?:[ \t].*)?$", re.MULTILINE)


@dataclass
class Chunk:
    """One document's text (without its `---` line), the separator line before it, and its first line (1-based)."""

    separator: str
    text: str
    line: int

    @property
    def source(self) -> str:
        """What to parse: the text, with the marker line when content follows `---` on it (`--- {a: 1}`)."""
        rest = self.separator[3:].strip()
        return self.separator + self.text if rest and not rest.startswith("#") else self.text


@dataclass
class SourceText:
    """A file's text with its encoding details taken off, so edits see plain "\\n" text."""

    body: str
    bom: bool
    crlf: bool
    is_json: bool

    @classmethod
    def decode(cls, raw: bytes, name: str = "") -> SourceText:
        text = raw.decode("utf-8")
        bom = text.startswith(BOM)
        text = text.removeprefix(BOM)
        crlf = "\r\n" in text
        body = text.replace("\r\n", "\n")
        start = body.lstrip()[:2]
        return cls(body, bom, crlf, name.endswith(".json") or (start[:1] in ("{", "[") and start != "{{"))

    def encode(self, body: str) -> bytes:
        """The new body with the original line endings and BOM."""
        text = body.replace("\n", "\r\n") if self.crlf else body
        return ((BOM if self.bom else "") + text).encode("utf-8")


def split_documents(body: str) -> list[Chunk]:
    """The documents of a YAML stream, each with the marker line that precedes it ("" for the first)."""
    chunks: list[Chunk] = []
    start, separator, line = 0, "", 1
    for match in _MARKER.finditer(body):
        chunks.append(Chunk(separator, body[start:match.start()], line))
        line = body.count("\n", 0, match.end()) + 2
        start = min(match.end() + 1, len(body))
        separator = body[match.start():start]
    chunks.append(Chunk(separator, body[start:], line))
    return chunks


def join_documents(chunks: list[Chunk]) -> str:
    return "".join(c.separator + c.text for c in chunks)


def _yaml(indent: int = 2, dash_offset: int = 0) -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=indent, sequence=dash_offset + 2, offset=dash_offset)
    return yaml


def load_yaml(text: str) -> Any:
    """One document, round-trip loaded (comments and layout attached; every anchor kept, used or not). ValueError for
    a document that `check` refuses as an alias bomb (LOAD010), so that convert and check --fix never expand one."""
    if "*" in text and _excessive_aliasing(text):
        raise ValueError("excessive aliasing: the API server refuses such alias bombs (LOAD010)")
    data = _yaml().load(text)
    _keep_anchors(data, set())
    return data


def _excessive_aliasing(text: str) -> bool:
    """The loader's go-yaml alias rule (load/parse.py), so convert refuses exactly the documents check reports."""
    from kubectl_wasdra.load.document import ProblemKind
    from kubectl_wasdra.load.parse import parse_text

    return any(issue.kind is ProblemKind.ALIAS_LIMIT for issue in parse_text(text, is_json=False).issues)


def _keep_anchors(node: Any, seen: set[int]) -> None:
    """ruamel.yaml writes an anchor only where an alias uses it; a conversion must not drop the others.
    Each node is visited once, so aliases (even recursive ones) cost nothing."""
    if id(node) in seen:
        return
    seen.add(id(node))
    anchor = getattr(node, "anchor", None)
    if anchor is not None and getattr(anchor, "value", None):
        anchor.always_dump = True
    if isinstance(node, dict):
        for value in node.values():
            _keep_anchors(value, seen)
    elif isinstance(node, list):
        for value in node:
            _keep_anchors(value, seen)


def guess_indent(text: str) -> tuple[int, int]:
    """(mapping indent, dash offset of block sequences) as the document writes them; kubectl's (2, 0) when unsure."""
    indent = dash = None
    previous: tuple[int, str] | None = None
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(line) - len(stripped)
        if previous is not None and previous[1].endswith(":") and depth >= previous[0]:
            step = depth - previous[0]
            if stripped.startswith("- "):
                dash = step if dash is None else dash
            elif step and not previous[1].startswith("- "):
                indent = step if indent is None else indent
        if indent is not None and dash is not None:
            break
        previous = (depth, stripped.split(" #")[0].rstrip())
    return indent or 2, dash if dash is not None and dash < 8 else 0


def dump_yaml(data: Any, original: str) -> str:
    """`data` as YAML in the indentation style of `original` (the document it came from)."""
    indent, dash = guess_indent(original)
    out = io.StringIO()
    _yaml(indent, dash).dump(data, out)
    return out.getvalue()


def dump_edited(data: Any, original: str, unedited: Any = None) -> str:
    """`data` (edited from the document `original`, loaded as `unedited` when the caller kept an untouched copy) as
    text that differs from `original` only on the lines the edit touched: ruamel.yaml re-emits whitespace (trailing
    blanks, spaces after a colon, a second sequence indentation style), so the lines that dump the same before and
    after the edit are taken from the original, byte for byte."""
    new = dump_yaml(data, original)
    try:
        base = dump_yaml(load_yaml(original) if unedited is None else unedited, original)
    except Exception:  # the original parsed once already; any surprise here just means no line-for-line merge
        return new
    original_lines = original.splitlines(keepends=True)
    base_lines = base.splitlines(keepends=True)
    if len(base_lines) != len(original_lines):
        return new
    new_lines = new.splitlines(keepends=True)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base_lines, new_lines, autojunk=False).get_opcodes():
        out.extend(original_lines[i1:i2] if tag == "equal" else new_lines[j1:j2])
    text = "".join(out)
    return text if text.endswith("\n") or not text else text + "\n"


def added_documents(chunk: Chunk, items: list[Any]) -> list[Chunk]:
    """The documents a conversion adds after `chunk` (a PodGroup split out of a Workload), in kubectl's style; `chunk`
    gets the final newline its `---` needs."""
    if items and chunk.text and not chunk.text.endswith("\n"):
        chunk.text += "\n"
    return [Chunk("---\n", _dump_new_document(item), 0) for item in items]


def _dump_new_document(data: Any) -> str:
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def json_indent(body: str) -> int:
    """The indentation a JSON file uses (2 when it is on one line)."""
    match = re.search(r"\n( +)\S", body)
    return len(match.group(1)) if match else 2


def dump_json(data: Any, indent: int) -> str:
    return json.dumps(to_plain(data), indent=indent, ensure_ascii=False) + "\n"


def to_plain(node: Any, _memo: dict[int, Any] | None = None) -> Any:
    """Plain dicts, lists and scalars (for schema validation and JSON output); an aliased node is converted once
    and shared, a recursive alias becomes null."""
    memo = {} if _memo is None else _memo
    if isinstance(node, (dict, list)):
        if id(node) in memo:
            return memo[id(node)]
        memo[id(node)] = None
        if isinstance(node, dict):
            memo[id(node)] = {str(k): to_plain(v, memo) for k, v in node.items()}
        else:
            memo[id(node)] = [to_plain(v, memo) for v in node]
        return memo[id(node)]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return str(node)
