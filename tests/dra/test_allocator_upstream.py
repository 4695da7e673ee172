"""Scenarios transcribed from the upstream allocator tests, same names, same expectations.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/
allocator_testing.go (release-1.37). Drivers A/B, pools 1/2, devices 1/2 and classes A/B map to the names below.
Each case: claims, classes, slices, already allocated device keys -> expected picks per claim ("req:driver/pool/device"),
None for "no allocation on this node" or the fatal error text.
"""

from __future__ import annotations

from typing import Any

import pytest
from dra_objects import claim, device, device_class, node, request, resource_slice

from kubectl_wasdra.dra import Allocation, AllocationFailure, DeviceUsage, Inventory, allocate_claims

A, B = "driver-a", "driver-b"
CLASS_A = device_class("class-a", f'device.driver == "{A}"')
CLASS_B = device_class("class-b", f'device.driver == "{B}"')


def one(name: str = "slice-1", pool: str = "pool-1", driver: str = A, count: int = 1, devices: tuple = ("device-1",),
        generation: int = 1) -> dict:
    return resource_slice(name, [device(d) for d in devices], pool=pool, driver=driver, count=count, generation=generation)


def sized(name: str, memory: str) -> dict:
    return device(name, capacity={"memory": memory})


def all_request(name: str = "req-0", cls: str = "class-a", **fields: Any) -> dict:
    return request(name, cls, allocationMode="All", **fields)


def memory_at_least(amount: str) -> str:
    return f'device.capacity["{A}"].memory.compareTo(quantity("{amount}")) >= 0'


CASES: dict[str, tuple[list, list, list, list, Any]] = {
    "small-and-large-backtrack-requests": (
        [claim("claim-0", request("req-0", "class-a", 1, selectors=[memory_at_least("1Gi")]),
               request("req-1", "class-a", 1, selectors=[memory_at_least("2Gi")]))],
        [CLASS_A], [resource_slice("slice-1", [sized("device-2", "2Gi"), sized("device-1", "1Gi")], pool="pool-1", driver=A)],
        [], [["req-0:driver-a/pool-1/device-1", "req-1:driver-a/pool-1/device-2"]]),
    "small-and-large-backtrack-claims": (
        [claim("claim-0", request("req-0", "class-a", 1, selectors=[memory_at_least("1Gi")])),
         claim("claim-1", request("req-1", "class-a", 1, selectors=[memory_at_least("2Gi")]))],
        [CLASS_A], [resource_slice("slice-1", [sized("device-2", "2Gi"), sized("device-1", "1Gi")], pool="pool-1", driver=A)],
        [], [["req-0:driver-a/pool-1/device-1"], ["req-1:driver-a/pool-1/device-2"]]),
    "obsolete-slice": (
        [claim("claim-0", request("req-0", "class-a"))], [CLASS_A],
        [one("slice-1-obsolete", count=2), one("slice-1-obsolete-new", count=2, devices=("device-2",), generation=2)],
        [], None),
    "duplicate-slice": (
        [claim("claim-0", request("req-0", "class-a"))], [CLASS_A], [one(count=2), one("slice-1-2", count=2)],
        [], "invalid resource pools were encountered"),
    "no-slices": ([claim("claim-0", request("req-0", "class-a"))], [CLASS_A], [], [], None),
    "not-enough-suitable-devices": (
        [claim("claim-0", request("req-0", "class-a"), request("req-1", "class-a"))], [CLASS_A], [one()], [], None),
    "empty-class": (
        [claim("claim-0", request("req-0", ""))], [CLASS_A], [one()], [],
        "claim default/claim-0, request req-0: missing device class name (unsupported request type?)"),
    "all-devices-single": (
        [claim("claim-0", all_request())], [CLASS_A], [one()], [], [["req-0:driver-a/pool-1/device-1"]]),
    "all-devices-many": (
        [claim("claim-0", all_request())], [CLASS_A], [one(), one("slice-2", pool="pool-2")], [],
        [["req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-2/device-1"]]),
    "all-devices-of-the-incomplete-pool": (
        [claim("claim-0", all_request(count=1))], [CLASS_A], [one(count=2)], [],
        "claim default/claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being "
        "updated"),
    "all-devices-plus-another": (
        [claim("claim-0", all_request()), claim("claim-1", request("req-0", "class-b", 1))], [CLASS_A, CLASS_B],
        [one(), one("slice-1b", driver=B)], [],
        [["req-0:driver-a/pool-1/device-1"], ["req-0:driver-b/pool-1/device-1"]]),
    "all-devices-plus-another-reversed": (
        [claim("claim-1", request("req-0", "class-b", 1)), claim("claim-0", all_request())], [CLASS_A, CLASS_B],
        [one(), one("slice-1b", driver=B)], [],
        [["req-0:driver-b/pool-1/device-1"], ["req-0:driver-a/pool-1/device-1"]]),
    "all-devices-many-plus-another": (
        [claim("claim-0", all_request()), claim("claim-1", request("req-0", "class-b", 1))], [CLASS_A, CLASS_B],
        [one(devices=("device-1", "device-2")), one("slice-1b", driver=B)], [],
        [["req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-1/device-2"], ["req-0:driver-b/pool-1/device-1"]]),
    "all-devices-no-solution": (
        [claim("claim-1", request("req-0", "class-a", 1)), claim("claim-0", all_request())], [CLASS_A], [one()], [], None),
    "all-devices-no-solution-reversed": (
        [claim("claim-0", all_request()), claim("claim-1", request("req-0", "class-a", 1))], [CLASS_A], [one()], [], None),
    "all-devices-slice-without-devices": (
        [claim("claim-0", all_request())], [CLASS_A], [one(devices=())], [], None),
    "all-devices-no-slices": ([claim("claim-0", all_request())], [CLASS_A], [], [], None),
    "all-devices-some-allocated": (
        [claim("claim-0", all_request())], [CLASS_A], [one(devices=("device-1", "device-2"))], ["device-1"], None),
    "all-devices-some-allocated-admin-access": (
        [claim("claim-0", all_request(adminAccess=True))], [CLASS_A], [one(devices=("device-1", "device-2"))], ["device-1"],
        [["req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-1/device-2"]]),
    "all-devices-some-allocating-admin-access": (
        [claim("claim-0", request("req-0", "class-a", 1, adminAccess=True), all_request("req-1", adminAccess=True))],
        [CLASS_A], [one(devices=("device-1", "device-2"))], [], None),
}


@pytest.mark.parametrize("name", list(CASES))
def test_upstream_scenario(name: str) -> None:
    claims, classes, slices, allocated, expected = CASES[name]
    existing = claim("old", results=[{"request": "r", "driver": A, "pool": "pool-1", "device": d} for d in allocated])
    outcome = allocate_claims(claims, node("node-1"), Inventory(slices=slices, classes=classes),
                              DeviceUsage.from_claims([existing]))
    if isinstance(expected, list):
        assert isinstance(outcome, Allocation), getattr(outcome, "message", "")
        assert [[f"{r.request}:{r.device_key}" for r in results] for results in outcome.results] == expected
    elif isinstance(expected, str):
        assert isinstance(outcome, AllocationFailure)
        assert expected in outcome.message
    else:
        assert isinstance(outcome, AllocationFailure)
        assert "invalid resource pools" not in outcome.message
