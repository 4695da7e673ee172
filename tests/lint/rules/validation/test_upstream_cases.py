"""Upstream validation-test cases as data: each case names the kubernetes/kubernetes test it comes from, the object
it builds and whether kube-apiserver accepts it. Our validators must agree (errors only where upstream fails,
nothing where upstream passes; a VALID018 warning is allowed on accepted objects, never an error)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation._base import Check
from kubectl_wasdra.lint.rules.validation.rules import validate

R137 = Release(1, 37)
BAD_NAME = "!@#$%^"   # badName in pkg/apis/resource/validation/*_test.go
CLAIM: dict[str, Any] = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                         "metadata": {"name": "foo", "namespace": "kube-system"},
                         "spec": {"devices": {"requests": [{"name": "req-0", "exactly": {"deviceClassName": "class"}}]}}}
OBJECTS: dict[str, dict[str, Any]] = {
    "ResourceClaim": CLAIM,
    "ResourceClaimTemplate": {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                              "metadata": {"name": "foo", "namespace": "kube-system"},
                              "spec": {"spec": CLAIM["spec"]}},
    "ResourceSlice": {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "foo"},
                      "spec": {"driver": "dra.example.com", "nodeName": "worker-1",
                               "pool": {"name": "pool", "resourceSliceCount": 1, "generation": 1},
                               "devices": [{"name": "device-0"}]}},
    "DeviceClass": {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "foo"}, "spec": {}},
    "DeviceTaintRule": {"apiVersion": "resource.k8s.io/v1beta2", "kind": "DeviceTaintRule", "metadata": {"name": "foo"},
                        "spec": {"deviceSelector": {"driver": "dra.example.com"},
                                 "taint": {"key": "example.com/taint", "effect": "NoExecute"}}},
}
# pkg/apis/resource/validation/validation_{resourceclaim,resourceclaimtemplate,resourceslice,deviceclass,
# devicetaintrule}_test.go, the metadata cases every one of them has: "missing-name", "bad-name", "generate-name"
NAME_CASES = [
    ("missing-name", {"name": ""}, Check.REQUIRED),
    ("bad-name", {"name": BAD_NAME}, Check.NAME),
    ("generate-name", {"name": "foo", "generateName": "pvc-"}, None),
    ("generate-name only (the API server generates the name first)", {"generateName": "prefix-"}, None),
]


def _with(kind: str, metadata: dict[str, Any]) -> dict[str, Any]:
    obj = copy.deepcopy(OBJECTS[kind])
    obj["metadata"] = {**{k: v for k, v in obj["metadata"].items() if k != "name"}, **metadata}
    return obj


@pytest.mark.parametrize("kind", sorted(OBJECTS))
@pytest.mark.parametrize(("case", "metadata", "expected"), NAME_CASES, ids=[c[0] for c in NAME_CASES])
def test_metadata_name_cases(kind: str, case: str, metadata: dict[str, Any], expected: Check | None) -> None:
    obj = _with(kind, metadata)
    found = [(v.check, v.path) for v in validate(obj, obj["apiVersion"], kind, R137)]
    assert found == ([] if expected is None else [(expected, ("metadata", "name"))])


def _tolerations(*tolerations: dict[str, Any], first_available: bool = False) -> dict[str, Any]:
    claim = copy.deepcopy(CLAIM)
    request = claim["spec"]["devices"]["requests"][0]
    if first_available:
        request.pop("exactly")
        request["firstAvailable"] = [{"name": "sub-0", "deviceClassName": "class", "allocationMode": "All",
                                      "tolerations": list(tolerations)}]
    else:
        request["exactly"]["tolerations"] = list(tolerations)
    return claim


# pkg/registry/resource/resourceclaim/declarative_validation_test.go (TestDeclarativeValidate), device tolerations
TOLERATION_CASES = [
    ("valid Exactly.Tolerations.Key", {"key": "valid-key", "operator": "Exists", "effect": "NoSchedule"}, []),
    ("valid Exactly.Tolerations.Key empty", {"key": "", "operator": "Exists", "effect": "NoSchedule"}, []),
    ("invalid Exactly.Tolerations.Key", {"key": "invalid_key!", "operator": "Exists", "effect": "NoSchedule"},
     [Check.NAME]),
    ("invalid Exactly.Tolerations.Key - multiple slashes", {"key": "a/b/c", "operator": "Exists", "effect": "NoSchedule"},
     [Check.NAME]),
    ("valid DeviceTolerationOperator/Effect - Exactly",
     {"key": "key", "operator": "Equal", "value": "value", "effect": "NoSchedule"}, []),
    ("invalid DeviceTolerationOperator - Exactly",
     {"key": "key", "operator": "InvalidOp", "value": "value", "effect": "NoSchedule"}, [Check.ENUM]),
    ("invalid DeviceTaintEffect - Exactly",
     {"key": "key", "operator": "Equal", "value": "value", "effect": "InvalidEffect"}, [Check.ENUM]),
    # validateDeviceToleration itself (pkg/apis/resource/validation/validation.go): no rule for an empty key
    ("empty key, operator defaulted to Equal: accepted", {"effect": "NoSchedule"}, [Check.UNINTENDED]),
    ("value with Exists", {"key": "key", "operator": "Exists", "value": "v"}, [Check.INVALID_VALUE]),
    ("value not a label value", {"key": "key", "value": "not a label value"}, [Check.INVALID_VALUE]),
]


@pytest.mark.parametrize("first_available", [False, True], ids=["exactly", "firstAvailable"])
@pytest.mark.parametrize(("case", "toleration", "expected"), TOLERATION_CASES, ids=[c[0] for c in TOLERATION_CASES])
def test_device_toleration_cases(case: str, toleration: dict[str, Any], expected: list[Check],
                                 first_available: bool) -> None:
    claim = _tolerations(toleration, first_available=first_available)
    assert [v.check for v in validate(claim, "resource.k8s.io/v1", "ResourceClaim", R137)] == expected


def test_none_effect_on_a_toleration_from_135() -> None:
    claim = _tolerations({"key": "key", "operator": "Exists", "effect": "None"})
    assert [v.check for v in validate(claim, "resource.k8s.io/v1", "ResourceClaim", Release(1, 35))] == []
    claim_v1beta1 = {**claim, "apiVersion": "resource.k8s.io/v1beta2"}
    assert [v.check for v in validate(claim_v1beta1, "resource.k8s.io/v1beta2", "ResourceClaim", Release(1, 34))] == [
        Check.ENUM]


@pytest.mark.parametrize(("node_name", "expected"), [("worker-1", []), ("worker.rack-1.example.com", []),
                                                     ("Bad_Node", [Check.NAME])])
def test_resource_slice_node_name(node_name: str, expected: list[Check]) -> None:
    # validateNodeName: core ValidateNodeName, a DNS subdomain
    obj = copy.deepcopy(OBJECTS["ResourceSlice"])
    obj["spec"]["nodeName"] = node_name
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "ResourceSlice", R137)] == expected


@pytest.mark.parametrize(("pool", "expected"), [("pool-1", []), ("region/pool-1", []), ("", [Check.REQUIRED]),
                                                ("Bad_Pool", [Check.NAME])])
def test_device_taint_rule_selector_pool(pool: str, expected: list[Check]) -> None:
    # validateDeviceTaintSelector: validatePoolName when the pool is set
    obj = copy.deepcopy(OBJECTS["DeviceTaintRule"])
    obj["spec"]["deviceSelector"]["pool"] = pool
    assert [v.check for v in validate(obj, "resource.k8s.io/v1beta2", "DeviceTaintRule", R137)] == expected


# validateDriverName = core ValidateCSIDriverName: <= 63 and IsDNS1123Subdomain(strings.ToLower(name))
DRIVER_CASES = [
    ("dns subdomain", "dra.example.com", []),
    ("upper case (lower-cased before the subdomain check)", "DRA.Example.com", []),
    ("underscore", "dra_driver.example.com", [Check.NAME]),
    ("empty label between dots", "dra..example.com", [Check.NAME]),
    ("label ending in '-'", "dra-.example.com", [Check.NAME]),
    ("64 characters", "a" * 64, [Check.NAME]),
    ("badName", BAD_NAME, [Check.NAME]),
]


@pytest.mark.parametrize(("case", "driver", "expected"), DRIVER_CASES, ids=[c[0] for c in DRIVER_CASES])
def test_resource_slice_driver_name(case: str, driver: str, expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS["ResourceSlice"])
    obj["spec"]["driver"] = driver
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "ResourceSlice", R137)] == expected


# validateDeviceConfiguration -> validateOpaqueConfiguration: validateDriverName and validateRawExtension
# (required, <= resource.OpaqueParametersMaxLength = 10 Ki, a JSON object), for DeviceClass and claim config alike
OPAQUE_CASES = [
    ("valid", {"driver": "dra.example.com", "parameters": {"kind": "GpuConfig"}}, []),
    ("empty object", {"driver": "dra.example.com", "parameters": {}}, []),
    ("missing parameters", {"driver": "dra.example.com"}, [Check.REQUIRED]),
    ("null parameters", {"driver": "dra.example.com", "parameters": None}, [Check.REQUIRED]),
    ("parameters not an object", {"driver": "dra.example.com", "parameters": ["a"]}, [Check.INVALID_VALUE]),
    ("parameters a string", {"driver": "dra.example.com", "parameters": "a"}, [Check.INVALID_VALUE]),
    ("parameters too long", {"driver": "dra.example.com", "parameters": {"x": "a" * 10 * 1024}}, [Check.LIMIT]),
    ("parameters at the limit", {"driver": "dra.example.com", "parameters": {"x": "a" * (10 * 1024 - 8)}}, []),
    ("missing driver", {"parameters": {}}, [Check.REQUIRED]),
    ("bad driver", {"driver": BAD_NAME, "parameters": {}}, [Check.NAME]),
]


@pytest.mark.parametrize("kind", ["DeviceClass", "ResourceClaim"])
@pytest.mark.parametrize(("case", "opaque", "expected"), OPAQUE_CASES, ids=[c[0] for c in OPAQUE_CASES])
def test_opaque_configuration(kind: str, case: str, opaque: dict[str, Any], expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS[kind])
    spec = obj["spec"] if kind == "DeviceClass" else obj["spec"]["devices"]
    spec["config"] = [{"opaque": opaque}]
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", kind, R137)] == expected


# validateDeviceClassSpec: extendedResourceName must satisfy core/v1 helper IsExtendedResourceName
EXTENDED_RESOURCE_CASES = [
    ("example.com/gpu", []),
    ("gpu", [Check.NAME]),                               # no '/': a native resource name
    ("kubernetes.io/gpu", [Check.NAME]),
    ("nvidia.kubernetes.io/gpu", [Check.NAME]),
    ("mykubernetes.io/gpu", [Check.NAME]),               # IsPrefixedNativeResource: contains "kubernetes.io/"
    ("requests.example.com/gpu", [Check.NAME]),
    ("a" * 240 + ".com/gpu", []),                        # "requests." + a 244-character domain: 253
    ("a" * 241 + ".com/gpu", [Check.NAME]),              # "requests." + name: prefix over 253 characters
]


@pytest.mark.parametrize(("name", "expected"), EXTENDED_RESOURCE_CASES,
                         ids=[c[0] if len(c[0]) < 40 else f"{len(c[0])} characters" for c in EXTENDED_RESOURCE_CASES])
def test_device_class_extended_resource_name(name: str, expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS["DeviceClass"])
    obj["spec"]["extendedResourceName"] = name
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "DeviceClass", R137)] == expected


# validateDeviceAttribute: string and version values are at most DeviceAttributeMaxValueLength (64) bytes, not
# characters; list values (1.36+) must not be empty
ATTRIBUTE_CASES = [
    ("64 ASCII bytes", {"string": "a" * 64}, R137, []),
    ("65 bytes", {"string": "a" * 65}, R137, [Check.ATTRIBUTE_VALUE]),
    ("33 characters, 66 bytes", {"string": "é" * 33}, R137, [Check.ATTRIBUTE_VALUE]),
    ("empty strings list", {"strings": []}, R137, [Check.INVALID_VALUE]),
    ("one-item strings list", {"strings": ["a"]}, R137, []),
]


@pytest.mark.parametrize(("case", "attribute", "release", "expected"), ATTRIBUTE_CASES, ids=[c[0] for c in ATTRIBUTE_CASES])
def test_device_attribute_value(case: str, attribute: dict[str, Any], release: Release, expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS["ResourceSlice"])
    obj["spec"]["devices"][0]["attributes"] = {"dra.example.com/model": attribute}
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "ResourceSlice", release)] == expected


def test_cel_expression_length_is_in_bytes() -> None:
    # validateCELExpression: len(expression) > resource.CELSelectorExpressionMaxLength (10 Ki), a byte count
    obj = copy.deepcopy(OBJECTS["DeviceClass"])
    obj["spec"]["selectors"] = [{"cel": {"expression": f'device.driver == "{"é" * 5200}"'}}]
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "DeviceClass", R137)] == [Check.LIMIT]


# validateRequestPolicyRange (consumable capacity, 1.34+): step checks; the step arithmetic uses Quantity.Value()
# (rounded up) as DRAFractionalCapacityRange is off by default
RANGE_CASES = [
    ("valid", {"min": "1Gi", "max": "8Gi", "step": "1Gi"}, "2Gi", []),
    ("one step larger than capacity", {"min": "39Gi", "step": "2Gi"}, "39Gi", [Check.CAPACITY_POLICY]),
    ("max not a multiple of step", {"min": "1Gi", "max": "8Gi", "step": "2Gi"}, "3Gi", [Check.CAPACITY_POLICY]),
    ("default not a multiple of step", {"min": "1Gi", "step": "2Gi"}, "2Gi", [Check.CAPACITY_POLICY]),
    ("fractional step read rounded up", {"min": "0", "step": "1500m"}, "2", []),
    ("fractional step read rounded up, default off it", {"min": "0", "step": "1500m"}, "3", [Check.CAPACITY_POLICY]),
]


@pytest.mark.parametrize(("case", "valid_range", "default", "expected"), RANGE_CASES, ids=[c[0] for c in RANGE_CASES])
def test_request_policy_range(case: str, valid_range: dict[str, str], default: str, expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS["ResourceSlice"])
    obj["spec"]["devices"][0].update(allowMultipleAllocations=True, capacity={"dra.example.com/memory": {
        "value": "40Gi", "requestPolicy": {"default": default, "validRange": valid_range}}})
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "ResourceSlice", R137)] == expected


# validateDevice: per-device node selection
PER_DEVICE_CASES = [
    ("per device, nodeName", True, {"nodeName": "worker-1"}, []),
    ("per device, none", True, {}, [Check.ONE_OF]),
    ("per device, empty nodeName", True, {"nodeName": ""}, [Check.ONE_OF, Check.ONE_OF]),
    ("per device, allNodes false", True, {"allNodes": False}, [Check.ONE_OF, Check.ONE_OF]),
    ("per device, two", True, {"nodeName": "worker-1", "allNodes": True}, [Check.ONE_OF]),
    ("not per device, allNodes false", False, {"allNodes": False}, [Check.ONE_OF]),
    ("not per device, nodeName", False, {"nodeName": "worker-1"}, [Check.ONE_OF]),
]


@pytest.mark.parametrize(("case", "per_device", "device", "expected"), PER_DEVICE_CASES, ids=[c[0] for c in PER_DEVICE_CASES])
def test_per_device_node_selection(case: str, per_device: bool, device: dict[str, Any], expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS["ResourceSlice"])
    if per_device:
        del obj["spec"]["nodeName"]
        obj["spec"]["perDeviceNodeSelection"] = True
    obj["spec"]["devices"][0].update(device)
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "ResourceSlice", R137)] == expected


def _workload(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload", "metadata": {"name": "w", "namespace": "ns"},
            "spec": spec}


def _pgt(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "schedulingPolicy": {"gang": {"minCount": 2}}, **fields}


# pkg/apis/scheduling/validation/validation.go (release-1.37): validateWorkloadPriority and
# validateCompositePodGroupTemplateHasAtLeastOneChild; zz_generated.validations.go: Validate_TypedLocalObjectReference,
# Validate_PodGroupTemplate (priorityClassName +k8s-long-name)
WORKLOAD_CASES = [
    ("same priority", _workload(podGroupTemplates=[_pgt("a", priority=5), _pgt("b", priority=5)]), []),
    ("top-level templates differ", _workload(podGroupTemplates=[_pgt("a", priority=5), _pgt("b")]),
     [(Check.INVALID_VALUE, "detected multiple priority configurations")]),
    ("composite tree differs", _workload(compositePodGroupTemplates=[
        {"name": "c", "schedulingPolicy": {"basic": {}}, "podGroupTemplates": [_pgt("a", priorityClassName="high")]}]),
     [(Check.INVALID_VALUE, "all priority and priorityClassName values must be identical, detected multiple values")]),
    ("composite without children", _workload(compositePodGroupTemplates=[{"name": "c", "schedulingPolicy": {"basic": {}}}]),
     [(Check.ONE_OF, "must have at least one child PodGroupTemplate or CompositePodGroupTemplate")]),
    ("bad priorityClassName", _workload(podGroupTemplates=[_pgt("a", priorityClassName="High_Prio")]),
     [(Check.NAME, 'invalid priorityClassName "High_Prio"')]),
    ("controllerRef kind with '/'", _workload(podGroupTemplates=[_pgt("a")],
                                              controllerRef={"apiGroup": "batch", "kind": "jobs/x", "name": "j"}),
     [(Check.NAME, 'invalid kind "jobs/x": may not contain \'/\'')]),
    ("controllerRef bad apiGroup", _workload(podGroupTemplates=[_pgt("a")],
                                             controllerRef={"apiGroup": "Batch_", "kind": "Job", "name": "j"}),
     [(Check.NAME, 'invalid apiGroup "Batch_"')]),
]


@pytest.mark.parametrize(("case", "obj", "expected"), WORKLOAD_CASES, ids=[c[0] for c in WORKLOAD_CASES])
def test_workload_spec(case: str, obj: dict[str, Any], expected: list[tuple[Check, str]]) -> None:
    found = validate(obj, obj["apiVersion"], "Workload", R137)
    assert [v.check for v in found] == [check for check, _ in expected]
    assert all(v.message.startswith(text) for v, (_, text) in zip(found, expected, strict=True))


@pytest.mark.parametrize(("name", "expected"), [("memory", []), ("dra.example.com/memory", []),
                                                ("mem ory", [Check.UNINTENDED]), ("a/b/c", [Check.UNINTENDED])])
def test_capacity_request_names_are_not_validated(name: str, expected: list[Check]) -> None:
    # validateExactDeviceRequest has no check of capacity.requests keys: an impossible name is accepted (VALID018)
    claim = copy.deepcopy(CLAIM)
    claim["spec"]["devices"]["requests"][0]["exactly"]["capacity"] = {"requests": {name: "1Gi"}}
    assert [v.check for v in validate(claim, "resource.k8s.io/v1", "ResourceClaim", R137)] == expected


# validateDeviceConstraint: matchAttribute, else distinctAttribute, else Required; both set is not rejected
CONSTRAINT_CASES = [
    ("matchAttribute", {"matchAttribute": "dra.example.com/numa"}, []),
    ("distinctAttribute", {"distinctAttribute": "dra.example.com/numa"}, []),
    ("neither", {}, [Check.ONE_OF]),
    ("both: accepted, distinctAttribute ignored",
     {"matchAttribute": "dra.example.com/numa", "distinctAttribute": "dra.example.com/uuid"}, [Check.UNINTENDED]),
    ("matchAttribute without a domain", {"matchAttribute": "numa"}, [Check.QUALIFIED_NAME]),
]


@pytest.mark.parametrize(("case", "constraint", "expected"), CONSTRAINT_CASES, ids=[c[0] for c in CONSTRAINT_CASES])
def test_device_constraint(case: str, constraint: dict[str, Any], expected: list[Check]) -> None:
    claim = copy.deepcopy(CLAIM)
    claim["spec"]["devices"]["constraints"] = [constraint]
    assert [v.check for v in validate(claim, "resource.k8s.io/v1", "ResourceClaim", R137)] == expected


# validateDevice: validateDeviceCounterConsumption and validateDeviceBindingParameters
DEVICE_CASES = [
    ("consumes counters", {"consumesCounters": [{"counterSet": "gpu-0", "counters": {"memory": {"value": "1Gi"}}}]}, []),
    ("counterSet missing", {"consumesCounters": [{"counters": {"memory": {"value": "1Gi"}}}]}, [Check.REQUIRED]),
    ("counters missing", {"consumesCounters": [{"counterSet": "gpu-0"}]}, [Check.REQUIRED]),
    ("counter set consumed twice", {"consumesCounters": [{"counterSet": "gpu-0", "counters": {"a": {"value": "1"}}},
                                                         {"counterSet": "gpu-0", "counters": {"b": {"value": "1"}}}]},
     [Check.DUPLICATE]),
    ("binding conditions", {"bindingConditions": ["dra.example.com/ready"],
                            "bindingFailureConditions": ["dra.example.com/failed"]}, []),
    ("binding conditions without failure conditions", {"bindingConditions": ["ready"]}, [Check.REQUIRED]),
    ("overlapping binding conditions", {"bindingConditions": ["ready"], "bindingFailureConditions": ["ready"]},
     [Check.INVALID_VALUE]),
    ("bad condition name", {"bindingConditions": ["not ready"], "bindingFailureConditions": ["failed"]}, [Check.NAME]),
]


@pytest.mark.parametrize(("case", "device", "expected"), DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_fields(case: str, device: dict[str, Any], expected: list[Check]) -> None:
    obj = copy.deepcopy(OBJECTS["ResourceSlice"])
    obj["spec"]["devices"][0].update(device)
    assert [v.check for v in validate(obj, "resource.k8s.io/v1", "ResourceSlice", R137)] == expected


@pytest.mark.parametrize(("release", "expected"), [(Release(1, 34), [Check.NAME, Check.REQUIRED]), (R137, [])])
def test_device_taint_rule_selector_fields_before_135(release: Release, expected: list[Check]) -> None:
    # release-1.33/1.34 validateDeviceTaintSelector also checked deviceClassName and selectors (gone from 1.35)
    obj = copy.deepcopy(OBJECTS["DeviceTaintRule"])
    obj["spec"]["deviceSelector"].update(deviceClassName="Bad_Class", selectors=[{"cel": {}}])
    assert [v.check for v in validate(obj, "resource.k8s.io/v1alpha3", "DeviceTaintRule", release)] == expected


@pytest.mark.parametrize(("key", "expected"), [("example.com/taint", []), ("taint", []), ("/taint", [Check.NAME]),
                                               ("a/b/c", [Check.NAME]), ("Example.com/taint", [Check.NAME])])
def test_device_taint_key(key: str, expected: list[Check]) -> None:
    # validateDeviceTaint: metav1validation.ValidateLabelName = IsQualifiedName (an empty prefix before '/' is invalid)
    obj = copy.deepcopy(OBJECTS["DeviceTaintRule"])
    obj["spec"]["taint"]["key"] = key
    assert [v.check for v in validate(obj, "resource.k8s.io/v1beta2", "DeviceTaintRule", R137)] == expected
