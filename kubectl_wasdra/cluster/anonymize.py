"""Anonymizing a snapshot for bug reports: node names, namespaces, pod names and label values are replaced consistently.

ResourceClaims are renamed too (generated claim names contain pod names), with every reference to them.
The same original always gets the same replacement within one snapshot (numbered in snapshot order, so the output is
deterministic), and every reference follows: pod.spec.nodeName, nominatedNodeName, claim reservedFor, allocation results'
pools, slice nodeName/pool/name, DeviceTaintRule pools, node selectors and affinities (matchFields metadata.name,
kubernetes.io/hostname values, label values), owner references and a PersistentVolume's claimRef by the kind they name;
CSINodes, NodeResourceTopologies and KubeletConfigz are named after their node. What a bug report does not need and
may leak is dropped: annotations (except resource.kubernetes.io/pod-claim-name), managedFields, addresses and IPs, node
system info, container images, commands, arguments and environment, volumes other than claims and CSI drivers.
PodGroup, CompositePodGroup, Job and Workload names (and Workload pod group template names) are replaced with every
reference: pods' schedulingGroup and 1.35 workloadRef, PodGroups' workloadRef / podGroupTemplateRef and
parentCompositePodGroupName, events' object references.
Label keys of private domains (a prefix other than kubernetes.io, k8s.io or their subdomains) become
anon.example/key-NNNN wherever the simulator compares them: labels, nodeSelector, selector requirements (node, pod,
namespace, volume and slice node selectors, allowedTopologies), topologyKey, matchLabelKeys / mismatchLabelKeys and
group scheduling constraints. Unprefixed keys are plain words and stay, as do kinds, device names and attributes,
drivers and quantities: the simulation needs them and they name hardware, not people.
Well-known namespaces (default, kube-*) and label values true/false/"" and of kubernetes.io/os and kubernetes.io/arch stay.
Free text (condition messages, events) has every replaced name and key met anywhere in the snapshot replaced the same
way (the snapshot is walked twice, so every name is known before the first message); events are rewritten last: their
object references follow, and the reporting host is mapped like a node name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final

from kubectl_wasdra.cluster.allowlist import pod_volumes
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

KEEP_NAMESPACES: Final = frozenset({"default", "kube-system", "kube-public", "kube-node-lease"})
KUBERNETES_DOMAINS: Final = ("kubernetes.io", "k8s.io")  # label key prefixes (and their subdomains) kept
ANONYMOUS_DOMAIN: Final = "anon.example"  # replaced private label keys read anon.example/key-0001
KEEP_LABEL_VALUES: Final = frozenset({"", "true", "false"})
KEEP_LABEL_KEYS: Final = frozenset({"kubernetes.io/os", "kubernetes.io/arch", "beta.kubernetes.io/os", "beta.kubernetes.io/arch"})
HOSTNAME_LABEL: Final = "kubernetes.io/hostname"
DEVICE_CLASS_RESOURCE_PREFIX: Final = "deviceclass.resource.kubernetes.io/"  # KEP-5004 implicit extended resource
_INTEGER: Final = re.compile(r"[-+]?[0-9]+")
IDENTIFYING_ATTRIBUTES: Final = frozenset({"uuid", "serial", "serialnumber"})  # device attribute names, domain aside
NAMESPACE_LABEL: Final = "kubernetes.io/metadata.name"
KEEP_ANNOTATIONS: Final = frozenset({"resource.kubernetes.io/pod-claim-name"})
_DROP_META: Final = ("managedFields", "annotations", "generateName", "selfLink")
_DISK_SOURCES: Final = ("gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi")
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
    groups: _Names = field(default_factory=lambda: _Names("group", 4))  # PodGroups, CompositePodGroups, Jobs
    workloads: _Names = field(default_factory=lambda: _Names("workload", 3))
    group_templates: _Names = field(default_factory=lambda: _Names("group-template", 3))
    label_keys: _Names = field(default_factory=lambda: _Names(f"{ANONYMOUS_DOMAIN}/key", 4))
    _node_pattern: re.Pattern[str] | None = None
    _text_pattern: re.Pattern[str] | None = None
    _text_names: dict[str, Callable[[str], str]] = field(default_factory=dict)
    _text_count: int = 0
    meeting: bool = False  # the first walk only meets names: free text waits for the second

    def namespace(self, name: str) -> str:
        return name if name in KEEP_NAMESPACES or not name else self.namespaces(name)

    def label_key(self, key: str) -> str:
        """A key of a private domain (prefix not kubernetes.io, k8s.io or a subdomain of them) replaced; unprefixed
        and Kubernetes keys stay (well-known keys have meaning to the scheduler, unprefixed ones are plain words)."""
        domain, slash, _ = key.rpartition("/")
        if not slash or not domain or any(domain == d or domain.endswith(f".{d}") for d in KUBERNETES_DOMAINS):
            return key
        return self.label_keys(key)

    def labels(self, labels: Mapping[Any, Any]) -> dict[str, str]:
        """A label map (or nodeSelector, matchLabels) with private keys and identifying values replaced."""
        return {self.label_key(str(key)): self.label_value(str(key), str(value)) for key, value in labels.items()}

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
                  "device UUIDs and serials": self.serials, "PodGroup/CompositePodGroup/Job names": self.groups,
                  "Workload names": self.workloads, "pod group template names": self.group_templates,
                  "private label keys": self.label_keys}
        return {what: len(names.seen) for what, names in counts.items() if names.seen}

    def in_names(self, text: str) -> str:
        """Node names inside other names (slice and pool names are usually derived from the node name)."""
        if self._node_pattern is None:
            self._node_pattern = _word_pattern(self.nodes.seen)
        return self._node_pattern.sub(lambda match: self.nodes(match.group(0)), text)

    def in_text(self, text: str) -> str:
        """Free text (condition and event messages) with every name and private label key already met replaced:
        pods, groups, workloads and their templates, claims, namespaces, label keys (node names as in_names).
        Names shorter than three characters stay in text, where they would hit ordinary words."""
        if self.meeting:
            return text
        spaces = ((self.label_keys, self.label_key), (self.pods, self.pods), (self.groups, self.groups),
                  (self.workloads, self.workloads), (self.group_templates, self.group_templates),
                  (self.claims, self.claims), (self.namespaces, self.namespace))
        total = sum(len(names.seen) for names, _ in spaces)
        if self._text_pattern is None or self._text_count != total:  # events may name objects not in the snapshot
            self._text_names, self._text_count = {}, total
            for names, mapper in spaces:
                for original in names.seen:
                    self._text_names.setdefault(original, mapper)
            self._text_pattern = _word_pattern({name: "" for name in self._text_names if len(name) > 2})
        return self._text_pattern.sub(lambda match: self._text_names[match.group(0)](match.group(0)), self.in_names(text))


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
    names.meeting = True
    _rewrite(snapshot, names)  # meets every name first, so free text anywhere can have all of them replaced
    names.meeting = False
    objects = _rewrite(snapshot, names)
    anonymized = ClusterSnapshot(objects=MappingProxyType(objects), header=replace(snapshot.header, anonymized=True))
    return anonymized, names.replaced()


def _rewrite(snapshot: ClusterSnapshot, names: Anonymizer) -> dict[str, tuple[dict[str, Any], ...]]:
    objects: dict[str, tuple[dict[str, Any], ...]] = {}
    for kind, items in sorted(snapshot.objects.items(), key=lambda entry: entry[0] == "Event"):  # events last
        rewrite = _REWRITERS.get(kind, _common)
        objects[kind] = tuple(sorted((_references(rewrite(item, names), names) for item in items), key=_sort_key))
    return objects


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
        elif key == "workloadRef" and isinstance(item, dict) and "name" in item:  # 1.35 pods: name, podGroup
            out[key] = _references({**item, **_pod_workload_ref(item, names)}, names)
        elif key in ("requests", "limits") and isinstance(item, dict):
            out[key] = {_extended_name(name, names): amount for name, amount in item.items()}
        elif key == "conditions" and isinstance(item, list):  # free text: node and pod names inside are replaced
            out[key] = [{**c, "message": names.in_text(c["message"])} if isinstance(c, dict) and isinstance(
                c.get("message"), str) else c for c in item]
        else:
            out[key] = _references(item, names)
    return out


def _pod_workload_ref(ref: Mapping[str, Any], names: Anonymizer) -> dict[str, str]:
    """A 1.35 pod's workloadRef {name, podGroup}: the Workload and its pod group template (kept integer replica keys)."""
    out = {}
    if isinstance(ref.get("name"), str) and ref["name"]:
        out["name"] = names.workloads(ref["name"])
    if isinstance(ref.get("podGroup"), str) and ref["podGroup"]:
        out["podGroup"] = names.group_templates(ref["podGroup"])
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
        out["metadata"] = {**out["metadata"], "labels": names.labels(meta["labels"])}
    if isinstance(value.get("namespaces"), list):  # pod affinity terms
        out["namespaces"] = [names.namespace(str(ns)) for ns in value["namespaces"]]
    if isinstance(value.get("matchLabels"), dict):
        out["matchLabels"] = names.labels(value["matchLabels"])
    selector = value.get("nodeSelector")
    if isinstance(selector, dict) and "nodeSelectorTerms" not in selector:  # a pod's (or a Job template's) label map
        out["nodeSelector"] = names.labels(selector)
    for field_name in ("matchExpressions", "matchFields", "matchLabelExpressions"):  # the last: allowedTopologies
        if isinstance(value.get(field_name), list):
            out[field_name] = [_requirement(item, names, fields=field_name == "matchFields") for item in value[field_name]]
    out.update(_topology_keys(value, names))
    return out


