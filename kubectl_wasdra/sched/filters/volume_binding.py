"""VolumeBinding filter: bound claims' volumes must allow the node, delayed claims need a volume or a provisioner there.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (PreFilter, Filter) and
binder.go (FindPodVolumes), release-1.37. PreFilter (every node at once): a missing claim, a claim being deleted, an
unbound claim that binds immediately ("pod has unbound immediate PersistentVolumeClaims"). Filter (per node): a bound
claim's volume is missing or its nodeAffinity excludes the node; a WaitForFirstConsumer claim finds neither an available
static volume on the node nor a class that provisions there. Storage capacity (CSIStorageCapacity, "did not have enough
free storage") is not simulated.
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status
from kubectl_wasdra.sched.volumes import has_claims, pod_claims, pv_matches_node, unbound_delayed, volumes_for

NAME: Final = "VolumeBinding"
UNBOUND_IMMEDIATE: Final = "pod has unbound immediate PersistentVolumeClaims"  # volume_binding.go PreFilter
NOT_FOUND: Final = 'persistentvolumeclaim "{name}" not found'
BEING_DELETED: Final = 'persistentvolumeclaim "{name}" is being deleted'
CLAIM_LOST: Final = 'persistentvolumeclaim "{name}" bound to non-existent persistentvolume "{volume}"'
EPHEMERAL_PENDING: Final = 'waiting for ephemeral volume controller to create the persistentvolumeclaim "{name}"'
BIND_CONFLICT: Final = "node(s) didn't find available persistent volumes to bind"  # ErrReasonBindConflict
NODE_CONFLICT: Final = "node(s) had volume node affinity conflict"  # ErrReasonNodeConflict
PV_NOT_EXIST: Final = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"  # ErrReasonPVNotExist


def pre_filter(pod: PodInfo, index: object) -> Status | None:
    """The PreFilter status that keeps the pod off every node, or None."""
    for claim in pod_claims(pod.pod, index):  # type: ignore[arg-type]
        if claim.claim is None:
            text = EPHEMERAL_PENDING if claim.ephemeral else NOT_FOUND
            return Status.unresolvable(Reason.VOLUME_BINDING_FAILED, text.format(name=claim.name), NAME, claim=claim.name)
        if (claim.claim.get("metadata") or {}).get("deletionTimestamp"):
            return Status.unresolvable(Reason.VOLUME_BINDING_FAILED, BEING_DELETED.format(name=claim.name), NAME,
                                       claim=claim.name)
        volume = (claim.claim.get("spec") or {}).get("volumeName")
        if volume and (claim.claim.get("status") or {}).get("phase") == "Lost" and volume not in index.volumes:  # type: ignore[attr-defined]
            return Status.unresolvable(Reason.VOLUME_BINDING_FAILED, CLAIM_LOST.format(name=claim.name, volume=volume),
                                       NAME, claim=claim.name)
    for claim in pod_claims(pod.pod, index):  # type: ignore[arg-type]
        spec = (claim.claim or {}).get("spec") or {}
        if not spec.get("volumeName") and not index.is_delayed(claim.claim):  # type: ignore[attr-defined]
            return Status.unresolvable(Reason.VOLUME_BINDING_FAILED, UNBOUND_IMMEDIATE, NAME, claim=claim.name)
    return None


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None when every claim of the pod can be used or bound on the node."""
    index = node.state.volume_index
    if index is None or not has_claims(pod.pod):
        return None
    reasons = []
    for claim in pod_claims(pod.pod, index):
        name = ((claim.claim or {}).get("spec") or {}).get("volumeName")
        if not name:
            continue
        volume = index.volumes.get(name)
        if volume is None:
            reasons.append(Status.unresolvable(Reason.VOLUME_BINDING_FAILED, PV_NOT_EXIST, NAME, volume=name))
        elif not pv_matches_node(volume, node.facts.node):
            reasons.append(Status.unresolvable(Reason.VOLUME_BINDING_FAILED, NODE_CONFLICT, NAME, volume=name))
    delayed = unbound_delayed(pod.pod, index)
    if delayed:
        chosen = volumes_for(delayed, node.facts.node, index, node.state.bound_volumes)
        if any(chosen[c.name] is None and not index.can_provision(c.claim, node.facts.node) for c in delayed):
            reasons.append(Status.unresolvable(Reason.VOLUME_BINDING_FAILED, BIND_CONFLICT, NAME))
    unique = list({status.message: status for status in reasons}.values())
    return unique[0].with_more(tuple(unique[1:])) if unique else None
