"""Preemption end to end in the simulation: the gang cases that matter for workloads (a gang preempting a gang, a victim group
evicted whole by a single pod, preemptionPolicy Never with and without PodGroupPreemptionPolicy), the release gating
of workload-aware preemption, and the 1.37 texts."""

from __future__ import annotations

from builders import node, pod, pod_group, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import Gates, all_on
from kubectl_wasdra.sched.simulation import Simulation


def _run(*objects, gates=None):
    return {r.name: r for r in Simulation(snapshot(*objects), gates or all_on(NEWEST)).run()}


def _whole(name, priority):
    group = pod_group(name, priority=priority)
    group["spec"]["disruptionMode"] = {"all": {}}
    return group


def _full_cluster():
    """Two 2-cpu nodes: an `all` group of priority 0 with a pod on each, and a priority-50 pod on n2."""
    return [node("n1", cpu="2"), node("n2", cpu="2"), _whole("batch", 0),
            pod("b0", cpu="2", node_name="n1", group="batch", priority=0),
            pod("b1", cpu="1", node_name="n2", group="batch", priority=0), pod("svc", cpu="1", node_name="n2", priority=50)]


def test_single_pod_evicts_a_victim_group_whole_across_nodes():
    result = _run(*_full_cluster(), pod("urgent", cpu="2", priority=100))["urgent"]
    answer = result.extra["preemption"]
    assert result.message == "0/2 nodes are available: 2 Insufficient cpu."  # preemption helps: no tail
    assert answer.nominated == {"default/urgent": "n1"}
    assert {(v.name, v.node, v.whole_group) for v in answer.victims} == {("b0", "n1", True), ("b1", "n2", True)}


def test_gang_preempts_lower_priority_but_never_higher():
    objects = [*_full_cluster(), pod_group("train", min_count=2, priority=40),
               *(pod(f"t{i}", cpu="1", group="train", priority=40) for i in range(2))]
    answer = _run(*objects)["train"].extra["preemption"]
    assert answer.helps and {v.name for v in answer.victims} == {"b0", "b1"}  # svc (50 > 40) stays


def test_preemption_policy_never_with_and_without_the_policy_gate():
    members = [pod(f"t{i}", cpu="1", group="train", priority=40, preemptionPolicy="Never") for i in range(2)]
    group = pod_group("train", min_count=2, priority=40)
    off = _run(*_full_cluster(), group, *members)["train"]  # gate off: any member saying Never decides
    assert off.message.endswith(", pod group preemption: not eligible due to preemptionPolicy=Never.")
    gates = all_on(NEWEST)
    gates = Gates(gates.release, {**gates.enabled_gates, "PodGroupPreemptionPolicy": True}, gates.runtime_config)
    group["spec"]["preemptionPolicy"] = "Never"
    on = _run(*_full_cluster(), group, *members, gates=gates)["train"]
    assert not on.extra["preemption"].helps and not on.extra["preemption"].attempted


def test_single_pod_never_and_no_victims_texts():
    never = _run(*_full_cluster(), pod("quiet", cpu="2", priority=100, preemptionPolicy="Never"))["quiet"]
    assert never.message.endswith("no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.")
    group = pod_group("train", min_count=2, priority=0)
    low = _run(*_full_cluster(), group, *(pod(f"t{i}", cpu="1", group="train", priority=0) for i in range(2)))["train"]
    assert low.message.endswith(", pod group preemption: No preemption victims found for incoming preemptor")


def test_1_36_preempts_for_groups_only_with_its_alpha_gate():
    release = NEWEST.previous()
    objects = [*_full_cluster(), pod_group("train", min_count=2, priority=40, api_version="scheduling.k8s.io/v1alpha2"),
               *(pod(f"t{i}", cpu="1", group="train", priority=40) for i in range(2))]
    runtime = {"scheduling.k8s.io/v1alpha2": True}
    without = _run(*objects, gates=Gates(release, {"GenericWorkload": True}, runtime))["train"]
    assert "preemption" not in without.extra and "pod group preemption" not in without.message
    with_gate = _run(*objects, gates=Gates(release, {"GenericWorkload": True, "WorkloadAwarePreemption": True}, runtime))
    assert with_gate["train"].extra["preemption"].helps


