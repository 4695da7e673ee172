"""The dependents of a hub: an object the open files define that many other files of the folder name (the DeviceClass
or PriorityClass every workload uses). Checking them costs as much as checking the folder, so the language server
checks them apart from the edited file (lint/repo/context.py `hub_keys`), in chunks after the edited file's own
diagnostics are out, and only when what they can see of the hub changed.

What a dependent's findings can see of a hub is its identity (kind, namespace, name: the index key; REF003 and the
other reference rules read no more) and the part of it the cross-object rules read (`relevant`):
- a PriorityClass: its `value` and `globalDefault` (lint/rules/_priority.py);
- a DeviceClass, without a cluster: the drivers its selectors pin with `device.driver == "..."` (lint/rules/numa.py,
  FIT020); with `--snapshot`/`--live`, all of its spec (the FIT rules evaluate its selectors on the cluster's devices);
- anything else: all of it but its annotations (only suppressions read them, and those apply to the findings
  afterwards) and, except for Namespaces and Nodes, its labels (lint/rules read labels of Namespaces, for admin access,
  and of Nodes, for topology domains, only).
`fingerprint` is that for every hub key; while it is unchanged, what the dependents added to or took from the open
files' findings (`Delta`) is reused, moved with the documents it sits in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, NamedTuple

from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.lint.repo.index import RepoIndex
from kubectl_wasdra.lint.repo.links import definitions, split_key
from kubectl_wasdra.load import Document

HUB_REFERRERS: Final = 32    # a key more files than this name is a hub: its referrers are checked apart, in chunks
CHUNK_FILES: Final = 40      # dependents checked per step (about 400 documents: ~35 ms CPU, so an edit waits no longer)
_UNREAD_METADATA: Final = frozenset({"annotations", "labels", "managedFields", "resourceVersion", "uid", "generation",
                                     "creationTimestamp", "selfLink"})
_LABELLED_KINDS: Final = frozenset({"Namespace", "Node"})   # the kinds whose labels set rules read (see above)


def relevant(document: Document, cluster: bool = False) -> bytes:
    """The part of `document` a cross-object rule can read of it from another object, as bytes to compare."""
    import orjson

    data = document.data
    metadata = data.get("metadata")
    if document.kind == "PriorityClass":
        data = {"apiVersion": data.get("apiVersion"), "value": data.get("value"),
                "globalDefault": data.get("globalDefault")}
    elif document.kind == "DeviceClass" and not cluster:
        data = {"apiVersion": data.get("apiVersion"), "drivers": _pinned_drivers(data.get("spec"))}
    elif isinstance(metadata, dict):
        unread = _UNREAD_METADATA - ({"labels"} if document.kind in _LABELLED_KINDS else set())
        data = {**data, "metadata": {k: v for k, v in metadata.items() if k not in unread}}
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=repr)
    except TypeError:   # a value orjson cannot write even with repr (a recursion): compare the whole repr
        return repr(data).encode()


def _pinned_drivers(spec: object) -> list[str]:
    """The drivers a DeviceClass spec's selectors pin, in order (what lint/rules/numa.py `_class_driver` reads)."""
    from kubectl_wasdra.lint.rules._devices import DRIVER_EQUALS
    from kubectl_wasdra.lint.rules._fitting import selector_expressions

    return [m.group(1) for e in selector_expressions(spec if isinstance(spec, dict) else {})
            for m in DRIVER_EQUALS.finditer(e)]


def fingerprint(documents: Sequence[Document], keys: Iterable[str],
                cluster: bool = False) -> tuple[tuple[str, tuple[bytes, ...]], ...]:
    """Per hub key (sorted), the relevant content of every open document defining it (none: it is gone)."""
    wanted = frozenset(keys)
    found: dict[str, list[bytes]] = {key: [] for key in wanted}
    for document in documents:
        for key in definitions(document):
            if key in wanted:
                found[key].append(relevant(document, cluster))
    return tuple((key, tuple(found[key])) for key in sorted(found))


