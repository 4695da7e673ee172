"""Queue order when every pending object existed before the scheduler started (Simulation(queued_together=True), as
the oracle's harness runs kube-scheduler): a gang is tried at its first pod's creation, because the active queue
sorts by the time a pod was added and GangScheduling's PreEnqueue keeps that time while it holds the pod
(pkg/scheduler/backend/queue/scheduling_queue.go, framework/plugins/gangscheduling/gangscheduling.go)."""

from __future__ import annotations

from builders import node, pod, pod_group, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import Simulation


def _run(queued_together: bool) -> list[tuple[str, bool]]:
    manifests = [pod_group("g", min_count=2), pod("g-0", group="g"), pod("p"), pod("g-1", group="g")]
    sim = Simulation(snapshot(node("n", cpu="2")).overlay(manifests), all_on(NEWEST), queued_together=queued_together)
    return [(r.name, r.fits) for r in sim.run()]


def test_apply_in_front_of_a_running_scheduler_queues_the_gang_at_its_min_count_th_pod():
    assert _run(False) == [("p", True), ("g", False)]


def test_pods_pending_together_queue_the_gang_at_its_first_pod():
    assert _run(True) == [("g", True), ("p", False)]
