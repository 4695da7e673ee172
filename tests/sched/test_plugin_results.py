"""Per-plugin results recorded during a simulation agree with what the simulation itself decided: the chosen node is
the placement and has the highest total, totals are the sums of the weighted scores, Filter messages are the FitError's
per-node reasons, plugins after a node's first rejection are skipped, output is bounded, and nothing is recorded
without a recorder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import node, pod, pod_group, snapshot, taint

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.plugin_results import PluginRecorder, PodPlugins
from kubectl_wasdra.sched.plugin_scores import node_scores, node_totals
from kubectl_wasdra.sched.simulation import Simulation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sched"
FAILING = ("UntoleratedTaint", "InsufficientResource", "NodeUnschedulable", "NodeAffinityMismatch", "TooManyPods",
           "GangPartialFit")
SPREAD = yaml.safe_load((FIXTURES / "upstream-scores" / "podtopologyspread.yaml").read_text())


def _record(cluster: Any, limit: int | None = 20, pods: frozenset[str] | None = None) -> tuple[dict[str, Any], PluginRecorder]:
    """{entry name: GroupResult} and the recorder after simulating every queue entry with every pod recorded."""
    sim = Simulation(cluster, all_on(NEWEST))
    wanted = pods if pods is not None else frozenset(f"{p.namespace}/{p.name}" for e in sim.entries for p in e.pods)
    recorder = PluginRecorder(wanted, limit)
    sim.state.recorder = recorder
    results = {r.name: r for r in sim.run()}
    return results, recorder


def _fixture(name: str) -> Any:
    cluster, problems = load_snapshot([str(FIXTURES / name / "cluster.yaml")])
    assert not problems
    return cluster


def _fixture_with(cluster: str, manifest: str) -> Any:
    """A fixture cluster with a fixture manifest's objects overlaid."""
    from builders import fixture_cluster

    from kubectl_wasdra.explain.run import load_manifests

    overlay = load_manifests([str(FIXTURES.parent / "manifests" / "explain" / manifest)])
    return fixture_cluster(cluster).overlay(list(overlay.objects))


def _mixed() -> Any:
    """Nodes rejected by different plugins, and feasible ones that score differently (load, a PreferNoSchedule
    taint, a preferred affinity term)."""
    prefer = {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 10, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}]}
    return snapshot(
        node("a-busy", cpu="8"), node("b-idle", cpu="8"), node("c-ssd", cpu="8", labels={"disk": "ssd"}),
        node("d-soft", cpu="8", taints=[taint("soft", effect="PreferNoSchedule")]),
        node("e-taint", taints=[taint("gpu")]), node("f-full", cpu="4"), node("g-cordoned", unschedulable=True),
        pod("load", cpu="6", node_name="a-busy"), pod("filler", cpu="3", node_name="f-full"),
        pod("web", cpu="2", memory="1Gi", affinity={"nodeAffinity": prefer}))


def _statuses(record: PodPlugins) -> dict[str, list[tuple[str, str]]]:
    return {n.node: [(r.plugin, r.status) for r in n.results] for n in record.filter}


def test_chosen_node_is_the_placement_and_has_the_highest_total():
    results, recorder = _record(_mixed())
    record = recorder.records["default/web"]
    assert record.chosen_node == results["web"].placement["default/web"] == "c-ssd"
    totals = {n.node: n.total for n in record.score}
    assert totals[record.chosen_node] == max(totals.values())
    assert len(set(totals.values())) > 1  # the scores really differ: the check above can fail
    assert record.score[0].node == record.chosen_node


def test_totals_are_sums_of_weighted_scores_and_weighted_is_normalized_times_weight():
    _, recorder = _record(_mixed())
    record = recorder.records["default/web"]
    for scored in record.score:
        assert scored.total == sum(s.weighted for s in scored.scores)
        for s in scored.scores:
            assert s.weighted == (s.normalized * s.weight if s.normalized is not None else 0)
    by_node = {n.node: {s.plugin: s for s in n.scores} for n in record.score}
    assert by_node["d-soft"]["TaintToleration"].raw == 1 and by_node["d-soft"]["TaintToleration"].normalized == 0
    assert by_node["b-idle"]["TaintToleration"].normalized == 100
    assert by_node["c-ssd"]["NodeAffinity"].raw == 10 and by_node["c-ssd"]["NodeAffinity"].normalized == 100
    assert by_node["a-busy"]["NodeResourcesFit"].raw < by_node["b-idle"]["NodeResourcesFit"].raw
    plugins = [s.plugin for s in record.score[0].scores]
    assert plugins == ["TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity",
                       "NodeResourcesBalancedAllocation", "DynamicResources"]


