"""Victim order: Go's sort.Slice with MoreImportantPod over the node's pods in kube-scheduler's cache order, where a
pod without status.startTime reads time.Now() (pkg/scheduler/util/utils.go GetPodStartTime, MoreImportantPod)."""

from __future__ import annotations

import pytest
from builders import node, pod, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.preemption import preempt
from kubectl_wasdra.sched.simulation import Simulation
from kubectl_wasdra.sched.status import Status
from kubectl_wasdra.sched.victims import Unit, more_important, sort_by_importance


def _unit(name: str, priority: int, start: str | None = None) -> Unit:
    manifest = pod(name, priority=priority, node_name="n1")
    if start:
        manifest["status"]["startTime"] = start
    return Unit((build_pod_info(manifest, priority),), priority)


@pytest.mark.parametrize(("units", "expected"), [
    ([("a", 0, None), ("b", 0, None), ("c", 0, None)], ["c", "b", "a"]),  # not started, tied: each moves to the front
    ([("a", 0, "2026-01-01T00:00:00Z"), ("b", 0, "2026-01-01T00:00:00Z")], ["a", "b"]),  # equal times: kept
    ([("a", 0, "2026-01-02T00:00:00Z"), ("b", 0, "2026-01-01T00:00:00Z")], ["b", "a"]),  # earlier start first
    ([("a", 0, None), ("b", 0, "2026-01-01T00:00:00Z")], ["b", "a"]),  # started before now
    ([("a", 0, None), ("h", 9, None), ("b", 0, None)], ["h", "b", "a"]),  # priority first, ties reversed
], ids=["unstarted-ties-reverse", "equal-start-kept", "earlier-start", "started-before-unstarted", "priority-then-ties"])
def test_sort_by_importance_runs_go_insertion_sort(units, expected):
    assert [u.pods[0].name for u in sort_by_importance([_unit(*u) for u in units])] == expected


def test_the_first_pod_by_name_is_evicted_among_identical_pods_without_start_times():
    """Cache order a, b, c (by name, as the API server lists them) sorts to c, b, a; c and b are reprieved."""
    objects = [node("n1", cpu="3"), *(pod(n, cpu="1", node_name="n1", priority=0) for n in ("c", "a", "b")),
               pod("urgent", cpu="1", priority=100)]
    result = {r.name: r for r in Simulation(snapshot(*objects), all_on(NEWEST)).run()}["urgent"]
    assert [v.name for v in result.extra["preemption"].victims] == ["a"]


def test_a_pod_the_simulation_placed_can_be_a_victim_on_its_node():
    """A pending pod placed earlier in the run has no spec.nodeName; preemption still takes it off the node it was
    placed on and names that node."""
    simulation = Simulation(snapshot(node("n1", cpu="2"), pod("low", cpu="2", priority=0)), all_on(NEWEST))
    assert simulation.run()[0].placement == {"default/low": "n1"}
    urgent = build_pod_info(pod("urgent", cpu="2", priority=100), 100)
    error = FitError(urgent.key, 1, {"n1": Status.unschedulable(Reason.INSUFFICIENT_RESOURCE, "Insufficient cpu")})
    answer = preempt(urgent, error, simulation.state, simulation.preemption_context)
    assert answer.nominated == {"default/urgent": "n1"}
    assert [(v.name, v.node) for v in answer.victims] == [("low", "n1")]


def _go_insertion_sort(units: list[Unit]) -> list[Unit]:
    """Go's insertionSortLessFunc with more_important as Less, literally."""
    out = list(units)
    for i in range(1, len(out)):
        j = i
        while j > 0 and more_important(out[j], out[j - 1]):
            out[j], out[j - 1] = out[j - 1], out[j]
            j -= 1
    return out


@pytest.mark.parametrize("seed", range(20))
def test_sort_by_importance_equals_go_insertion_sort_on_short_slices(seed):
    import random

    chooser = random.Random(seed)
    starts = [None, "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"]
    units = [_unit(f"p{i}", chooser.choice([0, 5]), chooser.choice(starts)) for i in range(chooser.randint(1, 12))]
    assert sort_by_importance(units) == _go_insertion_sort(units)
