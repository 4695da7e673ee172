"""KEPs that ship in the covered releases without any feature gate, for `kubectl wasdra gates` (they are no gates, so
they stay out of rules/feature-gates.yaml and `--feature-gates` does not accept them)."""

from __future__ import annotations

from typing import Final, NamedTuple


class GatelessKep(NamedTuple):
    """A KEP without a gate: number, what it adds (naming the API surface), since which minor release, its area
    (as in rules/feature-gates.yaml) and the components that act on it."""

    kep: int
    what: str
    since: str
    area: str = "dra"
    components: tuple[str, ...] = ()


# KEP-6072 (sig-node/sig-scheduling): standard device attributes, a naming convention plus producer helpers in
# k8s.io/dynamic-resource-allocation/deviceattribute; the scheduler treats the attributes as opaque (digest
# kubelet-numa.md §6.1). The list form (`ints`/`strings`) still needs DRAListTypeAttributes.
GATELESS: Final = (
    GatelessKep(6072, "standard device attributes resource.kubernetes.io/numaNode and resource.kubernetes.io/pcieRoot",
                "1.37", "dra"),   # published by DRA drivers; no Kubernetes component acts on it
)