def test_group_reprieve_rechecks_members_against_returning_anti_affinity():
    """A victim on another node of the member's zone whose required anti-affinity selects the member is not spared:
    putting it back would fail InterPodAffinity's existing-pods check on the member's node."""
    zone = {"topology.kubernetes.io/zone": "z"}
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "gang"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}
    objects = [node("n1", cpu="4", labels=zone), node("n2", cpu="1", labels=zone),
               pod("filler", cpu="4", node_name="n1", priority=0),
               pod("guard", cpu="100m", node_name="n2", priority=0, affinity=anti),
               pod_group("train", min_count=1, priority=40),
               pod("t0", cpu="2", group="train", priority=40, labels={"app": "gang"})]
    answer = _run(*objects)["train"].extra["preemption"]
    assert answer.nominated == {"default/t0": "n1"}
    assert {(v.name, v.node) for v in answer.victims} == {("filler", "n1"), ("guard", "n2")}


def test_evicting_a_victim_frees_its_disk_for_volume_restrictions():
    """VolumeRestrictions' disk conflict is Unschedulable: with the lower-priority holder of the disk removed in the
    dry run, the node fits, as SelectVictimsOnNode finds."""
    disk = [{"name": "data", "gcePersistentDisk": {"pdName": "shared"}}]
    result = _run(node("n1", cpu="4"), pod("old", cpu="1", node_name="n1", priority=0, volumes=disk),
                  pod("urgent", cpu="1", priority=100, volumes=disk))["urgent"]
    assert result.message == "0/1 nodes are available: 1 node(s) had no available disk."  # preemption helps: no tail
    answer = result.extra["preemption"]
    assert answer.nominated == {"default/urgent": "n1"}
    assert [(v.name, v.node) for v in answer.victims] == [("old", "n1")]


def test_group_placed_after_removing_victims_is_scored_without_them():
    """Inside group preemption's cycle the removed victims no longer count for NodeResourcesFit's score: n1, less
    allocated once its 4-cpu victim is gone, is chosen and that victim evicted (not n2's)."""
    objects = [node("n1", cpu="8", pods=2), node("n2", cpu="8", pods=2),
               pod("v1", cpu="4", node_name="n1", priority=0), pod("k1", cpu="1", node_name="n1", priority=100),
               pod("v2", cpu=None, node_name="n2", priority=0), pod("k2", cpu="2", node_name="n2", priority=100),
               pod_group("train", min_count=1, priority=40), pod("t0", cpu="1", group="train", priority=40)]
    answer = _run(*objects)["train"].extra["preemption"]
    assert answer.nominated == {"default/t0": "n1"}
    assert [(v.name, v.node) for v in answer.victims] == [("v1", "n1")]


def _terminating(obj):
    obj["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    obj["status"]["conditions"] = [{"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}]
    return obj


def test_pod_eligible_to_preempt_others():  # TestPodEligibleToPreemptOthers, end to end
    nominated = {"phase": "Pending", "nominatedNodeName": "n1"}
    waiting = pod("urgent", cpu="2", priority=100)
    waiting["status"] = nominated
    victim = _terminating(pod("old", cpu="2", node_name="n1", priority=0))
    result = _run(node("n1", cpu="2"), victim, waiting)["urgent"]
    assert result.message.endswith("preemption: not eligible due to a terminating pod on the nominated node.")
    higher = _terminating(pod("old", cpu="2", node_name="n1", priority=500))  # not a victim: eligible, nothing to evict
    result = _run(node("n1", cpu="2"), higher, waiting)["urgent"]
    assert result.message.endswith("No preemption victims found for incoming pod.")
    # the nominated node is now UnschedulableAndUnresolvable (tainted): preempt afresh elsewhere
    tainted = node("n1", cpu="2", taints=[{"key": "k", "effect": "NoSchedule"}])
    result = _run(tainted, node("n2", cpu="2"), victim, pod("low", cpu="2", node_name="n2", priority=0), waiting)["urgent"]
    assert result.extra["preemption"].nominated == {"default/urgent": "n2"}


