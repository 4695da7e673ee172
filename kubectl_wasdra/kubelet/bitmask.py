"""NUMA masks as Python ints (bit i = NUMA node i), with the kubelet's ordering rules.

Upstream: kubernetes/kubernetes pkg/kubelet/cm/topologymanager/bitmask/bitmask.go (IsNarrowerThan, IsLessThan,
IterateBitMasks: masks by width, then by combination order of the node ids).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations


def mask_of(ids: Iterable[int]) -> int:
    """The mask holding these NUMA node ids."""
    mask = 0
    for node in ids:
        mask |= 1 << node
    return mask


def bits(mask: int) -> list[int]:
    """The NUMA node ids in a mask, ascending."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def width(mask: int) -> int:
    """How many NUMA nodes the mask holds."""
    return mask.bit_count()


def is_narrower(a: int, b: int) -> bool:
    """bitmask.IsNarrowerThan: fewer nodes, or as many and a lower unsigned value."""
    return width(a) < width(b) or (width(a) == width(b) and a < b)


def iterate_masks(ids: Iterable[int]) -> Iterator[int]:
    """Every non-empty subset of the ids, narrowest first (bitmask.IterateBitMasks order)."""
    nodes = sorted(ids)
    for size in range(1, len(nodes) + 1):
        for combo in combinations(nodes, size):
            yield mask_of(combo)


def render(mask: int | None) -> str:
    """A mask as the kubelet logs it: the node ids, or "any" for no mask."""
    return "any" if mask is None else "{" + ",".join(str(i) for i in bits(mask)) + "}"
