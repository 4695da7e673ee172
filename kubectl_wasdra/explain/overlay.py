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
# Pods materialised per Job: a parallelism of 2147483647 would otherwise be expanded until memory runs out. Job
# validation lets an Indexed Job have 100,000 completions at full parallelism (pkg/apis/batch/validation/validation.go:
# completionsSoftLimit; above it parallelism is limited to parallelismLimitForHighCompletions = 10,000),
# and a queue of identical pods costs linear time (bench/explain_scale.py). Changed with WASDRA_MAX_JOB_PODS.
MAX_JOB_PODS: Final = 100_000


@dataclass(frozen=True)
class Overlay:
    """Objects to add to the snapshot and the (kind, namespace, name) of the groups and pods they define."""

    objects: tuple[dict[str, Any], ...]
    pods: frozenset[tuple[str, str]]
    groups: frozenset[tuple[str, str]]
    capped: tuple[str, ...] = ()  # one note per Job whose pods were cut at the cap


def _map(value: Any) -> Mapping[str, Any]:
    """`value` when it is a mapping, else {} (a malformed field reads as absent; SCHEMA findings report it)."""
    return value if isinstance(value, Mapping) else {}


def _namespace(obj: Mapping[str, Any]) -> str:
    namespace = _map(obj.get("metadata")).get("namespace")
    return namespace if isinstance(namespace, str) and namespace else "default"


def _name(obj: Mapping[str, Any], default: str = "") -> str:
    name = _map(obj.get("metadata")).get("name", default)
    return name if isinstance(name, str) else default


def _job_group(job: Mapping[str, Any], parallelism: int) -> dict[str, Any] | None:
    """The PodGroup the Job controller creates for spec.scheduling; it takes the pods' priority class so the
    hierarchy agrees (an assumption: KEP-5547 does not spell it out)."""
    scheduling = _map(job.get("spec")).get("scheduling")
    if not isinstance(scheduling, dict):
        return None
    policy = copy.deepcopy(_map(scheduling.get("schedulingPolicy")) or {"basic": {}})
    if "gang" in policy and not _map(policy["gang"]).get("minCount"):
        policy["gang"] = {"minCount": parallelism}
    spec: dict[str, Any] = {"schedulingPolicy": policy}
    for field in ("schedulingConstraints", "resourceClaims", "disruptionMode"):
        if field in scheduling:
            spec[field] = copy.deepcopy(scheduling[field])
    pod_spec = _map(_map(_map(job.get("spec")).get("template")).get("spec"))
    for field in ("priorityClassName", "priority"):
        if field in pod_spec:
            spec[field] = pod_spec[field]
    return {"apiVersion": POD_GROUP_API, "kind": "PodGroup",
            "metadata": {"name": _name(job), "namespace": _namespace(job)}, "spec": spec}


def job_parallelism(job: Mapping[str, Any]) -> int:
    """spec.parallelism (default 1; anything but a non-negative integer reads as the default)."""
    parallelism = _map(job.get("spec")).get("parallelism", 1)
    return parallelism if isinstance(parallelism, int) and not isinstance(parallelism, bool) and parallelism >= 0 else 1


def cap_note(job: Mapping[str, Any], cap: int) -> str | None:
    """The note for a Job whose parallelism is above `cap` (None when it is not)."""
    parallelism = job_parallelism(job)
    if parallelism <= cap:
        return None
    return (f"Job {_namespace(job)}/{_name(job, 'job')}: parallelism {parallelism} is above the cap of {cap} pods per "
            f"Job; only the first {cap} pods are simulated (set WASDRA_MAX_JOB_PODS to raise the cap)")


def expand_job(job: Mapping[str, Any], cap: int = MAX_JOB_PODS) -> list[dict[str, Any]]:
    """The pods a Job would create at once (parallelism, default 1, at most `cap`), named <job>-<index>, plus its
    PodGroup if any (its minCount defaults to the real parallelism, so a capped gang still asks for all of it)."""
    spec = _map(job.get("spec"))
    parallelism = job_parallelism(job)
    template = _map(spec.get("template"))
    group = _job_group(job, parallelism)
    name = _name(job, "job")
    out: list[dict[str, Any]] = [group] if group else []
    for index in range(min(parallelism, cap)):
        meta = dict(copy.deepcopy(_map(template.get("metadata"))))
        meta.update({"name": f"{name}-{index}", "namespace": _namespace(job)})
        pod_spec = dict(copy.deepcopy(_map(template.get("spec"))))
        if group is not None and "schedulingGroup" not in pod_spec:
            pod_spec["schedulingGroup"] = {"podGroupName": name}
        out.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": pod_spec})
    return out


def build_overlay(objects: Iterable[Mapping[str, Any]], *, job_pod_cap: int = MAX_JOB_PODS) -> Overlay:
    """The overlay of manifest objects (Jobs expanded, at most `job_pod_cap` pods each); kinds the simulator does not
    read are left out."""
    out: list[dict[str, Any]] = []
    capped: list[str] = []
    for obj in objects:
        kind = obj.get("kind") if isinstance(obj, Mapping) else None
        if not isinstance(kind, str):
            continue
        if kind == "Job":
            out.extend(expand_job(obj, job_pod_cap))
            note = cap_note(obj, job_pod_cap)
            if note:
                capped.append(note)
        elif kind in SNAPSHOT_KINDS:
            out.append(dict(obj))
    pods = frozenset((_namespace(o), _name(o)) for o in out if o.get("kind") == "Pod")
    groups = frozenset((_namespace(o), _name(o)) for o in out
                       if o.get("kind") in ("PodGroup", "CompositePodGroup"))
    return Overlay(tuple(out), pods, groups, tuple(capped))