class _Checking(PluginRecorder):
    """Also compares, in every recorded cycle, each scored node's breakdown with the total best_node compares."""

    def __init__(self, pods: frozenset[str]) -> None:
        super().__init__(pods, None)
        self.compared: list[tuple[str | None, dict[str, tuple[int, int]]]] = []

    def observe(self, pod, state, nodes, chosen, scores):
        if len(scores) > 1 and pod.key in self.pods:
            totals = node_totals(pod, state, scores)
            detail = node_scores(pod, state, scores, list(scores))
            self.compared.append((chosen, {n: (totals[n], detail[n].total) for n in scores}))
        super().observe(pod, state, nodes, chosen, scores)


@pytest.mark.parametrize("cluster", [
    pytest.param(_mixed, id="mixed"),
    pytest.param(lambda: _spread_case(SPREAD["cases"][3]), id="spread"),
    pytest.param(lambda: _fixture_with("two-racks", "finetune-gang-rack.yaml"), id="dra-gang"),
])
def test_every_scored_nodes_breakdown_adds_up_to_the_total_the_simulation_compared(cluster):
    sim = Simulation(cluster(), all_on(NEWEST))
    recorder = _Checking(frozenset(f"{p.namespace}/{p.name}" for e in sim.entries for p in e.pods))
    sim.state.recorder = recorder
    sim.run()
    assert recorder.compared
    for chosen, pairs in recorder.compared:
        assert all(total == parts for total, parts in pairs.values())
        best = max(total for total, _ in pairs.values())
        assert pairs[chosen][0] == best
        assert next(n for n, (total, _) in pairs.items() if total == best) == chosen  # the first of equal totals


def test_filter_results_stop_at_the_first_rejection():
    _, recorder = _record(_mixed())
    record = recorder.records["default/web"]
    statuses = _statuses(record)
    cordoned = statuses["g-cordoned"]
    assert cordoned[0] == ("NodeUnschedulable", "unschedulable_and_unresolvable")
    assert {status for _, status in cordoned[1:]} == {"skipped"}
    small = dict(statuses["f-full"])
    names = [plugin for plugin, _ in statuses["f-full"]]
    fit = names.index("NodeResourcesFit")
    assert small["NodeResourcesFit"] == "fail"  # Unschedulable: freeing capacity might help
    assert all(status == "pass" for _, status in statuses["f-full"][:fit])
    assert all(status == "skipped" for _, status in statuses["f-full"][fit + 1:])
    assert dict(statuses["e-taint"])["TaintToleration"] == "unschedulable_and_unresolvable"
    assert record.rejected_by == {"NodeUnschedulable": 1, "TaintToleration": 1, "NodeResourcesFit": 1}
    assert record.feasible == 4 == record.scored


@pytest.mark.parametrize("cluster", [*(pytest.param(lambda n=n: _fixture(n), id=n) for n in FAILING),
                                     pytest.param(lambda: _fixture_with("two-racks", "train-gang-racks.yaml"),
                                                  id="dra-gang-racks")])
def test_filter_messages_are_the_fit_errors_reasons(cluster):
    results, recorder = _record(cluster())
    checked = 0
    for result in results.values():
        for key, error in result.pod_errors.items():
            if not error.statuses or key not in recorder.records:
                continue
            record = recorder.records[key]
            assert record.chosen_node is None
            rejected = {n.node: [r for r in n.results if r.status not in ("pass", "skipped")] for n in record.filter}
            for node_name, status in error.statuses.items():
                (result_,) = rejected[node_name]
                assert result_.message == ", ".join(s.message for s in status.all_reasons())
                assert result_.reason == status.reason
                checked += 1
            assert sum(record.rejected_by.values()) == len(error.statuses)
    assert checked


