"""What a written snapshot keeps: per kind, only the fields the simulator reads (an allow-list), so that no snapshot
file carries credentials or personal data a cluster holds beside them.

Never written: container environment (values and references), commands, images, volumes but for the fields the volume
filters compare, Secrets and ConfigMaps (and any kind the simulator does not read), managedFields, every annotation but
the ones the simulator reads (so neither `kubectl.kubernetes.io/last-applied-configuration` nor token-like
annotations), node addresses, images and system info, pod IPs, StorageClass parameters, volume source details. DRA
and scheduling objects (slices, claims, classes, taint rules, PodGroups, Workloads, PriorityClasses) hold only
scheduling data and are kept whole but for their metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

from kubectl_wasdra.cluster.numa_kinds import CONFIGZ_FIELDS, CONFIGZ_KIND
from kubectl_wasdra.cluster.snapshot import SNAPSHOT_KINDS, ClusterSnapshot

META: Final = frozenset({"name", "namespace", "uid", "labels", "annotations", "ownerReferences", "creationTimestamp",
                         "deletionTimestamp", "generation"})
# annotations the simulator reads: generated claims name their pod claim; extended-resource claims are marked
ANNOTATIONS: Final = frozenset({"resource.kubernetes.io/pod-claim-name", "resource.kubernetes.io/extended-resource-claim"})
POD_SPEC: Final = frozenset({
    "nodeName", "nodeSelector", "affinity", "tolerations", "priority", "priorityClassName", "preemptionPolicy",
    "schedulerName", "resourceClaims", "schedulingGates", "topologySpreadConstraints", "overhead", "resources",
    "runtimeClassName", "schedulingGroup", "workloadRef", "containers", "initContainers", "restartPolicy", "os",
    "hostNetwork", "volumes"})
CONTAINER: Final = frozenset({"name", "resources", "restartPolicy", "resizePolicy", "ports"})
# pod volume sources the volume filters read (sched/volumes.py NODE_VOLUME_KINDS), each with the fields they compare;
# None: kept whole (an ephemeral volume's claim template is the claim the pod will get)
VOLUME_SOURCES: Final[Mapping[str, frozenset[str] | None]] = MappingProxyType({
    "persistentVolumeClaim": frozenset({"claimName"}), "ephemeral": None, "csi": frozenset({"driver"}),
    "gcePersistentDisk": frozenset({"pdName", "readOnly"}), "awsElasticBlockStore": frozenset({"volumeID"}),
    "rbd": frozenset({"monitors", "pool", "image", "readOnly"}), "iscsi": frozenset({"iqn", "readOnly"})})
POD_STATUS: Final = frozenset({"phase", "conditions", "nominatedNodeName", "resourceClaimStatuses", "containerStatuses",
                               "initContainerStatuses", "startTime", "qosClass"})
CONTAINER_STATUS: Final = frozenset({"name", "allocatedResources", "resources"})
NODE_SPEC: Final = frozenset({"taints", "unschedulable"})
NODE_STATUS: Final = frozenset({"capacity", "allocatable", "conditions"})
EVENT: Final = frozenset({"apiVersion", "kind", "metadata", "involvedObject", "regarding", "reason", "message", "note",
                          "type", "count", "firstTimestamp", "lastTimestamp", "eventTime", "source", "series",
                          "reportingController", "reportingComponent", "reportingInstance", "action"})
KEPT_KINDS: Final = frozenset(SNAPSHOT_KINDS)


def _pick(value: Any, keys: frozenset[str]) -> Any:
    return {k: v for k, v in value.items() if k in keys} if isinstance(value, dict) else value


def _meta(value: Any) -> Any:
    meta = _pick(value, META)
    if isinstance(meta, dict) and isinstance(meta.get("annotations"), dict):
        kept = {k: v for k, v in meta["annotations"].items() if k in ANNOTATIONS}
        meta = {k: v for k, v in meta.items() if k != "annotations"} | ({"annotations": kept} if kept else {})
    return meta


def _containers(value: Any) -> Any:
    return [_pick(c, CONTAINER) for c in value] if isinstance(value, list) else value


def pod_volumes(volumes: Any) -> list[dict[str, Any]]:
    """The volumes of VOLUME_SOURCES, each reduced to its name and the source's compared fields (secrets, config maps,
    host paths and the rest are left out)."""
    out = []
    for volume in volumes if isinstance(volumes, list) else ():
        source = next((key for key in VOLUME_SOURCES if isinstance(volume.get(key), dict)), None) \
            if isinstance(volume, dict) else None
        if source is not None:
            fields = VOLUME_SOURCES[source]
            out.append({"name": volume.get("name"), source: volume[source] if fields is None else _pick(volume[source], fields)})
    return out


def pod_spec(spec: Any) -> Any:
    """A pod spec with only the scheduling fields, containers reduced to name, resources, restartPolicy and ports, and
    volumes to pod_volumes (the key left out when none is left)."""
    out = _pick(spec, POD_SPEC)
    if isinstance(out, dict):
        out = {k: _containers(v) if k in ("containers", "initContainers") else v for k, v in out.items()}
        if "volumes" in out:
            volumes = pod_volumes(out.pop("volumes"))
            out |= {"volumes": volumes} if volumes else {}
    return out


def _pod(obj: dict[str, Any]) -> dict[str, Any]:
    status = _pick(obj.get("status"), POD_STATUS)
    if isinstance(status, dict):
        status = {k: [_pick(s, CONTAINER_STATUS) for s in v] if k.endswith("ontainerStatuses") and isinstance(v, list)
                  else v for k, v in status.items()}
    return {**obj, "spec": pod_spec(obj.get("spec")), **({"status": status} if "status" in obj else {})}


def _template(template: Any) -> Any:
    if not isinstance(template, dict):
        return template
    return {**template, "metadata": _meta(template.get("metadata")), "spec": pod_spec(template.get("spec"))}


def _job(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj.get("spec")
    if isinstance(spec, dict) and "template" in spec:
        spec = {**spec, "template": _template(spec["template"])}
    return {**obj, "spec": spec} if "spec" in obj else obj


def _spec_status(spec: frozenset[str], status: frozenset[str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A reducer keeping `spec` and `status` fields only (the object's other parts as they are)."""
    def reduce(obj: dict[str, Any]) -> dict[str, Any]:
        return {**obj, **{key: _pick(obj[key], keys) for key, keys in (("spec", spec), ("status", status)) if key in obj}}

    return reduce


