"""One cause, one finding (lint/overlap.py): a VALID problem about a value the schema already reports is left out;
several unknown sibling fields are one finding each, at their own key."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.apis import parse_runtime_config
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "fixtures" / "manifests" / "one-cause"
GROUPS = {"feature_gates": {"GenericWorkload": True}, "runtime_config": parse_runtime_config(["scheduling.k8s.io/v1beta1=true"])}


def _found(name: str, release: str = "1.37", **options: object) -> list[tuple[str, int, int, str]]:
    report = run_check(CheckOptions(paths=(str(CASES / name),), releases=(Release.parse(release),), jobs=1,
                                    **options))  # type: ignore[arg-type]
    return [(f.rule, f.line, f.column, f.path) for f in report.findings if f.rule[:3] in ("SCH", "VAL")]


def test_missing_min_count_is_one_schema_finding() -> None:
    assert _found("podgroup-no-min-count.yaml", **GROUPS) == [
        ("SCHEMA003", 9, 5, "spec.schedulingPolicy.gang")]


def test_without_schema_rules_validation_still_reports_it() -> None:
    found = _found("podgroup-no-min-count.yaml", ignore=("SCHEMA",), **GROUPS)
    assert found == [("VALID011", 9, 5, "spec.schedulingPolicy.gang.minCount")]


def test_count_string_is_one_finding_and_unknown_fields_one_each() -> None:
    assert _found("claim-count-string.yaml") == [
        ("SCHEMA001", 14, 16, "spec.devices.requests[0].exactly.count"),
        ("SCHEMA002", 15, 9, "spec.devices.requests[0].exactly.cuont"),
        ("SCHEMA002", 16, 9, "spec.devices.requests[0].exactly.selectorz"),
    ]


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_unknown_field_hints_are_per_field(release: str) -> None:
    report = run_check(CheckOptions(paths=(str(CASES / "claim-count-string.yaml"),), releases=(Release.parse(release),),
                                    jobs=1))
    hints = {f.path.rpartition(".")[2]: f.hint for f in report.findings if f.rule == "SCHEMA002"}
    assert hints == {"cuont": 'did you mean "count"?', "selectorz": 'did you mean "selectors"?'}


def test_misindented_expression_is_one_finding_that_says_so() -> None:
    assert _found("selector-expression-misindented.yaml") == [
        ("VALID011", 14, 11, "spec.devices.requests[0].exactly.selectors[0].cel")]
    # without the VALID rules, the schema's view of the same mistake is still reported
    assert [rule for rule, *_ in _found("selector-expression-misindented.yaml", ignore=("VALID",))] == ["SCHEMA002"]


def test_wrong_type_node_name_is_not_also_a_missing_node_selection() -> None:
    assert _found("slice-node-name-boolean.yaml") == [("SCHEMA001", 8, 13, "spec.nodeName")]
