"""The PodScheduled=False message of each pod of a pod group under kube-scheduler 1.36 (v1.36.2): the pod's own
FitError with the PostFilter text, or the gang Permit's wait for pods that fit in a gang that failed; 1.37 keeps
the group's placement summary. Upstream: pkg/scheduler/schedule_one_podgroup.go, schedule_one.go
(schedulingAlgorithm), framework/types.go (FitError.Error), plugins/defaultpreemption/default_preemption.go (PostFilter;
its test table is fixtures/sched/upstream-podgroup/postfilter.yaml), plugins/dynamicresources/dynamicresources.go.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from builders import claim_template, device_class, node, pod, pod_group, resource_slice, snapshot

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.pod_conditions import WAITING_FOR_GANG
from kubectl_wasdra.sched.simulation import Simulation

TABLE = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "upstream-podgroup" / "postfilter.yaml"
CASES = yaml.safe_load(TABLE.read_text())["cases"]
GATE_NAMES = {"TAS": "TopologyAwareWorkloadScheduling", "WAP": "WorkloadAwarePreemption"}
V1ALPHA2 = "scheduling.k8s.io/v1alpha2"
NO_CLAIMS = "no new claims to deallocate"
NO_VICTIMS = "No preemption victims found for incoming pod"


def _gates(release: str = "1.36", *extra: str):
    gang = {"GangScheduling": True} if release == "1.36" else {}  # 1.37 merged GangScheduling into GenericWorkload
    gates = {**gang, "GenericWorkload": True, **dict.fromkeys(extra, True)}
    return make_gates(Release.parse(release), gates, {V1ALPHA2: True, "scheduling.k8s.io/v1beta1": True})


def _result(objects, gates, name="g"):
    return next(r for r in Simulation(snapshot(*objects), gates).run() if r.name == name)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_default_preemption_post_filter_of_a_pod_group_pod(case):
    objects = [node("node1", pods=1, labels={"rack": "r1"}), pod("p1", node_name="node1", priority=0),
               pod_group("foo", min_count=1, topology_key="rack" if case["topology"] else None, api_version=V1ALPHA2),
               pod("p-with-podgroup", group="foo", priority=1000)]
    result = _result(objects, _gates("1.36", *(GATE_NAMES[g] for g in case["gates"])), "foo")
    tails = result.outcome.attempts[0].tails
    want = f"{NO_CLAIMS}, {case['want']}" if case["want"] else ""  # DynamicResources' PostFilter runs first
    assert tails == {"default/p-with-podgroup": want}


def _api(release: str) -> str:
    return V1ALPHA2 if release == "1.36" else "scheduling.k8s.io/v1beta1"  # 1.36 serves PodGroup as v1alpha2 only


def _gang_on_two_nodes(release: str):
    objects = [node("n1", cpu="2"), node("n2", cpu="2"), pod_group("g", min_count=3, api_version=_api(release))]
    objects += [pod(f"g-{i}", cpu="2", group="g") for i in range(3)]
    return _result(objects, _gates(release))


def test_1_36_each_pod_of_a_failed_gang_gets_its_own_message():
    result = _gang_on_two_nodes("1.36")
    assert not result.fits
    # 1.36 tries first the pod that completed minCount (g-2), then the others in creation order (sched/queue.py)
    assert result.pod_messages == {
        "default/g-2": WAITING_FOR_GANG,
        "default/g-0": WAITING_FOR_GANG,
        "default/g-1": f"0/2 nodes are available: 2 Insufficient cpu. {NO_CLAIMS}, "
                       f"preemption: 0/2 nodes are available: 2 {NO_VICTIMS}.",
    }
    assert result.message.startswith("minCount (3) cannot be satisfied")  # the group summary explain shows stays


def test_1_37_keeps_the_group_summary():
    result = _gang_on_two_nodes("1.37")
    assert not result.fits and result.pod_messages == {}
    assert result.message.startswith("minCount (3) cannot be satisfied: 2 scheduled, 0 remaining")


def test_1_36_tries_every_pod_where_1_37_stops_early():
    def objects(release):
        return [node("n1", cpu="2"), pod_group("g", min_count=3, api_version=_api(release))] + [
            pod(f"g-{i}", cpu="2", group="g") for i in range(3)]

    old, new = _result(objects("1.36"), _gates("1.36")), _result(objects("1.37"), _gates("1.37"))
    assert sorted(old.outcome.attempts[0].failed) == ["default/g-0", "default/g-1"]  # g-2 (tried first) fits
    assert new.message.startswith("minCount (3) cannot be satisfied: 1 scheduled, 1 remaining")
    assert old.pod_messages["default/g-0"] == old.pod_messages["default/g-1"] != WAITING_FOR_GANG


def test_topology_groups_report_any_failed_placement():
    objects = [node("a1", cpu="2", labels={"rack": "a"}), node("b1", cpu="1", labels={"rack": "b"}),
               node("b2", cpu="1", labels={"rack": "b"}),
               pod_group("g", min_count=2, topology_key="rack", api_version=V1ALPHA2)]
    objects += [pod(f"g-{i}", cpu="2", group="g") for i in range(2)]
    result = _result(objects, _gates("1.36", "TopologyAwareWorkloadScheduling"))
    limitation = f"{NO_CLAIMS}, preemption: not eligible due to placement-based pod group scheduling limitation"
    in_a = f"0/1 nodes are available: 1 Insufficient cpu. {limitation}"
    in_b = f"0/2 nodes are available: 2 Insufficient cpu. {limitation}"
    # g-1 (which completed minCount) is tried first; rack a comes first by name
    assert result.pod_messages == {"default/g-1": WAITING_FOR_GANG, "default/g-0": in_a}
    assert result.message_alternatives == {"default/g-1": {WAITING_FOR_GANG, in_b}, "default/g-0": {in_a, in_b}}


def test_a_pod_with_claims_has_nothing_new_to_deallocate_either():
    objects = [node("n1"), device_class("gpu", "gpu.example.com"), resource_slice("n1", "gpu.example.com", 1),
               claim_template("one-gpu", "gpu"), pod_group("g", min_count=2, api_version=V1ALPHA2)]
    objects += [pod(f"g-{i}", group="g", claims=[{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}])
                for i in range(2)]
    result = _result(objects, _gates("1.36", "TopologyAwareWorkloadScheduling"))
    assert result.pod_messages["default/g-1"] == WAITING_FOR_GANG
    # the claim's template makes a claim: DynamicResources' PostFilter finds it unallocated ("still not schedulable")
    assert result.pod_messages["default/g-0"] == ("0/1 nodes are available: 1 cannot allocate all claims. still not "
                                                  "schedulable, preemption: 0/1 nodes are available: 1 Preemption is "
                                                  "not helpful for scheduling.")


def test_explain_words_the_first_failed_pod_with_its_post_filter_text():
    from kubectl_wasdra.explain.diagnose import diagnose

    old, new = diagnose(_gang_on_two_nodes("1.36")), diagnose(_gang_on_two_nodes("1.37"))
    assert old.pod_message == f"0/2 nodes are available: 2 Insufficient cpu. {NO_CLAIMS}, " \
                              f"preemption: 0/2 nodes are available: 2 {NO_VICTIMS}."
    assert new.pod_message == "0/2 nodes are available: 2 Insufficient cpu."
    assert old.scheduler_message == "pod group is unschedulable"  # what 1.36 records on the PodGroup
    assert any(r.message.startswith("minCount (3) cannot be satisfied") for r in old.reasons)  # our summary stays


def test_1_36_schedules_a_gang_whose_pods_priority_differs_from_the_group():
    objects = [node("n"), pod_group("g", min_count=2, api_version=V1ALPHA2), pod("g-0", group="g", priority=10),
               pod("g-1", group="g", priority=5)]
    assert _result(objects, _gates("1.36")).fits


def test_1_36_words_mixed_scheduler_names_its_own_way():
    objects = [node("n"), pod_group("g", min_count=2, api_version=V1ALPHA2), pod("g-0", group="g"),
               pod("g-1", group="g", schedulerName="other")]
    result = _result(objects, _gates("1.36"))
    # g-1 completed minCount, so the cycle holds it first; the first pod that differs from it is named first
    assert result.message == ('all pods in a single pod group should have the same .spec.schedulerName set, got: '
                              '"default-scheduler" and "other"')


def test_1_36_queues_a_group_by_its_pods_priority():
    # PrioritySort compares pods: the gang's priority-10 pods go before the priority-5 pod created first, although
    # the group itself names no PriorityClass (priority 0)
    objects = [node("n", cpu="2"), pod("p", cpu="2", priority=5), pod_group("g", min_count=2, api_version=V1ALPHA2),
               pod("g-0", group="g", priority=10), pod("g-1", group="g", priority=10)]
    results = Simulation(snapshot(*objects), _gates("1.36")).run()
    assert [(r.name, r.fits) for r in results] == [("g", True), ("p", False)]


def test_a_failed_gang_is_worded_as_its_last_retry():
    # kube-scheduler keeps retrying a failed group until the queue settles: by the last retry p holds 1 of the 2
    # cpus and neither gang pod fits (the first try left g-1 waiting on its gang)
    objects = [node("n", cpu="2"), pod_group("g", min_count=2, api_version=V1ALPHA2),
               pod("g-0", cpu="1500m", group="g"), pod("g-1", cpu="1500m", group="g"), pod("p", cpu="1")]
    results = {r.name: r for r in Simulation(snapshot(*objects), _gates("1.36")).run()}
    assert results["p"].fits and not results["g"].fits
    retried = f"0/1 nodes are available: 1 Insufficient cpu. {NO_CLAIMS}, preemption: 0/1 nodes are available: " \
              f"1 {NO_VICTIMS}."
    assert results["g"].pod_messages == {"default/g-1": retried, "default/g-0": retried}
    alone = next(r for r in Simulation(snapshot(*objects[:-1]), _gates("1.36")).run() if r.name == "g")
    assert alone.pod_messages["default/g-1"] == WAITING_FOR_GANG  # nothing placed after it: no retry


def test_1_36_pod_group_condition_is_the_algorithm_status():
    from kubectl_wasdra.explain.diagnose import diagnose

    without_tas = _gang_on_two_nodes("1.36")
    assert without_tas.group_condition == "pod group is unschedulable"  # podGroupSchedulingDefaultAlgorithm
    objects = [node("n1", cpu="2"), node("n2", cpu="2"), pod_group("g", min_count=3, api_version=V1ALPHA2)]
    objects += [pod(f"g-{i}", cpu="2", group="g") for i in range(3)]
    with_tas = _result(objects, _gates("1.36", "TopologyAwareWorkloadScheduling"))
    # podGroupSchedulingPlacementAlgorithm: a group without constraints has one placement, its parent placement
    assert with_tas.group_condition == "0/1 placements are available, first placement status: pod group is unschedulable"
    assert diagnose(with_tas).scheduler_message == with_tas.group_condition
    assert _gang_on_two_nodes("1.37").group_condition == ""  # 1.37 keeps the simulator's group message


def test_without_preemption_a_failed_pod_keeps_its_fit_error_alone():
    objects = [node("n1", cpu="2"), node("n2", cpu="2"), pod_group("g", min_count=3, api_version=V1ALPHA2)]
    objects += [pod(f"g-{i}", cpu="2", group="g") for i in range(3)]
    sim = Simulation(snapshot(*objects), _gates("1.36"))
    sim.preemption = False  # --no-preemption
    result = next(r for r in sim.run() if r.name == "g")
    assert result.pod_messages["default/g-1"] == "0/2 nodes are available: 2 Insufficient cpu."
    assert result.pod_messages["default/g-0"] == WAITING_FOR_GANG


def test_a_gang_whose_pods_all_failed_is_retried_too():
    objects = [node("n", cpu="2", pods=1), pod_group("g", min_count=2, api_version=V1ALPHA2),
               pod("g-0", cpu="3", group="g"), pod("g-1", cpu="3", group="g"), pod("p", cpu="1")]
    results = {r.name: r for r in Simulation(snapshot(*objects), _gates("1.36")).run()}
    assert results["p"].fits  # placed after the gang failed: the gang's last retry sees the node full
    assert results["g"].pod_messages["default/g-0"] == (
        f"0/1 nodes are available: 1 Insufficient cpu, 1 Too many pods. {NO_CLAIMS}, preemption: 0/1 nodes are "
        "available: 1 Preemption is not helpful for scheduling.")
