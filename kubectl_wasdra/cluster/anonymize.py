"""Anonymizing a snapshot for bug reports: node names, namespaces, pod names and label values are replaced consistently.

ResourceClaims are renamed too (generated claim names contain pod names), with every reference to them.
The same original always gets the same replacement within one snapshot (numbered in snapshot order, so the output is
deterministic), and every reference follows: pod.spec.nodeName, nominatedNodeName, claim reservedFor, allocation results'
pools, slice nodeName/pool/name, DeviceTaintRule pools, node selectors and affinities (matchFields metadata.name,
kubernetes.io/hostname values, label values), owner references to nodes and pods. What a bug report does not need and
may leak is dropped: annotations (except resource.kubernetes.io/pod-claim-name), managedFields, addresses and IPs, node
system info, container images, commands, arguments and environment, volumes other than claims and CSI drivers.
Label keys, kinds, claim/group/class names, device names and attributes, and quantities are kept: the simulation
needs them and they name hardware, not people.
Well-known namespaces (default, kube-*) and label values true/false/"" and of kubernetes.io/os and kubernetes.io/arch stay.
Events (core/v1 and events.k8s.io/v1) are rewritten last: their object references follow the pods and namespaces, node and
pod names inside the message are replaced the same way, and the reporting host is mapped like a node name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

KEEP_NAMESPACES: Final = frozenset({"default", "kube-system", "kube-public", "kube-node-lease"})
KEEP_LABEL_VALUES: Final = frozenset({"", "true", "false"})
KEEP_LABEL_KEYS: Final = frozenset({"kubernetes.io/os", "kubernetes.io/arch", "beta.kubernetes.io/os", "beta.kubernetes.io/arch"})
HOSTNAME_LABEL: Final = "kubernetes.io/hostname"
DEVICE_CLASS_RESOURCE_PREFIX: Final = "deviceclass.resource.kubernetes.io/"  # KEP-5004 implicit extended resource
_INTEGER: Final = re.compile(r"[-+]?[0-9]+")
IDENTIFYING_ATTRIBUTES: Final = frozenset({"uuid", "serial", "serialnumber"})  # device attribute names, domain aside
NAMESPACE_LABEL: Final = "kubernetes.io/metadata.name"
KEEP_ANNOTATIONS: Final = frozenset({"resource.kubernetes.io/pod-claim-name"})
_DROP_META: Final = ("managedFields", "annotations", "generateName", "selfLink")
_DROP_CONTAINER: Final = ("image", "command", "args", "env", "envFrom", "volumeMounts", "workingDir", "livenessProbe",
                          "readinessProbe", "startupProbe", "lifecycle")


@dataclass
class _Names:
    """One consistent mapping per name space, numbered in the order names are met."""

    prefix: str
    width: int
    seen: dict[str, str] = field(default_factory=dict)

    def __call__(self, name: str) -> str:
        if name not in self.seen:
            self.seen[name] = f"{self.prefix}-{len(self.seen) + 1:0{self.width}d}"
        return self.seen[name]


@dataclass
class Anonymizer:
    """Holds the mappings while one snapshot is rewritten."""

    nodes: _Names = field(default_factory=lambda: _Names("node", 4))
    namespaces: _Names = field(default_factory=lambda: _Names("ns", 3))
    pods: _Names = field(default_factory=lambda: _Names("pod", 5))
    values: _Names = field(default_factory=lambda: _Names("value", 4))
    claims: _Names = field(default_factory=lambda: _Names("claim", 5))
    events: _Names = field(default_factory=lambda: _Names("event", 5))
    uids: _Names = field(default_factory=lambda: _Names("00000000-0000-4000-8000", 12))
    priority_classes: _Names = field(default_factory=lambda: _Names("priority", 3))
    device_classes: _Names = field(default_factory=lambda: _Names("class", 3))
    templates: _Names = field(default_factory=lambda: _Names("template", 4))
    taint_rules: _Names = field(default_factory=lambda: _Names("taintrule", 3))
    serials: _Names = field(default_factory=lambda: _Names("device-id", 6))
    _node_pattern: re.Pattern[str] | None = None
    _pod_pattern: re.Pattern[str] | None = None
    _pod_count: int = 0

    def namespace(self, name: str) -> str:
        return name if name in KEEP_NAMESPACES or not name else self.namespaces(name)

    def label_value(self, key: str, value: str) -> str:
        if key == HOSTNAME_LABEL:
            return self.nodes(value)
        if key == NAMESPACE_LABEL:
            return self.namespace(value)
        if key in KEEP_LABEL_KEYS or value in KEEP_LABEL_VALUES or _INTEGER.fullmatch(value):
            return value  # integers stay: Gt/Lt node selectors compare them, and a count names no one
        return self.values(value)

    def priority_class(self, name: str) -> str:
        return name if name.startswith("system-") else self.priority_classes(name)

    def replaced(self) -> dict[str, int]:
        """How many distinct originals each kind of name had replaced (the report `snapshot --anonymize` prints)."""
        counts = {"node names": self.nodes, "namespaces": self.namespaces, "pod names": self.pods,
                  "label values": self.values, "claim names": self.claims, "event names": self.events, "UIDs": self.uids,
                  "PriorityClass names": self.priority_classes, "DeviceClass names": self.device_classes,
                  "claim template names": self.templates, "DeviceTaintRule names": self.taint_rules,
                  "device UUIDs and serials": self.serials}
        return {what: len(names.seen) for what, names in counts.items() if names.seen}

    def in_names(self, text: str) -> str:
        """Node names inside other names (slice and pool names are usually derived from the node name)."""
        if self._node_pattern is None:
            self._node_pattern = _word_pattern(self.nodes.seen)
        return self._node_pattern.sub(lambda match: self.nodes(match.group(0)), text)

    def in_text(self, text: str) -> str:
        """Free text (event messages) with the node and pod names already met replaced."""
        if self._pod_pattern is None or self._pod_count != len(self.pods.seen):  # events may name pods not in the snapshot
            self._pod_pattern, self._pod_count = _word_pattern(self.pods.seen), len(self.pods.seen)
        return self._pod_pattern.sub(lambda match: self.pods(match.group(0)), self.in_names(text))


def _word_pattern(names: Mapping[str, str]) -> re.Pattern[str]:
    """Any of `names` as a whole word (longest first), never matching when there are none."""
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True))) or r"(?!x)x"
    return re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])")


def anonymize(snapshot: ClusterSnapshot) -> ClusterSnapshot:
    """A new snapshot with names replaced as the module doc says; the input is not changed."""
    return anonymize_with_report(snapshot)[0]


def anonymize_with_report(snapshot: ClusterSnapshot) -> tuple[ClusterSnapshot, dict[str, int]]:
    """The anonymized snapshot and how many distinct names of each sort were replaced."""
    names = Anonymizer()
    for node in snapshot.of_kind("Node"):
        names.nodes((node.get("metadata") or {}).get("name", ""))
    objects: dict[str, tuple[dict[str, Any], ...]] = {}
    for kind, items in sorted(snapshot.objects.items(), key=lambda entry: entry[0] == "Event"):  # events last
        rewrite = _REWRITERS.get(kind, _common)
        objects[kind] = tuple(sorted((_references(rewrite(item, names), names) for item in items), key=_sort_key))
    anonymized = ClusterSnapshot(objects=MappingProxyType(objects), header=replace(snapshot.header, anonymized=True))
    return anonymized, names.replaced()


def _references(value: Any, names: Anonymizer) -> Any:
    """Every UID, and every reference by name to a PriorityClass, DeviceClass or claim template, replaced wherever it
    sits (metadata, owner references, reservedFor, requests, firstAvailable subrequests, taint rule selectors)."""
    if isinstance(value, list):
        return [_references(item, names) for item in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        mapper = _REFERENCE_KEYS.get(key)
        if mapper is not None and isinstance(item, str) and item:
            out[key] = mapper(names, item)
        elif key in ("requests", "limits") and isinstance(item, dict):
            out[key] = {_extended_name(name, names): amount for name, amount in item.items()}
        elif key == "conditions" and isinstance(item, list):  # free text: node and pod names inside are replaced
            out[key] = [{**c, "message": names.in_text(c["message"])} if isinstance(c, dict) and isinstance(
                c.get("message"), str) else c for c in item]
        else:
            out[key] = _references(item, names)
    return out


def _extended_name(resource: str, names: Anonymizer) -> str:
    """deviceclass.resource.kubernetes.io/<class>, the extended resource a DeviceClass implies, follows the class."""
    prefix, _, name = resource.partition(DEVICE_CLASS_RESOURCE_PREFIX)
    return f"{DEVICE_CLASS_RESOURCE_PREFIX}{names.device_classes(name)}" if not prefix and name else resource


def _sort_key(obj: Mapping[str, Any]) -> tuple[str, str]:
    meta = obj.get("metadata") or {}
    return meta.get("namespace") or "", meta.get("name") or ""


def _selectors(value: Any, names: Anonymizer) -> Any:
    """Deep copy in which label selectors, node selectors and affinities have their values mapped."""
    if isinstance(value, list):
        return [_selectors(item, names) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _selectors(item, names) for key, item in value.items()}
    meta = value.get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("labels"), dict):  # pod templates, claim templates
        out["metadata"] = {**out["metadata"], "labels": {k: names.label_value(k, str(v)) for k, v in meta["labels"].items()}}
    if isinstance(value.get("namespaces"), list):  # pod affinity terms
        out["namespaces"] = [names.namespace(str(ns)) for ns in value["namespaces"]]
    if isinstance(value.get("matchLabels"), dict):
        out["matchLabels"] = {k: names.label_value(k, str(v)) for k, v in value["matchLabels"].items()}
    for field_name in ("matchExpressions", "matchFields"):
        if isinstance(value.get(field_name), list):
            out[field_name] = [_requirement(item, names, fields=field_name == "matchFields") for item in value[field_name]]
    return out


def _requirement(item: Any, names: Anonymizer, *, fields: bool) -> Any:
    if not isinstance(item, dict) or not isinstance(item.get("values"), list):
        return item
    key = item.get("key", "")
    if fields:
        mapped = [names.nodes(str(v)) if key == "metadata.name" else v for v in item["values"]]
    else:
        mapped = [names.label_value(key, str(v)) for v in item["values"]]
    return {**item, "values": mapped}


def _metadata(meta: Mapping[str, Any], names: Anonymizer, name: Callable[[str], str] | None) -> dict[str, Any]:
    out = {key: value for key, value in meta.items() if key not in _DROP_META}
    if name is not None and meta.get("name"):
        out["name"] = name(meta["name"])
    if meta.get("namespace"):
        out["namespace"] = names.namespace(meta["namespace"])
    if isinstance(meta.get("labels"), dict):
        out["labels"] = {key: names.label_value(key, str(value)) for key, value in meta["labels"].items()}
    kept = {key: value for key, value in (meta.get("annotations") or {}).items() if key in KEEP_ANNOTATIONS}
    if kept:
        out["annotations"] = kept
    if isinstance(meta.get("ownerReferences"), list):
        out["ownerReferences"] = [_owner(ref, names) for ref in meta["ownerReferences"]]
    return out


def _owner(ref: Any, names: Anonymizer) -> Any:
    if not isinstance(ref, dict):
        return ref
    if ref.get("kind") == "Node":
        return {**ref, "name": names.nodes(ref.get("name", ""))}
    if ref.get("kind") == "Pod":
        return {**ref, "name": names.pods(ref.get("name", ""))}
    return ref


def _common(obj: Mapping[str, Any], names: Anonymizer, name: Callable[[str], str] | None = None) -> dict[str, Any]:
    out = _selectors(dict(obj), names)
    out["metadata"] = _metadata(obj.get("metadata") or {}, names, name)
    return out


def _node(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names, names.nodes)
    out["spec"] = {key: value for key, value in (out.get("spec") or {}).items()
                   if key not in ("providerID", "podCIDR", "podCIDRs", "externalID")}
    status = {key: value for key, value in (out.get("status") or {}).items()
              if key not in ("addresses", "nodeInfo", "images", "daemonEndpoints", "volumesAttached", "volumesInUse")}
    out["status"] = status
    return out


def _container(container: Any) -> Any:
    if not isinstance(container, dict):
        return container
    return {key: value for key, value in container.items() if key not in _DROP_CONTAINER}


def _scheduling_volumes(volumes: Any) -> dict[str, list[dict[str, Any]]]:
    """{"volumes": [...]} with the pod volumes the volume filters read, reduced to what they read: claim names,
    ephemeral claim templates and CSI drivers (paths, secrets and cloud disk IDs go with the other volumes); {} when
    none is left."""
    out = []
    for volume in volumes if isinstance(volumes, list) else ():
        if not isinstance(volume, dict):
            continue
        claim, ephemeral, csi = volume.get("persistentVolumeClaim"), volume.get("ephemeral"), volume.get("csi")
        if isinstance(claim, dict):
            out.append({"name": volume.get("name"), "persistentVolumeClaim": {"claimName": claim.get("claimName")}})
        elif isinstance(ephemeral, dict):
            out.append({"name": volume.get("name"), "ephemeral": ephemeral})
        elif isinstance(csi, dict):
            out.append({"name": volume.get("name"), "csi": {"driver": csi.get("driver")}})
    return {"volumes": out} if out else {}


def _pod(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names, names.pods)
    spec = {key: value for key, value in (out.get("spec") or {}).items()
            if key not in ("volumes", "hostname", "subdomain", "imagePullSecrets", "serviceAccountName", "serviceAccount")}
    for key in ("containers", "initContainers", "ephemeralContainers"):
        if isinstance(spec.get(key), list):
            spec[key] = [_container(container) for container in spec[key]]
    spec.update(_scheduling_volumes((obj.get("spec") or {}).get("volumes")))
    if spec.get("nodeName"):
        spec["nodeName"] = names.nodes(spec["nodeName"])
    if isinstance(spec.get("resourceClaims"), list):
        spec["resourceClaims"] = _claim_refs(spec["resourceClaims"], names)
    if isinstance(spec.get("nodeSelector"), dict):
        spec["nodeSelector"] = {key: names.label_value(key, str(value)) for key, value in spec["nodeSelector"].items()}
    out["spec"] = spec
    status = {key: value for key, value in (out.get("status") or {}).items()
              if key not in ("hostIP", "hostIPs", "podIP", "podIPs")}
    if isinstance(status.get("resourceClaimStatuses"), list):
        status["resourceClaimStatuses"] = _claim_refs(status["resourceClaimStatuses"], names)
    if status.get("nominatedNodeName"):
        status["nominatedNodeName"] = names.nodes(status["nominatedNodeName"])
    for key in ("containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"):
        if isinstance(status.get(key), list):
            status[key] = [{k: v for k, v in item.items() if k not in ("image", "imageID", "containerID")}
                           if isinstance(item, dict) else item for item in status[key]]
    out["status"] = status
    return out


def _claim_refs(entries: list[Any], names: Anonymizer) -> list[Any]:
    """Pod/PodGroup resourceClaims and resourceClaimStatuses entries with resourceClaimName renamed."""
    return [{**entry, "resourceClaimName": names.claims(entry["resourceClaimName"])}
            if isinstance(entry, dict) and isinstance(entry.get("resourceClaimName"), str) else entry for entry in entries]


def _group(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names)
    for part in ("spec", "status"):
        body = out.get(part)
        for key in ("resourceClaims", "resourceClaimStatuses"):
            if isinstance(body, dict) and isinstance(body.get(key), list):
                body[key] = _claim_refs(body[key], names)
    return out


def _slice(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names, names.in_names)
    spec = dict(out.get("spec") or {})
    if spec.get("nodeName"):
        spec["nodeName"] = names.nodes(spec["nodeName"])
    if isinstance(spec.get("pool"), dict):
        spec["pool"] = {**spec["pool"], "name": names.in_names(str(spec["pool"].get("name", "")))}
    if isinstance(spec.get("devices"), list):
        spec["devices"] = [_device(d, names) for d in spec["devices"]]
    out["spec"] = spec
    return out


def _device(device: Any, names: Anonymizer) -> Any:
    """A slice's device with its node name mapped and identifying string attributes (uuid, serial) replaced
    consistently: constraints compare them for equality only, which consistent replacement keeps."""
    if not isinstance(device, dict):
        return device
    out = dict(device)
    if out.get("nodeName"):
        out["nodeName"] = names.nodes(out["nodeName"])
    attributes = out.get("attributes")
    if isinstance(attributes, dict):
        out["attributes"] = {key: {**value, "string": names.serials(value["string"])}
                             if str(key).rpartition("/")[2].lower() in IDENTIFYING_ATTRIBUTES and isinstance(value, dict)
                             and isinstance(value.get("string"), str) else value for key, value in attributes.items()}
    return out


def _claim(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names, names.claims)
    status = dict(out.get("status") or {})
    allocation = status.get("allocation")
    if isinstance(allocation, dict) and isinstance(allocation.get("devices"), dict):
        results = allocation["devices"].get("results")
        if isinstance(results, list):
            results = [{**r, "pool": names.in_names(str(r.get("pool", "")))} if isinstance(r, dict) else r for r in results]
            status["allocation"] = {**allocation, "devices": {**allocation["devices"], "results": results}}
    if isinstance(status.get("reservedFor"), list):
        status["reservedFor"] = [{**ref, "name": names.pods(ref.get("name", ""))}
                                 if isinstance(ref, dict) and ref.get("resource") == "pods" else ref
                                 for ref in status["reservedFor"]]
    if isinstance(status.get("devices"), list):
        status["devices"] = [{k: v for k, v in {**d, "pool": names.in_names(str(d.get("pool", "")))}.items()
                              if k not in ("data", "networkData")} if isinstance(d, dict) else d for d in status["devices"]]
    out["status"] = status
    return out


def _taint_rule(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names, names.taint_rules)
    spec = dict(out.get("spec") or {})
    selector = spec.get("deviceSelector")
    if isinstance(selector, dict) and selector.get("pool"):
        spec["deviceSelector"] = {**selector, "pool": names.in_names(str(selector["pool"]))}
    out["spec"] = spec
    return out


def _reference(ref: Any, names: Anonymizer) -> Any:
    """An event's object reference (involvedObject, regarding, related) with pod/node names and namespace mapped."""
    if not isinstance(ref, dict):
        return ref
    out = dict(ref)
    if isinstance(ref.get("namespace"), str):
        out["namespace"] = names.namespace(ref["namespace"])
    if ref.get("kind") in ("Pod", "Node") and isinstance(ref.get("name"), str):
        out["name"] = (names.pods if ref["kind"] == "Pod" else names.nodes)(ref["name"])
    return out


