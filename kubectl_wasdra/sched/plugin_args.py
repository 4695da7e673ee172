"""pluginConfig of one scheduler profile: the args that change verdicts or placement, validated as kube-scheduler does.

Upstream: kubernetes/kubernetes pkg/scheduler/apis/config/types_pluginargs.go and validation/validation_pluginargs.go
(release-1.37). Read here: NodeResourcesFit (ignoredResources, ignoredResourceGroups, scoringStrategy),
PodTopologySpread (defaultConstraints, defaultingType), NodeAffinity (addedAffinity), InterPodAffinity
(hardPodAffinityWeight, ignorePreferredTermsOfExistingPods), DynamicResources (filterTimeout, bindingTimeout). Args of
other known plugins are accepted and listed as not modelled.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.kube.durations import go_duration
from kubectl_wasdra.kube.selectors import NODE_OPERATORS, node_selector_term_errors
from kubectl_wasdra.load import Path
from kubectl_wasdra.load.document import format_path
from kubectl_wasdra.sched.profiles import KNOWN_PLUGINS, FitArgs

if TYPE_CHECKING:
    from kubectl_wasdra.sched.config_file import Reader

STRATEGIES: Final = ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio")
WHEN_UNSATISFIABLE: Final = ("DoNotSchedule", "ScheduleAnyway")


def read(reader: Reader, base: Path) -> tuple[dict[str, Any], list[str]]:
    """Profile keyword arguments from `profiles[i].pluginConfig`, and the settings that are not simulated."""
    out: dict[str, Any] = {}
    unmodelled: list[str] = []
    seen: set[str] = set()
    for index, _ in enumerate(reader.sequence((*base, "pluginConfig"))):
        path = (*base, "pluginConfig", index)
        entry = reader.mapping(path, frozenset({"name", "args"}))
        name = entry.get("name")
        if not isinstance(name, str) or name not in KNOWN_PLUGINS:
            raise reader.fail((*path, "name"), f'pluginConfig for unknown plugin "{name}"',
                              "name a plugin of kube-scheduler's registry")
        if name in seen:
            raise reader.fail((*path, "name"), f'repeated pluginConfig for plugin "{name}"', "merge the entries")
        seen.add(name)
        reader_for = _READERS.get(name)
        if reader_for is None:
            if entry.get("args"):
                unmodelled.append(f"{name} args")
            continue
        out.update(reader_for(reader, (*path, "args")))
    return out, unmodelled


def _fit(reader: Reader, path: Path) -> dict[str, Any]:
    args = reader.mapping(path, frozenset({"ignoredResources", "ignoredResourceGroups", "scoringStrategy"}))
    ignored = _strings(reader, (*path, "ignoredResources"))
    groups = _strings(reader, (*path, "ignoredResourceGroups"))
    for index, group in enumerate(groups):
        if "/" in group:
            raise reader.fail((*path, "ignoredResourceGroups", index), f'resource group name "{group}" can\'t contain "/"',
                              'give the prefix only, e.g. "example.com" for example.com/gpu')
    strategy = reader.mapping((*path, "scoringStrategy"), frozenset({"type", "resources", "requestedToCapacityRatio"}))
    kind = strategy.get("type", "LeastAllocated")
    if kind not in STRATEGIES:
        raise reader.fail((*path, "scoringStrategy", "type"), f'scoring strategy "{kind}" is not supported',
                          f"use one of {', '.join(STRATEGIES)}")
    resources = []
    for index, _ in enumerate(reader.sequence((*path, "scoringStrategy", "resources"))):
        item = reader.mapping((*path, "scoringStrategy", "resources", index), frozenset({"name", "weight"}))
        weight = reader.integer((*path, "scoringStrategy", "resources", index, "weight"), 1, 100)
        resources.append((str(item.get("name") or ""), weight or 1))
    shape = _shape(reader, (*path, "scoringStrategy", "requestedToCapacityRatio"), kind)
    fit = FitArgs(frozenset(ignored), frozenset(groups), str(kind), tuple(resources) or FitArgs().resources, shape)
    return {"fit": fit} if args or fit != FitArgs() else {}


def _balanced(reader: Reader, path: Path) -> dict[str, Any]:
    """NodeResourcesBalancedAllocationArgs.resources (validation_pluginargs.go
    ValidateNodeResourcesBalancedAllocationArgs: names once each, every weight 1; defaults.go: a weight left out or 0
    is 1, no resources means cpu and memory)."""
    reader.mapping(path, frozenset({"resources"}))
    names: list[str] = []
    for index, _ in enumerate(reader.sequence((*path, "resources"))):
        item = reader.mapping((*path, "resources", index), frozenset({"name", "weight"}))
        name = str(item.get("name") or "")
        if name in names:
            raise reader.fail((*path, "resources", index, "name"), f'Duplicate value: "{name}"', "list each resource once")
        weight = reader.document.get((*path, "resources", index, "weight"))
        if weight not in (None, 0, 1) or isinstance(weight, bool):
            raise reader.fail((*path, "resources", index, "weight"), f"Invalid value: {weight}: must be 1", "use weight 1")
        names.append(name)
    return {"balanced_resources": tuple(names)} if names else {}


def _shape(reader: Reader, path: Path, kind: str) -> tuple[tuple[int, int], ...]:
    reader.mapping(path, frozenset({"shape"}))
    points = []
    for index, _ in enumerate(reader.sequence((*path, "shape"))):
        reader.mapping((*path, "shape", index), frozenset({"utilization", "score"}))
        utilization = reader.integer((*path, "shape", index, "utilization"), 0, 100) or 0
        points.append((utilization, reader.integer((*path, "shape", index, "score"), 0, 10) or 0))
    if kind == "RequestedToCapacityRatio" and not points:
        raise reader.fail(path, "RequestedToCapacityRatio needs requestedToCapacityRatio.shape", "add shape points")
    if any(b[0] <= a[0] for a, b in itertools.pairwise(points)):
        raise reader.fail((*path, "shape"), "shape utilization values must be sorted in increasing order",
                          "sort the points by utilization, each value once")
    return tuple(points)


def _spread(reader: Reader, path: Path) -> dict[str, Any]:
    reader.mapping(path, frozenset({"defaultConstraints", "defaultingType"}))
    defaulting = reader.document.get((*path, "defaultingType"), "System")
    if defaulting not in ("System", "List"):
        raise reader.fail((*path, "defaultingType"), f'defaultingType "{defaulting}" is not supported', "use System or List")
    constraints = reader.sequence((*path, "defaultConstraints"))
    if defaulting == "System" and constraints:
        raise reader.fail((*path, "defaultConstraints"), 'when .defaultingType is "System", .defaultConstraints must be empty',
                          "set defaultingType: List to use your own constraints")
    seen: set[tuple[str, str]] = set()
    for index, _ in enumerate(constraints):
        _spread_constraint(reader, (*path, "defaultConstraints", index), seen)
    return {"spread_defaulting": defaulting, "spread_constraints": tuple(dict(c) for c in constraints)}


def _spread_constraint(reader: Reader, path: Path, seen: set[tuple[str, str]]) -> None:
    item = reader.mapping(path)
    if reader.integer((*path, "maxSkew"), 1) is None:
        raise reader.fail(path, "maxSkew is required and must be greater than zero", "add maxSkew: 1")
    key, when = item.get("topologyKey"), item.get("whenUnsatisfiable")
    if not isinstance(key, str) or not key:
        raise reader.fail(path, "topologyKey is required", "add topologyKey: <node label key>")
    if when not in WHEN_UNSATISFIABLE:
        raise reader.fail((*path, "whenUnsatisfiable"), f"whenUnsatisfiable {when!r} is not supported",
                          f"use one of {', '.join(WHEN_UNSATISFIABLE)}")
    if item.get("labelSelector") is not None:
        raise reader.fail((*path, "labelSelector"), "default constraints must not define a selector, as they are "
                          "deduced for each pod", "remove labelSelector")
    if (key, when) in seen:
        raise reader.fail(path, f'duplicate constraint for topologyKey "{key}" and whenUnsatisfiable "{when}"',
                          "keep one of them")
    seen.add((key, when))


def _node_affinity(reader: Reader, path: Path) -> dict[str, Any]:
    args = reader.mapping(path, frozenset({"addedAffinity"}))
    affinity = reader.mapping((*path, "addedAffinity"), frozenset({"requiredDuringSchedulingIgnoredDuringExecution",
                                                                   "preferredDuringSchedulingIgnoredDuringExecution"}))
    required = (*path, "addedAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    preferred = (*path, "addedAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
    terms = [(*required, "nodeSelectorTerms", i) for i, _ in enumerate(reader.sequence((*required, "nodeSelectorTerms")))]
    terms += [(*preferred, i, "preference") for i, _ in enumerate(reader.sequence(preferred))]
    for term in terms:
        _node_selector_term(reader, term)
    return {"added_affinity": dict(affinity)} if args.get("addedAffinity") else {}


def _node_selector_term(reader: Reader, term: Path) -> None:
    """ValidateNodeAffinityArgs: a term must parse as nodeaffinity.NewNodeSelector / NewPreferredSchedulingTerms
    parse it (kube/selectors.node_selector_term_errors), else kube-scheduler does not start."""
    for kind in ("matchExpressions", "matchFields"):
        for index, _ in enumerate(reader.sequence((*term, kind))):
            where = (*term, kind, index)
            operator = reader.mapping(where).get("operator")
            if operator not in NODE_OPERATORS:
                raise reader.fail((*where, "operator"), f'"{operator}" is not a valid node selector operator',
                                  f"use one of {', '.join(NODE_OPERATORS)}")
    errors = node_selector_term_errors(reader.mapping(term), format_path(term) + ".")
    if errors:
        raise reader.fail(term, errors[0], "fix the requirement: keys and values must be valid label keys and values")


def _inter_pod_affinity(reader: Reader, path: Path) -> dict[str, Any]:
    reader.mapping(path, frozenset({"hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"}))
    weight = reader.integer((*path, "hardPodAffinityWeight"), 0, 100)
    ignore = reader.document.get((*path, "ignorePreferredTermsOfExistingPods"), False)
    return {"hard_pod_affinity_weight": 1 if weight is None else weight,
            "ignore_preferred_terms_of_existing_pods": ignore is True}


def _dynamic_resources(reader: Reader, path: Path) -> dict[str, Any]:
    reader.mapping(path, frozenset({"filterTimeout", "bindingTimeout"}))
    out: dict[str, Any] = {}
    timeout = _duration(reader, (*path, "filterTimeout"))
    if timeout is not None:
        out["dra_filter_timeout"] = timeout
    _duration(reader, (*path, "bindingTimeout"))
    return out


def _duration(reader: Reader, path: Path) -> float | None:
    """Seconds of a Go duration string ("10s", "1m30s"); negative values are invalid."""
    value = reader.document.get(path)
    if value is None:
        return None
    text = str(value)
    if text in ("0", "-0"):
        return 0.0
    seconds = go_duration(text.removeprefix("-")) if isinstance(value, str) else None
    if seconds is None:
        raise reader.fail(path, f"{text!r} is not a duration", 'write it as Go does: "10s", "1m30s", "0s" disables')
    if text.startswith("-"):
        raise reader.fail(path, f"{text} must not be negative", 'use "0s" to disable the timeout')
    return seconds


def _strings(reader: Reader, path: Path) -> list[str]:
    values = reader.sequence(path)
    for index, value in enumerate(values):
        if not isinstance(value, str) or not value:
            raise reader.fail((*path, index), f"{value!r} is not a resource name", "use a non-empty string")
    return [str(v) for v in values]


_READERS: Final[Mapping[str, Any]] = {
    "NodeResourcesFit": _fit, "NodeResourcesBalancedAllocation": _balanced, "PodTopologySpread": _spread,
    "NodeAffinity": _node_affinity,
    "InterPodAffinity": _inter_pod_affinity, "DynamicResources": _dynamic_resources,
}
