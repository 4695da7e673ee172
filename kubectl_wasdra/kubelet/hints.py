"""Topology hints and their merge into one best hint, per Topology Manager policy.

Upstream (read for 1.37): kubernetes/kubernetes pkg/kubelet/cm/topologymanager/policy.go (filterProvidersHints,
mergePermutation, HintMerger.compare/Merge, maxOfMinAffinityCounts), numa_info.go (Narrowest, Closest),
policy_best_effort.go, policy_restricted.go, policy_single_numa_node.go (filterSingleNumaHints).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from kubectl_wasdra.kubelet.bitmask import bits, is_narrower, mask_of, width

NONE: Final = "none"
BEST_EFFORT: Final = "best-effort"
RESTRICTED: Final = "restricted"
SINGLE_NUMA_NODE: Final = "single-numa-node"
POLICIES: Final = (NONE, BEST_EFFORT, RESTRICTED, SINGLE_NUMA_NODE)


@dataclass(frozen=True)
class Hint:
    """A NUMA affinity (None: any node) and whether it is the narrowest the whole machine could offer."""

    mask: int | None
    preferred: bool


# one provider's answer: None/{} = no preference; {res: None} = no preference for res; {res: []} = impossible
ProviderHints = Mapping[str, Sequence[Hint] | None] | None


def filter_providers(providers: Sequence[ProviderHints]) -> list[list[Hint]]:
    """filterProvidersHints: one list of hints per resource, with the nil/empty conventions made explicit."""
    out: list[list[Hint]] = []
    for hints in providers:
        if not hints:
            out.append([Hint(None, True)])
            continue
        for resource in hints:
            listed = hints[resource]
            if listed is None:
                out.append([Hint(None, True)])
            elif not listed:
                out.append([Hint(None, False)])
            else:
                out.append(list(listed))
    return out


def _merge_permutation(default: int, permutation: Sequence[Hint]) -> Hint:
    """AND of the masks; preferred only when every hint is preferred and every non-nil mask is the same."""
    merged, preferred, first = default, True, None
    for hint in permutation:
        if hint.mask is not None:
            merged &= hint.mask
            first = hint.mask if first is None else first
            preferred = preferred and hint.mask == first
        preferred = preferred and hint.preferred
    return Hint(merged, preferred)


@dataclass(frozen=True)
class Numa:
    """The machine's NUMA nodes and, when known, their distances (for prefer-closest-numa-nodes)."""

    ids: tuple[int, ...]
    distances: Mapping[int, Mapping[int, int]] | None = None

    @property
    def default(self) -> int:
        return mask_of(self.ids)

    def average(self, mask: int) -> float:
        """numa_info.go CalculateAverageFor: mean distance over all ordered pairs of the mask, self-pairs included."""
        nodes = bits(mask)
        table = self.distances or {}
        total = sum(table.get(i, {}).get(j, 10 if i == j else 20) for i in nodes for j in nodes)
        return total / (len(nodes) ** 2)

    def fitter(self, current: int, candidate: int, closest: bool) -> bool:
        """True when the candidate replaces the current mask (Narrowest, or Closest with the option)."""
        if candidate == current:
            return False
        if closest and width(candidate) == width(current):
            a, b = self.average(candidate), self.average(current)
            if a != b:
                return a < b
            return candidate < current
        return is_narrower(candidate, current)


def _max_of_min_widths(resources: Sequence[Sequence[Hint]]) -> int:
    best = 0
    for hints in resources:
        masks = [h.mask for h in hints if h.mask is not None]
        if masks:
            narrowest = masks[0]
            for mask in masks[1:]:
                if is_narrower(mask, narrowest):
                    narrowest = mask
            best = max(best, width(narrowest))
    return best


def _compare(numa: Numa, bound: int, closest: bool, current: Hint | None, candidate: Hint) -> Hint | None:
    """HintMerger.compare: which of the two stays the best hint."""
    assert candidate.mask is not None
    if width(candidate.mask) == 0:
        return current
    if current is None:
        return candidate
    if current.preferred != candidate.preferred:
        return candidate if candidate.preferred else current
    assert current.mask is not None
    pick = candidate if numa.fitter(current.mask, candidate.mask, closest) else current
    if current.preferred:
        return pick
    have, new = width(current.mask), width(candidate.mask)
    if have > bound:
        return pick
    if have == bound:
        return pick if new == bound else current
    if new > bound:
        return current
    if new == bound or new > have:
        return candidate
    return current if new < have else pick


def merge(numa: Numa, resources: Sequence[Sequence[Hint]], policy: str, closest: bool = False) -> Hint:
    """HintMerger.Merge over the cross product of the resources' hints; {default, false} when nothing qualified."""
    closest = closest and policy != SINGLE_NUMA_NODE
    bound = _max_of_min_widths(resources)
    best: Hint | None = None
    for permutation in product(*resources):
        best = _compare(numa, bound, closest, best, _merge_permutation(numa.default, permutation))
    return best if best is not None else Hint(numa.default, False)


def single_numa_only(resources: Sequence[Sequence[Hint]]) -> list[list[Hint]]:
    """filterSingleNumaHints: keep {nil, preferred} and preferred one-node hints."""
    return [[h for h in hints if (h.mask is None and h.preferred) or
             (h.mask is not None and h.preferred and width(h.mask) == 1)] for hints in resources]


def decide(numa: Numa, providers: Sequence[ProviderHints], policy: str, closest: bool = False) -> tuple[Hint, bool]:
    """Policy.Merge: the best hint and whether the pod (or container) is admitted."""
    if policy == NONE:
        return Hint(None, True), True
    resources = filter_providers(providers)
    if policy == SINGLE_NUMA_NODE:
        best = merge(numa, single_numa_only(resources), policy)
        if best.mask == numa.default:
            best = Hint(None, best.preferred)
        return best, best.preferred
    best = merge(numa, resources, policy, closest)
    return best, policy == BEST_EFFORT or best.preferred
