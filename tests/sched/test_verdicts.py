"""Verdicts shared by pods of one shape: "no node fits" and per-node failures, reused only while they still hold."""

from __future__ import annotations

from builders import device_class, node, pod, resource_slice, snapshot
from builders import run_all as run

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.placement import diagnose_pod, find_node, pod_shape
from kubectl_wasdra.sched.simulation import Simulation

GPU = "gpu.example.com"
NUMA = "resource.kubernetes.io/numaNode"


def _claim(name: str, count: int) -> dict:
    request = {"name": "gpu", "exactly": {"deviceClassName": GPU, "count": count}}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name, "namespace": "ml"},
            "spec": {"devices": {"requests": [request], "constraints": [{"requests": ["gpu"], "matchAttribute": NUMA}]}}}


def _pod(name: str, claim: str) -> dict:
    return pod(name, namespace="ml", cpu="1", claims=[{"name": "gpus", "resourceClaimName": claim}])


def _cluster(gpus: int = 4) -> list[dict]:
    return [device_class(GPU, GPU), *(node(f"n{i}") for i in range(3)),
            *(resource_slice(f"n{i}", GPU, gpus, numa_split=2) for i in range(3))]


def test_pods_whose_claims_differ_by_name_share_a_shape_and_keep_their_own_claim_names():
    objects = [*_cluster(), _claim("big-a", 3), _claim("big-b", 3), _pod("a", "big-a"), _pod("b", "big-b")]
    sim = Simulation(snapshot(*objects), all_on(NEWEST))
    pods = {p.name: p for entry in sim.entries for p in entry.pods}
    state = sim.state
    assert pod_shape(pods["a"], state) == pod_shape(pods["b"], state)
    nodes = state.node_names
    assert find_node(pods["a"], state, nodes) is None
    assert state.no_fit  # the verdict is kept...
    assert find_node(pods["b"], state, nodes) is None  # ...and reused
    first, second = diagnose_pod(pods["a"], state, nodes), diagnose_pod(pods["b"], state, nodes)
    assert set(first.statuses) == set(second.statuses) == set(nodes)
    assert "ml/big-a " in first.statuses["n0"].details["funnel"]
    assert "ml/big-b " in second.statuses["n0"].details["funnel"]
    assert "big-a" not in second.statuses["n0"].details["funnel"]
    assert first.message() == second.message()


def test_a_verdict_ends_when_a_rollback_frees_devices():
    objects = [*_cluster(gpus=2), _claim("two", 2), _claim("two-more", 2), _claim("two-again", 2), _claim("last", 2),
               _pod("p0", "two"), _pod("p1", "two-more"), _pod("p2", "two-again"), _pod("p3", "last")]
    sim = Simulation(snapshot(*objects), all_on(NEWEST))
    pods = {p.name: p for entry in sim.entries for p in entry.pods}
    state, nodes = sim.state, sim.state.node_names
    mark = state.begin()
    for name in ("p0", "p1", "p2"):
        target = find_node(pods[name], state, nodes)
        assert target is not None
        state.assume(pods[name], target)
    assert find_node(pods["p3"], state, nodes) is None  # every node's two GPUs are taken
    state.rollback(mark)
    assert find_node(pods["p3"], state, nodes) is not None  # freed again: the old verdict no longer holds


def test_results_are_the_same_whatever_the_claim_names():
    objects = [*_cluster(), *(_claim(f"c{i}", 2) for i in range(8)), *(_pod(f"p{i}", f"c{i}") for i in range(8))]
    results = run(snapshot(*objects[:-8]), *objects[-8:])
    fitted = sorted(name for name, r in results.items() if r.fits)
    assert len(fitted) == 6  # three nodes, two NUMA halves each
    unfit = [results[name] for name in results if not results[name].fits]
    assert {r.message.split(".")[0] for r in unfit} == {"0/3 nodes are available: 3 cannot allocate all claims"}