def test_nodes_node_affinity_prefilter_leaves_out_run_no_filter():
    """matchFields metadata.name narrows the nodes in PreFilter: the others get the framework's status, no filter."""
    required = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]}}
    cluster = snapshot(node("n0"), node("n1", cpu="1"), pod("p", cpu="2", affinity={"nodeAffinity": required}))
    results, recorder = _record(cluster)
    record = recorder.records["default/p"]
    statuses = {n.node: {r.plugin: r for r in n.results} for n in record.filter}
    left_out = statuses["n0"]["NodeAffinity"]
    assert (left_out.status, left_out.message) == ("unschedulable_and_unresolvable",
                                                   "node(s) didn't satisfy plugin(s) [NodeAffinity]")
    assert {r.status for plugin, r in statuses["n0"].items() if plugin != "NodeAffinity"} == {"skipped"}
    assert statuses["n1"]["NodeAffinity"].status == "pass"
    assert statuses["n1"]["NodeResourcesFit"].status == "unschedulable_and_unresolvable"
    assert [n.node for n in record.filter] == ["n1", "n0"]  # n1 got further through the filters
    error = results["p"].pod_errors["default/p"]
    assert error.statuses["n0"].message == left_out.message


def test_the_listing_is_bounded_to_the_closest_nodes_and_counts_the_rest():
    nodes = [node(f"n{i:02}", cpu="4") for i in range(30)]
    cluster = snapshot(*nodes, *[node(f"t{i:02}", taints=[taint("x")]) for i in range(5)], pod("p", cpu="1"))
    _, bounded = _record(cluster, limit=3)
    record = bounded.records["default/p"]
    assert len(record.filter) == 4 and record.nodes_left_out == 31
    assert record.filter[0].node == record.chosen_node
    assert all(n.node.startswith("n") for n in record.filter)  # feasible nodes come before rejected ones
    assert record.rejected_by == {"TaintToleration": 5}
    _, everything = _record(cluster, limit=None)
    record = everything.records["default/p"]
    assert len(record.filter) == 35 and record.nodes_left_out == 0
    assert record.filter[-1].node.startswith("t")


def test_gang_pods_are_recorded_in_their_groups_cycle():
    results, recorder = _record(_fixture("GangPartialFit"))
    assert not results["g"].fits
    recorded = {key: r.chosen_node for key, r in recorder.records.items()}
    assert recorded["default/g-0"] in ("n0", "n1") and recorded["default/g-1"] in ("n0", "n1")
    assert recorded["default/g-0"] != recorded["default/g-1"]
    assert recorded["default/g-2"] is None


def test_gang_pods_the_cycle_never_tried_have_no_results():
    """minCount 3: once g-0 fails, 0 scheduled + 2 remaining < 3 stops the cycle (algorithm_podgroup.go)."""
    cluster = snapshot(node("n0", cpu="4"), pod_group("g", min_count=3),
                       pod("g-0", cpu="8", group="g"), pod("g-1", cpu="1", group="g"), pod("g-2", cpu="1", group="g"))
    results, recorder = _record(cluster)
    assert not results["g"].fits
    assert set(recorder.records) == {"default/g-0"}
    assert recorder.records["default/g-0"].chosen_node is None


def test_nothing_is_recorded_for_pods_not_asked_for_and_without_a_recorder():
    _, recorder = _record(_mixed(), pods=frozenset({"default/web"}))
    assert set(recorder.records) == {"default/web"}
    sim = Simulation(_mixed(), all_on(NEWEST))
    assert sim.state.recorder is None
    sim.run()
    assert sim.state.recorder is None


def _spread_case(case: dict[str, Any]) -> Any:
    objects = [node(name, labels=labels) for name, labels in case["nodes"]]
    for i, existing in enumerate(case.get("pods") or ()):
        objects.append(pod(f"existing-{i}", cpu=None, node_name=existing["node"], labels=existing.get("labels")))
    objects.append(pod("incoming", cpu=None, labels=case["pod"].get("labels"), **(case["pod"].get("spec") or {})))
    return snapshot(*objects)


@pytest.mark.parametrize("case", [c for c in SPREAD["cases"] if not c.get("feasible") and not c.get("skip")],
                         ids=lambda c: c["name"])
def test_pod_topology_spread_scores_are_upstreams(case):
    _, recorder = _record(_spread_case(case), pods=frozenset({"default/incoming"}))
    record = recorder.records["default/incoming"]
    by_node = {n.node: {s.plugin: s for s in n.scores}["PodTopologySpread"] for n in record.score}
    assert [by_node[name].normalized for name, _ in case["nodes"]] == case["scores"]