def chunks(index: RepoIndex, paths: Sequence[str], hubs: Iterable[str], size: int = CHUNK_FILES) -> list[list[str]]:
    """`paths` (the hubs' dependents) in chunks of about `size` files, files that name a common object other than a
    hub kept in one chunk (the members of one PodGroup, the pods sharing a claim: what the set rules compare); a key
    that more than HUB_REFERRERS files name binds nothing together (no rule compares all users of a class). Files
    naming the same hubs share chunks, so a change to one hub checks the chunks of its dependents only."""
    named = {(kind, name) for kind, _, name in map(split_key, hubs)}
    signed: dict[tuple[tuple[str, str], ...], list[list[str]]] = {}
    for group in _components(index, paths, named):
        signature = tuple(sorted({pair for path in group for pair in _named(index, path) if pair in named}))
        signed.setdefault(signature, []).append(group)
    packed: list[list[str]] = []
    for signature in sorted(signed):
        packed.append([])
        for group in signed[signature]:
            if len(packed[-1]) >= size:
                packed.append([])
            packed[-1].extend(group)
    return packed


def _named(index: RepoIndex, path: str) -> Iterable[tuple[str, str]]:
    entry = index.entry(path)
    for key in entry.references if entry is not None else ():
        kind, _, name = split_key(key)
        yield kind, name


def _components(index: RepoIndex, paths: Sequence[str], hubs: set[tuple[str, str]]) -> list[list[str]]:
    """`paths` grouped by the (kind, name)s they name, hubs and widely named keys left out (union-find)."""
    parent = {path: path for path in paths}

    def root(path: str) -> str:
        while parent[path] != path:
            parent[path] = parent[parent[path]]
            path = parent[path]
        return path

    first: dict[tuple[str, str], str] = {}
    wide: dict[str, bool] = {}
    for path in paths:
        entry = index.entry(path)
        for key in entry.references if entry is not None else ():
            kind, _, name = split_key(key)
            if (kind, name) in hubs:
                continue
            if key not in wide:
                wide[key] = len(index.referrers(key)) > HUB_REFERRERS
            if not wide[key]:
                parent[root(path)] = root(first.setdefault((kind, name), path))
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(root(path), []).append(path)
    return list(groups.values())


def identity(finding: Finding) -> tuple[object, ...]:
    """A finding without its position: the same finding after its document moved."""
    return (finding.file, finding.rule, finding.severity, finding.path, finding.message, finding.hint, finding.object)


class Anchored(NamedTuple):
    """A finding and the document text it sits in (index, text, first line), to move it with that document; and the
    field it points at (`at`: "key", "value" or "start" of the document), to find it again when that text changed."""

    finding: Finding
    entry: object            # the workspace's FileEntry of its file when found (the same object: nothing moved)
    index: int | None
    text: str
    offset: int
    path: tuple[str | int, ...] | None = None
    at: str | None = None


def _segments(entry: object) -> list[tuple[str, int]] | None:
    documents = getattr(entry, "documents", ())
    source = documents[0].source if documents and getattr(entry, "text", None) is not None else None
    return source.segments() if source is not None else None


def anchor(finding: Finding, entries: Mapping[str, object]) -> Anchored:
    """`finding` tied to the document of an open file it sits in."""
    entry = entries.get(finding.file)
    for index, (text, offset) in enumerate(_segments(entry) or ()):
        if offset < finding.line <= max(offset + text.count("\n"), offset + 1):
            document = _document(entry, index)
            path = _path_of(document.data, finding.path) if document is not None else None
            at = _at(document, path, (finding.line, finding.column)) if document is not None and path is not None \
                else None
            return Anchored(finding, entry, index, text, offset, path, at)
    return Anchored(finding, entry, None, "", 0)


def _document(entry: object, index: int) -> Document | None:
    return next((d for d in getattr(entry, "documents", ()) if d.index == index and d.item is None), None)


