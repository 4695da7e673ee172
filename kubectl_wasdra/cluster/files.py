"""Offline snapshots: what `kubectl get <type> -A -o yaml|json` prints, read from files or directories.

Accepted: `List`s (`kind: List` or `<Kind>List`, whose items may omit apiVersion/kind), multi-document YAML, one or several
concatenated JSON values, directories of such files (recursive, *.yaml/*.yml/*.json, sorted), and the snapshot header
object (cluster/header.py). DRA objects of any version 1.33-1.37 serve are converted to resource.k8s.io/v1 (convert.py);
kinds the simulator does not read are skipped silently. A malformed object is reported with file:line:col and left out; the
rest loads. Positions are computed only for reported objects, by the loader's position index (load/positions.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path as FsPath
from typing import Any, Final, NamedTuple

from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.decode import DecodeError, decode_json, decode_yaml, is_json_text, split_yaml_documents
from kubectl_wasdra.cluster.header import header_from_object, is_header
from kubectl_wasdra.cluster.shape import Path
from kubectl_wasdra.cluster.snapshot import SNAPSHOT_KINDS, ClusterSnapshot
from kubectl_wasdra.errors import LoadError, SnapshotError
from kubectl_wasdra.load.depth import too_deep_documents, within_depth
from kubectl_wasdra.load.document import LoadProblem, ProblemKind
from kubectl_wasdra.load.heap import paused_gc
from kubectl_wasdra.load.parse import DEEP_HINT, MAX_DEPTH, TOO_DEEP_LEVELS
from kubectl_wasdra.load.positions import SourceText
from kubectl_wasdra.load.stream import document_span

SNAPSHOT_SUFFIXES: Final = (".yaml", ".yml", ".json")
_WANTED: Final = frozenset(SNAPSHOT_KINDS)


class _Found(NamedTuple):  # one per object of a snapshot: a tuple is made several times faster than a frozen dataclass
    """One object as found in a file: document number, path of the object inside the document, data."""

    index: int
    prefix: Path
    data: Any


# One snapshot file is read whole into memory and parsed (about 8x its size at peak): 1 GiB files would need ~8 GiB.
# A 5,000-node cluster is ~114 MiB of JSON. Larger clusters: one file per kind in a directory.
MAX_SNAPSHOT_FILE_BYTES: Final = 512 << 20


def expand_paths(paths: Sequence[str]) -> list[str]:
    """The files to read: files as given, directories walked recursively for *.yaml/*.yml/*.json (sorted)."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(str(p) for p in FsPath(path).rglob("*") if p.suffix in SNAPSHOT_SUFFIXES and p.is_file())
            files.extend(found)
        elif os.path.exists(path):
            files.append(path)
        else:
            raise SnapshotError("no such file or directory", where=path, hint="pass a snapshot file or directory")
    return files


def load_snapshot(paths: Sequence[str]) -> tuple[ClusterSnapshot, tuple[LoadProblem, ...]]:
    """The snapshot in `paths` plus what could not be loaded; raises SnapshotError when a path does not exist."""
    collector = SnapshotBuilder()
    files = expand_paths(paths)
    with paused_gc():
        for file in files:
            _load_file(file, collector)
    return collector.build(), tuple(collector.problems)


def read_snapshot(paths: Sequence[str]) -> ClusterSnapshot:
    """The snapshot in `paths` for a run that needs all of it: the first file problem raises LoadError naming
    file:line:col (exit 2)."""
    snapshot, problems = load_snapshot(paths)
    if problems:
        first = problems[0]
        raise LoadError(first.message, where=f"{first.file}:{max(first.line, 1)}:{max(first.column, 1)}", hint=first.hint)
    return snapshot


def read_snapshot_leaving_out(paths: Sequence[str]) -> tuple[ClusterSnapshot, tuple[LoadProblem, ...]]:
    """The snapshot in `paths` and every malformed object that was left out of it (each at file:line:col), for a run
    that goes on without them; a problem with a whole file (unreadable, not UTF-8, a syntax error) still raises
    LoadError (exit 2), since a whole file of objects would be missing."""
    snapshot, problems = load_snapshot(paths)
    whole = [p for p in problems if p.kind is not ProblemKind.NOT_AN_OBJECT or not _is_object_problem(p)]
    if whole:
        first = whole[0]
        raise LoadError(first.message, where=f"{first.file}:{max(first.line, 1)}:{max(first.column, 1)}", hint=first.hint)
    return snapshot, problems


def _is_object_problem(problem: LoadProblem) -> bool:
    """A problem inside one object (a field), as opposed to a document that is no object at all (a binary or text
    file that is not a snapshot), which stands for the whole file."""
    return bool(problem.path) or not problem.message.startswith("document:")


def _load_file(file: str, collector: SnapshotBuilder) -> None:
    try:
        with open(file, "rb") as handle:  # at most one byte past the cap: /dev/zero or an endless pipe ends here
            raw = handle.read(MAX_SNAPSHOT_FILE_BYTES + 1)
    except OSError as exc:
        collector.problems.append(LoadProblem(file, 1, 1, f"cannot read: {exc.strerror}", kind=ProblemKind.UNREADABLE))
        return
    if len(raw) > MAX_SNAPSHOT_FILE_BYTES:
        collector.problems.append(LoadProblem(
            file, 1, 1, f"larger than the cap of {MAX_SNAPSHOT_FILE_BYTES >> 20} MiB for one snapshot file",
            "split the snapshot into one file per kind in a directory (each file is capped, not the directory)",
            kind=ProblemKind.UNREADABLE))
        return
    shallow = within_depth(raw, MAX_DEPTH, json=file.endswith(".json"))  # proven on the bytes, at a fraction of the cost
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        collector.problems.append(LoadProblem(file, 1, 1, "not UTF-8 text", "save the file as UTF-8",
                                              kind=ProblemKind.NOT_UTF8))
        return
    del raw  # the text is kept for positions; the bytes would double the peak while the objects are built
    is_json = is_json_text(file, text)
    deep = [] if shallow else too_deep_documents(text, MAX_DEPTH)
    if deep:  # refused before any parser meets it (a parser's recursion, or a crash, on 100,000 levels)
        line = document_span(text, deep[0])[0] + 1
        collector.problems.append(LoadProblem(file, line, 1, TOO_DEEP_LEVELS, DEEP_HINT,
                                              kind=ProblemKind.SYNTAX))
        return
    try:
        documents = decode_json(text) if is_json else decode_yaml(text)
    except DecodeError as exc:
        if is_json:
            collector.problems.append(LoadProblem(file, *_at(exc), exc.message, "fix the JSON syntax"))
            return
        _salvage_documents(file, text, collector)
        return
    _collect(file, documents, SourceText(text, is_json=is_json), 0, collector)


def _salvage_documents(file: str, text: str, collector: SnapshotBuilder) -> None:
    """One YAML document is broken: report it and load the others, each parsed on its own."""
    for first_line, part in split_yaml_documents(text):
        try:
            documents = decode_yaml(part)
        except DecodeError as exc:
            line, column = _at(exc)
            collector.problems.append(LoadProblem(file, first_line + line - 1, column, f"YAML syntax error: {exc.message}",
                                                  "fix the syntax; the other documents were loaded"))
            continue
        _collect(file, documents[:1], SourceText(part), first_line - 1, collector)


def _at(exc: DecodeError) -> tuple[int, int]:
    """The 1-based (line, column) of a decode error; line 1 / column 1 where the parser gave none (0)."""
    return max(exc.line, 1), max(exc.column, 1)


def _collect(file: str, documents: list[Any], source: SourceText, line_offset: int, collector: SnapshotBuilder) -> None:
    for found in _flatten(documents):
        data = found.data
        if isinstance(data, dict) and is_header(data):
            header, problem = header_from_object(data)
            collector.add_header(header)
            if problem:
                _report(file, found, (problem[0],), f"{problem[1]} (field ignored)", source, line_offset, collector,
                        skipped=False)
            continue
        kind = data.get("kind") if isinstance(data, dict) else None
        if isinstance(kind, str) and kind not in _WANTED:
            continue
        problem = collector.add(data) if not isinstance(data, dict) or "kind" in data else ((), "kind is missing")
        if problem is not None:
            _report(file, found, problem[0], problem[1], source, line_offset, collector)


def _flatten(documents: list[Any]) -> Iterator[_Found]:
    """Every object of every document, List items flattened (items without apiVersion/kind get the List's)."""
    for index, document in enumerate(documents):
        if document is None:
            continue
        kind = document.get("kind") if isinstance(document, dict) else None
        if isinstance(kind, str) and kind.endswith("List") and isinstance(document.get("items"), list):
            item_kind = kind[: -len("List")] or None
            for item, data in enumerate(document["items"]):
                if isinstance(data, dict) and item_kind and "kind" not in data:
                    data = {"apiVersion": document.get("apiVersion"), "kind": item_kind, **data}
                yield _Found(index, ("items", item), data)
        elif isinstance(document, list):  # a top-level sequence of objects
            for item, data in enumerate(document):
                yield _Found(index, (item,), data)
        else:
            yield _Found(index, (), document)


def _report(file: str, found: _Found, path: Path, message: str, source: SourceText, line_offset: int,
            collector: SnapshotBuilder, *, skipped: bool = True) -> None:
    line, column = source.position(found.index, found.prefix + tuple(path), "key")
    name = _describe(found.data)
    collector.problems.append(LoadProblem(
        file, line + line_offset, column, f"{name}: {message}" + ("; object skipped" if skipped else ""),
        "fix the object (or re-export it with kubectl get -o yaml)", kind=ProblemKind.NOT_AN_OBJECT, path=tuple(path)))


def _describe(data: Any) -> str:
    if not isinstance(data, dict):
        return "document"
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    kind = data["kind"] if isinstance(data.get("kind"), str) and data["kind"] else "object"
    name, namespace = meta.get("name"), meta.get("namespace")
    if not isinstance(name, str):
        return str(kind)
    return f'{kind} "{namespace}/{name}"' if isinstance(namespace, str) and namespace else f'{kind} "{name}"'
