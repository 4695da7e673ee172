"""Scheduler profiles: which filter and score plugins run for a pod, and the plugin args that change verdicts.

Upstream: kubernetes/kubernetes pkg/scheduler/apis/config/types.go and types_pluginargs.go (KubeSchedulerConfiguration,
v1 defaults in pkg/scheduler/apis/config/v1/default_plugins.go and defaults.go), release-1.37. A pod is scheduled by the
profile whose `schedulerName` equals its `spec.schedulerName` (default "default-scheduler"); a pod naming no profile is
left alone by this scheduler. `sched/config_file.py` builds profiles from a file; without one, DEFAULT_CONFIG holds
kube-scheduler's single default profile.

Args other sched modules read through plain attributes (a small interface, so filter modules need not know the file
format): `Profile.filter_names` (enabled filters in default order), `Profile.fit.ignores(resource)`,
`Profile.added_affinity`, `Profile.spread_defaulting` and `Profile.spread_constraints` (read by
sched/profile_plugins.py, which makes the profile's filter instances), `Profile.hard_pod_affinity_weight`,
`Profile.dra_step_limit`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.kube.resources import is_extended_resource_name

DEFAULT_SCHEDULER: Final = "default-scheduler"
NOT_SCHEDULED: Final = 'scheduled by "{name}", not simulated: the simulated kube-scheduler profiles are {profiles}'

# default_plugins.go: filter plugins in order (volume plugins sit between NodeResourcesFit and PodTopologySpread)
DEFAULT_FILTERS: Final = ("NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                          "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
                          "PodTopologySpread", "InterPodAffinity", "DynamicResources")
# default_plugins.go: score plugins and weights (DynamicResources has no weight there: the framework uses 1)
DEFAULT_SCORES: Final = (("TaintToleration", 3), ("NodeAffinity", 2), ("NodeResourcesFit", 1), ("VolumeBinding", 1),
                         ("PodTopologySpread", 2), ("InterPodAffinity", 2), ("NodeResourcesBalancedAllocation", 1),
                         ("ImageLocality", 1), ("DynamicResources", 1))
# plugins of the default profile that have no filter or score (queue sort, binding, preemption, gang admission...)
OTHER_PLUGINS: Final = frozenset({"PrioritySort", "DefaultBinder", "DefaultPreemption", "SchedulingGates",
                                  "GangScheduling", "TopologyAwareScheduling", "TopologyPlacementGenerator",
                                  "PodGroupPodsCount", "DefaultPodGroupPreemption"})
# out-of-tree plugins the simulator models when a profile enables them (sched/filters/node_resource_topology.py)
OUT_OF_TREE_FILTERS: Final = frozenset({"NodeResourceTopologyMatch"})
KNOWN_PLUGINS: Final = frozenset(DEFAULT_FILTERS) | {name for name, _ in DEFAULT_SCORES} | OTHER_PLUGINS | OUT_OF_TREE_FILTERS
DRA_STEPS_PER_SECOND: Final = 10_000  # the search's stand-in for the 10 s filter timeout is 100,000 steps


@dataclass(frozen=True)
class FitArgs:
    """NodeResourcesFitArgs: extended resources the filter ignores, and the scoring strategy."""

    ignored_resources: frozenset[str] = frozenset()
    ignored_resource_groups: frozenset[str] = frozenset()
    strategy: str = "LeastAllocated"  # LeastAllocated | MostAllocated | RequestedToCapacityRatio
    resources: tuple[tuple[str, int], ...] = (("cpu", 1), ("memory", 1))
    shape: tuple[tuple[int, int], ...] = ()  # RequestedToCapacityRatio (utilization, score) points

    def ignores(self, resource: str) -> bool:
        """fit.go fitsRequest: only extended resources are ignored, by name or by the prefix before "/"."""
        if not (self.ignored_resources or self.ignored_resource_groups) or not is_extended_resource_name(resource):
            return False
        return resource in self.ignored_resources or resource.split("/", 1)[0] in self.ignored_resource_groups


@dataclass(frozen=True)
class Profile:
    """One scheduler profile, as the simulation reads it."""

    scheduler_name: str = DEFAULT_SCHEDULER
    filter_names: tuple[str, ...] = DEFAULT_FILTERS
    score_weights: tuple[tuple[str, int], ...] = DEFAULT_SCORES
    fit: FitArgs = field(default_factory=FitArgs)
    added_affinity: Mapping[str, Any] | None = None  # NodeAffinityArgs.addedAffinity (a NodeAffinity object)
    spread_defaulting: str = "System"  # PodTopologySpreadArgs.defaultingType
    spread_constraints: tuple[Mapping[str, Any], ...] = ()  # PodTopologySpreadArgs.defaultConstraints
    balanced_resources: tuple[str, ...] = ("cpu", "memory")  # NodeResourcesBalancedAllocationArgs.resources
    hard_pod_affinity_weight: int = 1  # InterPodAffinityArgs
    ignore_preferred_terms_of_existing_pods: bool = False
    dra_filter_timeout: float = 10.0  # DynamicResourcesArgs.filterTimeout in seconds; 0 disables the timeout
    percentage_of_nodes_to_score: int | None = None
    placement_scores: tuple[tuple[str, int], ...] = (("PodGroupPodsCount", 1), ("NodeResourcesFit", 1))
    unmodelled: tuple[str, ...] = ()  # settings read but not simulated (said in the output)

    def score_weight(self, name: str) -> int:
        """The weight of score plugin `name`, 0 when disabled."""
        return next((weight for plugin, weight in self.score_weights if plugin == name), 0)

    @property
    def dra_step_limit(self) -> int | None:
        """The allocator's search budget for filterTimeout (None: no timeout)."""
        return None if self.dra_filter_timeout <= 0 else max(1, int(self.dra_filter_timeout * DRA_STEPS_PER_SECOND))


DEFAULT_PROFILE: Final = Profile()


@dataclass(frozen=True)
class SchedulerConfig:
    """Profiles by schedulerName (in file order) and where they came from."""

    profiles: tuple[Profile, ...] = (DEFAULT_PROFILE,)
    source: str = ""  # the file, "" for kube-scheduler's defaults

    def profile_for(self, scheduler_name: str) -> Profile | None:
        """The profile scheduling pods that name `scheduler_name`, or None (this scheduler ignores them)."""
        return next((p for p in self.profiles if p.scheduler_name == scheduler_name), None)

    def not_scheduled_message(self, scheduler_name: str) -> str:
        """What to say about a pod no profile schedules."""
        names = sorted(profile.scheduler_name for profile in self.profiles)
        return NOT_SCHEDULED.format(name=scheduler_name, profiles=", ".join(f'"{name}"' for name in names))

    @property
    def is_default(self) -> bool:
        """True for kube-scheduler's own single default profile."""
        return self.profiles == (DEFAULT_PROFILE,)


DEFAULT_CONFIG: Final = SchedulerConfig()
