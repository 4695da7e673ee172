"""Parsed label selectors with apimachinery's parse errors: a selector that does not parse selects as upstream says.

Upstream: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/labels/selector.go (NewRequirement,
Requirement.Matches), pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector: nil selects nothing, {} everything),
pkg/util/validation/validation.go (IsQualifiedName, IsValidLabelValue) and util/validation/field/errors.go (the
"path: Invalid value: ...: detail" text), release-1.37.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

_NAME_FMT: Final = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_NAME_RE: Final = re.compile(f"^{_NAME_FMT}$")
_LABEL_VALUE_FMT: Final = f"({_NAME_FMT})?"
_LABEL_VALUE_RE: Final = re.compile(f"^{_LABEL_VALUE_FMT}$")
_DNS1123_FMT: Final = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_DNS1123_RE: Final = re.compile(f"^{_DNS1123_FMT}$")
_INT64_RE: Final = re.compile(r"^[+-]?[0-9]+$")
_INT64_MAX: Final = 2**63 - 1
# the patterns are used with fullmatch: Go's `$` ends the text, Python's also matches before a final newline
OPERATORS: Final = ("In", "NotIn", "Exists", "DoesNotExist")  # metav1.LabelSelectorOperator


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    """validation.RegexError, including its doubled space after each example."""
    return msg + " (e.g. " + " or ".join(f"'{e}', " for e in examples) + f"regex used for validation is '{fmt}')"


_NAME_MSG: Final = _regex_error("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                                "an alphanumeric character", _NAME_FMT, "MyName", "my.name", "123-abc")
_VALUE_MSG: Final = _regex_error("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
                                 "or '.', and must start and end with an alphanumeric character", _LABEL_VALUE_FMT,
                                 "MyValue", "my_value", "12345")
_DNS_MSG: Final = _regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
                               "or '.', and must start and end with an alphanumeric character", _DNS1123_FMT, "example.com")


def qualified_name_errors(value: str) -> list[str]:
    """validation.IsQualifiedName: [prefix/]name, name at most 63 characters."""
    parts = value.split("/")
    if len(parts) > 2:
        return ["a qualified name " + _NAME_MSG + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    errors = []
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            if len(prefix) > 253:
                errors.append("prefix part must be no more than 253 characters")
            if not _DNS1123_RE.fullmatch(prefix):
                errors.append("prefix part " + _DNS_MSG)
    name = parts[-1]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > 63:
        errors.append("name part must be no more than 63 characters")
    if not _NAME_RE.fullmatch(name):
        errors.append("name part " + _NAME_MSG)
    return errors


def label_value_errors(value: str) -> list[str]:
    """validation.IsValidLabelValue: at most 63 characters of the label-value alphabet."""
    errors = ["must be no more than 63 characters"] if len(value) > 63 else []
    if not _LABEL_VALUE_RE.fullmatch(value):
        errors.append(_VALUE_MSG)
    return errors


def _go_value(value: Any) -> str:
    """How field.Error prints a value: strings quoted, string lists as a Go literal."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[]string{" + ", ".join(_go_value(str(v)) for v in value) + "}"
    return str(value)


def invalid(path: str, value: Any, detail: str) -> str:
    """field.Invalid(...).Error()."""
    return f"{path}: Invalid value: {_go_value(value)}: {detail}"


