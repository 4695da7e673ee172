"""Each scheduler profile runs its own filter instances, made from its plugin args (sched/profile_plugins.py): the
verdicts of a `--scheduler-config` profile come from its args and its enabled plugins, the default profile's from the
filter modules."""

from __future__ import annotations

from pathlib import Path

from builders import node, pod, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.run import config_notes
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.config_file import load_scheduler_config
from kubectl_wasdra.sched.filters import node_affinity, pod_topology_spread
from kubectl_wasdra.sched.filters.node_affinity import NodeAffinity
from kubectl_wasdra.sched.profile_plugins import DEFAULT_PLUGINS, plugins_for
from kubectl_wasdra.sched.profiles import DEFAULT_FILTERS
from kubectl_wasdra.sched.simulation import Simulation

CONFIGS = Path(__file__).resolve().parents[2] / "fixtures" / "scheduler-config"
HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
HARD_ZONE_DEFAULT = HEADER + """profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
"""
WITHOUT_PORTS_AND_AFFINITY = HEADER + """profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: NodePorts}, {name: NodeAffinity}]
"""


def _config(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "scheduler.yaml"
    path.write_text(text)
    return load_scheduler_config(str(path))


def _results(config, *objects: dict) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return {r.entry.name: r for r in Simulation(snapshot(*objects), make_gates(NEWEST), config=config).run()}


def test_default_profile_runs_every_filter_module_in_default_order() -> None:
    assert [f.NAME for f in (*DEFAULT_PLUGINS.static, *DEFAULT_PLUGINS.dynamic)] == list(DEFAULT_FILTERS)
    assert DEFAULT_PLUGINS.node_affinity is node_affinity.DEFAULT
    assert DEFAULT_PLUGINS.spread is pod_topology_spread.DEFAULT
    assert "VolumeBinding" not in [f.NAME for f in DEFAULT_PLUGINS.dynamic_without_volumes]


def test_added_affinity_is_the_profiles_node_affinity_instance() -> None:
    default, foo = load_scheduler_config(str(CONFIGS / "two-profiles.yaml")).profiles
    assert plugins_for(default).node_affinity is node_affinity.DEFAULT
    plugin = plugins_for(foo).node_affinity
    assert isinstance(plugin, NodeAffinity) and plugin.added_affinity == foo.added_affinity
    assert plugin in plugins_for(foo).static and plugins_for(foo) is plugins_for(foo)  # made once per profile


def test_hard_default_constraints_of_the_profile_filter(tmp_path: Path) -> None:
    """The emptier node is in the zone that already holds a pod the Service selects: the default profile takes it,
    a profile with a DoNotSchedule zone default (maxSkew 1) must go to the other zone."""
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "default"},
               "spec": {"selector": {"app": "web"}}}
    objects = (node("a", cpu="64", memory="256Gi", labels={"zone": "z1"}), node("b", labels={"zone": "z2"}), service,
               pod("w1", node_name="a", labels={"app": "web"}), pod("p", labels={"app": "web"}))
    assert _results(None, *objects)["p"].placement == {"default/p": "a"}
    assert _results(_config(tmp_path, HARD_ZONE_DEFAULT), *objects)["p"].placement == {"default/p": "b"}


def test_disabled_filters_have_neither_filter_nor_pre_filter(tmp_path: Path) -> None:
    config = _config(tmp_path, WITHOUT_PORTS_AND_AFFINITY)
    port = {"containers": [{"name": "c", "image": "x", "ports": [{"containerPort": 80, "hostPort": 80}]}]}
    conflict = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{
        "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a"]},
                        {"key": "metadata.name", "operator": "In", "values": ["b"]}]}]}}}
    objects = (node("a"), pod("web", node_name="a", **port), pod("p", **port), pod("q", affinity=conflict))
    default = _results(None, *objects)
    assert not default["p"].fits and "didn't have free ports" in default["p"].message
    assert not default["q"].fits and "pod affinity terms conflict" in default["q"].message
    configured = _results(config, *objects)
    assert configured["p"].fits and configured["q"].fits


def test_notes_name_only_default_constraints_that_cannot_apply(tmp_path: Path) -> None:
    hard = config_notes(_config(tmp_path, HARD_ZONE_DEFAULT))
    assert any("PodTopologySpread DoNotSchedule defaultConstraints" in note for note in hard)
    soft = config_notes(load_scheduler_config(str(CONFIGS / "spread-defaults.yaml")))
    assert not any("PodTopologySpread" in note for note in soft)


def test_added_affinity_preferred_terms_score(tmp_path: Path) -> None:
    """node_affinity.go Score: the profile's preferred terms count with the pod's (both nodes fit, equal otherwise)."""
    config = _config(tmp_path, HEADER + """profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 50
          preference: {matchExpressions: [{key: pool, operator: In, values: [preferred]}]}
""")
    objects = (node("a", labels={"pool": "other"}), node("b", labels={"pool": "preferred"}), pod("p"))
    assert _results(None, *objects)["p"].placement == {"default/p": "a"}
    assert _results(config, *objects)["p"].placement == {"default/p": "b"}
