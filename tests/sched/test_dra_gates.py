"""The simulation's gates reach the allocator: DRA features follow the release and --feature-gates."""

from __future__ import annotations

import pytest
from builders import capacity_claim, device_class, node, pod, snapshot
from builders import run_all as run

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.dra.features import DEFAULT_FEATURES, Features, drop_disabled_fields
from kubectl_wasdra.sched.admission import all_on, make_gates
from kubectl_wasdra.sched.simulation import Simulation

NIC = "nic.example.com"


def _shared_slice() -> dict:
    device = {"name": "nic-0", "allowMultipleAllocations": True, "capacity": {"bandwidth": {"value": "10G"}}}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n0-nic"},
            "spec": {"driver": NIC, "nodeName": "n0", "pool": {"name": "n0", "generation": 1, "resourceSliceCount": 1},
                     "devices": [device]}}


def _claim(name: str, capacity: str | None = None) -> dict:
    return capacity_claim(name, NIC, {"bandwidth": capacity} if capacity else None)


def _cluster() -> list[dict]:
    return [node("n0"), device_class(NIC, NIC), _shared_slice()]


def _pods(capacity: str | None = None) -> list[dict]:
    return [_claim("a", capacity), _claim("b", capacity),
            pod("p-a", claims=[{"name": "nic", "resourceClaimName": "a"}], created="2026-01-01T00:00:00Z"),
            pod("p-b", claims=[{"name": "nic", "resourceClaimName": "b"}], created="2026-01-01T00:00:01Z")]


def _gates(consumable: bool):
    gates = all_on(NEWEST)
    return type(gates)(gates.release, {**gates.enabled_gates, "DRAConsumableCapacity": consumable}, gates.runtime_config)


@pytest.mark.parametrize(("consumable", "both_fit"), [(True, True), (False, False)], ids=["gate-on-shared", "gate-off-exclusive"])
def test_consumable_capacity_gate_decides_whether_a_device_is_shared(consumable, both_fit):
    results = run(snapshot(*_cluster()), *_pods(capacity="4G"), gates=_gates(consumable))
    assert results["p-a"].fits  # with the gate off the capacity request is dropped, never an allocator error
    assert results["p-b"].fits is both_fit


def test_capacity_requests_are_dropped_when_the_gate_is_off():
    """On create the API server drops the field, so the claim allocates as if it had none (not an allocator error)."""
    results = run(snapshot(*_cluster()), *_pods(capacity="8G"), gates=_gates(False))
    assert results["p-a"].fits and not results["p-b"].fits
    assert "consumedCapacity" not in results["p-a"].claims["default/a"][0]
    on = run(snapshot(*_cluster()), *_pods(capacity="8G"), gates=_gates(True))
    assert on["p-a"].fits and not on["p-b"].fits  # 8G + 8G exceed the 10G the shared device has


def test_release_defaults_and_overrides_reach_the_allocator():
    sim = Simulation(snapshot(*_cluster(), *_pods()), make_gates(NEWEST))
    assert sim.state.dra.features == DEFAULT_FEATURES
    off = Simulation(snapshot(*_cluster(), *_pods()), make_gates(NEWEST, {"DRAConsumableCapacity": False}))
    assert off.state.dra.features.consumable_capacity is False


def test_drop_disabled_fields_keeps_the_claim_when_nothing_is_gated_off():
    claim = _claim("a", "1G")
    assert drop_disabled_fields(claim, DEFAULT_FEATURES) is claim
    dropped = drop_disabled_fields(claim, Features(consumable_capacity=False))
    assert "capacity" not in dropped["spec"]["devices"]["requests"][0]["exactly"]
    assert "capacity" in claim["spec"]["devices"]["requests"][0]["exactly"]  # the input is never changed