# preemption (sched/pdb.py): a PodDisruptionBudget's selector and budget
PDB_SPEC: Final = frozenset({"selector", "minAvailable", "maxUnavailable"})
PDB_STATUS: Final = frozenset({"disruptionsAllowed", "disruptedPods", "currentHealthy", "desiredHealthy", "expectedPods"})
# volumes (sched/volumes.py and the volume filters): what binding, zones and CSI limits compare; a StorageClass's
# parameters (which some provisioners fill with credentials) and a volume's source details are never written
CLAIM_SPEC: Final = frozenset({"storageClassName", "volumeName", "accessModes", "volumeMode", "selector", "resources"})
VOLUME_SPEC: Final = frozenset({"capacity", "accessModes", "volumeMode", "storageClassName", "claimRef", "nodeAffinity",
                                "csi"})
VOLUME_CSI: Final = frozenset({"driver", "volumeHandle"})
STORAGE_CLASS: Final = frozenset({"apiVersion", "kind", "metadata", "provisioner", "volumeBindingMode",
                                  "allowedTopologies"})
PHASE: Final = frozenset({"phase"})
_VOLUME_PARTS: Final = _spec_status(VOLUME_SPEC, PHASE)


def _volume(obj: dict[str, Any]) -> dict[str, Any]:
    out = _VOLUME_PARTS(obj)
    spec = out.get("spec")
    if isinstance(spec, dict) and "csi" in spec:
        out["spec"] = {**spec, "csi": _pick(spec["csi"], VOLUME_CSI)}
    return out


def _configz(obj: dict[str, Any]) -> dict[str, Any]:
    """KubeletConfigz (cluster/numa_kinds.py): only the NUMA fields of the kubelet configuration, and `machine`."""
    return {k: _pick(v, frozenset(CONFIGZ_FIELDS)) if k == "kubeletconfig" else v for k, v in obj.items()
            if k in ("apiVersion", "kind", "metadata", "kubeletconfig", "machine")}


_BY_KIND: Final = MappingProxyType({"Pod": _pod, "Job": _job, "Node": _spec_status(NODE_SPEC, NODE_STATUS),
                                    "Event": lambda obj: _pick(obj, EVENT),
                                    CONFIGZ_KIND: _configz, "PodDisruptionBudget": _spec_status(PDB_SPEC, PDB_STATUS),
                                    "PersistentVolumeClaim": _spec_status(CLAIM_SPEC, PHASE), "PersistentVolume": _volume,
                                    "StorageClass": lambda obj: _pick(obj, STORAGE_CLASS)})
# NodeResourceTopology is scheduling data through and through, CSINode and CSIDriver hold driver names and counts:
# kept whole


def allowed(obj: Mapping[str, Any]) -> dict[str, Any]:
    """One object as a snapshot file keeps it (see the module doc)."""
    out = dict(obj)
    out = _BY_KIND.get(str(out.get("kind")), dict)(out)
    if "metadata" in out:
        out["metadata"] = _meta(out["metadata"])
    return out


def allowed_snapshot(snapshot: ClusterSnapshot) -> ClusterSnapshot:
    """The snapshot with every object reduced by `allowed` and every kind the simulator does not read dropped."""
    objects = {kind: tuple(allowed(obj) for obj in items) for kind, items in snapshot.objects.items() if kind in KEPT_KINDS}
    return ClusterSnapshot(objects=MappingProxyType(objects), header=snapshot.header)