def _at(document: Document, path: tuple[str | int, ...], where: tuple[int, int]) -> str | None:
    """Which position of `path` in `document` is `where` (None: neither: an explicit position, kept only while its
    document's text is unchanged)."""
    if not path:
        return "start" if document.position() == where else None
    if document.position(path, "key") == where:
        return "key"
    return "value" if document.position(path, "value") == where else None


def _path_of(data: object, text: str) -> tuple[str | int, ...] | None:
    """The field path in `data` that format_path writes as `text` (keys may hold dots: the data decides)."""
    if not text:
        return ()
    if text.startswith("["):
        end = text.find("]")
        number = text[1:end] if end > 0 else ""
        if not number.isdigit() or not isinstance(data, list) or int(number) >= len(data):
            return None
        rest = _path_of(data[int(number)], text[end + 1:].removeprefix("."))
        return None if rest is None else (int(number), *rest)
    if not isinstance(data, dict):
        return None
    for key in sorted((k for k in data if isinstance(k, str) and text.startswith(k)), key=len, reverse=True):
        tail = text[len(key):]
        if tail == "" or tail[0] in ".[":
            rest = _path_of(data[key], tail.removeprefix("."))
            if rest is not None:
                return (key, *rest)
    return None


def moved(anchored: Anchored, entries: Mapping[str, object]) -> Finding | None:
    """The anchored finding where its document now is; None when that document's text changed or it is gone (the
    finding must be found again)."""
    entry = entries.get(anchored.finding.file)
    if entry is None:
        return None
    if entry is anchored.entry:
        return anchored.finding
    segments = _segments(entry)
    if anchored.index is None or segments is None or anchored.index >= len(segments):
        return None
    text, offset = segments[anchored.index]
    finding = anchored.finding
    related = tuple(_current(document, path, entries) for document, path in finding.related)
    if text == anchored.text:
        return dataclasses.replace(finding, line=finding.line + offset - anchored.offset, related=related)
    document = _document(entry, anchored.index)
    if document is None or anchored.at is None or anchored.path is None or \
            _label(document) != finding.object or _path_of(document.data, finding.path) != anchored.path:
        return None
    at = "value" if anchored.at == "value" else "key"
    line, column = document.position() if anchored.at == "start" else document.position(anchored.path, at)
    return dataclasses.replace(finding, line=line, column=column, related=related)


def _label(document: Document) -> str:
    from kubectl_wasdra.lint.pipeline import document_label

    return document_label(document)


def _current(document: Document, path: tuple[str | int, ...],
             entries: Mapping[str, object]) -> tuple[Document, tuple[str | int, ...]]:
    """A related place in an open file, on the document that now stands at its index."""
    documents = getattr(entries.get(document.file), "documents", ())
    same = next((d for d in documents if d.index == document.index and d.item == document.item), None)
    return (same or document), path


@dataclasses.dataclass
class Delta:
    """What the hubs' dependents add to and take from the open files' cross-object findings, per release."""

    added: list[dict[tuple[object, ...], Anchored]]
    removed: list[set[tuple[object, ...]]]

    @classmethod
    def empty(cls, releases: int) -> Delta:
        return cls([{} for _ in range(releases)], [set() for _ in range(releases)])

    def record(self, number: int, local: Sequence[Finding], together: Sequence[Finding],
               entries: Mapping[str, object]) -> None:
        """One chunk's findings (`together`) against those without any dependent (`local`), release `number`."""
        mine = {identity(f) for f in local}
        theirs = {identity(f): f for f in together}
        for key, finding in theirs.items():
            if key not in mine and key not in self.added[number]:
                self.added[number][key] = anchor(finding, entries)
        self.removed[number].update(mine - theirs.keys())

    def apply(self, number: int, local: Sequence[Finding], entries: Mapping[str, object]) -> tuple[list[Finding], bool]:
        """`local` with this delta applied, and whether every added finding could be moved to where it now is."""
        kept = [f for f in local if identity(f) not in self.removed[number]]
        complete = True
        for anchored in self.added[number].values():
            finding = moved(anchored, entries)
            if finding is None:
                complete = False
            else:
                kept.append(finding)
        return kept, complete
