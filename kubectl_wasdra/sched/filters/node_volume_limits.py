"""NodeVolumeLimits filter: CSI volumes per driver on a node stay within the CSINode's allocatable count.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (release-1.37): the node's
CSINode lists drivers with `allocatable.count`; the unique volumes (driver + volume handle) of the pods on the node plus
the pod's new ones must not exceed it -> "node(s) exceed max volume count". A bound claim counts by its volume's CSI
driver and handle; an unbound claim (or one whose volume is gone) by its class's provisioner, as one volume per claim;
inline CSI volumes by the pod; a claim without a class is not counted.
In-tree volume plugins translated to CSI (CSI migration) are not counted here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status
from kubectl_wasdra.sched.volumes import pod_claims

NAME: Final = "NodeVolumeLimits"
MAX_VOLUME_COUNT: Final = "node(s) exceed max volume count"  # ErrReasonMaxVolumeCountExceeded


def _limits(index: Any, node_name: str) -> dict[str, int]:
    csi_node = index.csi_nodes.get(node_name) if index is not None else None
    out = {}
    for driver in ((csi_node or {}).get("spec") or {}).get("drivers") or ():
        count = ((driver.get("allocatable") or {}).get("count")) if isinstance(driver, Mapping) else None
        if isinstance(count, int):
            out[str(driver.get("name"))] = count
    return out


def csi_volumes(pod: Mapping[str, Any], index: Any) -> set[tuple[str, str]]:
    """(driver, unique volume id) of every CSI volume the pod uses."""
    meta = pod.get("metadata") or {}
    out = set()
    for claim in pod_claims(pod, index):
        spec = (claim.claim or {}).get("spec") or {}
        volume = index.volumes.get(spec.get("volumeName") or "")
        csi = ((volume or {}).get("spec") or {}).get("csi")
        if isinstance(csi, Mapping):
            out.add((str(csi.get("driver")), str(csi.get("volumeHandle"))))
        elif claim.claim is not None and volume is None:  # unbound, or bound to a volume that is gone: by its class
            storage_class = index.class_of(claim.claim)
            if storage_class is not None and storage_class.get("provisioner"):
                out.add((str(storage_class["provisioner"]), f"{meta.get('namespace')}/{claim.name}"))
    for volume in (pod.get("spec") or {}).get("volumes") or ():
        if isinstance(volume, Mapping) and isinstance(volume.get("csi"), Mapping):
            out.add((str(volume["csi"].get("driver")), f"{meta.get('namespace')}/{meta.get('name')}/{volume.get('name')}"))
    return out


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None unless the pod's new CSI volumes would push a driver past the node's limit."""
    index = node.state.volume_index
    if index is None or not pod.has_volumes:
        return None
    limits = _limits(index, node.name)
    if not limits:
        return None
    attached: set[tuple[str, str]] = set()
    for other in node.state.volume_pods(node.name):
        attached |= csi_volumes(other.pod, index)
    new = csi_volumes(pod.pod, index) - attached
    for driver, limit in sorted(limits.items()):
        wanted = sum(1 for d, _ in new if d == driver)
        if wanted and sum(1 for d, _ in attached if d == driver) + wanted > limit:
            return Status.unschedulable(Reason.VOLUME_LIMIT_EXCEEDED, MAX_VOLUME_COUNT, NAME, driver=driver, limit=limit)
    return None
