"""The repository index: for every manifest file under a project root, the keys it defines and references
(lint/repo/links.py), cached on disk so a run on one changed file re-reads only what changed.

API:
    index = load_index(root, cache_dir=default_cache_dir(os.environ))   # list, re-read what changed, save
    index.definers("PodGroup/train") -> ("/repo/deploy/groups.yaml",)   # absolute paths, sorted
    index.referrers("PodGroup/train") -> ("/repo/deploy/job.yaml",)
    index.entry("/repo/deploy/job.yaml") -> FileEntry(size, mtime_ns, defines, references) | None

A file's entry is reused while its size, mtime and ctime are unchanged; an entry written by another version of the
tool is never reused. Which files belong to the root is asked of git (`git ls-files`: tracked plus untracked and
not ignored) or, outside a work tree or with `gitignore=False`, read off the file system; hidden files and
directories are left out, as `check DIR` leaves them out.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Iterable, Mapping, Sequence
from stat import S_ISREG
from typing import Any, Final, NamedTuple

from kubectl_wasdra.load import Document
from kubectl_wasdra.load.excludes import Excludes

INDEX_FORMAT: Final = 2
_SUFFIXES: Final = (".yaml", ".yml", ".json")


class FileEntry(NamedTuple):
    """What one file defines and references, and the stat values it was read at. (NamedTuples and a plain class
    here: dataclasses cost start-up time, and a pre-commit run pays it.)"""

    size: int
    mtime_ns: int
    ctime_ns: int
    defines: tuple[str, ...]
    references: tuple[str, ...]

    def fresh(self, stat: os.stat_result) -> bool:
        return (self.size, self.mtime_ns, self.ctime_ns) == (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


class RepoIndex:
    """Every indexed file of one root (absolute path -> entry), with lookups by key built on first use; `read` is
    how many files were parsed in this run (the others came from the cache)."""

    __slots__ = ("_definers", "_referrers", "entries", "previous", "read", "root")

    def __init__(self, root: str, entries: dict[str, FileEntry], read: int = 0,
                 previous: dict[str, FileEntry] | None = None) -> None:
        self.root, self.entries, self.read = root, entries, read
        self.previous = previous or {}   # the cached entries of files that changed since (what they used to define)
        self._definers: dict[str, list[tuple[str, str]]] | None = None
        self._referrers: dict[str, list[tuple[str, str]]] | None = None

    def entry(self, path: str) -> FileEntry | None:
        return self.entries.get(os.path.abspath(path))

    def definers(self, key: str) -> tuple[str, ...]:
        """The files that define `key` ("PodGroup/ml/train"; an empty namespace on either side matches any), sorted."""
        if self._definers is None:
            self._definers = _invert(self.entries, "defines")
        return _lookup(self._definers, key)

    def referrers(self, key: str) -> tuple[str, ...]:
        """The files that reference `key`, sorted."""
        if self._referrers is None:
            self._referrers = _invert(self.entries, "references")
        return _lookup(self._referrers, key)


def _invert(entries: Mapping[str, FileEntry], attribute: str) -> dict[str, list[tuple[str, str]]]:
    """"Kind/name" -> [(namespace, path)], paths sorted."""
    found: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(entries):
        for key in getattr(entries[path], attribute):
            kind, namespace, name = key.split("/", 2)
            found.setdefault(f"{kind}/{name}", []).append((namespace, path))
    return found


def _lookup(inverted: Mapping[str, list[tuple[str, str]]], key: str) -> tuple[str, ...]:
    kind, namespace, name = key.split("/", 2)
    rows = inverted.get(f"{kind}/{name}", ())
    return tuple(dict.fromkeys(path for ns, path in rows if not namespace or not ns or ns == namespace))


def default_cache_dir(environ: Mapping[str, str]) -> str:
    """WASDRA_CACHE_DIR, else $XDG_CACHE_HOME/kubectl-wasdra, else ~/.cache/kubectl-wasdra."""
    if environ.get("WASDRA_CACHE_DIR"):
        return environ["WASDRA_CACHE_DIR"]
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kubectl-wasdra")


def cache_file(root: str, cache_dir: str) -> str:
    """Where the index of `root` is kept: one file per root, named by its last directory name and a checksum of its
    absolute path (the file records the path too, so a collision only costs a rebuild). zlib, not hashlib: loading
    OpenSSL would cost every pre-commit run more than reading the index."""
    absolute = os.path.abspath(root)
    digest = zlib.crc32(absolute.encode("utf-8", "surrogateescape"))
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in os.path.basename(absolute))[:40]
    return os.path.join(cache_dir, f"index-{name}-{digest:08x}.json")


def root_files(root: str, *, gitignore: bool = True, exclude: Excludes | None = None) -> list[str]:
    """The manifest files (.yaml/.yml/.json) under `root` as absolute paths: what git walks, or the file system."""
    from kubectl_wasdra.load.gitignore import work_tree_files

    base = os.path.abspath(root)
    listed = work_tree_files(base) if gitignore else None
    if listed is None:
        from kubectl_wasdra.load.files import directory_manifests

        paths = [os.path.abspath(p) for p in directory_manifests(base)]
    else:
        paths = [os.path.join(base, p) for p in listed if p.endswith(_SUFFIXES) and "/." not in f"/{p}"]
    left_out = exclude.excluded(paths) if exclude is not None else set()
    return [p for p in paths if p not in left_out]


def load_index(root: str, *, cache_dir: str | None = None, gitignore: bool = True,
               exclude: Excludes | None = None,
               known: Mapping[str, Sequence[Document]] | None = None,
               overlay: Mapping[str, Sequence[Document]] | None = None) -> RepoIndex:
    """The index of `root`, brought up to date: cached entries of unchanged files are reused, other files are parsed
    (or taken from `known`: absolute path -> documents already loaded from that very file), deleted files dropped;
    the cache is rewritten when something changed. `overlay` (absolute path -> documents of an unsaved editor
    buffer) replaces those files' entries in the index returned, never in the cache. A cache that cannot be read or
    written only costs time."""
    cached = _read_cache(cache_file(root, cache_dir), root) if cache_dir else {}
    entries: dict[str, FileEntry] = {}
    previous: dict[str, FileEntry] = {}
    read = 0
    for path in root_files(root, gitignore=gitignore, exclude=exclude):
        try:
            stat = os.stat(path)
        except OSError:
            continue
        if not S_ISREG(stat.st_mode):
            continue   # a FIFO or a device named like a manifest: reading it could block forever
        entry = cached.get(path)
        if entry is None or not entry.fresh(stat):
            if entry is not None:
                previous[path] = entry
            entry = _entry(path, stat, (known or {}).get(path))
            read += 1
        entries[path] = entry
    if cache_dir and (read or len(entries) != len(cached)):
        _write_cache(cache_file(root, cache_dir), root, entries)
    for path, documents in (overlay or {}).items():
        entries[os.path.abspath(path)] = _entry(path, os.stat_result((0,) * 10), documents)
    return RepoIndex(os.path.abspath(root), entries, read, previous)


def _entry(path: str, stat: os.stat_result, documents: Sequence[Document] | None) -> FileEntry:
    if documents is None:
        from kubectl_wasdra.load import load_file

        documents, _ = load_file(path)
    return entry_of(documents, stat)


def entry_of(documents: Sequence[Document], stat: os.stat_result | None = None) -> FileEntry:
    """The entry of a file holding `documents`, read at `stat` (none: not on disk, e.g. an editor's buffer)."""
    from kubectl_wasdra.lint.repo.links import definitions, reference_keys

    defines = tuple(dict.fromkeys(key for document in documents for key in definitions(document)))
    size, mtime_ns, ctime_ns = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns) if stat is not None else (0, 0, 0)
    return FileEntry(size, mtime_ns, ctime_ns, _interned(defines), _interned(reference_keys(tuple(documents))))


