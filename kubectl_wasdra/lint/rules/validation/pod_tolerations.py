"""VALID check of a pod toleration's `operator` (pods and pod templates).

Upstream: kubernetes/kubernetes pkg/apis/core/validation/validation.go validateTolerations: the operator is empty
(Equal), Equal or Exists ("Unsupported value"); from release-1.35 Lt and Gt too, but only while the
TaintTolerationComparisonOperators gate is on (pkg/api/pod/util.go allowTaintTolerationComparisonOperators), which
GATE001 reports from rules/field-gates.yaml, so they are not reported here from 1.35.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict, as_list

OPERATORS: Final = ("Equal", "Exists")
COMPARISONS: Final = ("Lt", "Gt")
COMPARISONS_FROM: Final = Release(1, 35)


def validate_pod_tolerations(spec: dict[str, Any], path: Path, release: Release) -> Iterator[Violation]:
    known = OPERATORS + COMPARISONS if release >= COMPARISONS_FROM else OPERATORS
    for index, toleration in enumerate(as_list(spec.get("tolerations"))):
        operator = as_dict(toleration).get("operator")
        if not isinstance(operator, str) or operator in ("", *known):
            continue   # a wrong type is the schema's finding
        later = f" (Lt and Gt exist from {COMPARISONS_FROM}, behind TaintTolerationComparisonOperators)" \
            if operator in COMPARISONS else ""
        yield Violation(Check.ENUM, (*path, "tolerations", index, "operator"),
                        f'unsupported toleration operator "{operator}"{later}',
                        hint="use one of: " + ", ".join(known), at="value")
