"""--scheduler-config: KubeSchedulerConfiguration files (real ones from the kubernetes/website docs) read into profiles,
validation errors with file:line:col, and the profiles' effect on verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import node, pod, snapshot, taint

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.config_file import ConfigError, load_scheduler_config
from kubectl_wasdra.sched.filters import pod_topology_spread
from kubectl_wasdra.sched.profile_plugins import plugins_for
from kubectl_wasdra.sched.profiles import DEFAULT_FILTERS
from kubectl_wasdra.sched.simulation import Simulation

CONFIGS = Path(__file__).resolve().parents[2] / "fixtures" / "scheduler-config"


def _load(name: str):  # type: ignore[no-untyped-def]
    return load_scheduler_config(str(CONFIGS / name))


def test_docs_two_profiles_with_added_affinity() -> None:
    config = _load("two-profiles.yaml")
    assert [p.scheduler_name for p in config.profiles] == ["default-scheduler", "foo-scheduler"]
    default, foo = config.profiles
    assert default.added_affinity is None and default.filter_names == DEFAULT_FILTERS
    terms = foo.added_affinity["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert terms[0]["matchExpressions"][0] == {"key": "scheduler-profile", "operator": "In", "values": ["foo"]}


def test_docs_no_scoring_profile_keeps_filters_and_drops_every_score() -> None:
    plain, no_scoring = _load("no-scoring.yaml").profiles
    assert no_scoring.score_weights == () and no_scoring.filter_names == DEFAULT_FILTERS
    assert dict(plain.score_weights)["TaintToleration"] == 3


def test_docs_bin_packing_strategy() -> None:
    (profile,) = _load("bin-packing.yaml").profiles
    assert profile.scheduler_name == "default-scheduler"
    assert profile.fit.strategy == "MostAllocated"
    assert profile.fit.resources == (("cpu", 1), ("memory", 1), ("intel.com/foo", 3), ("intel.com/bar", 3))


def test_docs_spread_defaults_by_defaulting_type() -> None:
    """The profile's PodTopologySpread instance carries its defaultConstraints (List); System keeps the default one."""
    (profile,) = _load("spread-defaults.yaml").profiles
    spread = plugins_for(profile).spread
    assert spread.defaulting_type == "List"
    assert spread.default_constraints == ({"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                           "whenUnsatisfiable": "ScheduleAnyway"},)
    assert plugins_for(_load("no-scoring.yaml").profiles[0]).spread is pod_topology_spread.DEFAULT


def test_gpu_cluster_args() -> None:
    default, no_taints = _load("gpu-cluster.yaml").profiles
    assert default.fit.ignores("example.com/gpu") and not default.fit.ignores("cpu")
    assert not default.fit.ignores("other.com/gpu")
    assert default.hard_pod_affinity_weight == 10 and default.dra_step_limit == 200_000
    assert "NodeResourcesBalancedAllocation" not in dict(default.score_weights)
    assert "TaintToleration" not in no_taints.filter_names and "NodeAffinity" in no_taints.filter_names


BAD = [
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", (1, 1),
                 'apiVersion "kubescheduler.config.k8s.io/v1beta3" is not supported', id="old-api-version"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- schedulerName: a\n- schedulerName: a\n", (5, 3), 'duplicate profile with schedulerName "a"',
                 id="duplicate-profile"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- plugins:\n    filter:\n      enabled:\n      - name: MyPlugin\n", (7, 9),
                 'plugin "MyPlugin" does not exist', id="unknown-plugin"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: 101}\n", (6, 12),
                 "hardPodAffinityWeight: 101 must be an integer between 0 and 100", id="weight-out-of-range"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultConstraints:\n"
                 "      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n", (7, 7),
                 'when .defaultingType is "System", .defaultConstraints must be empty', id="system-with-constraints"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      ignoredResourceGroups: [example.com/gpu]\n",
                 (7, 31), 'resource group name "example.com/gpu" can\'t contain "/"', id="group-with-slash"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: DynamicResources\n    args: {filterTimeout: ten}\n", (6, 12),
                 "'ten' is not a duration", id="bad-duration"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n"
                 "        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
                 "          - matchExpressions:\n            - {key: zone, operator: In, values: []}\n", (10, 13),
                 "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []string{}: for 'in', 'notin' "
                 "operators, values set can't be empty", id="added-affinity-in-without-values"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n"
                 "        preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 1\n"
                 "            preference:\n              matchFields:\n"
                 "              - {key: metadata.name, operator: Gt, values: ['1']}\n", (10, 13),
                 'matchFields[0].operator: Unsupported value: "Gt"', id="added-preference-match-fields-gt"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args:\n      resources:\n"
                 "      - {name: cpu, weight: 2}\n", (8, 21), "Invalid value: 2: must be 1", id="balanced-weight-not-1"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args:\n      resources:\n"
                 "      - {name: cpu}\n      - {name: cpu}\n", (9, 10), 'Duplicate value: "cpu"', id="balanced-duplicate"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofile: []\n", (3, 1),
                 'unknown field "profile"', id="unknown-field"),
]


@pytest.mark.parametrize(("text", "position", "message"), BAD)
def test_invalid_configs_name_file_line_column(tmp_path: Path, text: str, position: tuple[int, int], message: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as raised:
        load_scheduler_config(str(path))
    assert raised.value.where == f"{path}:{position[0]}:{position[1]}"
    assert message in raised.value.message and raised.value.hint


@pytest.mark.parametrize(("timeout", "steps"), [("20s", 200_000), ("1m", 600_000), ("+2s", 20_000), (".5s", 5_000),
                                               ("1h0m0.1s", 36_001_000), ("0s", None), ("0", None)],
                         ids=["seconds", "minutes", "plus-sign", "leading-dot", "mixed", "zero-seconds", "zero"])
def test_filter_timeout_accepts_every_go_duration(tmp_path: Path, timeout: str, steps: int | None) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                    f"- pluginConfig:\n  - name: DynamicResources\n    args: {{filterTimeout: '{timeout}'}}\n")
    assert load_scheduler_config(str(path)).profiles[0].dra_step_limit == steps


