"""core/v1 PodSpec: the link to the pod's group, wherever a pod spec sits (Pod, pod templates of Jobs, JobSets ...).

Upstream: KEP-5832 (scheduling.k8s.io PodGroup, 1.36) replaced Pod spec.workloadRef{name, podGroup, podGroupReplicaKey}
(1.35, KEP-4671) by spec.schedulingGroup{podGroupName} (staging/src/k8s.io/api/core/v1/types.go PodSchedulingGroup)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubectl_wasdra.convert.edit import ConversionError, rename_key, same_shape
from kubectl_wasdra.convert.scheduling import pod_group_name


def pod_specs(node: Any, path: str = "", kind: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, pod spec) for every pod spec in an object: a mapping with containers, or a Pod's spec."""
    if isinstance(node, dict):
        if "containers" in node or (kind == "Pod" and path == "spec"):
            yield path, node
            return
        for key, value in node.items():
            yield from pod_specs(value, f"{path}.{key}" if path else str(key), kind)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from pod_specs(value, f"{path}[{index}]", kind)


def _link_up(spec: dict[str, Any], path: str) -> str | None:
    ref = spec.get("workloadRef")
    if not isinstance(ref, dict) or "workloadName" in ref:
        return None
    if ref.get("podGroupReplicaKey"):
        raise ConversionError(f"{path}.workloadRef.podGroupReplicaKey", "a replica key has no 1.36+ equivalent: each replica "
                              "is its own PodGroup object, whose name the file does not give",
                              "create one PodGroup per replica and set spec.schedulingGroup.podGroupName to it")
    group = same_shape(ref)
    group["podGroupName"] = pod_group_name(str(ref.get("name", "")), str(ref.get("podGroup", "")))
    rename_key(spec, "workloadRef", "schedulingGroup")
    spec["schedulingGroup"] = group
    return f"{path}.workloadRef -> {path}.schedulingGroup (PodGroup {group['podGroupName']})"


def convert_pod_links(obj: dict[str, Any], target_minor: int) -> list[str]:
    """Rewrite the pod specs of `obj` for a release (37 for 1.37): what changed; ConversionError when the link cannot
    be expressed."""
    changes: list[str] = []
    for path, spec in pod_specs(obj, kind=str(obj.get("kind", ""))):
        if target_minor >= 36:
            change = _link_up(spec, path)
            changes.extend([change] if change else [])
        elif "schedulingGroup" in spec:
            raise ConversionError(f"{path}.schedulingGroup", "Kubernetes 1.35 pods name their group with "
                                  "workloadRef{name, podGroup}: the Workload and template are not in the pod",
                                  "set spec.workloadRef from the PodGroup's spec.workloadRef by hand")
    return changes