def _interned(keys: Iterable[str]) -> tuple[str, ...]:
    """Keys as one shared string each: the class every claim names is one string, not one per file."""
    return tuple(sys.intern(key) for key in keys)


def _version() -> str:
    from kubectl_wasdra import __version__

    return f"{INDEX_FORMAT}:{__version__}"


def _read_cache(path: str, root: str) -> dict[str, FileEntry]:
    """The cached entries, or none when the file is missing, unreadable, of another version or another root (the
    index is rebuilt: a cache only ever costs time)."""
    import orjson

    try:
        with open(path, "rb") as stream:
            data = orjson.loads(stream.read())
        if data.get("version") != _version() or data.get("root") != os.path.abspath(root):
            return {}
        return {file: FileEntry(*row[:3], _interned(row[3]), _interned(row[4])) for file, row in data["files"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def _write_cache(path: str, root: str, entries: Mapping[str, FileEntry]) -> None:
    import orjson

    data: dict[str, Any] = {"version": _version(), "root": os.path.abspath(root), "files": {
        file: [e.size, e.mtime_ns, e.ctime_ns, list(e.defines), list(e.references)] for file, e in entries.items()}}
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as stream:
            stream.write(orjson.dumps(data))
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only home or a full disk: the next run rebuilds the index


def keys_of(index: RepoIndex, paths: Iterable[str], attribute: str) -> set[str]:
    """The union of `attribute` ("defines" or "references") of the indexed `paths`."""
    found: set[str] = set()
    for path in paths:
        entry = index.entry(path)
        if entry is not None:
            found.update(getattr(entry, attribute))
    return found
