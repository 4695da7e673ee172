"""What the RuntimeClass admission plugin adds to a pod on create: the class's fixed overhead and its scheduling
nodeSelector and tolerations, so the scheduler counts and places the pod as kube-scheduler sees it.

Upstream: kubernetes/kubernetes plugin/pkg/admission/runtimeclass/admission.go (setOverhead, setScheduling; 1.36.2
source) and pkg/util/tolerations/tolerations.go (MergeTolerations). Pods that exist already carry all of it; only
manifests not created yet (no creationTimestamp) are admitted here. A pod the plugin would reject (unknown class,
an overhead or nodeSelector that conflicts with the class) is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot


def _merged_tolerations(first: list[Any], second: list[Any]) -> list[Any]:
    """MergeTolerations without its superset pruning (which changes nothing a taint check sees): first's, then the
    class's not already listed."""
    out = list(first)
    for toleration in second:
        if toleration not in out:
            out.append(toleration)
    return out


def admit(pod: Mapping[str, Any], snapshot: ClusterSnapshot) -> Mapping[str, Any]:
    """`pod` as the API server stores it after RuntimeClass admission (the same object when nothing changes)."""
    spec = pod.get("spec") or {}
    name = spec.get("runtimeClassName")
    if not isinstance(name, str) or not name or (pod.get("metadata") or {}).get("creationTimestamp"):
        return pod
    runtime_class = snapshot.get("RuntimeClass", name)
    if runtime_class is None:
        return pod
    new_spec = dict(spec)
    fixed = (runtime_class.get("overhead") or {}).get("podFixed")
    if isinstance(fixed, Mapping) and fixed:
        if spec.get("overhead") and spec.get("overhead") != fixed:
            return pod  # "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
        new_spec["overhead"] = dict(fixed)
    scheduling = runtime_class.get("scheduling")
    if isinstance(scheduling, Mapping):
        selector = dict(spec.get("nodeSelector") or {})
        for key, value in (scheduling.get("nodeSelector") or {}).items():
            if key in selector and selector[key] != value:
                return pod  # "conflict: runtimeClass.scheduling.nodeSelector[...]"
            selector[key] = value
        if selector:
            new_spec["nodeSelector"] = selector
        tolerations = _merged_tolerations(list(spec.get("tolerations") or ()), list(scheduling.get("tolerations") or ()))
        if tolerations:
            new_spec["tolerations"] = tolerations
    return {**pod, "spec": new_spec}
