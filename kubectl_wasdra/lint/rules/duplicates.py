"""REF rules for objects defined more than once in one check (lint/copies.py says how references resolve then)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from kubectl_wasdra.kube.scope import is_cluster_scoped
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.copies import by_folder, collide, copies
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.load import Document

NAME_PATH = ("metadata", "name")


def _label(document: Document) -> str:
    # a cluster-scoped object's namespace is cleared by kube-apiserver (rest.BeforeCreate), so it is not named
    scoped = document.namespace and not is_cluster_scoped(document.group or "", document.kind or "")
    namespace = f"{document.namespace}/" if scoped else ""
    return f'{document.kind} "{namespace}{document.name}"'


def _place(document: Document) -> str:
    line, column = document.position(NAME_PATH, "value")
    return f"{document.file}:{line}:{column}"


@functools.lru_cache(maxsize=8)
def _copies(docs: DocumentSet) -> tuple[tuple[tuple[Document, ...], bool], ...]:
    """Each object defined more than once, with whether two different copies share a folder; computed once per
    DocumentSet (hashed by identity) for both rules, which split the objects between them."""
    return tuple((found, collide(found)) for found in copies(docs.documents))


def _problem(found: Sequence[Document], where: str, hint: str, elsewhere: Sequence[Document] = ()) -> SetProblem:
    others = ", ".join(_place(d) for d in found[1:])
    more = f"; also in other folders at {', '.join(_place(d) for d in elsewhere)}" if elsewhere else ""
    return SetProblem(found[0], NAME_PATH,
                      f"{_label(found[0])} is defined {len(found)} times{where}: also at {others}{more}", hint, at="value",
                      related=tuple((d, NAME_PATH) for d in (*found[1:], *elsewhere)))


@rule(codes.REF_DUPLICATE_OBJECT, scope="set")
def object_defined_twice(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Notes an object (same API group, kind, namespace and name) defined in several folders of one check, or as
    identical copies in one folder, once, at the first copy (by file path), naming the other places. Every copy is
    still checked on its own. When copies in one folder differ, REF013 reports the object instead.

    ## Why is this bad?
    Often it is not: per-environment folders (`dev/`, `prod/`) and overlays define the same object on purpose. But
    applied together the copies overwrite each other, and a reference resolves to only one of them: the copy in the
    same file, else in the same folder, else the nearest folder (fewest steps up and down the tree), else the first
    by path. Say so explicitly, or check one environment at a time.

    ## Example
        kubectl wasdra check dev/ prod/     # both hold Job ml/train

    ## Fix
    Nothing, when the folders are alternatives (ignore the rule with `--ignore REF012`); otherwise rename one copy
    or remove it.
    """
    for found, collides in _copies(docs):
        if collides:
            continue   # REF013 reports it, naming the copies in other folders too
        if len(by_folder(found)) > 1:
            yield _problem(found, " in different folders", "check one environment's folder at a time, or rename one copy")
        else:
            yield _problem(found, ", identical copies", "nothing is lost when they are applied together; keep one copy")


@rule(codes.REF_DUPLICATE_OBJECT_IN_FOLDER, scope="set")
def object_defined_twice_in_folder(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    Flags an object (same API group, kind, namespace and name) defined twice, with different contents, in one file
    or in two files of one folder, once per such folder, at that folder's first copy, naming the other copies of that
    folder and then the copies in other folders. Identical copies are REF012.

    ## Why is this bad?
    `kubectl apply -f FOLDER` sends both copies: the second silently overwrites the first (or, for a changed
    immutable field such as a Job's template, the apply fails halfway). Whatever the first copy said is lost.

    ## Example
        # jobs/a.yaml and jobs/b.yaml both define
        kind: Job
        metadata: {name: train, namespace: ml}

    ## Fix
    Rename one of the copies or delete it; keep per-environment variants in separate folders.
    """
    for found, collides in _copies(docs):
        if not collides:
            continue
        for same in by_folder(found):
            if len(same) > 1 and collide(same):
                elsewhere = [d for d in found if d not in same]
                yield _problem(same, " in one folder", "rename or delete one of the copies: one apply would send both",
                               elsewhere)
