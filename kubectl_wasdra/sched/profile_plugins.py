"""The filter plugins one scheduler profile runs: its enabled filters, as instances made from its plugin args.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go (NewFramework: every profile gets its own
plugin instances, each made by the registry's factory with that profile's args), release-1.37. The filter modules'
own `filter_node` functions are the default profile's instances; a profile of `--scheduler-config` gets NodeAffinity
with its addedAffinity and PodTopologySpread with its defaultConstraints/defaultingType. Filters run in
kube-scheduler's default order (sched/filters/__init__.py), those the profile disables left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.sched.filters import FILTERS, STATIC_FILTERS, VOLUME_FILTERS, node_affinity, pod_topology_spread
from kubectl_wasdra.sched.filters.base import FilterPlugin
from kubectl_wasdra.sched.filters.node_affinity import NodeAffinity
from kubectl_wasdra.sched.filters.pod_topology_spread import PodTopologySpread
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profiles import DEFAULT_FILTERS, Profile


@dataclass(frozen=True)
class ProfilePlugins:
    """A profile's filter instances: the static ones (pod and node only), the rest, the rest without the volume
    filters (pods without volumes skip them), and the instances PreFilter needs (None: disabled)."""

    names: frozenset[str]
    static: tuple[FilterPlugin, ...]
    dynamic: tuple[FilterPlugin, ...]
    dynamic_without_volumes: tuple[FilterPlugin, ...]
    node_affinity: NodeAffinity | None
    spread: PodTopologySpread | None

    def runs(self, name: str) -> bool:
        """True when filter plugin `name` is enabled in the profile."""
        return name in self.names


def _build(profile: Profile | None) -> ProfilePlugins:
    names = frozenset(DEFAULT_FILTERS if profile is None else profile.filter_names)
    affinity, spread = node_affinity.DEFAULT, pod_topology_spread.DEFAULT
    if profile is not None and profile.added_affinity is not None:
        affinity = NodeAffinity(profile.added_affinity)
    if profile is not None and (profile.spread_defaulting, tuple(profile.spread_constraints)) != \
            (spread.defaulting_type, spread.default_constraints):
        spread = PodTopologySpread(tuple(profile.spread_constraints), profile.spread_defaulting)
    instances: dict[str, Any] = {node_affinity.NAME: affinity, pod_topology_spread.NAME: spread}
    enabled = [instances.get(plugin.NAME, plugin) for plugin in FILTERS if plugin.NAME in names]
    static_names = {plugin.NAME for plugin in STATIC_FILTERS}
    volume_names = {plugin.NAME for plugin in VOLUME_FILTERS}
    dynamic = tuple(plugin for plugin in enabled if plugin.NAME not in static_names)
    return ProfilePlugins(names, tuple(plugin for plugin in enabled if plugin.NAME in static_names), dynamic,
                          tuple(plugin for plugin in dynamic if plugin.NAME not in volume_names),
                          affinity if node_affinity.NAME in names else None,
                          spread if pod_topology_spread.NAME in names else None)


DEFAULT_PLUGINS: Final = _build(None)
_BUILT: dict[int, tuple[Profile, ProfilePlugins]] = {}  # id(profile) -> (the profile, kept alive; its plugins)


def plugins_for(profile: Profile | None) -> ProfilePlugins:
    """The filter instances of `profile` (None: kube-scheduler's default profile), made once per profile."""
    if profile is None:
        return DEFAULT_PLUGINS
    found = _BUILT.get(id(profile))
    if found is None:
        found = _BUILT[id(profile)] = (profile, _build(profile))
    return found[1]


def attach(info: PodInfo, profile: Profile | None) -> None:
    """Give `info` the profile scheduling it; a pod without spread constraints of its own becomes stateful when the
    profile's hard default constraints apply to it (its verdicts then depend on where other pods are)."""
    info.profile = profile
    spread = plugins_for(profile).spread
    info.stateful = info.stateful or (spread is not None and spread.applies_to(info))