def _after_preemption(*pending):
    """One 4-cpu node full with a priority-0 pod; `urgent` (priority 100, 3 cpu) preempts it, then `pending`."""
    return _run(node("n1", cpu="4"), pod("v", cpu="4", node_name="n1", priority=0),
                pod("urgent", cpu="3", priority=100), *pending)


def test_pods_after_a_preemptor_count_it_on_its_nominated_node_once_the_victims_are_gone():
    """kube-scheduler deletes the victims while the next pod is tried (which still sees them) and retries the pods that
    did not fit; the nominated preemptor then holds 3 of the node's 4 cpu: 1 cpu fits, 2 do not."""
    results = _after_preemption(pod("tiny", cpu="1", priority=0), pod("two", cpu="2", priority=0, preemptionPolicy="Never"))
    assert results["urgent"].extra["preemption"].nominated == {"default/urgent": "n1"}
    assert results["tiny"].placement == {"default/tiny": "n1"}
    assert results["two"].message == ("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
                                      "preemption: not eligible due to preemptionPolicy=Never.")
    assert [p.name for p in results["two"].state.pods["n1"]] == ["urgent", "tiny"]  # the victim is gone


def test_the_pod_right_after_a_preemptor_still_sees_the_victims():
    """The victims' deletion is asynchronous (preemption/executor.go): the next pod fails against them, and only its
    retry after the deletion places it."""
    simulation = Simulation(snapshot(node("n1", cpu="4"), pod("v", cpu="4", node_name="n1", priority=0),
                                     pod("urgent", cpu="3", priority=100), pod("tiny", cpu="1", priority=0)),
                            all_on(NEWEST))
    first = {}
    original = simulation._place_guarded

    def place(entry):
        result = original(entry)
        first.setdefault(entry.name, result)
        return result

    simulation._place_guarded = place
    final = {r.name: r for r in simulation.run()}
    assert not first["tiny"].fits and final["tiny"].fits


def test_without_eviction_later_pods_still_see_the_victims():
    simulation = Simulation(snapshot(node("n1", cpu="4"), pod("v", cpu="4", node_name="n1", priority=0),
                                     pod("urgent", cpu="3", priority=100), pod("tiny", cpu="1", priority=0)),
                            all_on(NEWEST))
    simulation.evict = False
    results = {r.name: r for r in simulation.run()}
    assert results["urgent"].extra["preemption"].helps and not results["tiny"].fits


def test_a_victim_already_being_deleted_is_not_the_next_preemptors():
    """Two preemptors of equal priority right after each other find the same victim: the second one's delete call finds
    it gone and records no Preempted event (preemption/executor.go), so only the first names it."""
    results = _run(node("n1", cpu="4"), pod("v", cpu="4", node_name="n1", priority=0),
                   pod("first", cpu="2", priority=100), pod("second", cpu="2", priority=100))
    assert [v.name for v in results["first"].extra["preemption"].victims] == ["v"]
    assert results["second"].extra["preemption"].victims == []
    assert results["second"].extra["preemption"].nominated == {"default/second": "n1"}


def test_a_higher_priority_pod_retried_after_the_deletion_takes_the_nominated_node():
    """`big` (Never) fails first; `mid` preempts v1 on n1. When v1 is gone both are tried again by priority: `big`
    ignores the lower-priority nomination and takes n1, so `mid` no longer fits there and preempts v2 on n2; it evicted
    both (executor.go deletes each candidate's victims, framework.go addGENominatedPods counts only nominated pods of
    equal or higher priority)."""
    results = _run(node("n1", cpu="4"), node("n2", cpu="4"),
                   pod("v1", cpu="4", node_name="n1", priority=0), pod("v2", cpu="4", node_name="n2", priority=0),
                   pod("big", cpu="4", priority=1000, preemptionPolicy="Never"), pod("mid", cpu="4", priority=100),
                   pod("filler", cpu="1", priority=0, preemptionPolicy="Never"))
    assert results["big"].placement == {"default/big": "n1"}
    answer = results["mid"].extra["preemption"]
    assert answer.nominated == {"default/mid": "n2"}
    assert [v.name for v in answer.victims] == ["v1", "v2"]
    assert not results["filler"].fits
