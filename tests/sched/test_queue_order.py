"""Queue order of manifests without a creationTimestamp: the order `kubectl apply -f` creates them in."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import node, pod, pod_group, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.run import load_manifests
from kubectl_wasdra.load.files import expand_paths
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import Simulation

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "queue-order"


def _run(*manifests):
    sim = Simulation(snapshot(node("n", cpu="4")).overlay(manifests), all_on(NEWEST))
    return [(r.name, r.fits) for r in sim.run()]


def test_document_order_beats_names():
    overlay = load_manifests([str(FIXTURE / "manifests.yaml")])
    assert _run(*overlay.objects) == [("zz-first", True), ("aa-second", False)]


def test_file_order_then_document_order(tmp_path):
    (tmp_path / "1.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: zz}\nspec:\n  containers:\n"
                                     "  - {name: c, image: x, resources: {requests: {cpu: '3'}}}\n")
    (tmp_path / "2.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: aa}\nspec:\n  containers:\n"
                                     "  - {name: c, image: x, resources: {requests: {cpu: '3'}}}\n")
    overlay = load_manifests([str(tmp_path)])
    assert _run(*overlay.objects) == [("zz", True), ("aa", False)]


def test_priority_still_comes_first():
    low, high = pod("zz", cpu="3"), pod("aa", cpu="3", priority=10)
    assert _run(low, high) == [("aa", True), ("zz", False)]


def test_older_pods_come_before_new_manifests():
    old = pod("zz-old", cpu="3", created="2026-01-01T00:00:00Z")
    assert _run(pod("aa-new", cpu="3"), old) == [("zz-old", True), ("aa-new", False)]


def test_gang_joins_the_queue_with_its_min_count_th_pod():
    gang = pod_group("g", min_count=2)
    members = [pod(f"g-{i}", cpu="1", group="g") for i in range(2)]
    single = pod("aa-single", cpu="3")
    # created in this order: the group, one member, the single pod, the second member
    results = _run(gang, members[0], single, members[1])
    assert results == [("aa-single", True), ("g", False)]


def test_directory_walk_reads_a_subdirectory_before_a_longer_sibling_name(tmp_path):
    (tmp_path / "b").mkdir()
    for path in ("b/x.yaml", "b-c.yaml", "a.yaml"):
        (tmp_path / path).write_text("{}\n")
    files, _ = expand_paths([str(tmp_path)])
    assert [Path(f).relative_to(tmp_path).as_posix() for f in files] == ["a.yaml", "b/x.yaml", "b-c.yaml"]


def test_complete_gang_goes_before_a_pod_created_after_it():
    gang = pod_group("g", min_count=2)
    members = [pod(f"g-{i}", cpu="1", group="g") for i in range(2)]
    results = _run(gang, *members, pod("aa-single", cpu="3"))
    assert results == [("g", True), ("aa-single", False)]


def _gang_order_run(minor: int, first: str):
    """A gang of two on a labelled 4-CPU node and a 2-CPU node: `big` (3 CPU) must go to the labelled node, `small`
    (1.5 CPU) fits either. Tried big first, both fit; tried small first, small takes the emptier labelled node and
    big no longer fits anywhere."""
    from kubectl_wasdra.catalog.releases import Release

    version = "scheduling.k8s.io/v1alpha2" if minor == 36 else "scheduling.k8s.io/v1beta1"
    members = {"big": pod("big", cpu="3", group="g", node_selector={"big": "yes"}),
               "small": pod("small", cpu="1500m", group="g")}
    cluster = snapshot(node("n1", cpu="4", labels={"big": "yes"}), node("n2", cpu="2"))
    manifests = [pod_group("g", min_count=2, api_version=version), members[first],
                 members["small" if first == "big" else "big"]]
    results = Simulation(cluster.overlay(manifests), all_on(Release(1, minor))).run()
    return {r.name: r.fits for r in results}["g"]


@pytest.mark.parametrize(("first", "fits"), [("big", True), ("small", False)], ids=["big-created-first", "small-created-first"])
def test_1_37_gang_cycle_tries_pods_in_queue_order(first, fits):
    # PodGroupMemberPodsOrderingFunc: equal priority and attempts, so the earlier-queued (created) pod goes first
    assert _gang_order_run(37, first) is fits


@pytest.mark.parametrize(("first", "fits"), [("big", False), ("small", True)], ids=["big-created-first", "small-created-first"])
def test_1_36_gang_cycle_tries_the_pod_that_completed_min_count_first(first, fits):
    # the second pod created releases the gang at PreEnqueue and gets the earliest InitialAttemptTimestamp
    assert _gang_order_run(36, first) is fits

