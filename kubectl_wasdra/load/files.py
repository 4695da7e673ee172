"""Inputs to documents: expand paths (files, directories, globs, `-`), read each file safely, flatten Lists.

One bad file never hides the others: every problem becomes a LoadProblem and loading carries on.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, Final

from kubectl_wasdra.load.classify import classify
from kubectl_wasdra.load.document import Document, LoadProblem, LoadResult, ProblemKind
from kubectl_wasdra.load.parse import looks_like_json, parse_text
from kubectl_wasdra.load.positions import SourceText

MANIFEST_SUFFIXES: Final = (".yaml", ".yml", ".json")
DEFAULT_MAX_BYTES: Final = 32 * 1024 * 1024
STDIN: Final = "-"


def expand_paths(paths: Sequence[str], exclude: Callable[[str], bool] | None = None, *,
                 gitignore: bool = False) -> tuple[list[str], list[LoadProblem]]:
    """Files to read, in order and without repeats: directories recursively (.yaml/.yml/.json, hidden entries
    skipped, sorted; with `gitignore`, what git ignores left out too), globs, plain files as given (even ignored
    ones), "-" for stdin; files for which `exclude` is true are left out."""
    files: list[str] = []
    problems: list[LoadProblem] = []
    for path in paths:
        found = list(_expand_one(path, gitignore))
        if exclude is not None and found:
            found = [file for file in found if not exclude(file)]  # all excluded is not "matches nothing"
            files.extend(found)
            continue
        if not found:
            problems.append(LoadProblem(path, 1, 1, "no such file or directory (or the pattern matches nothing)",
                                        "check the path", ProblemKind.UNREADABLE))
        files.extend(found)
    # one entry per real file: `**` globs follow symlinked directories, so a link loop would repeat every file
    unique: dict[str, str] = {}
    for file in files:
        unique.setdefault(file if file == STDIN else os.path.realpath(file), file)
    return list(unique.values()), problems


def _expand_one(path: str, gitignore: bool) -> Iterator[str]:
    if path == STDIN:
        yield STDIN
    elif os.path.isdir(path):
        yield from _walk_directory(path, gitignore=gitignore)
    elif os.path.exists(path):
        yield path
    elif glob.has_magic(path):
        matches = sorted(glob.glob(path, recursive=True))
        if gitignore:   # a glob walks too: what git ignores stays out (load/gitignore.py)
            from kubectl_wasdra.load.gitignore import ignored_files

            left_out = ignored_files([m for m in matches if not os.path.isdir(m)])
            matches = [m for m in matches if m not in left_out]
        for match in matches:
            if os.path.isdir(match):
                yield from _walk_directory(match, gitignore=gitignore)
            elif _regular_or_broken(match):
                yield match


def directory_manifests(root: str, *, recursive: bool = True, gitignore: bool = False) -> list[str]:
    """Manifest files in a directory (and its subdirectories when `recursive`), as a directory PATH is read."""
    return list(_walk_directory(root, recursive=recursive, gitignore=gitignore))


def _walk_directory(root: str, *, recursive: bool = True, gitignore: bool = False) -> Iterator[str]:
    """Manifest files under `root` in the order kubectl's visitor (filepath.Walk) reads them: each directory's entries
    by name, a subdirectory before a sibling whose name only extends it; hidden files and directories skipped, and
    with `gitignore` what git ignores (load/gitignore.py: node_modules/, build output ...)."""
    from kubectl_wasdra.load.gitignore import NOTHING_IGNORED, ignored_below

    ignored = ignored_below(root) if gitignore else NOTHING_IGNORED
    found = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = [d for d in subdirs if not d.startswith(".")] if recursive else []
        if ignored:
            subdirs[:] = [d for d in subdirs if not ignored.contains(os.path.join(directory, d))]
        found.extend(os.path.join(directory, n) for n in names if n.endswith(MANIFEST_SUFFIXES) and not n.startswith(".")
                     and not (ignored and ignored.contains(os.path.join(directory, n))))
    # FIFOs, sockets and devices found in a directory or by a glob are left out: reading one could block forever.
    # (A pipe named on the command line, e.g. `<(helm template chart/)`, is read.) Broken links stay in, to be reported.
    yield from sorted((path for path in found if _regular_or_broken(path)), key=lambda path: path.split(os.sep))


def _regular_or_broken(path: str) -> bool:
    """A regular file, or a link that leads nowhere (reported as unreadable); not a FIFO, socket or device."""
    return os.path.isfile(path) or not os.path.exists(path)


def load_paths(paths: Sequence[str], *, stdin: IO[bytes] | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
               exclude: Callable[[str], bool] | None = None, gitignore: bool = False) -> LoadResult:
    """Every document of every input, the problems met, and the files read (stdin is "-"); with `gitignore`,
    directories are walked as git walks them."""
    files, problems = expand_paths(paths, exclude, gitignore=gitignore)
    documents: list[Document] = []
    for file in files:
        file_documents, file_problems = load_file(file, stdin=stdin, max_bytes=max_bytes)
        documents.extend(file_documents)
        problems.extend(file_problems)
    return LoadResult(tuple(documents), tuple(problems), tuple(files))


def load_file(file: str, *, stdin: IO[bytes] | None = None,
              max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[list[Document], list[LoadProblem]]:
    """Documents and problems of one file (or of stdin when `file` is "-")."""
    raw = _read(file, stdin, max_bytes)
    if isinstance(raw, LoadProblem):
        return [], [raw]
    if file == STDIN and not raw.strip():
        return [], [LoadProblem(file, 1, 1, "no input on stdin", "check the command that feeds the pipe (did it fail?)",
                                ProblemKind.UNREADABLE)]
    text = decode(file, raw)
    if isinstance(text, LoadProblem):
        return [], [text]
    return load_decoded(file, text)


def load_decoded(file: str, text: str) -> tuple[list[Document], list[LoadProblem]]:
    """Documents and problems of a file's decoded text (an editor's buffer, too): a Helm template, kustomization or
    CI config is one NOT_A_MANIFEST problem instead."""
    other = classify(file, text)
    if other is not None:
        return [], [LoadProblem(file, 1, 1, f"{other.what}, not Kubernetes objects: skipped", other.how,
                                ProblemKind.NOT_A_MANIFEST)]
    return load_text(file, text)


def load_text(file: str, text: str) -> tuple[list[Document], list[LoadProblem]]:
    """Documents and problems of decoded text; JSON when the name says so or the text starts with `{`."""
    is_json = file.endswith(".json") or looks_like_json(text)
    parsed = parse_text(text, is_json=is_json)
    source = SourceText(text, is_json=is_json and not parsed.issues and len(parsed.documents) == 1)
    problems = [LoadProblem(file, i.line, i.column, i.message, i.hint, i.kind) for i in parsed.issues]
    documents: list[Document] = []
    for index, value in parsed.documents:
        documents.extend(_documents_of(file, index, value, source, problems))
    if not documents and not problems:
        problems.append(LoadProblem(file, 1, 1, "no Kubernetes objects in this file", "add a manifest or leave the file out",
                                    ProblemKind.EMPTY_FILE))
    elif documents:
        problems.extend(_empty_documents(file, parsed.documents, source))
    return documents, problems


def _empty_documents(file: str, values: list[tuple[int, Any]], source: SourceText) -> list[LoadProblem]:
    """Empty documents with an object after them (a trailing `---` is normal and not reported)."""
    last_object = max((index for index, value in values if value is not None), default=-1)
    return [LoadProblem(file, *source.position(index, (), "key"), "empty document (two `---` in a row?)",
                        "remove the extra `---` or restore the missing object", ProblemKind.EMPTY_DOCUMENT)
            for index, value in values if value is None and index < last_object]


def _documents_of(file: str, index: int, value: Any, source: SourceText, problems: list[LoadProblem]) -> list[Document]:
    if value is None:
        return []
    document = Document(file, index, value if isinstance(value, dict) else {}, None, source)
    if not isinstance(value, dict):
        line, column = document.position()
        problems.append(LoadProblem(file, line, column, f"document is a {_type_name(value)}, not a Kubernetes object",
                                    "each YAML document must be a mapping with apiVersion and kind", ProblemKind.NOT_AN_OBJECT))
        return []
    items = value.get("items")
    if isinstance(value.get("kind"), str) and value["kind"].endswith("List") and isinstance(items, list):
        return _list_items(document, items, problems)
    return [document] if _has_type_meta(document, problems) else []


def _list_items(document: Document, items: list[Any], problems: list[LoadProblem]) -> list[Document]:
    """Items of a `List` (or typed `PodList` ...) as documents of their own; typed list items inherit apiVersion/kind."""
    item_kind = document.kind[: -len("List")] if document.kind != "List" else None
    result = []
    for item_index, item in enumerate(items):
        data = item if isinstance(item, dict) else {}
        if item_kind and isinstance(item, dict) and ("kind" not in item or "apiVersion" not in item):
            data = {"apiVersion": document.api_version, "kind": item_kind, **item}
        doc = Document(document.file, document.index, data, item_index, document.source)
        if not isinstance(item, dict):
            line, column = doc.position()
            message = f"List item {item_index} is a {_type_name(item)}, not an object"
            problems.append(LoadProblem(doc.file, line, column, message, "List items must be Kubernetes objects",
                                        ProblemKind.NOT_AN_OBJECT, ("items", item_index)))
        elif _has_type_meta(doc, problems):
            result.append(doc)
    return result


def _has_type_meta(document: Document, problems: list[LoadProblem]) -> bool:
    missing = [field for field in ("apiVersion", "kind") if not isinstance(document.data.get(field), str)
               or not document.data[field]]
    if not missing:
        return True
    kind = ProblemKind.MISSING_API_VERSION if "apiVersion" in missing else ProblemKind.MISSING_KIND
    wrong = [field for field in missing if document.data.get(field) is not None and not isinstance(document.data[field], str)]
    if wrong:  # present but not a string: point at the value
        field = wrong[0]
        line, column = document.position((field,), "value")
        problems.append(LoadProblem(document.file, line, column,
                                    f"must be a string, not a {_type_name(document.data[field])}",
                                    'write it as in "apiVersion: v1" and "kind: Pod"', kind, (field,)))
        return False
    line, column = document.position()
    what = " and ".join(missing)
    problems.append(LoadProblem(document.file, line, column, f"document has no {what}",
                                'add e.g. "apiVersion: v1" and "kind: Pod" at the top of the document', kind))
    return False


def _type_name(value: Any) -> str:
    return {list: "list", str: "string", int: "number", float: "number", bool: "boolean"}.get(type(value), type(value).__name__)


def _read(file: str, stdin: IO[bytes] | None, max_bytes: int) -> bytes | LoadProblem:
    try:
        if file == STDIN:
            stream = stdin if stdin is not None else _stdin_bytes()
            data = stream.read(max_bytes + 1)
        else:
            if os.stat(file).st_size > max_bytes:
                return _too_large(file, max_bytes)
            with open(file, "rb") as stream:  # a pipe (`<(...)`) has no size: read at most one byte too many
                data = stream.read(max_bytes + 1)
    except OSError as exc:
        return LoadProblem(file, 1, 1, f"cannot read: {exc.strerror or exc}", "check the path and its permissions",
                           ProblemKind.UNREADABLE)
    return _too_large(file, max_bytes) if len(data) > max_bytes else data


def _stdin_bytes() -> IO[bytes]:
    import sys

    return sys.stdin.buffer


def _too_large(file: str, max_bytes: int) -> LoadProblem:
    return LoadProblem(file, 1, 1, f"file is larger than {max_bytes // (1024 * 1024)} MiB, skipped",
                       "split it into smaller files", ProblemKind.TOO_LARGE)


def decode(file: str, data: bytes) -> str | LoadProblem:
    """UTF-8 text without BOM, or a problem naming the first undecodable byte."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return LoadProblem(file, 1, 1, "file is UTF-16 encoded", "save it as UTF-8", ProblemKind.NOT_UTF8)
    if b"\x00" in data[:8192]:
        return LoadProblem(file, 1, 1, "binary file (contains NUL bytes), skipped", "pass only YAML or JSON manifests",
                           ProblemKind.BINARY)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        return LoadProblem(file, line, column, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                           "save the file as UTF-8", ProblemKind.NOT_UTF8)
