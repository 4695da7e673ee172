"""Volumes as the volume filters see them: a pod's PersistentVolumeClaims, their volumes, classes and CSI nodes.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding (binder.go GetPodVolumeClaims,
FindPodVolumes; pkg/controller/volume/persistentvolume/util FindMatchingVolume), release-1.37. A claim is bound when it
names a volume (spec.volumeName), its binding is delayed when its StorageClass says WaitForFirstConsumer, and otherwise
it is an unbound immediate claim. A generic ephemeral volume's claim is "<pod>-<volume>"; when it is not in the
snapshot yet (the manifests' pods), it is taken from the volume's template, as the ephemeral volume controller would
create it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.kube.quantity import QuantityError, ceil_value, parse_quantity
from kubectl_wasdra.kube.selectors import labels_of, matches_label_selector, matches_node_selector

WAIT_FOR_FIRST_CONSUMER: Final = "WaitForFirstConsumer"
NO_PROVISIONER: Final = "kubernetes.io/no-provisioner"  # static local volumes: nothing is provisioned dynamically


@dataclass(frozen=True)
class PodClaim:
    """One PersistentVolumeClaim a pod uses: the volume it backs and the claim (None when it does not exist)."""

    volume: str
    name: str
    claim: Mapping[str, Any] | None
    ephemeral: bool = False


def pod_claims(pod: Mapping[str, Any], index: VolumeIndex) -> list[PodClaim]:
    """The claims of a pod's persistentVolumeClaim and ephemeral volumes, in volume order."""
    meta, spec = pod.get("metadata") or {}, pod.get("spec") or {}
    namespace, pod_name = meta.get("namespace") or "default", meta.get("name") or ""
    out = []
    for volume in spec.get("volumes") or ():
        if not isinstance(volume, Mapping):
            continue
        source = volume.get("persistentVolumeClaim")
        if isinstance(source, Mapping) and source.get("claimName"):
            name = str(source["claimName"])
            out.append(PodClaim(str(volume.get("name")), name, index.claim(namespace, name)))
        elif isinstance(volume.get("ephemeral"), Mapping):
            name = f"{pod_name}-{volume.get('name')}"
            out.append(PodClaim(str(volume.get("name")), name, index.claim(namespace, name) or
                                _from_template(volume["ephemeral"], namespace, name), ephemeral=True))
    return out


def _from_template(ephemeral: Mapping[str, Any], namespace: str, name: str) -> Mapping[str, Any] | None:
    template = ephemeral.get("volumeClaimTemplate")
    if not isinstance(template, Mapping):
        return None
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"namespace": namespace, "name": name},
            "spec": template.get("spec") or {}}


NODE_VOLUME_KINDS: Final = ("persistentVolumeClaim", "ephemeral", "csi", "gcePersistentDisk", "awsElasticBlockStore",
                             "rbd", "iscsi")


def has_node_volumes(pod: Mapping[str, Any]) -> bool:
    """True when the pod has a volume another pod on its node can conflict with or that counts against a CSI limit."""
    volumes = (pod.get("spec") or {}).get("volumes")
    return bool(volumes) and any(isinstance(v, Mapping) and any(k in v for k in NODE_VOLUME_KINDS) for v in volumes)


def has_claims(pod: Mapping[str, Any]) -> bool:
    """True when the pod has a persistentVolumeClaim or ephemeral volume (the volume filters skip every other pod)."""
    return any(isinstance(v, Mapping) and (v.get("persistentVolumeClaim") or v.get("ephemeral"))
               for v in (pod.get("spec") or {}).get("volumes") or ())


def _storage(resources: Mapping[str, Any] | None) -> int:
    """The `storage` entry of a ResourceList in bytes (0 when absent or unreadable)."""
    value = (resources or {}).get("storage")
    try:
        return ceil_value(parse_quantity(str(value))) if value is not None else 0
    except (QuantityError, ValueError):
        return 0


def requested_storage(claim: Mapping[str, Any]) -> int:
    """The claim's storage request in bytes (0 when absent or unreadable)."""
    return _storage(((claim.get("spec") or {}).get("resources") or {}).get("requests"))


def pv_capacity(volume: Mapping[str, Any]) -> int:
    """The volume's storage capacity in bytes (0 when absent or unreadable)."""
    return _storage((volume.get("spec") or {}).get("capacity"))


