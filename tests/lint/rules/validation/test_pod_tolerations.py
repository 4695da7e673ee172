"""Pod toleration operators as kube-apiserver validates them: Equal and Exists always, Lt and Gt only from 1.35 and
only with TaintTolerationComparisonOperators on (GATE001), never reported twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.lint.rules.validation._base import Check
from kubectl_wasdra.lint.rules.validation.rules import validate

NUMERIC = Path(__file__).resolve().parents[4] / \
    "tests/corpus/realworld/kubernetes__website/content/en/examples/pods/pod-with-numeric-toleration.yaml"


def _pod(operator: str) -> dict[str, object]:
    return {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "i"}],
                                                "tolerations": [{"key": "k", "operator": operator, "value": "1"}]}}


@pytest.mark.parametrize("operator", ["Equal", "", "Exists"])
def test_equal_and_exists_are_accepted(operator: str) -> None:
    pod = _pod(operator)
    if operator == "Exists":
        del pod["spec"]["tolerations"][0]["value"]  # type: ignore[index]
    assert validate(pod, "v1", "Pod", Release(1, 33)) == ()


def test_an_unknown_operator_is_unsupported_in_every_release() -> None:
    for release in (Release(1, 33), Release(1, 37)):
        [violation] = validate(_pod("In"), "v1", "Pod", release)
        assert (violation.check, violation.path) == (Check.ENUM, ("spec", "tolerations", 0, "operator"))


def test_comparison_operators_before_135_do_not_exist() -> None:
    [violation] = validate(_pod("Lt"), "v1", "Pod", Release(1, 34))
    assert violation.check is Check.ENUM and "from 1.35" in violation.message
    assert validate(_pod("Lt"), "v1", "Pod", Release(1, 35)) == ()


@pytest.mark.parametrize(("release", "gates", "expected"), [
    (Release(1, 33), {}, ["VALID013"]),
    (Release(1, 37), {}, ["GATE001"]),
    (Release(1, 37), {"TaintTolerationComparisonOperators": True}, []),
])
def test_website_numeric_toleration_example(release: Release, gates: dict[str, bool], expected: list[str]) -> None:
    report = run_check(CheckOptions(paths=(str(NUMERIC),), releases=(release,), feature_gates=gates, jobs=1))
    assert [f.rule for f in report.findings] == expected
