"""The workspace as `check` would read it: every manifest file of the folder (its open editors' unsaved text instead of
the disk's), loaded into documents, in the order `check DIR` reads them.

This is the one place the language server learns what files exist and what they define; the rest asks it for
documents (`files`, `entry`, `documents`) and tells it about edits (`open`, `close`, `reread`). `check`'s on-disk
repository index (what each file defines and references) can take over `scan` without the server changing: its
`load_index(root, known=...)` takes the open buffers as `known`, and the documents of the files it lists are what
`documents()` returns.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from kubectl_wasdra.load import Document, LoadProblem, load_file
from kubectl_wasdra.load.files import load_decoded


@dataclass(frozen=True)
class FileEntry:
    """One file's documents and load problems, from `text` (None: read from disk and not kept)."""

    path: str
    documents: tuple[Document, ...]
    problems: tuple[LoadProblem, ...]
    text: str | None = None


def _reparsed(previous: FileEntry | None, path: str, text: str) -> FileEntry | None:
    """The new text of an editor's file, parsing only the documents whose text changed and keeping the others' data;
    None when that would not give what loading the whole text gives (then the caller loads it): the file had or gets
    load problems, is JSON, a List or not a manifest, or does not split cleanly at its `---` lines."""
    from kubectl_wasdra.load.classify import classify
    from kubectl_wasdra.load.parse import looks_like_json, parse_text
    from kubectl_wasdra.load.positions import SourceText

    if previous is None or previous.text is None or previous.problems or not previous.documents:
        return None
    if path.endswith(".json") or looks_like_json(text) or classify(path, text) is not None:
        return None
    old_source = previous.documents[0].source
    old_parts = old_source.segments() if old_source is not None else None
    if old_parts is None or any(d.item is not None or d.source is not old_source for d in previous.documents):
        return None
    known = {old_parts[d.index][0]: d.data for d in previous.documents}
    source = SourceText(text)
    parts = source.segments()
    if parts is None:
        return None
    documents = []
    for index, (part, _) in enumerate(parts):
        data = known.get(part)
        if data is None:
            parsed = parse_text(part, is_json=False)
            if parsed.issues or len(parsed.documents) != 1 or not _plain_object(parsed.documents[0][1]):
                return None
            data = parsed.documents[0][1]
        documents.append(Document(path, index, data, None, source))
    return FileEntry(path, tuple(documents), (), text)


def _plain_object(value: object) -> bool:
    """An object the loader takes as it is: a mapping with string apiVersion and kind, not a List."""
    if not isinstance(value, dict):
        return False
    api_version, kind = value.get("apiVersion"), value.get("kind")
    return bool(api_version) and bool(kind) and isinstance(api_version, str) and isinstance(kind, str) and \
        not (kind.endswith("List") and isinstance(value.get("items"), list))


def _walk_order(path: str) -> list[str]:
    return path.split(os.sep)  # load/files.py reads a directory in this order


class Workspace:
    """The files of one workspace folder (or of no folder: then only the open files) and their documents."""

    def __init__(self, root: str | None, excluded: Callable[[str], bool] = lambda path: False) -> None:
        self.root = os.path.abspath(root) if root else None
        self.excluded = excluded
        self._entries: dict[str, FileEntry] = {}
        self._open: set[str] = set()
        self._documents: tuple[Document, ...] | None = None
        self._files: list[str] | None = None
        self.generation = 0  # moves on every change: caches of whole-workspace results key on it

    def scan(self) -> None:
        """Read every manifest of the folder (as `check ROOT` expands it, excluded files left out)."""
        if self.root is None:
            return
        from kubectl_wasdra.load.files import directory_manifests

        for path in directory_manifests(self.root):
            path = os.path.abspath(path)
            if path not in self._open and not self.excluded(path):
                self._read(path)
        self._changed()

    def open(self, path: str, text: str) -> FileEntry:
        """An editor's text for `path` (opened or changed): it stands for the file until closed."""
        self._open.add(path)
        entry = _reparsed(self._entries.get(path), path, text)
        if entry is None:
            documents, problems = load_decoded(path, text)
            entry = FileEntry(path, tuple(documents), tuple(problems), text)
        self._entries[path] = entry
        self._changed()
        return entry

    def close(self, path: str) -> None:
        """The editor closed `path`: the disk's copy counts again (if it is a manifest of the folder)."""
        self._open.discard(path)
        self.reread(path)

    def reread(self, path: str) -> None:
        """`path` changed on disk (created, changed, deleted): read it again unless an editor holds it."""
        if path in self._open:
            return
        self._entries.pop(path, None)
        if self._belongs(path) and os.path.isfile(path):
            self._read(path)
        self._changed()

    def entry(self, path: str) -> FileEntry | None:
        return self._entries.get(path)

    def files(self) -> list[str]:
        """Every file, in `check`'s reading order (sorted once per change)."""
        if self._files is None:
            self._files = sorted(self._entries, key=_walk_order)
        return self._files

    def documents(self) -> tuple[Document, ...]:
        """Every document of every file, in `check`'s reading order (computed once per change)."""
        if self._documents is None:
            self._documents = tuple(d for path in self.files() for d in self._entries[path].documents)
        return self._documents

    def _belongs(self, path: str) -> bool:
        from kubectl_wasdra.load.files import MANIFEST_SUFFIXES

        if self.root is None or not path.startswith(self.root + os.sep) or not path.endswith(MANIFEST_SUFFIXES):
            return False
        relative = os.path.relpath(path, self.root).split(os.sep)
        return not any(part.startswith(".") for part in relative) and not self.excluded(path)

    def _read(self, path: str) -> None:
        documents, problems = load_file(path)
        self._entries[path] = FileEntry(path, tuple(documents), tuple(problems))

    def _changed(self) -> None:
        self._documents = self._files = None
        self.generation += 1
