"""resource.k8s.io conversions both ways: v1beta1/v1alpha3 (flat requests, `basic` devices) <-> v1beta2/v1."""

from __future__ import annotations

import pytest

from tests.convert.helpers import convert, reported

CLAIM_V1BETA1 = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata:
  name: two-gpus   # for the trainer
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu.example.com
        # two of them
        count: 2
        allocationMode: ExactCount
      - name: fallback
        firstAvailable:
        - name: big
          deviceClassName: big.example.com
"""

CLAIM_V1 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: two-gpus   # for the trainer
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          # two of them
          count: 2
          allocationMode: ExactCount
      - name: fallback
        firstAvailable:
        - name: big
          deviceClassName: big.example.com
"""

SLICE_V1ALPHA3 = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: node-1-gpus
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, resourceSliceCount: 1, generation: 1}
  devices:
  - name: gpu-0
    basic:
      attributes:
        model: {string: a100}
      capacity:
        memory: 80Gi
"""

SLICE_V1 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: node-1-gpus
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, resourceSliceCount: 1, generation: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: a100}
    capacity:
      memory:
        value: 80Gi
"""


@pytest.mark.parametrize(("source", "release", "runtime_config", "expected", "target"), [
    (CLAIM_V1BETA1, "1.37", (), CLAIM_V1, "resource.k8s.io/v1"),
    (CLAIM_V1, "1.34", ("resource.k8s.io/v1beta1=true", "resource.k8s.io/v1=false"), CLAIM_V1BETA1, "resource.k8s.io/v1beta1"),
    (SLICE_V1ALPHA3, "1.37", (), SLICE_V1, "resource.k8s.io/v1"),
    (SLICE_V1, "1.33", ("resource.k8s.io/v1alpha3=true",), SLICE_V1ALPHA3, "resource.k8s.io/v1alpha3"),
], ids=["claim-template-exact-fields-under-exactly", "claim-template-back-to-v1beta1-for-1.34",
        "slice-lifts-basic-and-wraps-capacity", "slice-back-to-v1alpha3-for-1.33"])
def test_conversion(source: str, release: str, runtime_config: tuple[str, ...], expected: str, target: str) -> None:
    text, notes = convert(source, release, *runtime_config)
    assert text == expected, notes
    assert [(n.status, n.target, n.runtime_config) for n in notes] == [("converted", target, None)]


def test_capacity_request_policy_cannot_go_to_v1alpha3() -> None:
    source = SLICE_V1.replace("        value: 80Gi\n", "        value: 80Gi\n        requestPolicy: {default: 10Gi}\n")
    note = reported(source, "1.33", "resource.k8s.io/v1alpha3=true")
    assert "capacity.memory" in note.message


def test_field_the_older_version_lacks_fails_clearly() -> None:
    source = CLAIM_V1.replace("          count: 2\n", "          count: 2\n          capacity: {requests: {memory: 10Gi}}\n")
    note = reported(source, "1.33", "resource.k8s.io/v1alpha3=true", "resource.k8s.io/v1beta2=false")
    assert "spec.spec.devices.requests[0].capacity" in note.message   # the path as findings spell it


@pytest.mark.parametrize("version", ["v1beta1", "v1beta2"])
def test_device_class_only_changes_api_version(version: str) -> None:
    source = f"apiVersion: resource.k8s.io/{version}\nkind: DeviceClass\nmetadata: {{name: gpu}}\nspec:\n  selectors:\n" \
             "  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"
    text, _ = convert(source)
    assert text == source.replace(version, "v1")


def test_device_taint_rule_with_removed_selector_fields_is_reported() -> None:
    source = """\
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: drain}
spec:
  deviceSelector: {deviceClassName: gpu, driver: gpu.example.com}
  taint: {key: maintenance, effect: NoExecute}
"""
    note = reported(source)
    assert "deviceClassName" in note.message
    converted, notes = convert(source.replace("deviceClassName: gpu, ", ""))
    assert converted.startswith("apiVersion: resource.k8s.io/v1\n")
    assert notes[0].gates == ("DRADeviceTaintRules", "DRADeviceTaints")


def test_slice_with_counters_and_devices_needs_a_second_slice() -> None:
    source = SLICE_V1ALPHA3.replace("  devices:\n", "  sharedCounters:\n  - name: mem\n    counters: {memory: {value: 80Gi}}\n"
                                    "  devices:\n")
    note = reported(source)
    assert "sharedCounters" in note.hint


def test_classic_dra_is_reported_not_guessed() -> None:
    source = "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\nmetadata: {name: c}\nspec: {resourceClassName: gpu}\n"
    note = reported(source)
    assert "structured parameters" in note.hint
