"""Which ResourceClaims a pod needs: named claims, claims generated from templates, PodGroup-shared claims and
claims for extended resources backed by a DeviceClass (DRAExtendedResource).

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/resourceclaim.go
(Name, IsForPod, workload claims KEP-5729), pkg/scheduler/framework/plugins/dynamicresources/extended.go (release-1.37).
A claim not yet generated from its template is generated here, as the resourceclaim controller would.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.status import Status

PLUGIN: Final = "DynamicResources"
NOT_CREATED: Final = 'pod "{pod}": ResourceClaim not created yet'
NOT_FOUND: Final = 'could not find ResourceClaim "{claim}"'
NO_FIELDS: Final = 'pod "{pod}", spec.resourceClaim "{name}": none of the supported fields are set'


class Resolved:
    """A claim one pod needs: key (namespace, name), the claim dict, shared with the pod's group or not."""

    __slots__ = ("claim", "key", "shared")

    def __init__(self, key: tuple[str, str], claim: Mapping[str, Any], shared: bool) -> None:
        self.key, self.claim, self.shared = key, claim, shared


def _from_template(template: Mapping[str, Any], namespace: str, name: str, owner: str) -> dict[str, Any]:
    spec = (template.get("spec") or {}).get("spec") or {}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": name, "namespace": namespace, "annotations": {"resource.kubernetes.io/pod-claim-name": owner}},
            "spec": spec}


def _generated_name(pod: PodInfo, entry_name: str) -> str | None:
    for status in (pod.pod.get("status") or {}).get("resourceClaimStatuses") or ():
        if status.get("name") == entry_name:
            return status.get("resourceClaimName")
    return None


def extended_resource_classes(snapshot: ClusterSnapshot) -> Mapping[str, str]:
    """Extended resource name -> DeviceClass serving it: spec.extendedResourceName, and the implicit
    deviceclass.resource.kubernetes.io/<class> name."""
    out: dict[str, str] = {}
    for device_class in snapshot.of_kind("DeviceClass"):
        name = (device_class.get("metadata") or {}).get("name", "")
        out[f"deviceclass.resource.kubernetes.io/{name}"] = name
        explicit = (device_class.get("spec") or {}).get("extendedResourceName")
        if explicit:
            out[explicit] = name
    return out


def _extended_claim(pod: PodInfo, resource: str, count: int, device_class: str) -> Resolved:
    request = re.sub(r"[^a-z0-9-]", "-", resource.lower()).strip("-")[:63] or "request"
    name = f"{pod.name}-extended-resources-{request}"[:253]
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name, "namespace": pod.namespace},
             "spec": {"devices": {"requests": [{"name": request, "exactly": {"deviceClassName": device_class, "count": count}}]}}}
    return Resolved((pod.namespace, name), claim, False)


def resolve_claims(pod: PodInfo, snapshot: ClusterSnapshot, group_claims: tuple[Mapping[str, Any], ...],
                   extended: Mapping[str, str], advertised: frozenset[str]) -> tuple[Resolved, ...] | Status:
    """The pod's claims, or the PreFilter status that keeps it off every node (missing claim or template)."""
    out: list[Resolved] = []
    for entry in pod.claims:
        name = entry.get("name", "")
        shared = any(dict(entry) == dict(g) for g in group_claims) and pod.group is not None
        if entry.get("resourceClaimName"):
            claim_name = entry["resourceClaimName"]
            claim = snapshot.get("ResourceClaim", claim_name, pod.namespace)
            if claim is None:
                return Status.unresolvable(Reason.CLAIM_NOT_FOUND, NOT_FOUND.format(claim=f"{pod.namespace}/{claim_name}"),
                                           PLUGIN, claim=claim_name)
            out.append(Resolved((pod.namespace, claim_name), claim, shared))
            continue
        template_name = entry.get("resourceClaimTemplateName")
        if not template_name:
            return Status.unresolvable(Reason.CLAIM_NOT_FOUND, NO_FIELDS.format(pod=pod.key, name=name), PLUGIN)
        owner = f"{pod.group}" if shared else pod.name
        generated = None if shared else _generated_name(pod, name)
        claim_name = generated or f"{owner}-{name}"
        existing = snapshot.get("ResourceClaim", claim_name, pod.namespace) if generated else None
        if existing is not None:
            out.append(Resolved((pod.namespace, claim_name), existing, shared))
            continue
        template = snapshot.get("ResourceClaimTemplate", template_name, pod.namespace)
        if template is None:
            return Status.unresolvable(Reason.CLAIM_TEMPLATE_NOT_FOUND, NOT_CREATED.format(pod=pod.key), PLUGIN,
                                       template=template_name)
        out.append(Resolved((pod.namespace, claim_name), _from_template(template, pod.namespace, claim_name, name), shared))
    for resource, count in sorted(pod.requests.items()):
        if resource in extended and resource not in advertised:
            out.append(_extended_claim(pod, resource, count, extended[resource]))
    return tuple(out)
