"""The files a hub's dependents live in, kept between checks in a compact form: per file its text and its documents'
data, marshalled and zlib-compressed (about 2 KB for ten objects, where the parsed documents take about 45 KB), so a
change to the hub checks them again without parsing the folder's YAML again (marshal and zlib read back about ten
times faster than the YAML parser) and without holding every parsed document of the folder in memory.

Only files that load cleanly and plainly are kept (no load problem, no List, data marshal can write); the others are
loaded from disk each time. A file is read again when its size or modification time changed.
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Sequence

from kubectl_wasdra.load import Document, load_file
from kubectl_wasdra.load.positions import SourceText


def pack(documents: Sequence[Document], problems: Sequence[object]) -> bytes | None:
    """A file's loaded documents as bytes, or None when they cannot be kept this way."""
    if problems or not documents:
        return None
    source = documents[0].source
    if source is None or any(d.source is not source or d.item is not None for d in documents):
        return None
    try:
        raw = marshal.dumps((source.text, source.is_json, [(d.index, d.data) for d in documents]))
    except ValueError:   # a value marshal cannot write (a date YAML 1.1 made): load it each time
        return None
    return zlib.compress(raw, 1)


def unpack(path: str, blob: bytes) -> list[Document]:
    """The documents `pack` kept, as loading the file gives them (positions computed from the same text)."""
    text, is_json, parts = marshal.loads(zlib.decompress(blob))
    source = SourceText(text, is_json=is_json)
    return [Document(path, index, data, None, source) for index, data in parts]


class CompactFiles:
    """Packed files by path, each with the (size, mtime) it was read at."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple[int, int], bytes | None]] = {}

    def documents(self, path: str) -> list[Document]:
        """The documents of `path` as load_file gives them: unpacked while the file is unchanged, else loaded."""
        try:
            stat = os.stat(path)
        except OSError:
            self._kept.pop(path, None)
            return []
        when = (stat.st_size, stat.st_mtime_ns)
        known = self._kept.get(path)
        if known is not None and known[0] == when and known[1] is not None:
            return unpack(path, known[1])
        documents, problems = load_file(path)
        self._kept[path] = (when, pack(documents, problems))
        return documents

    def keep_only(self, paths: set[str]) -> None:
        """Forget the files no longer among `paths` (no longer dependents)."""
        for path in [p for p in self._kept if p not in paths]:
            del self._kept[path]
