"""Pods sent back to the queue after their first attempt (sched/requeue.py): by a bound pod that a rejecting plugin's
queueing hint accepts. Victims' deletion and nominations are covered in test_preemption_scenarios.py."""

from __future__ import annotations

from builders import node, pod, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.requeue import matches_all
from kubectl_wasdra.sched.simulation import Simulation


def _with_affinity(name: str, app: str, priority: int) -> dict:
    manifest = pod(name, cpu="1", priority=priority)
    manifest["spec"]["affinity"] = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": "kubernetes.io/hostname"}]}}
    return manifest


def test_a_pod_rejected_by_pod_affinity_is_retried_when_a_matching_pod_is_bound():
    """InterPodAffinity's queueing hint requeues the pod when a bound pod matches all its required affinity terms
    (interpodaffinity/plugin.go isSchedulableAfterPodChange); a pod matching none of them does not."""
    objects = [node("n1", cpu="4", labels={"kubernetes.io/hostname": "n1"}),
               _with_affinity("a", "web", 10), _with_affinity("b", "db", 10),
               pod("w", cpu="1", priority=0, labels={"app": "web"})]
    results = {r.name: r for r in Simulation(snapshot(*objects), all_on(NEWEST)).run()}
    assert results["a"].placement == {"default/a": "n1"}
    assert not results["b"].fits and "didn't match pod affinity rules" in results["b"].message


def test_a_pod_rejected_by_topology_spread_is_retried_when_a_matching_pod_is_bound():
    """PodTopologySpread's queueing hint requeues the pod when a bound pod of its namespace matches a constraint's
    selector (podtopologyspread/plugin.go isSchedulableAfterPodChange): w2 on n2 evens the skew, so s fits on n1."""
    web = {"app": "web"}
    spread = [{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule",
               "labelSelector": {"matchLabels": web}}]
    objects = [node("n1", cpu="4", labels={"kubernetes.io/hostname": "n1"}),
               node("n2", cpu="1", labels={"kubernetes.io/hostname": "n2"}),
               pod("w1", cpu="1", node_name="n1", labels=web), pod("x", cpu="1", node_name="n2"),
               pod("s", cpu="1", priority=10, labels=web, topologySpreadConstraints=spread, preemptionPolicy="Never"),
               pod("w2", cpu=None, priority=0, labels=web, node_selector={"kubernetes.io/hostname": "n2"})]
    results = {r.name: r for r in Simulation(snapshot(*objects), all_on(NEWEST)).run()}
    assert results["w2"].placement == {"default/w2": "n2"}
    assert results["s"].placement == {"default/s": "n1"}


def test_matches_all_needs_every_term_and_at_least_one():
    """podMatchesAllAffinityTerms: no terms never match."""
    web = build_pod_info(_with_affinity("a", "web", 0), 0)
    assert matches_all(web.affinity_terms, build_pod_info(pod("w", labels={"app": "web"}), 0))
    assert not matches_all(web.affinity_terms, build_pod_info(pod("d", labels={"app": "db"}), 0))
    assert not matches_all((), build_pod_info(pod("w", labels={"app": "web"}), 0))
