"""scheduling.k8s.io Workload and PodGroup: 1.35 v1alpha1 -> 1.36 v1alpha2 -> 1.37 v1beta1 (the hub; v1alpha3 has the same
shapes), and the pod's link to its group.

Upstream: KEP-4671 (gang scheduling) and KEP-5832 (PodGroup API, 1.36) in kubernetes/enhancements keps/sig-scheduling:
1.35 Workload.spec.podGroups[]{name, policy} became podGroupTemplates[]{name, schedulingPolicy} with a runtime PodGroup
object per group, and Pod spec.workloadRef{name, podGroup} became spec.schedulingGroup{podGroupName}; in 1.37
PodGroup.spec.podGroupTemplateRef.workload{workloadName, podGroupTemplateName} became spec.workloadRef{workloadName,
templateName} and the disruptionMode string (Pod | PodGroup) became the union {single: {}} | {all: {}}
(staging/src/k8s.io/api/scheduling/v1alpha2 and v1beta1 types.go). Each release serves one of these versions, so upstream
never converts between them: pkg/apis/scheduling/v1alpha2/zz_generated.conversion.go (and v1alpha3, v1beta1) map each
field one to one onto the internal type of its own release (Convert_v1alpha2_PodGroupTemplateReference_To_scheduling_...).
These functions are the mapping between the releases' types that the KEPs describe."""

from __future__ import annotations

from typing import Any, Final

from kubectl_wasdra.convert.edit import ConversionError, mapping, mappings, rename_key, same_shape
from kubectl_wasdra.convert.roundtrip import to_plain

GROUP: Final = "scheduling.k8s.io"
HUB: Final = "v1beta1"
KINDS: Final = frozenset({"Workload", "PodGroup"})
_DISRUPTION: Final = {"Pod": "single", "PodGroup": "all"}


def pod_group_name(workload: str, group: str) -> str:
    """The PodGroup a converted 1.35 group becomes: `<workload>-<group>` (stated in the conversion notes)."""
    return f"{workload}-{group}"


def _disruption_up(template: dict[str, Any], path: str) -> None:
    mode = template.get("disruptionMode")
    if isinstance(mode, str):
        if mode not in _DISRUPTION:
            raise ConversionError(f"{path}.disruptionMode", f'unknown disruptionMode "{mode}"', "use Pod or PodGroup")
        union = same_shape(template)
        union[_DISRUPTION[mode]] = same_shape(template)
        template["disruptionMode"] = union


def _disruption_down(template: dict[str, Any]) -> None:
    mode = template.get("disruptionMode")
    if isinstance(mode, dict):
        template["disruptionMode"] = "PodGroup" if "all" in mode else "Pod"


def _new_pod_group(workload: dict[str, Any], group: dict[str, Any]) -> dict[str, Any]:
    """The runtime PodGroup (v1beta1 shape) for one 1.35 pod group: its policy copied from the template."""
    meta = mapping(workload, "metadata") or {}
    name, group_name = str(meta.get("name", "")), str(group.get("name", ""))
    metadata: dict[str, Any] = {"name": pod_group_name(name, group_name)}
    if "namespace" in meta:
        metadata["namespace"] = meta["namespace"]
    spec = {"workloadRef": {"workloadName": name, "templateName": group_name}}
    if "schedulingPolicy" in group:
        spec["schedulingPolicy"] = to_plain(group["schedulingPolicy"])
    return {"apiVersion": f"{GROUP}/{HUB}", "kind": "PodGroup", "metadata": metadata, "spec": spec}


def _workload_up(obj: dict[str, Any], version: str) -> list[dict[str, Any]]:
    spec = mapping(obj, "spec") or {}
    extra: list[dict[str, Any]] = []
    if version == "v1alpha1" and rename_key(spec, "podGroups", "podGroupTemplates"):
        for _, group in mappings(spec, "podGroupTemplates"):
            rename_key(group, "policy", "schedulingPolicy")
            extra.append(_new_pod_group(obj, group))
    for index, template in mappings(spec, "podGroupTemplates"):
        _disruption_up(template, f"spec.podGroupTemplates[{index}]")
    return extra


def _workload_down(obj: dict[str, Any], version: str) -> None:
    spec = mapping(obj, "spec") or {}
    for _, template in mappings(spec, "podGroupTemplates"):
        _disruption_down(template)
    if version == "v1alpha1" and rename_key(spec, "podGroupTemplates", "podGroups"):
        for _, group in mappings(spec, "podGroups"):
            rename_key(group, "schedulingPolicy", "policy")


def _pod_group_up(obj: dict[str, Any]) -> None:
    spec = mapping(obj, "spec") or {}
    ref = mapping(spec, "podGroupTemplateRef", "workload")
    if ref is not None:
        rename_key(ref, "podGroupTemplateName", "templateName")
        rename_key(spec, "podGroupTemplateRef", "workloadRef")
        spec["workloadRef"] = ref
    _disruption_up(spec, "spec")


def _pod_group_down(obj: dict[str, Any], version: str) -> None:
    if version == "v1alpha1":
        raise ConversionError("kind", "Kubernetes 1.35 has no PodGroup object: a group is an entry of Workload.spec.podGroups",
                              "delete this object; pods name their group with spec.workloadRef{name, podGroup}")
    spec = mapping(obj, "spec") or {}
    ref = mapping(spec, "workloadRef")
    if ref is not None:
        rename_key(ref, "templateName", "podGroupTemplateName")
        wrapper = same_shape(ref)
        wrapper["workload"] = ref
        rename_key(spec, "workloadRef", "podGroupTemplateRef")
        spec["podGroupTemplateRef"] = wrapper
    _disruption_down(spec)


def up(obj: dict[str, Any], kind: str, version: str) -> list[dict[str, Any]]:
    """`version` -> v1beta1, in place; returns the PodGroups a 1.35 Workload implies."""
    if kind == "Workload":
        return _workload_up(obj, version)
    if kind == "PodGroup" and version == "v1alpha2":
        _pod_group_up(obj)
    return []


def down(obj: dict[str, Any], kind: str, version: str) -> None:
    """v1beta1 -> `version`, in place."""
    if version in (HUB, "v1alpha3"):
        return
    if kind == "Workload":
        _workload_down(obj, version)
    elif kind == "PodGroup":
        _pod_group_down(obj, version)
