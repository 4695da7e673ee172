"""The workspace as the language server checks it: the open editors' files (their unsaved text), and the repository
index of the folder (lint/repo/index.py: what every manifest defines and references, the very cache file `check` keeps)
to find the files those reach, the context their cross-object rules run over.

This is the one place the language server learns what files exist and what they define; the rest asks it for
documents (`files`, `entry`, `documents`, `context`) and tells it about edits (`open`, `close`, `reread`). An edit
changes the index entry of its own file only, in memory (`EditedIndex`, as `load_index(overlay=...)` would): the
repository is listed again only when files change on disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from kubectl_wasdra.lint.repo.context import context_files, definer_closure, hub_keys
from kubectl_wasdra.lint.repo.index import FileEntry as IndexEntry
from kubectl_wasdra.lint.repo.index import RepoIndex, entry_of, load_index
from kubectl_wasdra.lint.repo.links import keys_match, split_key
from kubectl_wasdra.load import Document, LoadProblem, load_file
from kubectl_wasdra.load.excludes import Excludes
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


class EditedIndex(RepoIndex):
    """The index on disk with the open buffers' entries on top: what `load_index(overlay=...)` returns, kept up to date
    per edit without listing the repository again. `previous` holds the disk's entries of the open files, so a buffer
    that no longer defines what its file defines brings in that name's referrers (a rename, as `check` sees it)."""

    __slots__ = ("_base", "_overlay")

    def __init__(self, base: RepoIndex, overlay: Mapping[str, IndexEntry]) -> None:
        previous = {path: base.entries[path] for path in overlay if path in base.entries}
        super().__init__(base.root, base.entries, base.read, previous)
        self._base, self._overlay = base, overlay

    def entry(self, path: str) -> IndexEntry | None:
        path = os.path.abspath(path)
        return self._overlay.get(path) or self._base.entries.get(path)

    def definers(self, key: str) -> tuple[str, ...]:
        return self._merged(key, self._base.definers(key), "defines")

    def referrers(self, key: str) -> tuple[str, ...]:
        return self._merged(key, self._base.referrers(key), "references")

    def _merged(self, key: str, on_disk: tuple[str, ...], attribute: str) -> tuple[str, ...]:
        found = {path for path in on_disk if path not in self._overlay}
        found.update(path for path, entry in self._overlay.items()
                     if any(keys_match(key, mine) for mine in getattr(entry, attribute)))
        return tuple(sorted(found))


def _same_namespace(key: str, other: str) -> bool:
    """Whether two keys' namespaces match as the index matches them (an empty one matches any)."""
    first, second = split_key(key)[1], split_key(other)[1]
    return first == second or not first or not second


