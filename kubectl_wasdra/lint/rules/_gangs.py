"""Scheduling groups of a manifest set and the pod sources that feed them (GANG family).

A group is a PodGroup (1.36+), a 1.35 Workload pod group (`spec.podGroups[]`, pods link with workloadRef), a
Workload template owned by a Job (`controllerRef`), or a 1.37 Job's `spec.scheduling` (the Job controller creates the
PodGroup for its own pods). Upstream: shared/reference/workload-scheduling.md §1.2 (KEP-4671, KEP-5547).

1.36's Job controller (WorkloadWithJob, alpha) infers a gang for an Indexed Job with completions == parallelism > 1 and
sets minCount = parallelism, which is exactly the number of pods it runs at once: such a gang can never be larger than
its pods, so it is not listed here (GANG001 has nothing to find; a user-written PodGroup or 1.37 spec.scheduling is).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubectl_wasdra.lint.copies import nearest, one_per_identity
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules._pods import PodSource, builtin_documents, document_pod_sources, of_kind, pod_sources
from kubectl_wasdra.lint.rules.validation._base import as_dict
from kubectl_wasdra.load import Document, Path

POLICY_FIELDS = ("schedulingPolicy", "policy")  # 1.36+ / 1.35


@dataclass(frozen=True)
class GangGroup:
    """One group: the document and path of its policy object, its minCount (None for basic), and its members."""

    document: Document
    path: Path                    # path of the object holding schedulingPolicy / policy
    label: str
    min_count: int | None
    min_count_path: Path
    members: tuple[PodSource, ...]
    spec: Mapping[str, Any]

    @property
    def is_gang(self) -> bool:
        return self.min_count is not None

    def topology_keys(self) -> Iterator[tuple[Path, str]]:
        """(path, key) of schedulingConstraints.topology[].key."""
        topology = as_dict(self.spec.get("schedulingConstraints")).get("topology")
        for index, item in enumerate(topology if isinstance(topology, list) else []):
            key = item.get("key") if isinstance(item, dict) else None
            if isinstance(key, str) and key:
                yield (*self.path, "schedulingConstraints", "topology", index, "key"), key


def _policy(spec: Mapping[str, Any], path: Path) -> tuple[int | None, Path]:
    for field in POLICY_FIELDS:
        policy = spec.get(field)
        if isinstance(policy, dict):
            gang = policy.get("gang")
            if isinstance(gang, dict):
                count = gang.get("minCount")
                count = count if isinstance(count, int) and not isinstance(count, bool) else None
                return count, (*path, field, "gang", "minCount")
            return None, (*path, field)
    return None, path


def _same_namespace(source: PodSource, document: Document) -> bool:
    return source.namespace is None or document.namespace is None or source.namespace == document.namespace


def _nearest_members(document: Document, members: Iterable[PodSource]) -> tuple[PodSource, ...]:
    """One copy of each member object: the one nearest to the group's document (lint/copies.py)."""
    return one_per_identity(members, document, lambda source: source.document)


def _pod_group_members(document: Document, named: Sequence[PodSource], copies: Sequence[Document]) -> tuple[PodSource, ...]:
    """The pods of `named` (those naming the group) whose reference resolves to this copy of the PodGroup (the nearest
    of its `copies`, lint/copies.py)."""

    def resolves_here(source: PodSource) -> bool:
        return len(copies) == 1 or nearest((g for g in copies if _same_namespace(source, g)), source.document) is document

    return _nearest_members(document, (s for s in named if _same_namespace(s, document) and resolves_here(s)))


def _workload_135_members(document: Document, template: str, sources: tuple[PodSource, ...]) -> tuple[PodSource, ...]:
    found = []
    for source in sources:
        ref = source.spec.get("workloadRef")
        if isinstance(ref, dict) and ref.get("name") == document.name and ref.get("podGroup") == template and \
                _same_namespace(source, document):
            found.append(source)
    return _nearest_members(document, found)


def _controller_members(document: Document, docs: DocumentSet) -> tuple[PodSource, ...]:
    ref = document.get(("spec", "controllerRef"))
    if not isinstance(ref, dict) or not isinstance(ref.get("name"), str):
        return ()
    owner = nearest((d for d in of_kind(docs, str(ref.get("kind") or "")) if d.name == ref["name"]), document)
    return tuple(document_pod_sources(owner)) if owner is not None else ()


def _workload_groups(document: Document, docs: DocumentSet, sources: tuple[PodSource, ...]) -> Iterator[GangGroup]:
    owned = _controller_members(document, docs)
    for field in ("podGroups", "podGroupTemplates"):
        templates = document.get(("spec", field))
        for index, template in enumerate(templates if isinstance(templates, list) else []):
            if not isinstance(template, dict):
                continue
            path: Path = ("spec", field, index)
            name = template.get("name")
            members = _workload_135_members(document, name, sources) if field == "podGroups" else owned
            count, count_path = _policy(template, path)
            yield GangGroup(document, path, f'Workload "{document.name}" template "{name}"', count, count_path, members,
                            template)


@functools.lru_cache(maxsize=8)
def groups(docs: DocumentSet) -> tuple[GangGroup, ...]:
    """Every group of the set with its members, in position order; computed once per DocumentSet (hashed by
    identity) and shared by the GANG rules."""
    sources = pod_sources(docs)
    by_group: dict[str, list[PodSource]] = {}
    for source in sources:
        if source.group_name:
            by_group.setdefault(source.group_name, []).append(source)
    pod_groups: dict[str | None, list[Document]] = {}
    for pod_group in of_kind(docs, "PodGroup"):
        pod_groups.setdefault(pod_group.name, []).append(pod_group)
    found: list[GangGroup] = []
    for document in builtin_documents(docs):
        spec = document.get(("spec",))
        if not isinstance(spec, dict):
            continue
        if document.kind == "PodGroup":
            count, count_path = _policy(spec, ("spec",))
            found.append(GangGroup(document, ("spec",), f'PodGroup "{document.name}"', count, count_path,
                                   _pod_group_members(document, by_group.get(document.name or "", ()),
                                                      pod_groups[document.name]), spec))
        elif document.kind == "Workload":
            found.extend(_workload_groups(document, docs, sources))
        elif document.kind == "Job" and isinstance(spec.get("scheduling"), dict):
            count, count_path = _policy(spec["scheduling"], ("spec", "scheduling"))
            found.append(GangGroup(document, ("spec", "scheduling"), f'Job "{document.name}"', count, count_path,
                                   tuple(document_pod_sources(document)), spec["scheduling"]))
    return tuple(found)