def pv_matches_node(volume: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
    """The volume's spec.nodeAffinity.required allows the node (no affinity: any node)."""
    required = ((volume.get("spec") or {}).get("nodeAffinity") or {}).get("required")
    return not isinstance(required, Mapping) or matches_node_selector(required, node)


class VolumeIndex:
    """PersistentVolumeClaims, PersistentVolumes, StorageClasses and CSINodes of one snapshot, by name."""

    def __init__(self, snapshot: Any) -> None:
        self.claims = {_key(c): c for c in snapshot.of_kind("PersistentVolumeClaim")}
        self.volumes = {_key(v)[1]: v for v in snapshot.of_kind("PersistentVolume")}
        self.classes = {_key(c)[1]: c for c in snapshot.of_kind("StorageClass")}
        self.csi_nodes = {_key(c)[1]: c for c in snapshot.of_kind("CSINode")}
        # PVs by class, smallest first (FindMatchingVolume takes the smallest volume that fits)
        self.by_class: dict[str, list[Mapping[str, Any]]] = {}
        for volume in sorted(self.volumes.values(), key=lambda v: (pv_capacity(v), _key(v)[1])):
            self.by_class.setdefault(str((volume.get("spec") or {}).get("storageClassName") or ""), []).append(volume)

    def claim(self, namespace: str, name: str) -> Mapping[str, Any] | None:
        return self.claims.get((namespace, name))

    def class_of(self, claim: Mapping[str, Any]) -> Mapping[str, Any] | None:
        name = (claim.get("spec") or {}).get("storageClassName")
        return self.classes.get(str(name)) if name else None

    def is_delayed(self, claim: Mapping[str, Any]) -> bool:
        """Binding waits for the first consumer (the class's volumeBindingMode; no or unknown class: immediate)."""
        storage_class = self.class_of(claim)
        return storage_class is not None and storage_class.get("volumeBindingMode") == WAIT_FOR_FIRST_CONSUMER

    def matching_volume(self, claim: Mapping[str, Any], node: Mapping[str, Any], taken: set[str]) -> str | None:
        """The name of the smallest available PV that can bind `claim` on `node` (FindMatchingVolume), or None."""
        spec = claim.get("spec") or {}
        meta = claim.get("metadata") or {}
        wanted = requested_storage(claim)
        modes = set(spec.get("accessModes") or ())
        selector = spec.get("selector")
        for volume in self.by_class.get(str(spec.get("storageClassName") or ""), ()):
            name = _key(volume)[1]
            pv_spec = volume.get("spec") or {}
            ref = pv_spec.get("claimRef") or {}
            if name in taken or (ref and (ref.get("name"), ref.get("namespace")) != (meta.get("name"), meta.get("namespace"))):
                continue
            if (volume.get("status") or {}).get("phase") in ("Released", "Failed") or pv_capacity(volume) < wanted:
                continue
            if not modes <= set(pv_spec.get("accessModes") or ()) or (pv_spec.get("volumeMode") or "Filesystem") != \
                    (spec.get("volumeMode") or "Filesystem"):
                continue
            if isinstance(selector, Mapping) and not matches_label_selector(selector, labels_of(volume)):
                continue
            if pv_matches_node(volume, node):
                return name
        return None

    def can_provision(self, claim: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
        """A class with a provisioner whose allowedTopologies (if any) admit the node (checkVolumeProvisions)."""
        storage_class = self.class_of(claim)
        if storage_class is None or storage_class.get("provisioner") in (None, "", NO_PROVISIONER):
            return False
        topologies = storage_class.get("allowedTopologies")
        if not topologies:
            return True
        terms = [{"matchExpressions": [{"key": e.get("key"), "operator": "In", "values": list(e.get("values") or ())}
                                       for e in term.get("matchLabelExpressions") or ()]}
                 for term in topologies if isinstance(term, Mapping)]
        return matches_node_selector({"nodeSelectorTerms": terms}, node)


def _key(obj: Mapping[str, Any]) -> tuple[str, str]:
    meta = obj.get("metadata") or {}
    return str(meta.get("namespace") or ""), str(meta.get("name") or "")


def unbound_delayed(pod: Mapping[str, Any], index: VolumeIndex) -> list[PodClaim]:
    """The pod's claims that exist, name no volume yet and wait for their first consumer."""
    return [c for c in pod_claims(pod, index) if c.claim is not None
            and not (c.claim.get("spec") or {}).get("volumeName") and index.is_delayed(c.claim)]


def volumes_for(claims: list[PodClaim], node: Mapping[str, Any], index: VolumeIndex, taken: Mapping[str, str]
                ) -> dict[str, str | None]:
    """claim name -> the static volume each unbound delayed claim would bind on `node` (None: none left), each volume
    at most once (taken: volumes earlier placements bound)."""
    used = set(taken)
    out: dict[str, str | None] = {}
    for claim in claims:
        assert claim.claim is not None
        name = index.matching_volume(claim.claim, node, used)
        if name is not None:
            used.add(name)
        out[claim.name] = name
    return out


def bind_claims(pod: Any, node_name: str, state: Any) -> None:
    """Record the static volumes the pod's delayed claims bind on the node it was placed on (AssumePodVolumes)."""
    index = state.volume_index
    claims = unbound_delayed(pod.pod, index)
    if not claims:
        return
    chosen = volumes_for(claims, state.facts[node_name].node, index, state.bound_volumes)
    for claim, volume in chosen.items():
        if volume is not None:
            state.set(state.bound_volumes, volume, f"{pod.namespace}/{claim}")
            if not ((index.volumes.get(volume) or {}).get("spec") or {}).get("nodeAffinity"):
                state.shared_gen = state.tick  # a volume any node could bind is gone for every node: verdicts change
