"""What a cluster read could not read, and which verdicts that leaves open.

A snapshot header lists a gap per kind that was not read and why. A kind the server does not serve is no gap in the
data (there are no such objects); any other reason (forbidden, timed out, redirected, cut off, only one namespace) means
objects may exist that the simulator does not see, so a verdict that depends on that kind would be a guess: commands
report such verdicts as unknown and exit 2 instead (docs/reliability.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

FEATURE_GATES_GAP: Final = "feature gates"  # the header gap when the API server's /metrics could not be read
NOT_SERVED: Final = "not served"  # how cluster/live.py starts the gap of a kind the server does not serve
# every verdict needs nodes and the pods already on them (free capacity)
ALWAYS: Final = ("Node", "Pod")
DRA_KINDS: Final = ("ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceClass", "DeviceTaintRule")
GROUP_KINDS: Final = ("PodGroup", "Workload", "CompositePodGroup")
# what the volume filters read for a pod with claims or CSI volumes (sched/volumes.py; CSIDriver is read by none)
VOLUME_KINDS: Final = ("PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode")
# what the kubelet stage (kubelet/admission.py) reads for a pod the Topology Manager aligns: without a node's
# NodeResourceTopology the stage admits everything there; KubeletConfigz only refines its policies (kubelet/facts.py)
NUMA_KINDS: Final = ("NodeResourceTopology",)
# the kinds check's cluster checks (FIT, REF010, GANG004) depend on. Kinds whose absence changes no verdict: Events
# only feed explain-pending's "cluster says", Jobs and Namespaces are not simulated, PodDisruptionBudgets change which
# victims preemption names but not whether a group fits; non-kind gaps ("feature gates", "credentials") are notes
VERDICT_KINDS: Final = frozenset((*ALWAYS, *DRA_KINDS, *GROUP_KINDS, *VOLUME_KINDS, "PriorityClass"))
# explain's verdicts also run the kubelet stage after binding
EXPLAIN_KINDS: Final = VERDICT_KINDS | frozenset(NUMA_KINDS)


def _blocks_verdicts(kind: str, why: object, kinds: frozenset[str]) -> bool:
    """A verdict may depend on the kind, and its objects may exist unread (anything but "not served")."""
    return kind in kinds and not str(why).startswith(NOT_SERVED)


def unread_kinds(gaps: Mapping[str, str], kinds: frozenset[str] = VERDICT_KINDS) -> dict[str, str]:
    """{kind: why} for the `kinds` a verdict may depend on that were not (completely) read, in a fixed order."""
    return {kind: str(why) for kind, why in sorted(gaps.items()) if _blocks_verdicts(kind, why, kinds)}


def gap_list(gaps: Mapping[str, str], kinds: frozenset[str] = VERDICT_KINDS) -> list[dict[str, Any]]:
    """Every header gap as JSON data: [{"kind", "reason", "blocksVerdicts"}], sorted by kind."""
    return [{"kind": kind, "reason": str(why), "blocksVerdicts": _blocks_verdicts(kind, why, kinds)}
            for kind, why in sorted(gaps.items())]


def unknown_because(needed: Iterable[str], unread: Mapping[str, str]) -> str | None:
    """Why a verdict that needs `needed` kinds cannot be given (None when every one was read)."""
    missing = [kind for kind in needed if kind in unread]
    if not missing:
        return None
    return "; ".join(f"{kind} could not be read from the cluster ({unread[kind]})" for kind in missing)
