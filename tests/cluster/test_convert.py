"""resource.k8s.io v1beta1/v1beta2/v1alpha3 -> v1 conversion."""

from __future__ import annotations

import copy

import pytest

from kubectl_wasdra.cluster.convert import needs_conversion, to_v1

SLICE_V1BETA1 = {
    "apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice", "metadata": {"name": "s"},
    "spec": {"driver": "gpu.example.com", "nodeName": "n1", "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
             "devices": [{"name": "gpu-0", "basic": {"attributes": {"model": {"string": "a100"}},
                                                     "capacity": {"memory": {"value": "80Gi"}},
                                                     "taints": [{"key": "k", "effect": "NoSchedule"}]}}]},
}
SLICE_V1 = {
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
    "spec": {"driver": "gpu.example.com", "nodeName": "n1", "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
             "devices": [{"name": "gpu-0", "attributes": {"model": {"string": "a100"}},
                          "capacity": {"memory": {"value": "80Gi"}}, "taints": [{"key": "k", "effect": "NoSchedule"}]}]},
}


def _claim(version: str, requests: list) -> dict:
    return {"apiVersion": f"resource.k8s.io/{version}", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "d"},
            "spec": {"devices": {"requests": requests}}}


CASES = [
    pytest.param(SLICE_V1BETA1, SLICE_V1, id="v1beta1-slice-basic-flattened"),
    pytest.param(
        {**SLICE_V1BETA1, "apiVersion": "resource.k8s.io/v1alpha3",
         "spec": {**SLICE_V1BETA1["spec"], "devices": [{"name": "gpu-0", "basic": {"capacity": {"memory": "80Gi"}}}]}},
        {**SLICE_V1, "spec": {**SLICE_V1["spec"], "devices": [{"name": "gpu-0", "capacity": {"memory": {"value": "80Gi"}}}]}},
        id="v1alpha3-capacity-quantity-wrapped"),
    pytest.param(
        _claim("v1beta1", [{"name": "gpu", "deviceClassName": "gpu.example.com", "count": 2, "allocationMode": "ExactCount",
                            "selectors": [{"cel": {"expression": "true"}}]}]),
        _claim("v1", [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com",
                                                  "selectors": [{"cel": {"expression": "true"}}],
                                                  "allocationMode": "ExactCount", "count": 2}}]),
        id="v1beta1-request-exactly"),
    pytest.param(
        _claim("v1beta1", [{"name": "gpu", "firstAvailable": [{"name": "big", "deviceClassName": "c", "count": 2}]}]),
        _claim("v1", [{"name": "gpu", "firstAvailable": [{"name": "big", "deviceClassName": "c", "count": 2}]}]),
        id="v1beta1-first-available-kept"),
    pytest.param(  # both: kept both, as upstream conversion does, for validation to reject (not silently dropped)
        _claim("v1beta1", [{"name": "gpu", "deviceClassName": "c", "firstAvailable": [{"name": "big", "deviceClassName": "c"}]}]),
        _claim("v1", [{"name": "gpu", "firstAvailable": [{"name": "big", "deviceClassName": "c"}],
                       "exactly": {"deviceClassName": "c"}}]),
        id="v1beta1-first-available-beside-flat-fields"),
    pytest.param(
        _claim("v1beta2", [{"name": "gpu", "exactly": {"deviceClassName": "c"}}]),
        _claim("v1", [{"name": "gpu", "exactly": {"deviceClassName": "c"}}]),
        id="v1beta2-renamed-only"),
    pytest.param(
        {"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaimTemplate", "metadata": {"name": "t", "namespace": "d"},
         "spec": {"metadata": {"labels": {"a": "b"}},
                  "spec": {"devices": {"requests": [{"name": "r", "deviceClassName": "c"}]}}}},
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "t", "namespace": "d"},
         "spec": {"metadata": {"labels": {"a": "b"}},
                  "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "c"}}]}}}},
        id="v1beta1-template"),
    pytest.param(
        {"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceTaintRule", "metadata": {"name": "r"},
         "spec": {"deviceSelector": {"driver": "d", "device": "x"}, "taint": {"key": "k", "effect": "NoSchedule"}}},
        {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": {"name": "r"},
         "spec": {"deviceSelector": {"driver": "d", "device": "x"}, "taint": {"key": "k", "effect": "NoSchedule"}}},
        id="v1alpha3-taint-rule"),
]


@pytest.mark.parametrize(("old", "new"), CASES)
def test_to_v1(old: dict, new: dict) -> None:
    before = copy.deepcopy(old)
    assert to_v1(old) == new
    assert old == before, "input must not be mutated"


def test_other_groups_unchanged() -> None:
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}
    assert to_v1(pod) is pod
    assert not needs_conversion(pod)
    assert needs_conversion(SLICE_V1BETA1)


def test_malformed_parts_pass_through() -> None:
    odd = {"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice", "spec": {"devices": "oops"}}
    assert to_v1(odd)["spec"] == {"devices": "oops"}
