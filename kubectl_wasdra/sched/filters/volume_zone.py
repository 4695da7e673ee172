"""VolumeZone filter: a bound volume labelled with a zone or region only goes to nodes in that zone or region.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/volumezone/volume_zone.go (release-1.37): the
topology labels topology.kubernetes.io/{zone,region} and their failure-domain.beta.kubernetes.io forms; a volume value
may list several zones joined by "__"; a node without any of these labels passes; unbound WaitForFirstConsumer claims
are skipped (VolumeBinding decides them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status
from kubectl_wasdra.sched.volumes import has_claims, pod_claims

NAME: Final = "VolumeZone"
CONFLICT: Final = "node(s) had no available volume zone"  # ErrReasonConflict
TOPOLOGY_LABELS: Final = ("topology.kubernetes.io/zone", "topology.kubernetes.io/region",
                          "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region")
PV_NOT_FOUND: Final = 'PersistentVolume was not found: "{name}"'
NO_NAMES: Final = "PersistentVolumeClaim had no pv name and storageClass name"
CLASS_NOT_FOUND: Final = 'storageclasses.storage.k8s.io "{name}" not found'
NOT_DELAYED: Final = 'VolumeBindingMode not set for StorageClass "{name}"'
GA_LABELS: Final = {"failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
                    "failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region"}


def _unbound(claim: Mapping[str, Any], index: Any) -> Status | None:
    """volume_zone.go getPVbyPod for a claim without a volume: only a WaitForFirstConsumer class is skipped."""
    class_name = (claim.get("spec") or {}).get("storageClassName")
    if not class_name:
        return Status.unresolvable(Reason.VOLUME_ZONE_CONFLICT, NO_NAMES, NAME)
    storage_class = index.classes.get(class_name)
    if storage_class is None:
        return Status.unresolvable(Reason.VOLUME_ZONE_CONFLICT, CLASS_NOT_FOUND.format(name=class_name), NAME)
    if storage_class.get("volumeBindingMode") != "WaitForFirstConsumer":
        return Status.unresolvable(Reason.VOLUME_ZONE_CONFLICT, NOT_DELAYED.format(name=class_name), NAME)
    return None


def _constraints(pod: PodInfo, index: Any) -> list[tuple[str, frozenset[str]]] | Status:
    """(label, allowed values) of every bound volume of the pod, or the PreFilter status for a missing volume or an
    unbound claim that does not wait for its first consumer."""
    out = []
    for claim in pod_claims(pod.pod, index):
        name = ((claim.claim or {}).get("spec") or {}).get("volumeName")
        if not name:
            problem = _unbound(claim.claim, index) if claim.claim is not None else None
            if problem is not None:
                return problem
            continue  # WaitForFirstConsumer: VolumeBinding decides where it binds
        volume = index.volumes.get(name)
        if volume is None:
            return Status.unresolvable(Reason.VOLUME_ZONE_CONFLICT, PV_NOT_FOUND.format(name=name), NAME, volume=name)
        labels: Mapping[str, str] = (volume.get("metadata") or {}).get("labels") or {}
        out.extend((key, frozenset(str(labels[key]).split("__"))) for key in TOPOLOGY_LABELS if key in labels)
    return out


def pre_filter(pod: PodInfo, index: Any) -> Status | None:
    """A bound claim whose volume does not exist keeps the pod off every node."""
    found = _constraints(pod, index)
    return found if isinstance(found, Status) else None


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None when the node is in every zone and region the pod's bound volumes are labelled with."""
    index = node.state.volume_index
    if index is None or not has_claims(pod.pod):
        return None
    found = _constraints(pod, index)
    if isinstance(found, Status):
        return found  # what PreFilter said (Filter recomputes it first, as upstream)
    labels = node.facts.labels
    if not any(key in labels for key in TOPOLOGY_LABELS):
        return None  # a node without topology labels is not constrained
    for key, allowed in found:
        value = labels.get(key)
        if value is None:  # a volume's beta label also matches the node's GA label (translateToGALabel)
            value = labels.get(GA_LABELS.get(key, key))
        if value not in allowed:
            return Status.unresolvable(Reason.VOLUME_ZONE_CONFLICT, CONFLICT, NAME, label=key)
    return None
