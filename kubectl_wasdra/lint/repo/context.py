"""The repository as context for partial input: the files `check` is given are checked against every manifest under
the project root, and only the given files' findings are reported — including those a given file causes in another
file (a Job's lower parallelism makes the PodGroup elsewhere unsatisfiable), reported on the given file's object.

The context is what the given documents reach through the repository index (lint/repo/index.py): the files defining
what they reference or define, the files referencing what they define, and, transitively, the files defining what
those reference. Set-scope rules run over the given documents plus that context; a finding located in a context
file counts as caused by the given files when it is not found over the context alone.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from typing import Final, NamedTuple

from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import Finding, format_path
from kubectl_wasdra.lint.registry import Rule
from kubectl_wasdra.lint.repo.index import RepoIndex, keys_of, load_index
from kubectl_wasdra.lint.repo.links import definitions, keys_match, references, split_key
from kubectl_wasdra.load import Document
from kubectl_wasdra.load.excludes import Excludes

_MAX_HOPS: Final = 8  # definers of definers ...: real chains are 2-3 long (Pod -> PodGroup -> Workload -> template)


def project_root(start: str | None = None) -> str | None:
    """The project root for `start` (default: the working directory): where .wasdra.yaml is, else the top of the git
    work tree; None when neither exists (then there is no repository to take context from)."""
    from kubectl_wasdra.config.discover import find_config, git_root

    directory = os.path.abspath(start or os.getcwd())
    config = find_config(directory)
    if config is not None:
        return os.path.dirname(os.path.abspath(config))
    return git_root(directory)


class RepoContext(NamedTuple):
    """The context documents of one check and the index they came from."""

    documents: tuple[Document, ...]
    index: RepoIndex


def repo_context(root: str, given: Sequence[Document], given_files: Iterable[str], *, cache_dir: str | None,
                 gitignore: bool, exclude: Excludes | None, rendered: Iterable[Document] = ()) -> RepoContext:
    """The documents of the repository files the given documents reach (the given files themselves left out).
    `rendered` are given documents that do not come from their file as it is on disk (Kustomize/Helm output): they
    take part in the links but never become the index entry of that file."""
    from kubectl_wasdra.load import load_file

    named = [f for f in given_files if f != "-"]
    given_paths = {os.path.abspath(f) for f in named} | {os.path.realpath(f) for f in named}
    not_on_disk = {id(d) for d in rendered}
    known: dict[str, list[Document]] = {}
    for document in given:
        if document.file != "-" and id(document) not in not_on_disk:
            known.setdefault(os.path.abspath(document.file), []).append(document)
    index = load_index(root, cache_dir=cache_dir, gitignore=gitignore, exclude=exclude, known=known)
    if all(path in given_paths for path in index.entries):
        return RepoContext((), index)   # every file of the project is checked anyway (`check .`)
    loaded = {path: load_file(_shown(path))[0] for path in context_files(index, given, given_paths)}
    return RepoContext(tuple(d for path in sorted(loaded) for d in loaded[path]), index)


def context_files(index: RepoIndex, given: Sequence[Document], given_paths: Collection[str], *,
                  skip: Collection[str] = ()) -> list[str]:
    """The indexed files (absolute paths, sorted, the given ones left out) the given documents reach: the definers of
    what they define or reference, the referrers of what they define (or defined at the last run: `index.previous`),
    then, transitively, the definers of what those reference. Only the index is read, never the files. The referrers
    of the keys in `skip` are left out (the language server checks those dependents apart: `hub_keys`)."""
    defined = {key for document in given for key in definitions(document)}
    referenced = {link.key for link in references(DocumentSet(tuple(given)))}
    owned = _owned(index, given_paths, defined) - set(skip)
    wanted = _files(index, defined | referenced) | {p for key in owned for p in index.referrers(key)}
    return sorted(definer_closure(index, wanted, given_paths))


def definer_closure(index: RepoIndex, paths: Iterable[str], left_out: Collection[str]) -> set[str]:
    """`paths` and, transitively, the files defining what they reference (`left_out` neither taken nor followed)."""
    wanted = set(paths)
    found: set[str] = set()
    for _ in range(_MAX_HOPS):
        new = sorted(p for p in wanted if p not in found and p not in left_out)
        if not new:
            break
        found.update(new)
        wanted |= _files(index, keys_of(index, new, "references"))
    return found


def _owned(index: RepoIndex, given_paths: Collection[str], defined: set[str]) -> set[str]:
    """`defined` plus what a given file defined at the last run and no longer does (a rename): the referrers of
    either may break now."""
    return defined | {key for path, entry in index.previous.items() if path in given_paths for key in entry.defines}


def hub_keys(index: RepoIndex, given: Sequence[Document], given_paths: Collection[str], limit: int) -> frozenset[str]:
    """The keys the given documents define (or defined at the last run) that more than `limit` files reference: a
    DeviceClass or PriorityClass every workload of the folder names."""
    owned = _owned(index, given_paths, {key for document in given for key in definitions(document)})
    return frozenset(key for key in owned if len(index.referrers(key)) > limit)


def _files(index: RepoIndex, keys: Iterable[str]) -> set[str]:
    return {path for key in keys for path in index.definers(key)}


def _shown(path: str) -> str:
    """A context file's name as findings show it: relative to the working directory when under it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


