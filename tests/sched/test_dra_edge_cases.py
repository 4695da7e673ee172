"""DRA allocator edge cases through the scheduler: shared devices, invalid pools on other nodes, list attributes."""

from __future__ import annotations

from builders import capacity_claim, device_class, node, pod, snapshot
from builders import run_all as run

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on

NIC = "nic.example.com"


def _slice(name: str, node_name: str, devices: list[dict], *, pool: str | None = None, count: int = 1, **spec: object) -> dict:
    body = {"driver": NIC, "nodeName": node_name, "pool": {"name": pool or node_name, "generation": 1,
                                                           "resourceSliceCount": count}, **spec}
    if devices:
        body["devices"] = devices
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": name}, "spec": body}


def _claim(name: str, capacity: str | None = None) -> dict:
    return capacity_claim(name, NIC, {"bandwidth": capacity} if capacity else None)


SHARED = {"name": "nic-0", "allowMultipleAllocations": True, "capacity": {"bandwidth": {"value": "10G"}}}


def test_one_shared_device_serves_two_claims_of_one_pod() -> None:
    """Two claims, one device allowing multiple allocations: no device count rejects the node, capacity decides."""
    cluster = snapshot(node("n0"), device_class(NIC, NIC), _slice("n0-nic", "n0", [SHARED]))
    claims = [{"name": "a", "resourceClaimName": "a"}, {"name": "b", "resourceClaimName": "b"}]
    fits = run(cluster, _claim("a", "4G"), _claim("b", "4G"), pod("p", claims=claims), gates=all_on(NEWEST))
    assert fits["p"].fits and fits["p"].placement == {"default/p": "n0"}
    too_big = run(cluster, _claim("a", "6G"), _claim("b", "6G"), pod("p", claims=claims), gates=all_on(NEWEST))
    assert not too_big["p"].fits  # 6G + 6G exceed the device's 10G


def test_invalid_slice_for_another_node_makes_the_pool_invalid_here() -> None:
    """A pool spanning two nodes: node n1's slice has a device consuming a counter set that does not exist, so the pool
    is invalid for n0 too (pools_incubating.go buildPool validates the slices not targeting the node)."""
    counters = [{"name": "gpu-0", "counters": {"memory": {"value": "80Gi"}}}]
    good = {"name": "gpu-0", "consumesCounters": [{"counterSet": "gpu-0", "counters": {"memory": {"value": "10Gi"}}}]}
    bad = {"name": "gpu-1", "consumesCounters": [{"counterSet": "missing", "counters": {"memory": {"value": "10Gi"}}}]}
    cluster = snapshot(node("n0"), node("n1"), device_class(NIC, NIC),
                       _slice("a-counters", "n0", [], pool="p", count=3, sharedCounters=counters),
                       _slice("b-n0", "n0", [good], pool="p", count=3), _slice("c-n1", "n1", [bad], pool="p", count=3))
    results = run(cluster, _claim("a"), pod("p", claims=[{"name": "a", "resourceClaimName": "a"}], node_selector={}),
                  gates=all_on(NEWEST))
    assert not results["p"].fits
    assert "invalid resource pools were encountered" in results["p"].message


def _gates(**overrides: bool):  # type: ignore[no-untyped-def]
    gates = all_on(NEWEST)
    return type(gates)(gates.release, {**gates.enabled_gates, **overrides}, gates.runtime_config)


def test_device_taint_rules_taint_nothing_when_their_gate_is_off() -> None:
    rule = {"apiVersion": "resource.k8s.io/v1beta2", "kind": "DeviceTaintRule", "metadata": {"name": "drain"},
            "spec": {"deviceSelector": {"driver": NIC},
                     "taint": {"key": "maintenance", "value": "true", "effect": "NoSchedule"}}}
    cluster = snapshot(node("n0"), device_class(NIC, NIC), _slice("n0-nic", "n0", [{"name": "nic-0"}]), rule)
    claims = [{"name": "a", "resourceClaimName": "a"}]
    assert not run(cluster, _claim("a"), pod("p", claims=claims), gates=_gates(DRADeviceTaintRules=True))["p"].fits
    assert run(cluster, _claim("a"), pod("p", claims=claims), gates=_gates(DRADeviceTaintRules=False))["p"].fits


def test_list_typed_numa_attribute_aligns_two_devices_only_with_the_gate() -> None:
    devices = [{"name": "nic-0", "attributes": {"numa": {"ints": [0, 1]}}},
               {"name": "nic-1", "attributes": {"numa": {"ints": [1, 2]}}}]
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "a", "namespace": "default"},
             "spec": {"devices": {"requests": [{"name": "nic", "exactly": {"deviceClassName": NIC, "count": 2}}],
                                  "constraints": [{"matchAttribute": f"{NIC}/numa"}]}}}
    cluster = snapshot(node("n0"), device_class(NIC, NIC), _slice("n0-nic", "n0", devices))
    claims = [{"name": "a", "resourceClaimName": "a"}]
    assert run(cluster, claim, pod("p", claims=claims), gates=_gates(DRAListTypeAttributes=True))["p"].fits
    assert not run(cluster, claim, pod("p", claims=claims), gates=_gates(DRAListTypeAttributes=False))["p"].fits


def test_filter_timeout_gate_and_profile_decide_the_search_budget() -> None:
    """The search budget stands for filterTimeout: without DRASchedulerFilterTimeout there is none (the allocator
    then runs to its end), with it the profile's timeout scales it."""
    from kubectl_wasdra.dra.search import STEP_LIMIT
    from kubectl_wasdra.sched.filters.dynamic_resources import NO_TIMEOUT_STEPS, build_dra_state
    from kubectl_wasdra.sched.profiles import Profile

    cluster = snapshot(node("n0"), device_class(NIC, NIC), _slice("n0-nic", "n0", [SHARED]))
    on = build_dra_state(cluster, lambda pod: (), frozenset(), enabled=_gates().enabled)
    off = build_dra_state(cluster, lambda pod: (), frozenset(), enabled=_gates(DRASchedulerFilterTimeout=False).enabled)
    assert on.filter_timeout and not off.filter_timeout
    assert Profile().dra_step_limit == STEP_LIMIT and Profile(dra_filter_timeout=0).dra_step_limit is None
    assert Profile(dra_filter_timeout=20).dra_step_limit == 2 * STEP_LIMIT < NO_TIMEOUT_STEPS
