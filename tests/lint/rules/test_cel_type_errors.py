"""check --snapshot type-checks device selectors against the attribute and capacity types the snapshot's
ResourceSlices declare, before evaluating anything: the error is reported at its line and column inside the
expression, naming the attribute, its type and the slices; nothing is said where the type is not certain."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import snapshot_at

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

SLICES = Path(__file__).with_name("cel_types_slices.yaml")
CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel:
      expression: EXPRESSION
"""
TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: EXPRESSION
"""
GPU = 'device.attributes["gpu.example.com"]'
CAPACITY = 'device.capacity["gpu.example.com"]'


def _findings(text: str, tmp_path: Path) -> list[tuple[str, int, int, str, str, str]]:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    report = run_check(CheckOptions(paths=(str(path),), snapshot=snapshot_at(str(SLICES)), select=("FIT",),
                                    simulate=False))
    return [(f.rule, f.line, f.column, f.path, f.message, f.hint or "") for f in report.findings]


def _class(expression: str) -> str:
    return CLASS.replace("EXPRESSION", f"'{expression}'")


def test_an_int_attribute_compared_with_a_string_is_a_type_error_at_the_operator(tmp_path: Path) -> None:
    ((rule, line, column, path, message, hint),) = _findings(_class(f'{GPU}.index > "2"'), tmp_path)
    # the quote is at column 19, so the expression's first character at 20; ">" is its 44th character
    assert (rule, line, column, path) == ("FIT002", 7, 20 + 43, "spec.selectors[0].cel.expression")
    assert message == (f'CEL type error ({GPU}.index is int in every ResourceSlice that declares the attribute: '
                       '"node-a-gpus", "node-b-gpus"): found no matching overload for \'_>_\' applied to '
                       "'(int, string)'")
    assert "the scheduler fails the allocation" in hint


def test_a_claim_selector_on_a_second_line_of_a_block_scalar(tmp_path: Path) -> None:
    text = TEMPLATE.replace("expression: EXPRESSION", f"expression: |-\n                {GPU}.model == \"X100\" &&\n"
                                                        f"                {GPU}.healthy > 1")
    ((rule, line, column, path, message, _),) = _findings(text, tmp_path)
    assert (rule, line, path) == ("FIT001", 15, "spec.spec.devices.requests[0].exactly.selectors[0].cel.expression")
    assert column == 17 + len(f"{GPU}.healthy ")
    assert f"{GPU}.healthy is bool" in message and "'(bool, int)'" in message


@pytest.mark.parametrize(("expression", "fragment"), [
    (f'{GPU}.driverVersion > "1.0.0"', "'_>_' applied to '(version, string)'"),
    (f'{GPU}.driverVersion.isGreaterThan(quantity("1"))', "'isGreaterThan' applied to '(version, quantity)'"),
    (f'{CAPACITY}.memory > 40', "'_>_' applied to '(quantity, int)'"),
    (f'{CAPACITY}.memory.compareTo(semver("1.0.0")) > 0', "'compareTo' applied to '(quantity, version)'"),
    (f'{GPU}["index"].startsWith("1")', "'startsWith' applied to '(int, string)'"),
    (f'{GPU}.index.size() > 0', "'size' applied to '(int)'"),
    ('device.attributes["resource.kubernetes.io"].numaNode == "0"', "'_==_' applied to '(int, string)'"),
    # upstream compile_test.go "macro-exists-on-string": "got 'types.String', expected iterable type" at run time
    (f'{GPU}.model.exists(x, x == "X100")', "type 'string' cannot be the range of a comprehension"),
    (f'{GPU}.index.value > 1', "type 'int' cannot be the operand of a select operation"),
], ids=["version-vs-string", "version-vs-quantity", "quantity-vs-int", "quantity-vs-version", "int-string-method",
        "size-of-int", "standard-attribute-equality", "macro-on-a-string", "field-of-an-int"])
def test_type_errors(tmp_path: Path, expression: str, fragment: str) -> None:
    ((rule, _, _, _, message, _),) = _findings(_class(expression), tmp_path)
    assert rule == "FIT002" and fragment in message


def test_equality_across_types_says_what_happens_at_run_time(tmp_path: Path) -> None:
    ((_, _, _, _, message, hint),) = _findings(_class(f'{GPU}.index == "0"'), tmp_path)
    assert message.endswith("at run time the comparison is never true") and "declared type" in hint


def test_a_selector_that_is_not_a_bool(tmp_path: Path) -> None:
    ((_, _, _, _, message, _),) = _findings(_class(f"{GPU}.index"), tmp_path)
    assert "must evaluate to bool, not int" in message and f"{GPU}.index is int" in message


@pytest.mark.parametrize("expression", [
    # upstream dynamic-resource-allocation/cel/compile_test.go: version and quantity cases that match
    f'{GPU}.driverVersion.isGreaterThan(semver("0.0.1"))',
    f'{CAPACITY}.memory.isGreaterThan(quantity("1Ki"))',
    f'{CAPACITY}.memory.compareTo(quantity("40Gi")) >= 0',
    f'{GPU}.index > 0 && {GPU}.model == "X100" && {GPU}.healthy',
    f'{GPU}.index < 1.5',                                  # cross-type numeric comparison: cel-go accepts it
    f'{GPU}.index == 0.0',                                 # heterogeneous numeric equality: true at run time
    f'{GPU}.driverVersion.major() == 1',
    # not certain: declared as string by one slice and int by another
    f'{GPU}.family == "hopper"', f'{GPU}.family > 2',
    # not certain: list attributes (scalar operations apply to them upstream)
    f'{GPU}.links == "pcie"', f'{GPU}.links.includes("pcie")',
    # not certain: a domain or name no slice declares (FIT001/FIT002 say "matches no device" with did-you-mean)
    'device.attributes["nic.example.com"].speed > "2"',
    # not certain: optional accesses and has()
    f'has({GPU}.index) && {GPU}.index > "2"', f'{GPU}.?index.orValue("x") > "2"',
    'device.attributes[?"gpu.example.com"].index > "2"',
    # device rebound by a macro or cel.bind: the text no longer says what it refers to
    '[{"x": 1}].all(device, device.attributes["gpu.example.com"].index > "2")',
], ids=lambda expression: expression.replace(GPU, "gpu").replace(CAPACITY, "cap")[:60])
def test_nothing_is_said_when_the_types_fit_or_are_not_certain(tmp_path: Path, expression: str) -> None:
    findings = _findings(_class(expression.replace("'", "''")), tmp_path)
    assert not [f for f in findings if "type error" in f[4]], findings
