"""VolumeRestrictions filter: disks that cannot be mounted twice, and ReadWriteOncePod claims already in use.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go
(release-1.37): a GCE PD with the same pdName, an AWS EBS volume with the same volumeID, an iSCSI volume with the same
IQN or an RBD image in the same pool sharing a monitor conflicts with a volume of a pod on the node unless both are
read-only (EBS: always) -> "node(s) had no available disk"; a claim with access mode ReadWriteOncePod used by another
pod anywhere in the cluster rejects every node (Unschedulable: preemption may help), each at VolumeRestrictions'
place in the filter order: PreFilter counts the claim's users, Filter checks disks first and then that count, so a
node an earlier filter rejects says that filter's reason (in_filter_order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profiles import DEFAULT_FILTERS
from kubectl_wasdra.sched.status import Status
from kubectl_wasdra.sched.volumes import pod_claims

NAME: Final = "VolumeRestrictions"
DISK_CONFLICT: Final = "node(s) had no available disk"  # ErrReasonDiskConflict
RWOP_CONFLICT: Final = "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"
_UP_TO_HERE: Final = frozenset(DEFAULT_FILTERS[:DEFAULT_FILTERS.index(NAME) + 1])  # filters that speak before the count


def _volumes(pod: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [v for v in (pod.get("spec") or {}).get("volumes") or () if isinstance(v, Mapping)]


def _same_disk(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """isVolumeConflict for one pair of volume sources."""
    for kind, key in (("gcePersistentDisk", "pdName"), ("iscsi", "iqn")):
        x, y = a.get(kind), b.get(kind)
        if isinstance(x, Mapping) and isinstance(y, Mapping) and x.get(key) == y.get(key):
            return not (x.get("readOnly") and y.get("readOnly"))
    x, y = a.get("awsElasticBlockStore"), b.get("awsElasticBlockStore")
    if isinstance(x, Mapping) and isinstance(y, Mapping) and x.get("volumeID") == y.get("volumeID"):
        return True
    x, y = a.get("rbd"), b.get("rbd")
    if isinstance(x, Mapping) and isinstance(y, Mapping):
        shared = set(x.get("monitors") or ()) & set(y.get("monitors") or ())
        same = (x.get("pool") or "rbd", x.get("image")) == (y.get("pool") or "rbd", y.get("image"))
        return bool(shared) and same and not (x.get("readOnly") and y.get("readOnly"))
    return False


def _rwop_claims(pod: PodInfo, index: Any) -> set[tuple[str, str]]:
    if index is None:
        return set()
    return {(pod.namespace, c.name) for c in pod_claims(pod.pod, index) if c.claim is not None
            and "ReadWriteOncePod" in ((c.claim.get("spec") or {}).get("accessModes") or ())}


def rwop_in_use(pod: PodInfo, state: Any) -> Status | None:
    """Every node's status when another pod already uses one of the pod's ReadWriteOncePod claims (PreFilter counts
    the users cluster-wide; Filter then fails each node), else None."""
    wanted = _rwop_claims(pod, state.volume_index)
    if not wanted:
        return None
    for name in state.node_names:
        for other in state.volume_pods(name):
            used = {(other.namespace, str(v["persistentVolumeClaim"].get("claimName"))) for v in _volumes(other.pod)
                    if isinstance(v.get("persistentVolumeClaim"), Mapping)}
            if used & wanted and other.key != pod.key:
                return Status.unschedulable(Reason.VOLUME_CONFLICT, RWOP_CONFLICT, NAME, perNode=True)
    return None


def in_filter_order(status: Status | None, in_use: Status) -> Status:
    """A node's verdict while a ReadWriteOncePod claim of the pod is in use (`in_use`, from rwop_in_use): `status`,
    the node's first failing filter, when that filter runs before the claim count is read, else `in_use`."""
    return status if status is not None and (status.plugin is None or status.plugin in _UP_TO_HERE) else in_use


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None unless a disk of the pod is mounted read-write by a pod on the node (or both are not read-only)."""
    if not pod.has_volumes:
        return None
    mine = [v for v in _volumes(pod.pod) if any(k in v for k in ("gcePersistentDisk", "awsElasticBlockStore", "rbd",
                                                                   "iscsi"))]
    for other in node.state.volume_pods(node.name) if mine else ():
        for volume in _volumes(other.pod):
            if any(_same_disk(v, volume) for v in mine):
                return Status.unschedulable(Reason.VOLUME_CONFLICT, DISK_CONFLICT, NAME)
    return None
