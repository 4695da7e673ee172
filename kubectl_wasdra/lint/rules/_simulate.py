"""`check --simulate`: run the explain simulation for the manifests' groups and say which do not fit now.

The manifests are overlaid on the snapshot exactly as `kubectl wasdra explain` does (explain/overlay.py: Jobs expand
to their pods and 1.37 PodGroup), the queue is simulated once, and every group that does not fit yields its first
reason and, for the first few, the best verified suggestion (each suggestion costs more simulations).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._pods import latest_documents
from kubectl_wasdra.load import Document

if TYPE_CHECKING:
    from kubectl_wasdra.lint.context import CheckContext

MAX_SUGGESTED: Final = 5   # groups that get verified suggestions; the rest get the reason only
GROUP_KINDS: Final = ("PodGroup", "CompositePodGroup", "Workload")


@dataclass(frozen=True)
class NoFitNow:
    """A manifest group (or lone pod) that stays pending: where it is defined and why."""

    document: Document
    label: str
    reason: str
    suggestion: str | None


def _owners(docs: DocumentSet) -> tuple[dict[tuple[str, str, str], Document], list[dict]]:
    """(kind, namespace, name) of every simulated pod and group -> the document that defines it; overlay objects."""
    from kubectl_wasdra.explain.overlay import build_overlay

    owners: dict[tuple[str, str, str], Document] = {}
    objects: list[dict] = []
    for document in latest_documents(docs):
        overlay = build_overlay([document.data])
        objects.extend(overlay.objects)
        for namespace, name in overlay.pods:
            owners.setdefault(("Pod", namespace, name), document)
        for namespace, name in overlay.groups:
            for kind in GROUP_KINDS:
                owners.setdefault((kind, namespace, name), document)
    return owners, objects


def _first_reason(diagnosis: object) -> str:
    reasons = getattr(diagnosis, "reasons", None) or []
    if reasons:
        first = reasons[0]
        count = f" ({first.count} nodes)" if first.count else ""
        return f"{first.code}: {first.message}{count}"
    return str(getattr(diagnosis, "scheduler_message", "") or "does not fit")


def groups_not_fitting(docs: DocumentSet, ctx: CheckContext) -> Iterator[NoFitNow]:
    """The manifests' groups that the simulation leaves pending, in queue order."""
    from kubectl_wasdra.explain.diagnose import diagnose
    from kubectl_wasdra.explain.suggestions import suggest
    from kubectl_wasdra.sched.admission import make_gates
    from kubectl_wasdra.sched.simulate import Simulation

    if ctx.snapshot is None:
        return
    owners, objects = _owners(docs)
    if not objects:
        return
    gates = make_gates(ctx.release, ctx.feature_gates, ctx.runtime_config)
    snapshot = ctx.snapshot.overlay(objects)
    suggested = 0
    for result in Simulation(snapshot, gates).run():
        document = owners.get((result.kind, result.namespace, result.name)) or _member_owner(result, owners)
        if document is None or result.fits:
            continue
        diagnosis = diagnose(result)
        suggestion = None
        if suggested < MAX_SUGGESTED:
            suggested += 1
            found = suggest(snapshot, gates, result)
            suggestion = f"{found[0].message} -> {found[0].outcome}" if found else None
        yield NoFitNow(document, f"{result.kind} {result.namespace}/{result.name}", _first_reason(diagnosis), suggestion)


def _member_owner(result: object, owners: dict[tuple[str, str, str], Document]) -> Document | None:
    entry = getattr(result, "entry", None)
    for pod in getattr(entry, "pods", None) or ():
        document = owners.get(("Pod", pod.namespace, pod.name))
        if document is not None:
            return document
    return None
