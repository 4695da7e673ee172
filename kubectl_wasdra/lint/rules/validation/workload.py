"""VALID checks of Workload: 1.35 inline `podGroups`, 1.36+ `podGroupTemplates`, 1.37 `compositePodGroupTemplates`.

Upstream: kubernetes/kubernetes pkg/apis/scheduling/validation/validation.go (ValidateWorkload, validatePodGroups,
validatePodGroupPolicy) at release-1.35 .. release-1.37; limits from staging/src/k8s.io/api/scheduling/*/types.go.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation import _groups
from kubectl_wasdra.lint.rules.validation._base import (
    Check,
    Path,
    Violation,
    as_dict,
    as_list,
    duplicates,
    is_int,
    one_of,
    too_many,
)
from kubectl_wasdra.lint.rules.validation._names import dns_label_error, dns_subdomain_error, path_segment_name_error

MAX_TEMPLATES: Final = 8        # scheduling.WorkloadMaxPodGroups / max podGroupTemplates
MAX_TREE_DEPTH: Final = 4       # scheduling.WorkloadMaxTemplateDepth: a composite may not sit at level 4
SAME_PRIORITY_SINCE: Final = Release(1, 37)   # validateWorkloadPriority (release-1.37 ValidateWorkloadSpec)


def validate_workload(data: dict[str, Any], version: str, release: Release) -> Iterator[Violation]:
    # upstream: ValidateWorkload (1.35 validatePodGroups; 1.36+ Validate_WorkloadSpec union + ValidateWorkloadSpec)
    spec = as_dict(data.get("spec"))
    yield from _controller_ref(spec.get("controllerRef"), ("spec", "controllerRef"))
    if version == "v1alpha1":
        yield from _templates(spec, "podGroups", ("spec",), version, policy_field="policy")
        return
    if version in ("v1beta1", "v1alpha3"):
        yield from one_of(spec, ("podGroupTemplates", "compositePodGroupTemplates"), ("spec",),
                          present=lambda _n, value: bool(value))
    elif not spec.get("podGroupTemplates"):
        yield Violation(Check.REQUIRED, ("spec", "podGroupTemplates"), "must have at least one item",
                        hint="add a podGroupTemplates entry with a schedulingPolicy")
    yield from _templates(spec, "podGroupTemplates", ("spec",), version)
    yield from _composites(spec.get("compositePodGroupTemplates"), ("spec", "compositePodGroupTemplates"), version, 1)
    yield from duplicates(list(_tree_names(spec)), lambda item: item[1], ("spec",), "template name")
    if release >= SAME_PRIORITY_SINCE:
        yield from _same_priority(spec)


def _controller_ref(ref: Any, path: Path) -> Iterator[Violation]:
    """validateControllerRef (1.35) / Validate_TypedLocalObjectReference (1.36+): apiGroup a DNS subdomain when set,
    kind and name required and path segment names."""
    if ref is None:
        return
    ref = as_dict(ref)
    group = ref.get("apiGroup")
    if isinstance(group, str) and group and (error := dns_subdomain_error(group)):
        yield Violation(Check.NAME, (*path, "apiGroup"), f'invalid apiGroup "{group}": {error}', at="value")
    for field in ("kind", "name"):
        value = ref.get(field)
        if not value:
            yield Violation(Check.REQUIRED, (*path, field), f"controllerRef.{field} is required")
        elif isinstance(value, str) and (error := path_segment_name_error(value)):
            yield Violation(Check.NAME, (*path, field), f'invalid {field} "{value}": {error}', at="value")


def _templates(spec: dict[str, Any], field: str, path: Path, version: str, *, policy_field: str = "schedulingPolicy",
               count_field: str = "minCount") -> Iterator[Violation]:
    # upstream: validatePodGroups/validatePodGroup (1.35); Validate_WorkloadSpec podGroupTemplates +k8s:maxItems=8 (1.36+)
    items = spec.get(field)
    here = (*path, field)
    if (v := too_many(items, MAX_TEMPLATES, here, field)) is not None:
        yield v
        return
    if policy_field == "policy" and not items:
        yield Violation(Check.REQUIRED, here, "must have at least one item")
    for index, template in enumerate(as_list(items)):
        template = as_dict(template)
        name = template.get("name")
        if not name:
            yield Violation(Check.REQUIRED, (*here, index, "name"), "name is required")
        elif error := dns_label_error(str(name)):
            yield Violation(Check.NAME, (*here, index, "name"), f'invalid name "{name}": {error}', at="value")
        if policy_field == "policy":
            yield from _groups.policy(template.get("policy"), (*here, index, "policy"))
        else:
            yield from _groups.group_spec(template, (*here, index), version, count_field=count_field)
    if policy_field == "policy":
        yield from duplicates(as_list(items), lambda t: as_dict(t).get("name"), here, "pod group name")


def _composites(items: Any, path: Path, version: str, depth: int) -> Iterator[Violation]:
    # upstream: Validate_CompositePodGroupTemplate (+k8s:maxItems=8), validateWorkloadTemplatesDepth
    if items is None:
        return
    if depth >= MAX_TREE_DEPTH and as_list(items):
        # validateWorkloadTemplatesDepth: walking from a top-level composite at depth 1, reaching depth 4 fails
        yield Violation(Check.LIMIT, path, f"maximum template hierarchy depth is {MAX_TREE_DEPTH}",
                        hint="put pod group templates here instead of another level of composites")
        return
    if (v := too_many(items, MAX_TEMPLATES, path, "compositePodGroupTemplates")) is not None:
        yield v
        return
    for index, template in enumerate(as_list(items)):
        template = as_dict(template)
        here = (*path, index)
        name = template.get("name")
        if not name:
            yield Violation(Check.REQUIRED, (*here, "name"), "name is required")
        elif error := dns_label_error(str(name)):
            yield Violation(Check.NAME, (*here, "name"), f'invalid name "{name}": {error}', at="value")
        if not template.get("podGroupTemplates") and not template.get("compositePodGroupTemplates"):
            # release-1.37 validateCompositePodGroupTemplateHasAtLeastOneChild
            yield Violation(Check.ONE_OF, here, "must have at least one child PodGroupTemplate or CompositePodGroupTemplate",
                            hint="add the pod group templates this composite groups")
        yield from _groups.policy(template.get("schedulingPolicy"), (*here, "schedulingPolicy"), count_field="minGroupCount")
        yield from _groups.constraints(template.get("schedulingConstraints"), (*here, "schedulingConstraints"))
        yield from _groups.disruption(template.get("disruptionMode"), (*here, "disruptionMode"), version)
        yield from _groups.priority_fields(template, here)
        yield from _templates(template, "podGroupTemplates", here, version)
        yield from _composites(template.get("compositePodGroupTemplates"), (*here, "compositePodGroupTemplates"), version,
                               depth + 1)


def _same_priority(spec: dict[str, Any]) -> Iterator[Violation]:
    """validateWorkloadPriority: every template of the tree names the same priorityClassName and priority; the
    message says where the first difference is (among the top-level pod group templates or under a composite)."""
    seen: set[tuple[str, int | None]] = set()
    for field, message in (("podGroupTemplates", "detected multiple priority configurations"),
                           ("compositePodGroupTemplates", "all priority and priorityClassName values must be identical, "
                                                          "detected multiple values")):
        for _, template in _tree({field: spec.get(field)}):
            seen.add((str(template.get("priorityClassName") or ""),
                      template["priority"] if is_int(template.get("priority")) else None))
            if len(seen) > 1:
                yield Violation(Check.INVALID_VALUE, ("spec",), message,
                                hint="give every pod group template of the Workload the same priorityClassName (and priority)")
                return


def _tree(node: dict[str, Any], path: Path = ("spec",)) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(path, template) of every pod group and composite template in the tree below `node`, depth first."""
    for field in ("podGroupTemplates", "compositePodGroupTemplates"):
        for index, template in enumerate(as_list(node.get(field))):
            template = as_dict(template)
            yield (*path, field, index), template
            if field == "compositePodGroupTemplates":
                yield from _tree(template, (*path, field, index))


