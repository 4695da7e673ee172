"""Selectors that read only some device fields share results across devices: same answers as evaluating each device."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.dra.cel import CelRuntimeError, DeviceView, compile_selector
from kubectl_wasdra.dra.views import value_error

DRIVER = "gpu.example.com"
G = f'device.attributes["{DRIVER}"]'
EXPRESSIONS = [
    f'device.driver == "{DRIVER}" && {G}.type == "gpu"',
    f'{G}.?type.orValue("none") == "gpu"',
    f'has({G}.type) && {G}["index"] > 1',
    f'{G}.index > 1',
    f'device.capacity["{DRIVER}"].memory.isGreaterThan(quantity("40Gi"))',
    'device.attributes["other.example.com"].index == 2',
    f'{G}.version.isGreaterThan(semver("1.0.0"))',
    f'"{DRIVER}" in device.attributes && {G}.type == "gpu"',  # not projectable
    f'{G}.exists(k, k == "type")',  # not projectable
    "device.allowMultipleAllocations",
]


@pytest.mark.parametrize(("expression", "projectable"), [
    (EXPRESSIONS[0], True), (EXPRESSIONS[1], True), (EXPRESSIONS[2], True), (EXPRESSIONS[4], True),
    (EXPRESSIONS[7], False), (EXPRESSIONS[8], False), (f"cel.bind(a, {G}, a.type == 'gpu')", False),
    (f'{G} ? true : false', False), ('device["driver"] == "x"', False),
])
def test_projectable_expressions(expression: str, projectable: bool) -> None:
    assert (compile_selector(expression).projection is not None) is projectable


def direct(expression: str, raw: dict) -> bool | str:
    try:
        return compile_selector(expression).matches(DeviceView(DRIVER, raw))
    except CelRuntimeError as exc:
        return exc.message


def projected(expression: str, raw: dict) -> bool | str:
    try:
        return compile_selector(expression).matches_device(DRIVER, raw, lambda: DeviceView(DRIVER, raw),
                                                           lambda: value_error(raw))
    except CelRuntimeError as exc:
        return exc.message


VALUES = st.one_of(st.builds(lambda v: {"string": v}, st.sampled_from(["gpu", "nic"])),
                   st.builds(lambda v: {"int": v}, st.integers(0, 3)),
                   st.builds(lambda v: {"bool": v}, st.booleans()),
                   st.builds(lambda v: {"version": v}, st.sampled_from(["1.0.0", "2.1.0", "01.0"])))
KEYS = st.sampled_from(["type", "index", "version", f"{DRIVER}/type", f"{DRIVER}/index", "other.example.com/index"])
DEVICES = st.builds(lambda attributes, memory, multi: {"name": "d", "attributes": attributes,
                                                       "capacity": {"memory": {"value": memory}} if memory else {},
                                                       "allowMultipleAllocations": multi},
                    st.dictionaries(KEYS, VALUES, max_size=4), st.sampled_from([None, "40Gi", "80Gi", "bad"]),
                    st.booleans())


@settings(max_examples=150, deadline=None)
@given(st.lists(DEVICES, min_size=1, max_size=6))
def test_projected_results_equal_direct_evaluation(devices: list[dict]) -> None:
    for expression in EXPRESSIONS:
        for raw in devices:
            assert projected(expression, raw) == direct(expression, raw), (expression, raw)
