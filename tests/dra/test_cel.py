"""CEL selectors on DRA devices: the Kubernetes library, domains, errors with positions, cost bound."""

from __future__ import annotations

import pytest

from kubectl_wasdra.dra.cel import CelCompileError, CelRuntimeError, DeviceView, compile_selector

DRIVER = "gpu.example.com"
DEVICE = {
    "name": "gpu-0",
    "attributes": {
        "model": {"string": "A100"},
        "index": {"int": 3},
        "healthy": {"bool": True},
        "driverVersion": {"version": "1.2.3"},
        "resource.kubernetes.io/numaNode": {"int": 0},
        "tags": {"strings": ["a", "b"]},
    },
    "capacity": {"memory": {"value": "80Gi"}},
    "allowMultipleAllocations": True,
}
GPU = f'device.attributes["{DRIVER}"]'


@pytest.fixture(scope="module")
def view() -> DeviceView:
    return DeviceView(DRIVER, DEVICE)


@pytest.mark.parametrize(("expression", "expected"), [
    ('device.driver == "gpu.example.com"', True),
    (f'{GPU}.model == "A100"', True),
    (f'{GPU}.index > 2 && {GPU}.healthy', True),
    (f'device.capacity["{DRIVER}"].memory.compareTo(quantity("40Gi")) > 0', True),
    (f'device.capacity["{DRIVER}"].memory.isGreaterThan(quantity("100Gi"))', False),
    (f'device.capacity["{DRIVER}"].memory.isLessThan(quantity("100Gi"))', True),
    (f'device.capacity["{DRIVER}"].memory == quantity("81920Mi")', True),
    (f'{GPU}.driverVersion.isGreaterThan(semver("1.2.0"))', True),
    (f'{GPU}.driverVersion.isLessThan(semver("1.10.0"))', True),
    (f'{GPU}.driverVersion.major() == 1 && {GPU}.driverVersion.minor() == 2 && {GPU}.driverVersion.patch() == 3', True),
    (f'{GPU}.driverVersion == semver("v1.2.3", true)', True),
    ('semver("1.0.0-alpha").isLessThan(semver("1.0.0"))', True),
    ('semver("1.0.0-alpha.1").compareTo(semver("1.0.0-alpha.beta")) == -1', True),
    ('device.attributes["resource.kubernetes.io"].numaNode == 0', True),
    ('"other.example.com" in device.attributes && device.attributes["other.example.com"].model == "x"', False),
    ('!("other.example.com" in device.capacity) || device.capacity["other.example.com"].mem.isLessThan(quantity("1"))',
     True),
    ('has(device.attributes["other.example.com"].x)', False),
    (f'has({GPU}.model)', True),
    (f'{GPU}.tags.includes("a") && !{GPU}.tags.includes("z")', True),
    (f'{GPU}.index.includes(3)', True),
    ("device.allowMultipleAllocations", True),
    ('isQuantity("200K")', False),
    ('isQuantity("200k")', True),
    ('quantity("1.5").add(1) == quantity("2500m")', True),
    ('quantity("1").sub(quantity("250m")) == quantity("0.75")', True),
    ('sign(quantity("-3")) == -1 && quantity("2").sign() == 1', True),
    ('quantity("3").asApproximateFloat() == 3.0 && quantity("3").asInteger() == 3', True),
    ('quantity("1.5").isInteger()', False),
    ('isSemver("1.2") || !isSemver("1.2", true)', False),
    (f'{GPU}.?missing.orValue(5) == 5', True),
    (f"cel.bind(m, {GPU}, m.index == 3)", True),
    ('device.driver.startsWith("gpu")', True),
    ("'abc123'.find('[0-9]+') == '123' && 'a1b2'.findAll('[0-9]') == ['1', '2'] && 'a1b2'.findAll('[0-9]', 1).size() == 1",
     True),
], ids=lambda value: value if isinstance(value, str) else None)
def test_selector_values(view: DeviceView, expression: str, expected: bool) -> None:
    assert compile_selector(expression).matches(view) is expected


@pytest.mark.parametrize(("expression", "message", "line", "column"), [
    ("device.foo == 1", "undefined field 'foo'", 1, 7),
    ("device.driver ==\n  ", "Syntax error", 2, 3),
    ('"a" + "b"', "must evaluate to bool or the unknown type, not string", 1, 1),
    ('device.driver == "a" && nofunc(1)', "undeclared reference to 'nofunc'", 1, 31),
    ("", "CEL expression empty", 1, 1),
])
def test_compile_errors(expression: str, message: str, line: int, column: int) -> None:
    with pytest.raises(CelCompileError) as caught:
        compile_selector(expression)
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == (line, column)


def test_allow_multiple_allocations_needs_consumable_capacity() -> None:
    with pytest.raises(CelCompileError, match="allowMultipleAllocations"):
        compile_selector("device.allowMultipleAllocations", consumable_capacity=False)


@pytest.mark.parametrize(("expression", "message"), [
    (f"{GPU}.nope == 1", "no such key: nope. consider using CEL optional chaining"),
    ('device.attributes["other.example.com"].x == 1', "no such key: x"),
    ('quantity("200K") == quantity("1")', '"200K" is not a quantity'),
    ('quantity("1.5").asInteger() == 1', "cannot convert value to integer"),
    ("device.driver", "CEL result of type string could not be converted to bool"),
    ("[1,2].all(x, [1,2].all(y, [1,2].all(z, [1,2].all(w, true))))", "actual cost limit exceeded"),
    ("'" + "a" * 60 + "c'.find('(a|aa)+$') == ''", "actual cost limit exceeded"),
    ("'abc'.find('(') == ''", "compile error"),
])
def test_runtime_errors(view: DeviceView, expression: str, message: str) -> None:
    with pytest.raises(CelRuntimeError) as caught:
        compile_selector(expression).matches(view)
    assert message in caught.value.message


