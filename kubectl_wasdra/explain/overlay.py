"""Manifests to overlay on a snapshot: objects the simulator reads, with Jobs' pod templates expanded to
`parallelism` pods (and, for 1.37 Job spec.scheduling, the PodGroup the Job controller would create).

Upstream: kubernetes/kubernetes pkg/controller/job (pod names, parallelism default 1) and KEP-5547 (Job
spec.scheduling -> Workload + PodGroup, gang.minCount defaulting to parallelism), release-1.37.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import SNAPSHOT_KINDS

POD_GROUP_API: Final = "scheduling.k8s.io/v1beta1"


@dataclass(frozen=True)
class Overlay:
    """Objects to add to the snapshot and the (kind, namespace, name) of the groups and pods they define."""

    objects: tuple[dict[str, Any], ...]
    pods: frozenset[tuple[str, str]]
    groups: frozenset[tuple[str, str]]


def _namespace(obj: Mapping[str, Any]) -> str:
    return (obj.get("metadata") or {}).get("namespace") or "default"


def _job_group(job: Mapping[str, Any], parallelism: int) -> dict[str, Any] | None:
    """The PodGroup the Job controller creates for spec.scheduling; it takes the pods' priority class so the
    hierarchy agrees (an assumption: KEP-5547 does not spell it out)."""
    scheduling = (job.get("spec") or {}).get("scheduling")
    if not isinstance(scheduling, dict):
        return None
    policy = copy.deepcopy(scheduling.get("schedulingPolicy") or {"basic": {}})
    if "gang" in policy and not (policy["gang"] or {}).get("minCount"):
        policy["gang"] = {"minCount": parallelism}
    spec: dict[str, Any] = {"schedulingPolicy": policy}
    for field in ("schedulingConstraints", "resourceClaims", "disruptionMode"):
        if field in scheduling:
            spec[field] = copy.deepcopy(scheduling[field])
    pod_spec = ((job.get("spec") or {}).get("template") or {}).get("spec") or {}
    for field in ("priorityClassName", "priority"):
        if field in pod_spec:
            spec[field] = pod_spec[field]
    meta = job.get("metadata") or {}
    return {"apiVersion": POD_GROUP_API, "kind": "PodGroup",
            "metadata": {"name": meta.get("name", ""), "namespace": _namespace(job)}, "spec": spec}


def expand_job(job: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The pods a Job would create at once (parallelism, default 1), named <job>-<index>, plus its PodGroup if any."""
    spec = job.get("spec") or {}
    parallelism = spec.get("parallelism", 1)
    parallelism = parallelism if isinstance(parallelism, int) and parallelism >= 0 else 1
    template = spec.get("template") or {}
    group = _job_group(job, parallelism)
    name = (job.get("metadata") or {}).get("name", "job")
    out: list[dict[str, Any]] = [group] if group else []
    for index in range(parallelism):
        meta = copy.deepcopy(template.get("metadata") or {})
        meta.update({"name": f"{name}-{index}", "namespace": _namespace(job)})
        pod_spec = copy.deepcopy(template.get("spec") or {})
        if group is not None and "schedulingGroup" not in pod_spec:
            pod_spec["schedulingGroup"] = {"podGroupName": name}
        out.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": pod_spec})
    return out


def build_overlay(objects: Iterable[Mapping[str, Any]]) -> Overlay:
    """The overlay of manifest objects (Jobs expanded); kinds the simulator does not read are left out."""
    out: list[dict[str, Any]] = []
    for obj in objects:
        kind = obj.get("kind")
        if kind == "Job":
            out.extend(expand_job(obj))
        elif kind in SNAPSHOT_KINDS:
            out.append(dict(obj))
    pods = frozenset((_namespace(o), o["metadata"].get("name", "")) for o in out if o.get("kind") == "Pod")
    groups = frozenset((_namespace(o), o["metadata"].get("name", "")) for o in out
                       if o.get("kind") in ("PodGroup", "CompositePodGroup"))
    return Overlay(tuple(out), pods, groups)