def _results(config_name: str | None, *objects: dict) -> dict:  # type: ignore[type-arg]
    cluster = snapshot(*objects)
    config = _load(config_name) if config_name else None
    sim = Simulation(cluster, make_gates(NEWEST), config=config)
    return {r.entry.name: r for r in sim.run()}


def test_profiles_decide_which_pods_are_scheduled_and_where() -> None:
    nodes = [node("a-plain"), node("b-foo", labels={"scheduler-profile": "foo"})]
    pods = [pod("default", created="2026-01-01T00:00:00Z"),
            pod("foo", schedulerName="foo-scheduler", created="2026-01-01T00:00:01Z"),
            pod("other", schedulerName="volcano", created="2026-01-01T00:00:02Z")]
    results = _results("two-profiles.yaml", *nodes, *pods)
    assert results["default"].fits and results["foo"].fits
    assert results["foo"].placement == {"default/foo": "b-foo"}
    other = results["other"]
    assert not other.fits and other.entry.blocked.reason is Reason.OTHER_SCHEDULER
    assert other.message == 'scheduled by "volcano", not simulated: the simulated kube-scheduler profiles are ' \
                            '"default-scheduler", "foo-scheduler"'


def test_added_affinity_reason_is_the_scheduler_enforced_one() -> None:
    results = _results("two-profiles.yaml", node("a-plain"), pod("foo", schedulerName="foo-scheduler"))
    assert not results["foo"].fits
    assert results["foo"].message.startswith("0/1 nodes are available: 1 node(s) didn't match scheduler-enforced node "
                                             "affinity.")


def test_ignored_resource_groups_and_disabled_filters() -> None:
    tainted = node("gpu-0", taints=[taint("dedicated", "gpu")])
    gpu_pod = pod("p", extra={"example.com/gpu": "1"})
    assert not _results(None, node("n0"), gpu_pod)["p"].fits  # Insufficient example.com/gpu by default
    assert _results("gpu-cluster.yaml", node("n0"), gpu_pod)["p"].fits
    assert not _results("gpu-cluster.yaml", tainted, pod("t"))["t"].fits
    assert _results("gpu-cluster.yaml", tainted, pod("t", schedulerName="no-taints"))["t"].fits


def test_without_a_config_the_default_profile_alone_schedules() -> None:
    results = _results(None, node("n0"), pod("other", schedulerName="volcano"))
    assert not results["other"].fits
    assert results["other"].message == 'scheduled by "volcano", not simulated: the simulated kube-scheduler ' \
                                       'profiles are "default-scheduler"'


def test_most_allocated_packs_where_least_allocated_spreads() -> None:
    """Two nodes, one half full: LeastAllocated (default) picks the empty one, the bin-packing profile the fuller one."""
    busy = pod("running", cpu="4", memory="16Gi", node_name="a-busy")
    nodes = [node("a-busy"), node("b-empty")]
    new = pod("new", cpu="1", memory="1Gi", created="2026-01-01T00:00:00Z")
    assert _results(None, *nodes, busy, new)["new"].placement == {"default/new": "b-empty"}
    assert _results("bin-packing.yaml", *nodes, busy, new)["new"].placement == {"default/new": "a-busy"}


@pytest.mark.parametrize(("timeout", "steps"), [("10s", 100_000), (".5s", 5_000), ("1m30s", 900_000), ("0s", None)])
def test_filter_timeout_takes_go_durations(tmp_path: Path, timeout: str, steps: int | None) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                    f"- pluginConfig:\n  - name: DynamicResources\n    args: {{filterTimeout: {timeout!r}}}\n")
    (profile,) = load_scheduler_config(str(path)).profiles
    assert profile.dra_step_limit == steps


def test_balanced_allocation_resources_are_scored(tmp_path: Path) -> None:
    """NodeResourcesBalancedAllocationArgs.resources: with a GPU resource listed, a GPU pod goes where its GPU share
    stays level with cpu and memory (balanced_allocation.go over the configured resources)."""
    path = tmp_path / "config.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                    "- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args:\n      resources:\n"
                    "      - {name: cpu, weight: 1}\n      - {name: memory}\n      - {name: example.com/gpu}\n")
    (profile,) = load_scheduler_config(str(path)).profiles
    assert profile.balanced_resources == ("cpu", "memory", "example.com/gpu")
    # a keeps cpu, memory and GPU at one half each; b is emptier (LeastAllocated 60 against 50) but its GPUs fill up:
    # balanced 60 against 75 with the GPU listed, 75 on both without it
    cluster = snapshot(node("a", cpu="8", memory="8Gi", extra={"example.com/gpu": "8"}),
                       node("b", cpu="10", memory="10Gi", extra={"example.com/gpu": "4"}))
    new = pod("new", cpu="4", memory="4Gi", extra={"example.com/gpu": "4"})
    config = load_scheduler_config(str(path))
    with_gpu = Simulation(cluster.overlay([new]), make_gates(NEWEST), config=config).run()
    plain = Simulation(cluster.overlay([new]), make_gates(NEWEST)).run()
    assert (with_gpu[0].placement, plain[0].placement) == ({"default/new": "a"}, {"default/new": "b"})