def test_invalid_version_attribute_is_runtime_error() -> None:
    bad = DeviceView(DRIVER, {"name": "d", "attributes": {"v": {"version": "01.2"}}})
    with pytest.raises(CelRuntimeError, match="attribute v"):
        compile_selector('device.driver == "x"').matches(bad)


def test_includes_needs_list_type_attributes_for_new_expressions() -> None:
    with pytest.raises(CelCompileError, match="includes"):
        compile_selector(f'{GPU}.tags.includes("a")', list_attributes=False)


def test_compile_is_cached() -> None:
    assert compile_selector('device.driver == "a"') is compile_selector('device.driver == "a"')


# Transcribed from kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go (1.37):
# (name, driver, attributes, capacity, expression, expected bool or "error: <substring>")
DRA = "dra.example.com"
UPSTREAM = [
    ("true", "", {}, {}, "true", True),
    ("type-error", "", {}, {}, "1", "compile: must evaluate to bool or the unknown type, not int"),
    ("syntax-error", "", {}, {}, "?!", "compile: Syntax error"),
    ("runtime-error-lookup-identifier", "", {}, {},
     'device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))', "runtime: no such key: noSuchAttr"),
    ("runtime-error-lookup-map", "", {}, {},
     'device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))', "runtime: no such key: noSuchAttr"),
    ("domain-check-negative", "", {}, {}, '"no-such-domain" in device.attributes', False),
    ("domain-check-positive", "", {f"{DRA}/something": {"bool": True}}, {}, f'"{DRA}" in device.attributes', True),
    ("empty-driver-name", "", {}, {}, 'device.driver == ""', True),
    ("driver-name-qualifier", DRA, {"name": {"bool": True}}, {}, f'device.attributes["{DRA}"].name', True),
    ("driver-name-qualifier-map-lookup", DRA, {"name": {"bool": True}}, {}, f'device.attributes["{DRA}"]["name"]', True),
    ("bind", DRA, {"name": {"bool": True}}, {}, f'cel.bind(dra, device.attributes["{DRA}"], dra.name)', True),
    ("qualified-attribute-name", DRA, {"other.example.com/name": {"bool": True}}, {},
     'device.attributes["other.example.com"].name', True),
    ("int", DRA, {"name": {"int": 1}}, {}, f'device.attributes["{DRA}"].name > 0', True),
    ("string", DRA, {"name": {"string": "fish"}}, {}, f'device.attributes["{DRA}"].name == "fish"', True),
    ("list-result-type-causes-match-error", DRA, {"names": {"strings": ["fish", "bird"]}}, {},
     f'device.attributes["{DRA}"].names', "runtime: CEL result of type list could not be converted to bool"),
    ("includes-function-on-semver-list-positive", DRA, {"name": {"versions": ["1.0.0", "2.0.0"]}}, {},
     f'device.attributes["{DRA}"].name.includes(semver("1.0.0"))', True),
    ("includes-function-on-very-long-list-runtime-error", DRA, {"name": {"strings": [f"v{i}" for i in range(49)]}}, {},
     f'device.attributes["{DRA}"].name.includes("v49")',
     "runtime: 'includes' function cannot be applied to lists longer than 48 values"),
    ("version_v", DRA, {"name": {"version": "1.0.0"}}, {},
     f'device.attributes["{DRA}"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)', True),
    ("quantity", DRA, {}, {"name": {"value": "1Mi"}}, f'device.capacity["{DRA}"].name.isGreaterThan(quantity("1Ki"))', True),
    ("check-negative", "", {}, {},
     f'!("name" in device.capacity["{DRA}"]) || device.capacity["{DRA}"].name.isGreaterThan(quantity("1Ki"))', True),
    ("check_attribute_domains", DRA, {"services": {"string": "x"}}, {}, f'device.attributes.exists_one(x, x == "{DRA}")', True),
    ("split_attribute", DRA, {"services": {"string": "some_example_value"}}, {},
     f'device.attributes["{DRA}"].services.split("example").size() >= 2', True),
    ("regexp_attribute", DRA, {"services": {"string": "asymetric"}}, {},
     f'device.attributes["{DRA}"].services.matches("[^a]?sym")', True),
    ("expensive", DRA, {}, {}, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, "
     "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"
     ".all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, "
     "int('1'.find('[0-9]*')) < 100)))))))", "runtime: actual cost limit exceeded"),
    ("allow_multiple_allocations_default", DRA, {}, {}, "device.allowMultipleAllocations == false", True),
]


@pytest.mark.parametrize(("name", "driver", "attributes", "capacity", "expression", "expected"), UPSTREAM,
                         ids=[case[0] for case in UPSTREAM])
def test_upstream_cel_cases(name: str, driver: str, attributes: dict, capacity: dict, expression: str,
                            expected: bool | str) -> None:
    view = DeviceView(driver, {"name": "d", "attributes": attributes, "capacity": capacity})
    if expected is True or expected is False:
        assert compile_selector(expression).matches(view) is expected
        return
    stage, text = str(expected).split(": ", 1)
    if stage == "compile":
        with pytest.raises(CelCompileError) as compile_error:
            compile_selector(expression)
        assert text in compile_error.value.message
    else:
        with pytest.raises(CelRuntimeError) as runtime_error:
            compile_selector(expression).matches(view)
        assert text in runtime_error.value.message
