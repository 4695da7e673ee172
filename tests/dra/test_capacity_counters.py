"""Consumable capacity (allowMultipleAllocations, request policies) and partitionable devices (counters)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from dra_objects import GPU_CLASS, claim, device, node, request, resource_slice

from kubectl_wasdra.dra import Allocation, AllocationFailure, DeviceUsage, Inventory, allocate_claims
from kubectl_wasdra.dra.capacity import consumption
from kubectl_wasdra.dra.inventory import build_slice
from kubectl_wasdra.reasons import Reason


def one_device(**fields: object) -> object:
    return build_slice(resource_slice("s", [device("d", **fields)])).devices[0]


@pytest.mark.parametrize(("policy", "requested", "expected"), [
    pytest.param(None, "10Gi", {"mem": Decimal(10 * 2**30)}, id="no policy: as requested"),
    pytest.param(None, None, {"mem": Decimal(80 * 2**30)}, id="not requested: full value"),
    pytest.param({"default": "1Gi"}, None, {"mem": Decimal(2**30)}, id="not requested: default"),
    pytest.param({"default": "1Gi", "validRange": {"min": "1Gi", "step": "1Gi"}}, "1500Mi", {"mem": Decimal(2 * 2**30)},
                 id="range: round up to the step grid"),
    pytest.param({"default": "1Gi", "validRange": {"min": "4Gi"}}, "1Gi", {"mem": Decimal(4 * 2**30)},
                 id="range: below min gives min"),
    pytest.param({"default": "1Gi", "validRange": {"min": "1Gi", "max": "8Gi", "step": "1Gi"}}, "9Gi", None,
                 id="range: above max is a violation"),
    pytest.param({"default": "10Gi", "validValues": ["10Gi", "20Gi", "40Gi"]}, "15Gi", {"mem": Decimal(20 * 2**30)},
                 id="values: smallest listed value above the request"),
    pytest.param({"default": "10Gi", "validValues": ["10Gi", "20Gi"]}, "30Gi", None,
                 id="values: larger than all is a violation"),
    pytest.param({"default": "1", "validRange": {"min": "1", "step": "2"}}, "1500m", {"mem": Decimal(3)},
                 id="range: integer path rounds the request up first (Value())"),
])
def test_consumption_rounding(policy: dict | None, requested: str | None, expected: dict | None) -> None:
    capacity = {"mem": {"value": "80Gi", **({"requestPolicy": policy} if policy else {})}}
    dev = one_device(capacity=capacity, allowMultipleAllocations=True)
    assert consumption(dev, {"mem": requested} if requested else None) == expected


def test_request_naming_unpublished_capacity_skips_device() -> None:
    dev = one_device(capacity={"mem": {"value": "1"}})
    assert consumption(dev, {"cores": "1"}) is None


def shared_slice(policy: dict | None = None) -> dict:
    mem = {"value": "40Gi", **({"requestPolicy": policy} if policy else {})}
    return resource_slice("s", [device("gpu-0", capacity={"mem": mem}, allowMultipleAllocations=True)])


def test_shared_device_serves_several_claims_until_capacity_runs_out() -> None:
    inventory = Inventory(slices=[shared_slice()], classes=[GPU_CLASS])
    usage = DeviceUsage()
    for name in ("a", "b"):
        outcome = allocate_claims([claim(name, request("r", capacity={"requests": {"mem": "20Gi"}}))], node(), inventory,
                                  usage)
        assert isinstance(outcome, Allocation)
        result = outcome.results[0][0]
        assert result.share_id and result.consumed_capacity == {"mem": Decimal(20 * 2**30)}
        assert outcome.claims[0].status()["devices"]["results"][0]["consumedCapacity"] == {"mem": "20Gi"}
        usage = outcome.apply(usage)
    third = allocate_claims([claim("c", request("r", capacity={"requests": {"mem": "1Gi"}}))], node(), inventory, usage)
    assert isinstance(third, AllocationFailure) and third.reason == Reason.CAPACITY_EXHAUSTED


def mem_request(name: str, amount: str) -> dict:
    return request(name, capacity={"requests": {"mem": amount}})


def test_two_requests_of_one_claim_share_a_device() -> None:
    claims = [claim("c", mem_request("a", "20Gi"), mem_request("b", "20Gi"))]
    outcome = allocate_claims(claims, node(), Inventory(slices=[shared_slice()], classes=[GPU_CLASS]), DeviceUsage())
    assert isinstance(outcome, Allocation)
    assert [r.device for r in outcome.results[0]] == ["gpu-0", "gpu-0"]
    assert outcome.results[0][0].share_id != outcome.results[0][1].share_id
    over = [claim("c", mem_request("a", "30Gi"), mem_request("b", "20Gi"))]
    assert isinstance(allocate_claims(over, node(), Inventory(slices=[shared_slice()], classes=[GPU_CLASS]), DeviceUsage()),
                      AllocationFailure)


def test_existing_shared_allocations_count() -> None:
    existing = claim("old", results=[{"request": "r", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0",
                                      "shareID": "x", "consumedCapacity": {"mem": "30Gi"}}])
    outcome = allocate_claims([claim("c", request("r", capacity={"requests": {"mem": "20Gi"}}))], node(),
                              Inventory(slices=[shared_slice()], classes=[GPU_CLASS]), DeviceUsage.from_claims([existing]))
    assert isinstance(outcome, AllocationFailure) and outcome.reason == Reason.CAPACITY_EXHAUSTED
    assert outcome.funnel is not None and outcome.funnel.first_short == "capacity"


def partitioned(memory: str = "40Gi") -> list[dict]:
    counters = resource_slice("counters", node="node-1", pool="node-1", count=2,
                              sharedCounters=[{"name": "gpu-0", "counters": {"memory": {"value": memory}}}])
    parts = [device(f"gpu-0-part-{i}", consumesCounters=[{"counterSet": "gpu-0", "counters": {"memory": {"value": "20Gi"}}}])
             for i in range(3)]
    whole = device("gpu-0-whole", consumesCounters=[{"counterSet": "gpu-0", "counters": {"memory": {"value": "40Gi"}}}])
    return [counters, resource_slice("devices", [*parts, whole], node="node-1", pool="node-1", count=2)]


def test_partitions_share_counters() -> None:
    inventory = Inventory(slices=partitioned(), classes=[GPU_CLASS])
    outcome = allocate_claims([claim("c", request("r", count=2))], node(), inventory, DeviceUsage())
    assert [r.device for r in outcome.results[0]] == ["gpu-0-part-0", "gpu-0-part-1"]  # type: ignore[union-attr]
    three = allocate_claims([claim("c", request("r", count=3))], node(), inventory, DeviceUsage())
    assert isinstance(three, AllocationFailure)


def test_allocated_partition_consumes_counters_for_others() -> None:
    inventory = Inventory(slices=partitioned(), classes=[GPU_CLASS])
    usage = DeviceUsage.from_claims([claim("o", results=[{"request": "r", "driver": "gpu.example.com", "pool": "node-1",
                                                          "device": "gpu-0-part-2"}])])
    whole = allocate_claims([claim("c", request("r", selectors=['device.attributes["gpu.example.com"].?x.orValue(1) == 1'
                                                                ' && device.driver != ""']))], node(), inventory, usage)
    assert isinstance(whole, Allocation) and whole.results[0][0].device == "gpu-0-part-0"
    blocked = allocate_claims([claim("c", request("r", count=2))], node(), inventory, usage.with_results(
        [{"driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0-part-0"}]))
    assert isinstance(blocked, AllocationFailure) and blocked.reason == Reason.COUNTERS_EXHAUSTED


def test_counter_set_unknown_makes_pool_invalid() -> None:
    consumes = [{"counterSet": "nope", "counters": {"m": {"value": "1"}}}]
    slices = [resource_slice("devices", [device("p", consumesCounters=consumes)])]
    outcome = allocate_claims([claim("c", request("r"))], node(), Inventory(slices=slices, classes=[GPU_CLASS]), DeviceUsage())
    assert isinstance(outcome, AllocationFailure)
    assert outcome.message.startswith("invalid resource pools were encountered")


def test_features_off() -> None:
    from kubectl_wasdra.dra import Features

    inventory = Inventory(slices=partitioned(), classes=[GPU_CLASS])
    off = allocate_claims([claim("c", request("r"))], node(), inventory, DeviceUsage(),
                          features=Features(partitionable_devices=False))
    assert isinstance(off, AllocationFailure)  # counter slices and consuming devices are not usable
    capacity = allocate_claims([claim("c", request("r", capacity={"requests": {"mem": "1Gi"}}))], node(),
                               Inventory(slices=[shared_slice()], classes=[GPU_CLASS]), DeviceUsage(),
                               features=Features(consumable_capacity=False))
    assert isinstance(capacity, AllocationFailure) and capacity.fatal and capacity.reason == Reason.FEATURE_GATE_DISABLED


def test_one_overcommitted_counter_blocks_every_consuming_device() -> None:
    from kubectl_wasdra.dra.counters import counters_fit

    available = {"set": {"memory": Decimal(-1), "cores": Decimal(8)}}
    assert not counters_fit(available, {"set": {"cores": Decimal(1)}})
    assert counters_fit({"set": {"memory": Decimal(0), "cores": Decimal(8)}}, {"set": {"cores": Decimal(8)}})


@pytest.mark.parametrize(("fractional", "requested", "expected"), [
    (False, "1200m", Decimal(2)),  # integer path: Value() of 1.2, 0.5 and 0.5 is 2, 1 and 1, so 1 + 1*1
    (True, "1200m", Decimal("1.5")),  # DRAFractionalCapacityRange: milli arithmetic on the 0.5 grid
])
def test_fractional_capacity_range(fractional: bool, requested: str, expected: Decimal) -> None:
    dev = one_device(capacity={"cores": {"value": "8", "requestPolicy": {"default": "500m",
                                                                          "validRange": {"min": "500m", "step": "500m"}}}},
                     allowMultipleAllocations=True)
    assert consumption(dev, {"cores": requested}, fractional=fractional) == {"cores": expected}


def test_features_from_gates() -> None:
    from kubectl_wasdra.dra import Features

    on = {"DRAAdminAccess", "DRAPrioritizedList", "DRAPartitionableDevices", "DRADeviceTaints", "DRADeviceBindingConditions",
          "DRAConsumableCapacity", "DRAExtendedResource"}
    features = Features.from_gates(lambda name: name in on)
    assert features.partitionable_devices and not features.fractional_capacity_range
    assert not features.binding_conditions  # also needs DRAResourceClaimDeviceStatus