def _event(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = {key: value for key, value in obj.items() if key not in ("metadata", "source", "deprecatedSource")}
    out["metadata"] = _metadata(obj.get("metadata") or {}, names, names.events)
    for key in ("involvedObject", "regarding", "related"):
        if key in obj:
            out[key] = _reference(obj[key], names)
    for key in ("message", "note"):
        if isinstance(obj.get(key), str):
            out[key] = names.in_text(obj[key])
    for key in ("source", "deprecatedSource"):
        if isinstance(obj.get(key), dict):
            source = obj[key]
            out[key] = {**source, **({"host": names.nodes(source["host"])} if isinstance(source.get("host"), str) else {})}
    if isinstance(obj.get("reportingInstance"), str):
        out["reportingInstance"] = names.in_names(obj["reportingInstance"])
    return out


_REFERENCE_KEYS: Final[Mapping[str, Callable[[Anonymizer, str], str]]] = {
    "uid": lambda names, value: names.uids(value),
    "priorityClassName": Anonymizer.priority_class,
    "deviceClassName": lambda names, value: names.device_classes(value),
    "resourceClaimTemplateName": lambda names, value: names.templates(value),
}
_REWRITERS: Final[Mapping[str, Callable[[Mapping[str, Any], Anonymizer], dict[str, Any]]]] = {
    "PriorityClass": lambda obj, names: _common(obj, names, names.priority_class),
    "DeviceClass": lambda obj, names: _common(obj, names, names.device_classes),
    "ResourceClaimTemplate": lambda obj, names: _common(obj, names, names.templates),
    "Node": _node,
    "Namespace": lambda obj, names: _common(obj, names, names.namespace),
    "Pod": _pod,
    "ResourceSlice": _slice,
    "ResourceClaim": _claim,
    "DeviceTaintRule": _taint_rule,
    "PodGroup": _group,
    "Event": _event,
}