# Copies of an object in other folders are other environments (REF012's own advice: check one environment's folder at
# a time), so the duplicate rules take context only from the given files' own folders; references take it from all.
_SAME_FOLDER_RULES: Final = frozenset({"REF012", "REF013"})


def set_findings_with_context(given: Sequence[Document], context: Sequence[Document], rules: Sequence[Rule],
                              ctx: CheckContext) -> list[Finding]:
    """Set-scope findings of the given documents checked together with the context: those in given files, plus
    those in context files that the given documents cause, moved onto a given object."""
    folders = {os.path.dirname(os.path.abspath(d.file)) for d in given}
    beside = [d for d in context if os.path.dirname(os.path.abspath(d.file)) in folders]
    local = [r for r in rules if r.info.id in _SAME_FOLDER_RULES]
    linked = [r for r in rules if r.info.id not in _SAME_FOLDER_RULES]
    return [*_with_context(given, context, linked, ctx), *_with_context(given, beside, local, ctx)]


def _with_context(given: Sequence[Document], context: Sequence[Document], rules: Sequence[Rule],
                  ctx: CheckContext) -> list[Finding]:
    from kubectl_wasdra.lint.pipeline import set_findings

    if not rules:
        return []
    if not context:
        return set_findings(given, rules, ctx)
    given_files = {d.file for d in given}
    together = set_findings((*given, *context), rules, ctx)
    kept = [f for f in together if f.file in given_files]
    elsewhere = [f for f in together if f.file not in given_files]
    if elsewhere:
        involved = {f.rule for f in elsewhere}   # only the rules that found something there run again
        alone = set(set_findings(context, [r for r in rules if r.info.id in involved], ctx))
        kept.extend(relocate(f, given, context) for f in elsewhere if f not in alone)
    return kept


def relocate(finding: Finding, given: Sequence[Document], context: Sequence[Document]) -> Finding:
    """`finding` (about a context object) reported on the given object that causes it: at the given object's
    reference to it, else at the name of the given object it references or duplicates; the message names the
    other place."""
    from kubectl_wasdra.lint.pipeline import document_label

    other = next((d for d in context if d.file == finding.file and document_label(d) == finding.object), None)
    target, path = _cause(other, given, finding.path) if other is not None else (given[0], ())
    line, column = target.position(path, "value") if path else target.position()
    where = f"{finding.object} ({finding.file}:{finding.line}:{finding.column}"
    where += f", {finding.path})" if finding.path else ")"
    return replace(finding, file=target.file, line=line, column=column, path=format_path(path),
                   message=f"{where}: {finding.message}", object=document_label(target))


def _cause(other: Document, given: Sequence[Document], finding_path: str) -> tuple[Document, tuple[str | int, ...]]:
    """The given document linked to `other`, and the field path that links them: the object the finding's field
    names (or, renamed, a given object of that kind), else a copy of `other` (at the name), else a reference to it,
    else an object it references (at the name)."""
    subject = next((link.key for link in references(DocumentSet((other,))) if format_path(link.path) == finding_path),
                   None)
    if subject is not None:
        named = [d for d in given if any(keys_match(subject, mine) for mine in definitions(d))]
        named = named or [d for d in given if d.kind == split_key(subject)[0] and d.name]
        if named:
            return named[0], ("metadata", "name")
    defined = definitions(other)
    for document in given:
        if any(keys_match(key, mine) for key in defined for mine in definitions(document)):
            return document, ("metadata", "name")
    for link in references(DocumentSet(tuple(given))):
        if any(keys_match(link.key, key) for key in defined):
            return link.document, link.path
    referenced = [link.key for link in references(DocumentSet((other,)))]
    for document in given:
        if any(keys_match(key, mine) for key in referenced for mine in definitions(document)):
            return document, ("metadata", "name")
    return given[0], ()