def _tree_names(spec: dict[str, Any]) -> Iterator[tuple[Path, str]]:
    """(path, name) of every template in the tree, for the names-unique-in-the-tree rule."""
    return ((path, template["name"]) for path, template in _tree(spec) if isinstance(template.get("name"), str))


def validate_job_scheduling(data: dict[str, Any], release: Release) -> Iterator[Violation]:
    # upstream: Validate_WorkloadPodGroupGangSchedulingPolicy (+k8s:optional, +k8s:minimum=1) and siblings
    """Job `spec.scheduling` (1.37, WorkloadWithJob): the Workload building blocks; `gang.minCount` may be omitted
    (it defaults to parallelism) but when set must be >= 1."""
    scheduling = as_dict(data.get("spec")).get("scheduling")
    if not isinstance(scheduling, dict):
        return
    path: Path = ("spec", "scheduling")
    policy = scheduling.get("schedulingPolicy")
    if isinstance(policy, dict):
        yield from one_of(policy, ("basic", "gang"), (*path, "schedulingPolicy"), required=False)
        count = as_dict(policy.get("gang")).get("minCount")
        if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
            yield Violation(Check.MINIMUM, (*path, "schedulingPolicy", "gang", "minCount"),
                            f"must be greater than zero, not {count}", hint="omit it to use the Job's parallelism", at="value")
    yield from _groups.constraints(scheduling.get("schedulingConstraints"), (*path, "schedulingConstraints"))
    yield from _groups.claims(scheduling.get("resourceClaims"), (*path, "resourceClaims"))
    yield from _groups.disruption(scheduling.get("disruptionMode"), (*path, "disruptionMode"), "v1beta1")
