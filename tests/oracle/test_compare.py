"""What the differential comparison accepts and what it reports (tests/oracle/compare.py), and that the generator is
deterministic and writes what the oracle and the simulator both read."""

from __future__ import annotations

from tests.oracle.compare import chosen_nodes, compare, release_skew
from tests.oracle.scenarios import FAMILIES, digest, generate
from tests.oracle.simulate import simulate

ORACLE = {"pods": {
    "default/a": {"node": "n1", "ties": ["n1", "n2"]},
    "default/b": {"node": None, "message": "0/2 nodes are available: 2 Insufficient cpu."},
    "default/c": {"node": "n2", "victims": ["default/x"], "claims": {"dev": [["gpu", "d", "n2", "gpu-0"]]}},
}}


def _ours(**changes):
    ours = {"default/a": {"node": "n1", "message": "", "victims": [], "claims": {}},
            "default/b": {"node": None, "message": "0/2 nodes are available: 2 Insufficient cpu.", "victims": [],
                          "claims": {}},
            "default/c": {"node": "n2", "message": "", "victims": ["default/x"],
                          "claims": {"dev": [["gpu", "d", "n2", "gpu-0"]]}}}
    for pod, fields in changes.items():
        ours[f"default/{pod}"] = {**ours[f"default/{pod}"], **fields}
    return ours


def test_the_same_verdict_agrees_and_a_tied_node_is_accepted():
    assert compare(ORACLE, _ours()) == []
    assert compare(ORACLE, _ours(a={"node": "n2"})) == []


def test_each_aspect_is_reported():
    assert [d.aspect for d in compare(ORACLE, _ours(a={"node": "n3"}))] == ["node"]
    assert [d.aspect for d in compare(ORACLE, _ours(b={"node": "n1"}))] == ["placed"]
    assert [d.aspect for d in compare(ORACLE, _ours(b={"message": "0/2 nodes are available."}))] == ["message"]
    assert [d.aspect for d in compare(ORACLE, _ours(c={"victims": []}))] == ["victims"]
    assert [d.aspect for d in compare(ORACLE, _ours(c={"claims": {"dev": [["gpu", "d", "n2", "gpu-1"]]}}))] == ["claims"]


def test_release_skew_entries_name_their_upstream_source():
    assert release_skew()
    assert all(entry["upstream"] and entry["what"] for entry in release_skew())


def test_scenarios_are_deterministic_and_cover_every_family():
    assert digest(generate(5)) == digest(generate(5))
    assert digest(generate(5)) != digest(generate(6))
    assert {generate(seed)["family"] for seed in range(len(FAMILIES))} == set(FAMILIES)


def test_the_simulator_reads_every_generated_pod():
    for seed in range(len(FAMILIES)):
        scenario = generate(seed)
        pods = {f"{o['metadata'].get('namespace', 'default')}/{o['metadata']['name']}"
                for o in scenario["manifests"] if o["kind"] == "Pod"}
        verdicts = simulate(scenario)
        assert set(verdicts) == pods
        assert any(v["node"] for v in verdicts.values()) or all(v["message"] for v in verdicts.values())


def test_following_keeps_the_simulators_own_choice_in_the_verdict():
    scenario = generate(0)  # five nodes, pods decided by resources only
    own = simulate(scenario)
    placed = {pod: v["node"] for pod, v in own.items() if v["node"]}
    assert placed
    elsewhere = {pod: next(n for n in ("n000", "n001", "n002", "n003", "n004") if n != node)
                 for pod, node in placed.items()}
    followed = simulate(scenario, elsewhere)
    first = next(f"default/{o['metadata']['name']}" for o in scenario["manifests"] if o["kind"] == "Pod")
    assert first in placed  # the first pod sees the same cluster either way: its own choice is reported
    assert followed[first]["node"] == placed[first] != elsewhere[first]
    assert chosen_nodes({"pods": {p: {"node": n} for p, n in placed.items()}}) == placed


def test_identical_gang_pods_are_matched_as_a_multiset():
    from tests.oracle.compare import interchangeable

    group = {"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup", "metadata": {"name": "g"}}
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
             "spec": {"schedulingGroup": {"podGroupName": "g"}, "containers": [{"name": "c", "image": "x"}]}}
            for name in ("g-0", "g-1")]
    other = {**pods[1], "metadata": {"name": "g-2", "namespace": "default"},
             "spec": {**pods[1]["spec"], "priority": 5}}
    twins = interchangeable({"manifests": [group, *pods, other]})
    assert twins == [["default/g-0", "default/g-1"]]  # g-2 differs in more than its name
    oracle = {"pods": {"default/g-0": {"node": None, "message": "waiting"}, "default/g-1": {"node": "n1"}}}
    swapped = {"default/g-0": {"node": "n1", "message": "", "victims": [], "claims": {}},
               "default/g-1": {"node": None, "message": "waiting", "victims": [], "claims": {}}}
    assert compare(oracle, swapped, twins) == []
    assert [d.aspect for d in compare(oracle, swapped)] == ["placed", "placed"]
    both_placed = {**swapped, "default/g-1": swapped["default/g-0"]}
    assert [d.aspect for d in compare(oracle, both_placed, twins)] == ["placed"]


def test_twins_are_matched_where_a_first_fit_would_fail():
    # the first fit would give a (ties n1, n2) the verdict n1 and leave b (n1 only) with n2
    oracle = {"pods": {"default/a": {"node": "n1", "ties": ["n1", "n2"]}, "default/b": {"node": "n1"}}}
    ours = {"default/a": {"node": "n1", "message": "", "victims": [], "claims": {}},
            "default/b": {"node": "n2", "message": "", "victims": [], "claims": {}}}
    assert compare(oracle, ours, [["default/a", "default/b"]]) == []


def _cluster(nodes: int) -> dict:
    pod = {"kind": "Pod", "metadata": {"name": "p0", "namespace": "default"}, "spec": {"containers": [{"name": "c"}]}}
    return {"snapshot": [{"kind": "Node", "metadata": {"name": f"n{i:03d}"}} for i in range(nodes)], "manifests": [pod]}


def test_a_node_difference_is_node_sampling_only_where_kube_scheduler_scores_a_subset():
    """numFeasibleNodesToFind: every node below 100 nodes; 100 of 200 (schedule_one.go)."""
    from tests.oracle.classify import classify
    from tests.oracle.compare import Difference

    verdict = {"pods": {"default/p0": {"node": "n150"}}}
    diff = Difference("default/p0", "node", "n150", "n003")
    assert classify(_cluster(200), verdict, diff) == "node-sampling"
    assert classify(_cluster(99), verdict, diff) == "resource-scoring"
    victims = {"pods": {"default/p0": {"node": "n150", "victims": ["default/b1"]}}}
    assert classify(_cluster(200), victims, diff) == "preemption-victims"
