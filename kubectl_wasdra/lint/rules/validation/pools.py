"""VALID015: from 1.35 counter sets and the devices consuming them live in separate ResourceSlices of one pool, so
whether a device's `consumesCounters` names a defined set (and counters of it) is a question about the whole pool.

Slices of a pool are those with the same driver and pool name at the pool's highest generation, from the manifests
and the snapshot. A pool the manifests and snapshot hold only part of (fewer slices than resourceSliceCount) is not
judged: its missing slices may define the set.
Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/*/pools.go
(GatherPools: "counter set %s not found", "counter %s not found in counter set %s" make the pool invalid) and
pkg/apis/resource/validation/validation.go (1.35: sharedCounters and devices in separate slices).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.catalog.spelling import did_you_mean
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._gated import api_unavailable
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list, is_int
from kubectl_wasdra.load import Document

SEPARATE_COUNTER_SLICES_SINCE: Final = Release(1, 35)
PoolKey = tuple[str, str]


@dataclass(frozen=True)
class _Slice:
    spec: Mapping[str, Any]
    document: Document | None          # None for a snapshot slice

    @property
    def generation(self) -> int:
        generation = as_dict(self.spec.get("pool")).get("generation", 0)
        return generation if is_int(generation) else 0


def _key(spec: Mapping[str, Any]) -> PoolKey | None:
    driver, pool = spec.get("driver"), as_dict(spec.get("pool")).get("name")
    return (driver, pool) if isinstance(driver, str) and isinstance(pool, str) and driver and pool else None


def _gather(docs: DocumentSet, ctx: CheckContext) -> dict[PoolKey, list[_Slice]]:
    pools: dict[PoolKey, list[_Slice]] = {}
    manifests = [_Slice(as_dict(d.data.get("spec")), d) for d in docs.of_kind("ResourceSlice")
                 if d.group == "resource.k8s.io" and not api_unavailable(d, ctx)]
    cluster = [_Slice(as_dict(obj.get("spec")), None) for obj in (ctx.snapshot.of_kind("ResourceSlice") if ctx.snapshot else ())]
    for item in manifests + cluster:
        key = _key(item.spec)
        if key is not None:
            pools.setdefault(key, []).append(item)
    for key, items in pools.items():
        newest = max(item.generation for item in items)
        pools[key] = [item for item in items if item.generation == newest]
    return pools


def _complete(items: list[_Slice]) -> bool:
    count = as_dict(items[0].spec.get("pool")).get("resourceSliceCount")
    return is_int(count) and len(items) >= count


def _counter_sets(items: list[_Slice]) -> dict[str, frozenset[str]]:
    sets: dict[str, frozenset[str]] = {}
    for item in items:
        for counter_set in as_list(item.spec.get("sharedCounters")):
            name = as_dict(counter_set).get("name")
            if isinstance(name, str):
                sets[name] = sets.get(name, frozenset()) | frozenset(as_dict(as_dict(counter_set).get("counters")))
    return sets


def _devices(document: Document) -> Iterator[tuple[tuple[str | int, ...], Mapping[str, Any]]]:
    """(path of the device's fields, fields): v1beta1 nests them under `basic`."""
    for index, device in enumerate(as_list(as_dict(document.data.get("spec")).get("devices"))):
        device = as_dict(device)
        if document.version == "v1beta1":
            yield ("spec", "devices", index, "basic"), as_dict(device.get("basic"))
        else:
            yield ("spec", "devices", index), device


@rule(codes.VALID_COUNTER_SET_NOT_IN_POOL, scope="set")
def counter_set_not_in_pool(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    From 1.35, checks every `consumesCounters` entry of a ResourceSlice device against the counter sets that the
    ResourceSlices of the same pool (same driver and pool name, newest generation; manifests and snapshot) define in
    `spec.sharedCounters`. Pools with slices missing from the input are not judged.

    ## Why is this bad?
    Counter sets and the devices that consume them are published in separate slices of one pool since 1.35; the API
    server cannot cross-check them. The scheduler treats a pool whose device names an unknown counter set or counter
    as invalid, so none of the pool's devices can be allocated.

    ## Example
        kind: ResourceSlice
        spec:
          driver: gpu.example.com
          pool: {name: node-a, resourceSliceCount: 2}
          devices:
          - name: gpu-0-half
            consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 40Gi}}}]   # the other slice defines "gpu0"

    ## Fix
    Name a counter set (and counters) defined in `spec.sharedCounters` of a slice of the same pool, or define it there.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/*/pools.go (GatherPools)
    """
    if ctx.release < SEPARATE_COUNTER_SLICES_SINCE:
        return                                     # 1.33/1.34: same-slice references, VALID009
    for (driver, pool), items in sorted(_gather(docs, ctx).items()):
        if not _complete(items):
            continue
        sets = _counter_sets(items)
        known = ", ".join(f'"{name}"' for name in sorted(sets)) or "none"
        for item in items:
            if item.document is None:
                continue
            for path, fields in _devices(item.document):
                for index, consumption in enumerate(as_list(fields.get("consumesCounters"))):
                    yield from _check(item.document, (*path, "consumesCounters", index), as_dict(consumption), sets,
                                      f'pool "{pool}" of driver "{driver}"', known)


def _check(document: Document, path: tuple[str | int, ...], consumption: Mapping[str, Any],
           sets: Mapping[str, frozenset[str]], pool: str, known: str) -> Iterator[SetProblem]:
    name = consumption.get("counterSet")
    if not isinstance(name, str) or not name:
        return                                     # VALID011 reports the missing name
    if name not in sets:
        yield SetProblem(document, (*path, "counterSet"),
                         f'counter set "{name}" is defined by no ResourceSlice of {pool} (defined: {known}): the '
                         "scheduler treats the whole pool as invalid",
                         did_you_mean(name, sets, cutoff=0.7) or
                         f'define counter set "{name}" in spec.sharedCounters of a ResourceSlice of the pool, or fix the name',
                         at="value")
        return
    for counter in as_dict(consumption.get("counters")):
        if counter not in sets[name]:
            defined = ", ".join(f'"{c}"' for c in sorted(sets[name])) or "none"
            yield SetProblem(document, (*path, "counters", str(counter)),
                             f'counter "{counter}" is not defined in counter set "{name}" of {pool} (defined: {defined}): '
                             "the scheduler treats the whole pool as invalid",
                             did_you_mean(str(counter), sets[name], cutoff=0.7) or
                             f'add counter "{counter}" to counter set "{name}", or fix the name')