class Workspace:
    """The open files of one workspace folder (or of no folder: then no context) and the folder's index."""

    def __init__(self, root: str | None, excluded: Callable[[str], bool] = lambda path: False, *,
                 excludes: Excludes | None = None, cache_dir: str | None = None, gitignore: bool = True) -> None:
        self.root = os.path.abspath(root) if root else None
        self.excluded = excluded
        self.excludes, self.cache_dir, self.gitignore = excludes, cache_dir, gitignore
        self._entries: dict[str, FileEntry] = {}
        self._keys: dict[str, IndexEntry] = {}   # the index entries of the open buffers
        self._index: RepoIndex | None = None
        self._stale = False   # files changed on disk since the index was brought up to date
        self._names: tuple[RepoIndex, Mapping[str, frozenset[str]]] | None = None   # _defined_on_disk, per listing
        self._context: dict[str, tuple[tuple[int, int], tuple[Document, ...]]] = {}   # path -> (stat, documents)
        self._documents: tuple[Document, ...] | None = None
        self._files: list[str] | None = None
        self.generation = 0  # moves on every change: caches of whole-workspace results key on it
        self.disk_generation = 0   # moves when files change on disk (what closed files hold may have changed)
        self.hubs: frozenset[str] = frozenset()   # keys the open files define that many files name (lsp/dependents.py)
        self.dependents: tuple[str, ...] = ()     # the files naming them, left out of `context()`
        from kubectl_wasdra.lsp.compact import CompactFiles

        self._compact = CompactFiles()

    def scan(self) -> None:
        """List the folder's manifests and bring the index up to date (`check`'s cache: re-reads what changed)."""
        if self.root is None:
            return
        self._index = load_index(self.root, cache_dir=self.cache_dir, gitignore=self.gitignore, exclude=self.excludes)
        self._stale = False
        self.disk_generation += 1
        self._changed()

    @property
    def index(self) -> RepoIndex | None:
        """The folder's index as the editors' buffers make it (None: no folder)."""
        if self._stale:
            self.scan()
        return EditedIndex(self._index, self._keys) if self._index is not None else None

    def open(self, path: str, text: str) -> FileEntry:
        """An editor's text for `path` (opened or changed): it stands for the file until closed."""
        entry = _reparsed(self._entries.get(path), path, text)
        if entry is None:
            documents, problems = load_decoded(path, text)
            entry = FileEntry(path, tuple(documents), tuple(problems), text)
        self._entries[path] = entry
        self._keys[path] = entry_of(entry.documents)   # no size or times: not on disk
        self._changed()
        return entry

    def close(self, path: str) -> None:
        """The editor closed `path`: the disk's copy counts again (as context)."""
        self._entries.pop(path, None)
        self._keys.pop(path, None)
        self._changed()

    def reread(self, path: str) -> None:
        """`path` changed on disk (created, changed, deleted): the index is brought up to date when next asked (once
for a burst of changes, a `git checkout`)."""
        self._context.pop(path, None)
        if self._index is not None and self._belongs(path):
            self._stale = True
            self.disk_generation += 1
            self._changed()

    def entry(self, path: str) -> FileEntry | None:
        return self._entries.get(path)

    @property
    def entries(self) -> Mapping[str, FileEntry]:
        """The open files' entries by path (read-only use)."""
        return self._entries

    def files(self) -> list[str]:
        """Every open file, in `check`'s reading order (sorted once per change)."""
        if self._files is None:
            self._files = sorted(self._entries, key=_walk_order)
        return self._files

    def documents(self) -> tuple[Document, ...]:
        """Every document of every open file, in `check`'s reading order (computed once per change)."""
        if self._documents is None:
            self._documents = tuple(d for path in self.files() for d in self._entries[path].documents)
        return self._documents

    def context(self) -> tuple[Document, ...]:
        """The documents of the folder's other files that the open ones reach (lint/repo/context.py), read from disk
        once while unchanged and kept only while they are context. The files that reach the open ones only by naming
        a hub (`hubs`, more than HUB_REFERRERS files name it) are left out: they are `dependents`, checked apart in
        chunks (`dependent_files`, `read`: kept packed, never parsed between checks)."""
        from kubectl_wasdra.lsp.dependents import HUB_REFERRERS

        index = self.index
        if index is None or not self._entries:
            self.hubs, self.dependents = frozenset(), ()
            return ()
        given_paths = set(self._entries)
        documents = self.documents()
        self.hubs = hub_keys(index, documents, given_paths, HUB_REFERRERS)
        paths = context_files(index, documents, given_paths, skip=self.hubs)
        paths = sorted({*paths, *self._near_misses(index)} - given_paths)
        near = set(paths)
        self.dependents = tuple(sorted({p for key in self.hubs for p in index.referrers(key)} - near - given_paths))
        kept: dict[str, tuple[tuple[int, int], tuple[Document, ...]]] = {}
        for path in paths:
            try:
                stat = os.stat(path)
            except OSError:
                continue
            known = self._context.get(path)
            if known is None or known[0] != (stat.st_size, stat.st_mtime_ns):
                known = ((stat.st_size, stat.st_mtime_ns), tuple(load_file(path)[0]))
            kept[path] = known
        self._context = kept
        return tuple(d for path in paths if path in kept for d in kept[path][1])

    def dependent_files(self, paths: Sequence[str]) -> list[str]:
        """Some of the `dependents` and the files defining what they name (transitively), the open files and the
        context left out: what checking them reads."""
        index = self.index
        return sorted(definer_closure(index, paths, {*self._entries, *self._context})) if index is not None else []

    def read(self, paths: Sequence[str]) -> tuple[Document, ...]:
        """The documents of files from disk (dependents), kept packed rather than parsed (lsp/compact.py): a folder's
        worth of parsed documents would not fit the server's memory, and parsing them again costs ten times more."""
        return tuple(d for path in paths for d in self._compact.documents(path))

    def keep_read(self, paths: set[str]) -> None:
        """Forget the packed files no longer among `paths`."""
        self._compact.keep_only(paths)

    def _near_misses(self, index: RepoIndex) -> set[str]:
        """The files defining a name close to one the open files reference but nothing defines (a misspelling): the
        reference rules' did-you-mean hint needs that object, as it finds it when the whole folder is checked."""
        from kubectl_wasdra.catalog.spelling import closest_name

        missing = {key for entry in self._keys.values() for key in entry.references if not index.definers(key)}
        if not missing:
            return set()
        found: set[str] = set()
        for key in missing:
            kind, _, name = split_key(key)
            defined = {*self._defined_on_disk().get(kind, ()),
                       *(k for entry in self._keys.values() for k in entry.defines if split_key(k)[0] == kind)}
            candidates = {split_key(k)[2]: k for k in defined if _same_namespace(key, k)}
            close = closest_name(name, candidates)
            if close is not None:
                found.update(index.definers(candidates[close]))
        return found

    def _defined_on_disk(self) -> Mapping[str, frozenset[str]]:
        """Kind -> the keys the folder's files define on disk; built once per listing of the folder (20,000 objects:
        ~10 ms), since a reference nothing defines (a Namespace left to kubectl -n) asks for it on every edit."""
        if self._index is None:
            return {}
        if self._names is None or self._names[0] is not self._index:
            names: dict[str, set[str]] = {}
            for entry in self._index.entries.values():
                for key in entry.defines:
                    names.setdefault(split_key(key)[0], set()).add(key)
            self._names = (self._index, {kind: frozenset(keys) for kind, keys in names.items()})
        return self._names[1]

    def _belongs(self, path: str) -> bool:
        from kubectl_wasdra.load.files import MANIFEST_SUFFIXES

        if self.root is None or not path.startswith(self.root + os.sep) or not path.endswith(MANIFEST_SUFFIXES):
            return False
        relative = os.path.relpath(path, self.root).split(os.sep)
        return not any(part.startswith(".") for part in relative) and not self.excluded(path)

    def _changed(self) -> None:
        self._documents = self._files = None
        self.generation += 1
