"""Real slices from kubernetes/kubernetes test/integration/scheduler_perf/dra/templates (copied to fixtures/dra),
read through the snapshot loader: counter sets on one node's slice, devices selected by label for several nodes."""

from __future__ import annotations

from pathlib import Path

import pytest
from dra_objects import claim, request

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.dra import Allocation, AllocationFailure, DeviceUsage, allocate_claims, build_inventory
from kubectl_wasdra.reasons import Reason

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dra" / "backtracking"


@pytest.fixture(scope="module")
def snapshot():  # type: ignore[no-untyped-def]
    snapshot, problems = load_snapshot([str(FIXTURES)])
    assert not problems
    return snapshot


@pytest.mark.parametrize("node_name", ["scheduler-perf-dra-0", "scheduler-perf-dra-1"])
def test_seven_devices_need_backtracking_past_the_large_one(snapshot, node_name: str) -> None:  # type: ignore[no-untyped-def]
    """device-1 takes 20Gi of the 70Gi memory counter, the others 10Gi: seven devices fit only without device-1.
    The counter-set slice names scheduler-perf-dra-0, yet the pool is complete for every labelled node."""
    inventory = build_inventory(snapshot)
    node = snapshot.get("Node", node_name)
    outcome = allocate_claims([claim("c", request("r", "test-class", 7))], node, inventory, DeviceUsage())
    assert isinstance(outcome, Allocation), getattr(outcome, "message", "")
    assert [r.device for r in outcome.results[0]] == [f"device-{i}" for i in range(2, 9)]
    usage = outcome.apply(DeviceUsage())
    again = allocate_claims([claim("d", request("r", "test-class", 1))], node, inventory, usage)
    assert isinstance(again, AllocationFailure) and again.reason == Reason.COUNTERS_EXHAUSTED


def test_eight_devices_do_not_fit(snapshot) -> None:  # type: ignore[no-untyped-def]
    inventory = build_inventory(snapshot)
    outcome = allocate_claims([claim("c", request("r", "test-class", 8))], snapshot.get("Node", "scheduler-perf-dra-0"),
                              inventory, DeviceUsage())
    assert isinstance(outcome, AllocationFailure)
    assert outcome.reason == Reason.COUNTERS_EXHAUSTED and "shared counters" in outcome.message


def load(name: str):  # type: ignore[no-untyped-def]
    snapshot, problems = load_snapshot([str(FIXTURES.parent / name)])
    assert not problems
    return snapshot


def claim_from_template(snapshot, name: str) -> dict:  # type: ignore[no-untyped-def]
    template = snapshot.of_kind("ResourceClaimTemplate")[0]
    return {"metadata": {"name": name, "namespace": "default"}, "spec": template["spec"]["spec"]}


def test_consumable_capacity_shares_one_device_until_its_memory_is_used() -> None:
    """v1beta2 objects (converted to v1 by the loader): two 10Gi requests per pod share the 80Gi shareable device."""
    snapshot = load("consumable")
    inventory, node = build_inventory(snapshot), snapshot.get("Node", "scheduler-perf-dra-0")
    usage = DeviceUsage()
    placed = 0
    while True:
        outcome = allocate_claims([claim_from_template(snapshot, f"pod-{placed}")], node, inventory, usage)
        if not isinstance(outcome, Allocation):
            break
        assert {r.device for r in outcome.results[0]} == {"shareable-device"}
        usage = outcome.apply(usage)
        placed += 1
    assert placed == 4
    assert outcome.reason == Reason.CAPACITY_EXHAUSTED


def test_device_taint_rule_without_selector_taints_every_device() -> None:
    """The tracker applies a DeviceTaintRule with an empty selector to all devices; the v1alpha3 claim tolerates it."""
    snapshot = load("taints")
    inventory, node = build_inventory(snapshot), snapshot.get("Node", "scheduler-perf-dra-0")
    tolerating = allocate_claims([claim_from_template(snapshot, "c")], node, inventory, DeviceUsage())
    assert isinstance(tolerating, Allocation)
    plain = allocate_claims([claim("c", request("r", "test-class"))], node, inventory, DeviceUsage())
    assert isinstance(plain, AllocationFailure) and plain.reason == Reason.DEVICE_TAINTED
    assert plain.funnel is not None and plain.funnel.details["deviceTaintRule"] == "taint-all-devices"