def aggregate(errors: Sequence[str]) -> str:
    """utilerrors.NewAggregate(...).Error(): one message as is, several de-duplicated inside [ ]."""
    unique = list(dict.fromkeys(errors))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def requirement_errors(key: str, operator: str, values: Sequence[Any], path: str = "") -> list[str]:
    """labels.NewRequirement's validation of one requirement (key, operator, values); `path` prefixes the fields
    (node selector terms pass theirs, label selectors none)."""
    prefix = f"{path}." if path else ""
    errors = []
    key_errors = qualified_name_errors(key)
    if key_errors:
        errors.append(invalid(f"{prefix}key", key, "; ".join(key_errors)))
    values = [str(v) for v in values]
    if operator in ("In", "NotIn") and not values:
        errors.append(invalid(f"{prefix}values", values, "for 'in', 'notin' operators, values set can't be empty"))
    elif operator in ("=", "==", "!=") and len(values) != 1:
        errors.append(invalid(f"{prefix}values", values, "exact-match compatibility requires one single value"))
    elif operator in ("Exists", "DoesNotExist") and values:
        errors.append(invalid(f"{prefix}values", values, "values set must be empty for exists and does not exist"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            errors.append(invalid(f"{prefix}values", values, "for 'Gt', 'Lt' operators, exactly one value is required"))
        errors.extend(invalid(f"{prefix}values[{i}]", v, "for 'Gt', 'Lt' operators, the value must be an integer")
                      for i, v in enumerate(values) if parse_int64(v) is None)
    for i, value in enumerate(values):
        value_errors = label_value_errors(value)
        if value_errors:
            errors.append(invalid(f"{prefix}values[{i}][{key}]", value, "; ".join(value_errors)))
    return errors


def parse_int64(text: str) -> int | None:
    """strconv.ParseInt(text, 10, 64), or None."""
    if not _INT64_RE.fullmatch(text):
        return None
    value = int(text)
    return value if -_INT64_MAX - 1 <= value <= _INT64_MAX else None


def requirement_matches(labels: Mapping[str, str], key: str, operator: str, values: Sequence[str]) -> bool:
    """Requirement.Matches for a requirement that parsed."""
    if operator in ("In", "=", "=="):
        return key in labels and labels[key] in values
    if operator in ("NotIn", "!="):
        return key not in labels or labels[key] not in values
    if operator == "Exists":
        return key in labels
    if operator == "DoesNotExist":
        return key not in labels
    if operator not in ("Gt", "Lt") or key not in labels or len(values) != 1:
        return False
    actual, bound = parse_int64(labels[key]), parse_int64(str(values[0]))
    if actual is None or bound is None:
        return False
    return actual > bound if operator == "Gt" else actual < bound


@dataclass(frozen=True)
class Selector:
    """A parsed labels.Selector: `nothing` selects no object; otherwise every requirement must hold (none: all)."""

    requirements: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    nothing: bool = False

    @property
    def empty(self) -> bool:
        """labels.Selector.Empty(): true for Everything (no requirements), false for Nothing."""
        return not self.nothing and not self.requirements

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Selector.Matches."""
        if self.nothing:
            return False
        return all(requirement_matches(labels, k, op, v) for k, op, v in self.requirements)

    def add(self, *requirements: tuple[str, str, tuple[str, ...]]) -> Selector:
        """Selector.Add: more requirements (a Nothing selector stays Nothing)."""
        return self if self.nothing else Selector((*self.requirements, *requirements))


NOTHING: Final = Selector(nothing=True)
EVERYTHING: Final = Selector()


def parse_label_selector(selector: Any) -> Selector | str:
    """metav1.LabelSelectorAsSelector: the Selector, or the parse error's text."""
    if selector is None:
        return NOTHING
    if not isinstance(selector, Mapping):
        return f"invalid label selector {selector!r}"
    match_labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or ()
    if not isinstance(match_labels, Mapping) or not isinstance(expressions, list | tuple):
        return "invalid label selector: matchLabels must be a map and matchExpressions a list"
    requirements: list[tuple[str, str, tuple[str, ...]]] = []
    for key in sorted(match_labels):  # Go iterates a map in random order; sorted keeps the first error stable
        value = match_labels[key]
        errors = requirement_errors(str(key), "=", [value])
        if errors:
            return aggregate(errors)
        requirements.append((str(key), "=", (str(value),)))
    for expr in expressions:
        expr = expr if isinstance(expr, Mapping) else {}
        operator = str(expr.get("operator", ""))
        if operator not in OPERATORS:
            return f'"{operator}" is not a valid label selector operator'
        values = expr.get("values") or []
        values = values if isinstance(values, list | tuple) else [values]
        errors = requirement_errors(str(expr.get("key", "")), operator, values)
        if errors:
            return aggregate(errors)
        requirements.append((str(expr.get("key", "")), operator, tuple(str(v) for v in values)))
    return Selector(tuple(requirements))


def selector_from_set(labels: Mapping[str, str]) -> Selector:
    """labels.SelectorFromSet: key=value for each pair (an empty set selects everything)."""
    return Selector(tuple((k, "=", (str(v),)) for k, v in sorted(labels.items())))
