"""Extended resources backed by DRA: the special claim the scheduler builds, and allocating it."""

from __future__ import annotations

from typing import Any

import pytest
from dra_objects import DRIVER, device, device_class, node, resource_slice

from kubectl_wasdra.dra import Allocation, AllocationFailure, DeviceUsage, Inventory, allocate_claims
from kubectl_wasdra.dra.extended import SPECIAL_CLAIM_NAME, extended_resource_claim, is_dra_extended_resource
from kubectl_wasdra.kube.resources import is_extended_resource_name

GPU = device_class("gpu", f'device.driver == "{DRIVER}"', extendedResourceName="example.com/gpu")
INVENTORY = Inventory(slices=[resource_slice("s", [device(f"gpu-{i}") for i in range(2)])], classes=[GPU])


def container(name: str, **requests: str) -> dict[str, Any]:
    return {"name": name, "resources": {"requests": dict(requests)}}


def pod(*containers: dict, init: tuple = ()) -> dict[str, Any]:
    return {"metadata": {"name": "p", "namespace": "ml"}, "spec": {"containers": list(containers),
                                                                  "initContainers": list(init)}}


@pytest.mark.parametrize(("name", "expected"), [
    ("example.com/gpu", True), ("deviceclass.resource.kubernetes.io/gpu", True), ("cpu", False),
    ("kubernetes.io/batch", False), ("requests.example.com/gpu", False), ("hugepages-2Mi", False),
    ("node.kubernetes.io/x", False), ("xkubernetes.io/gpu", False),      # any "kubernetes.io/" is native
    ("example.com/" + "g" * 64, False), ("Example_.com/gpu", False),      # "requests." + name must be qualified
])
def test_extended_resource_names(name: str, expected: bool) -> None:
    """DRA's names are v1helper.IsExtendedResourceName's plus the DeviceClass implicit names."""
    assert is_dra_extended_resource(name) is expected
    assert is_extended_resource_name(name) is (expected and not name.startswith("deviceclass.resource.kubernetes.io/"))


def test_node_without_the_resource_gets_a_dra_claim() -> None:
    found = extended_resource_claim(pod(container("a", cpu="1", **{"example.com/gpu": "2"})), {"cpu": "8"}, INVENTORY)
    assert found.claim is not None and found.claim["metadata"]["name"] == SPECIAL_CLAIM_NAME
    assert found.claim["spec"]["devices"]["requests"] == [
        {"name": "container-0-request-1", "exactly": {"deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 2}}]
    assert found.mappings == ({"containerName": "a", "resourceName": "example.com/gpu",
                               "requestName": "container-0-request-1"},)
    outcome = allocate_claims([found.claim], node(), INVENTORY, DeviceUsage())
    assert isinstance(outcome, Allocation) and [r.device for r in outcome.results[0]] == ["gpu-0", "gpu-1"]


def test_node_advertising_the_resource_uses_the_device_plugin() -> None:
    found = extended_resource_claim(pod(container("a", **{"example.com/gpu": "1"})), {"example.com/gpu": "4"}, INVENTORY)
    assert found.claim is None and found.unfit is None


def test_implicit_class_name_and_unknown_resource() -> None:
    implicit = extended_resource_claim(pod(container("a", **{"deviceclass.resource.kubernetes.io/gpu": "1"})), {}, INVENTORY)
    assert implicit.claim is not None
    unknown = extended_resource_claim(pod(container("a", **{"example.com/fpga": "1"})), {}, INVENTORY)
    assert unknown.unfit == "example.com/fpga"


def test_init_container_reuses_a_later_long_lived_request() -> None:
    found = extended_resource_claim(pod(container("main", **{"example.com/gpu": "2"}),
                                        init=(container("setup", **{"example.com/gpu": "1"}),)), {}, INVENTORY)
    assert found.claim is not None
    assert [r["name"] for r in found.claim["spec"]["devices"]["requests"]] == ["container-1-request-0"]
    assert {m["containerName"]: m["requestName"] for m in found.mappings} == {"main": "container-1-request-0",
                                                                             "setup": "container-1-request-0"}


def test_too_many_devices_fail_with_the_funnel() -> None:
    found = extended_resource_claim(pod(container("a", **{"example.com/gpu": "3"})), {}, INVENTORY)
    assert found.claim is not None
    outcome = allocate_claims([found.claim], node(), INVENTORY, DeviceUsage())
    assert isinstance(outcome, AllocationFailure) and outcome.funnel is not None
    assert outcome.funnel.first_short == "visible"