def _topology_keys(value: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    """Label keys outside selectors: affinity and spread topologyKey, matchLabelKeys / mismatchLabelKeys, and the
    topology keys (or levels) of PodGroup, CompositePodGroup and Workload scheduling constraints."""
    out: dict[str, Any] = {}
    if isinstance(value.get("topologyKey"), str):
        out["topologyKey"] = names.label_key(value["topologyKey"])
    for key in ("matchLabelKeys", "mismatchLabelKeys"):
        if isinstance(value.get(key), list):
            out[key] = [names.label_key(item) if isinstance(item, str) else item for item in value[key]]
    constraints = value.get("schedulingConstraints")
    if isinstance(constraints, dict) and isinstance(constraints.get("topology"), list):
        topology = [{**t, **{k: names.label_key(t[k]) for k in ("key", "level") if isinstance(t.get(k), str)}}
                    if isinstance(t, dict) else t for t in constraints["topology"]]
        out["schedulingConstraints"] = {**_selectors(constraints, names), "topology": topology}
    return out


def _requirement(item: Any, names: Anonymizer, *, fields: bool) -> Any:
    """One selector requirement: label key and values mapped (Exists / DoesNotExist have no values); field
    requirements (matchFields) keep their key, metadata.name values are node names."""
    if not isinstance(item, dict):
        return item
    key, values = str(item.get("key", "")), item.get("values")
    out = dict(item) if fields or "key" not in item else {**item, "key": names.label_key(key)}
    if isinstance(values, list):
        out["values"] = [(names.nodes(str(v)) if key == "metadata.name" else v) if fields
                         else names.label_value(key, str(v)) for v in values]
    return out


def _metadata(meta: Mapping[str, Any], names: Anonymizer, kind: str) -> dict[str, Any]:
    out = {key: value for key, value in meta.items() if key not in _DROP_META}
    name = _NAMES.get(kind)
    if name is not None and meta.get("name"):
        out["name"] = name(names, meta["name"])
    if meta.get("namespace"):
        out["namespace"] = names.namespace(meta["namespace"])
    if isinstance(meta.get("labels"), dict):
        out["labels"] = names.labels(meta["labels"])
    kept = {key: value for key, value in (meta.get("annotations") or {}).items() if key in KEEP_ANNOTATIONS}
    if kept:
        out["annotations"] = kept
    if isinstance(meta.get("ownerReferences"), list):
        out["ownerReferences"] = [_reference(ref, names) for ref in meta["ownerReferences"]]
    return out


def _common(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    """Selectors mapped, metadata reduced and the name replaced as _NAMES says for the object's kind."""
    out = _selectors(dict(obj), names)
    out["metadata"] = _metadata(obj.get("metadata") or {}, names, str(obj.get("kind")))
    return out


def _node(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names)
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
    """{"volumes": [...]} with the pod volumes the volume filters read as the allow-list reduces them (cluster/allowlist.py),
    but for cloud disks and storage addresses, whose IDs name the cluster's storage; {} when none is left."""
    out = [volume for volume in pod_volumes(volumes) if not any(source in volume for source in _DISK_SOURCES)]
    return {"volumes": out} if out else {}


def _pod(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names)
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


def _workload(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    """A Workload renamed with its pod group templates (1.35 podGroups, podGroupTemplates, compositePodGroupTemplates at
    any depth): pods and PodGroups name them."""
    out = _common(obj, names)
    out["spec"] = _template_names(out.get("spec"), names)
    return out


def _template_names(value: Any, names: Anonymizer) -> Any:
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for key in ("podGroups", "podGroupTemplates", "compositePodGroupTemplates"):
        if isinstance(value.get(key), list):
            out[key] = [{**_template_names(item, names), **({"name": names.group_templates(item["name"])}
                                                           if isinstance(item.get("name"), str) else {})}
                        if isinstance(item, dict) else item for item in value[key]]
    return out


def _slice(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = _common(obj, names)
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
    out = _common(obj, names)
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
    out = _common(obj, names)
    spec = dict(out.get("spec") or {})
    selector = spec.get("deviceSelector")
    if isinstance(selector, dict) and selector.get("pool"):
        spec["deviceSelector"] = {**selector, "pool": names.in_names(str(selector["pool"]))}
    out["spec"] = spec
    return out


def _reference(ref: Any, names: Anonymizer) -> Any:
    """An object reference (events' involvedObject, regarding and related, owner references, a volume's claimRef) with
    its namespace mapped and its name as _NAMES says for its kind."""
    if not isinstance(ref, dict):
        return ref
    out = dict(ref)
    if isinstance(ref.get("namespace"), str):
        out["namespace"] = names.namespace(ref["namespace"])
    mapper = _NAMES.get(str(ref.get("kind")))
    if mapper is not None and isinstance(ref.get("name"), str):
        out["name"] = mapper(names, ref["name"])
    return out


def _event(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    out = {key: value for key, value in obj.items() if key not in ("metadata", "source", "deprecatedSource")}
    out["metadata"] = _metadata(obj.get("metadata") or {}, names, "Event")
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


def _volume(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    """A PersistentVolume: its claimRef follows the claim's namespace (VolumeBinding matches it to the claim)."""
    out = _common(obj, names)
    spec = out.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("claimRef"), dict):
        out["spec"] = {**spec, "claimRef": _reference(spec["claimRef"], names)}
    return out


def _csi_node(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    """A CSINode, named after its node (NodeVolumeLimits finds it by the node's name); its drivers' nodeID is usually
    the node name too."""
    out = _common(obj, names)
    spec = out.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("drivers"), list):
        out["spec"] = {**spec, "drivers": [{**d, "nodeID": names.in_names(d["nodeID"])} if isinstance(d, dict)
                                           and isinstance(d.get("nodeID"), str) else d for d in spec["drivers"]]}
    return out


def _budget(obj: Mapping[str, Any], names: Anonymizer) -> dict[str, Any]:
    """A PodDisruptionBudget: selector values as the pods' labels, status.disruptedPods keyed by the new pod names."""
    out = _common(obj, names)
    status = obj.get("status")
    if isinstance(status, dict) and isinstance(status.get("disruptedPods"), dict):
        out["status"] = {**status, "disruptedPods": {names.pods(str(k)): v for k, v in status["disruptedPods"].items()}}
    return out


# kind -> how the names of its objects, and references to them by kind, are replaced
_NAMES: Final[Mapping[str, Callable[[Anonymizer, str], str]]] = {
    "Node": lambda names, value: names.nodes(value), "Pod": lambda names, value: names.pods(value),
    "Namespace": Anonymizer.namespace, "PriorityClass": Anonymizer.priority_class,
    "DeviceClass": lambda names, value: names.device_classes(value),
    "ResourceClaimTemplate": lambda names, value: names.templates(value),
    "ResourceClaim": lambda names, value: names.claims(value),
    "ResourceSlice": Anonymizer.in_names,  # slice names are usually derived from the node name
    "DeviceTaintRule": lambda names, value: names.taint_rules(value),
    "PodGroup": lambda names, value: names.groups(value), "CompositePodGroup": lambda names, value: names.groups(value),
    "Job": lambda names, value: names.groups(value),  # a Job's own PodGroup is named after it
    "Workload": lambda names, value: names.workloads(value),
    "Event": lambda names, value: names.events(value),
    # named after their node (cluster/numa_kinds.py; storage.k8s.io CSINode)
    "NodeResourceTopology": lambda names, value: names.nodes(value), "KubeletConfigz": lambda names, value: names.nodes(value),
    "CSINode": lambda names, value: names.nodes(value),
}
# field -> how the name it holds is replaced, wherever the field sits (references by field name, not by kind)
_REFERENCE_KEYS: Final[Mapping[str, Callable[[Anonymizer, str], str]]] = {
    "uid": lambda names, value: names.uids(value),
    # a consumable-capacity allocation's share (allocation results and status.devices): a UUID, replaced like UIDs
    # (k8s.io/api resource/v1 DeviceRequestAllocationResult.ShareID, AllocatedDeviceStatus.ShareID)
    "shareID": lambda names, value: names.uids(value),
    "priorityClassName": _NAMES["PriorityClass"],
    "deviceClassName": _NAMES["DeviceClass"],
    "resourceClaimTemplateName": _NAMES["ResourceClaimTemplate"],
    "podGroupName": _NAMES["PodGroup"],  # pods' schedulingGroup
    "parentCompositePodGroupName": _NAMES["CompositePodGroup"],
    "workloadName": _NAMES["Workload"],  # PodGroups' workloadRef / podGroupTemplateRef
    "templateName": lambda names, value: names.group_templates(value),
    "podGroupTemplateName": lambda names, value: names.group_templates(value),
}
# kinds with more to rewrite than _common does
_REWRITERS: Final[Mapping[str, Callable[[Mapping[str, Any], Anonymizer], dict[str, Any]]]] = {
    "Node": _node,
    "Pod": _pod,
    "ResourceSlice": _slice,
    "ResourceClaim": _claim,
    "DeviceTaintRule": _taint_rule,
    "PodGroup": _group,
    "CompositePodGroup": _group,
    "Workload": _workload,
    "Event": _event,
    "PodDisruptionBudget": _budget,
    "PersistentVolume": _volume,
    "CSINode": _csi_node,
}
