"""Pieces shared by the Workload, PodGroup and CompositePodGroup validators (policy, constraints, claims, disruption).

Upstream: kubernetes/kubernetes pkg/apis/scheduling/validation/validation.go (validatePodGroupPolicy,
validateGangSchedulingPolicy) at release-1.35 .. release-1.37; limits from staging/src/k8s.io/api/scheduling/*/types.go.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

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
from kubectl_wasdra.lint.rules.validation._names import dns_label_error, dns_subdomain_error, label_key_error

MAX_TOPOLOGY_CONSTRAINTS: Final = 1
MAX_GROUP_CLAIMS: Final = 4
MAX_PRIORITY: Final = 1_000_000_000       # scheduling.HighestUserDefinablePriority
PREEMPTION_POLICIES: Final = ("PreemptLowerPriority", "Never")
DISRUPTION_MODES_STRING: Final = ("Pod", "PodGroup")     # v1alpha2 (1.36)


def policy(value: Any, path: Path, *, count_field: str = "minCount") -> Iterator[Violation]:
    # upstream: validatePodGroupPolicy, validateGangSchedulingPolicy (1.35); Validate_*SchedulingPolicy (1.36+)
    """`basic` xor `gang`; gang needs `count_field` >= 1 (0 or unset is "required")."""
    if not isinstance(value, dict):
        yield Violation(Check.REQUIRED, path, "must specify one of: `basic`, `gang`", hint=f"e.g. gang: {{{count_field}: 4}}")
        return
    yield from one_of(value, ("basic", "gang"), path)
    gang = value.get("gang")
    if isinstance(gang, dict) and "basic" not in value:
        count = gang.get(count_field)
        if count is None or count == 0:
            yield Violation(Check.REQUIRED, (*path, "gang", count_field), f"{count_field} is required",
                            hint=f"set gang.{count_field} to the number that must be placed together")
        elif not is_int(count) or count < 1:
            yield Violation(Check.MINIMUM, (*path, "gang", count_field), f"must be greater than zero, not {count}", at="value")


def constraints(value: Any, path: Path) -> Iterator[Violation]:
    # upstream: Validate_PodGroupSchedulingConstraints (+k8s:maxItems=1), Validate_TopologyConstraint (required label key)
    topology = as_dict(value).get("topology")
    if (v := too_many(topology, MAX_TOPOLOGY_CONSTRAINTS, (*path, "topology"), "topology constraints")) is not None:
        yield v
        return
    for index, item in enumerate(as_list(topology)):
        key = as_dict(item).get("key")
        if not key:
            yield Violation(Check.REQUIRED, (*path, "topology", index, "key"), "topology key is required",
                            hint="name a node label, e.g. topology.kubernetes.io/zone")
        elif error := label_key_error(str(key)):
            yield Violation(Check.NAME, (*path, "topology", index, "key"), f'invalid key "{key}": {error}', at="value")


def claims(value: Any, path: Path) -> Iterator[Violation]:
    # upstream: Validate_PodGroupSpec/PodGroupTemplate resourceClaims: +k8s:maxItems=4, listMapKey=name
    """Group resource claims: at most 4, unique DNS-label names, resourceClaimName xor resourceClaimTemplateName."""
    if (v := too_many(value, MAX_GROUP_CLAIMS, path, "resource claims")) is not None:
        yield v
        return
    items = as_list(value)
    for index, claim in enumerate(items):
        yield from claim_reference(as_dict(claim), (*path, index))
    yield from duplicates(items, lambda c: as_dict(c).get("name"), path, "claim name")


def claim_reference(claim: dict[str, Any], path: Path) -> Iterator[Violation]:
    # upstream: Validate_PodGroupResourceClaim (union, ShortName, LongName); core validatePodResourceClaim for pods
    """name (DNS label) plus exactly one of resourceClaimName / resourceClaimTemplateName (pods and groups alike)."""
    name = claim.get("name")
    if name is not None and not isinstance(name, str):
        pass  # SCHEMA001 reports the type
    elif not name:
        yield Violation(Check.REQUIRED, (*path, "name"), "claim name is required")
    elif error := dns_label_error(name):
        yield Violation(Check.NAME, (*path, "name"), f'invalid name "{name}": {error}', at="value")
    source = claim.get("source")
    if isinstance(source, dict) and not any(claim.get(f) for f in ("resourceClaimName", "resourceClaimTemplateName")):
        # the 1.26-1.30 core/v1 ClaimSource wrapper (gone from PodResourceClaim in 1.31): one cause, so this finding
        # covers the unknown field `source` that SCHEMA002 would report beside it
        moved = next((f for f in ("resourceClaimName", "resourceClaimTemplateName") if source.get(f)), "resourceClaimName")
        yield Violation(Check.ONE_OF, path, "exactly one of `resourceClaimName`, `resourceClaimTemplateName` is required, "
                        f"but none is set (`source.{moved}` is the pre-1.31 form)",
                        hint=f"move {moved} out of `source:` up one level, next to name", covers=((*path, "source"),))
    else:
        yield from one_of(claim, ("resourceClaimName", "resourceClaimTemplateName"), path, present=lambda _n, v: bool(v))
    for field in ("resourceClaimName", "resourceClaimTemplateName"):
        value = claim.get(field)
        if isinstance(value, str) and value and (error := dns_subdomain_error(value)):
            yield Violation(Check.NAME, (*path, field), f'invalid {field} "{value}": {error}', at="value")


def disruption(value: Any, path: Path, version: str) -> Iterator[Violation]:
    # upstream: Validate_DisruptionMode (union single/all); v1alpha2 string enum
    if value is None:
        return
    if version == "v1alpha2":
        if value not in DISRUPTION_MODES_STRING:
            yield Violation(Check.ENUM, path, f'unsupported value "{value}"', hint="use Pod or PodGroup", at="value")
    elif not isinstance(value, dict):
        yield Violation(Check.ONE_OF, path, f"must be an object with one of `single`, `all`, not {value!r}",
                        hint="use {single: {}} or {all: {}}", at="value")
    else:
        yield from one_of(value, ("single", "all"), path)


def priority_fields(spec: dict[str, Any], path: Path) -> Iterator[Violation]:
    """priorityClassName (+k8s:format=k8s-long-name), priority (+k8s:maximum=1000000000), preemptionPolicy (+k8s:enum)
    of a PodGroup, a pod group template or a composite (staging/src/k8s.io/api/scheduling/v1alpha3
    zz_generated.validations.go: Validate_PodGroupSpec, Validate_PodGroupTemplate, Validate_CompositePodGroupSpec)."""
    class_name = spec.get("priorityClassName")
    if isinstance(class_name, str) and class_name and (error := dns_subdomain_error(class_name)):
        yield Violation(Check.NAME, (*path, "priorityClassName"), f'invalid priorityClassName "{class_name}": {error}',
                        hint="name a PriorityClass (kubectl get priorityclasses)", at="value")
    policy_value = spec.get("preemptionPolicy")
    if policy_value is not None and policy_value not in PREEMPTION_POLICIES:
        yield Violation(Check.ENUM, (*path, "preemptionPolicy"), f'unsupported value "{policy_value}"',
                        hint=f"use one of {', '.join(PREEMPTION_POLICIES)}", at="value")
    priority = spec.get("priority")
    if is_int(priority) and priority > MAX_PRIORITY:
        yield Violation(Check.LIMIT, (*path, "priority"), f"must be no more than {MAX_PRIORITY}, not {priority}", at="value")


def group_spec(spec: dict[str, Any], path: Path, version: str, *, count_field: str = "minCount") -> Iterator[Violation]:
    # upstream: Validate_PodGroupSpec / Validate_PodGroupTemplate (k8s.io/api scheduling zz_generated.validations.go)
    """Fields a PodGroup, a PodGroupTemplate and a CompositePodGroup share."""
    yield from policy(spec.get("schedulingPolicy"), (*path, "schedulingPolicy"), count_field=count_field)
    yield from constraints(spec.get("schedulingConstraints"), (*path, "schedulingConstraints"))
    yield from claims(spec.get("resourceClaims"), (*path, "resourceClaims"))
    yield from disruption(spec.get("disruptionMode"), (*path, "disruptionMode"), version)
    yield from priority_fields(spec, path)
