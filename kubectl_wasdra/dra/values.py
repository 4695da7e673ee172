"""Typed DRA values for CEL: Quantity and Semver as canonical tagged maps, and the Kubernetes CEL library on them.

Upstream: kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/cel/library/quantity.go and semverlib.go,
staging/src/k8s.io/apiserver/pkg/cel/types.go (Quantity, Semver), release-1.37.

The CEL runtime we embed (cel-expr-python) cannot carry opaque host objects, so a Quantity is the map
`{"@quantity": "<normalized decimal>"}` and a Semver the map `{"@semver": "<major.minor.patch[-pre]>"}`. Both strings are
canonical, so CEL's built-in map equality is exactly upstream's `==` (numeric for quantities, semver precedence equality
ignoring build metadata for versions). Library functions below raise `ValueError` for bad input; the runtime turns that
into a CEL error value.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity
from kubectl_wasdra.lazy_regex import lazy

QUANTITY_TAG: Final = "@quantity"
SEMVER_TAG: Final = "@semver"
_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
REGEX_TIMEOUT: Final = 0.05  # seconds per find/findAll call; stands in for the CEL cost limit

# semver 2.0.0 (github.com/blang/semver/v4 Parse): no "v", no leading zeros in numeric identifiers
_SEMVER_RE: Final = lazy(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
# semverlib.go normalize: strip a leading "v", pad missing minor/patch, drop leading zeros of major/minor/patch
_LOOSE_RE: Final = lazy(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?([-+].*)?$")


def quantity_value(value: Decimal) -> dict[str, str]:
    """The tagged CEL map for an exact quantity."""
    text = "0" if value == 0 else format(value.normalize(), "f")
    return {QUANTITY_TAG: text}


def quantity_of(value: Any) -> Decimal:
    """The Decimal inside a tagged quantity (or an int operand of add/sub); ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError("no such overload")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, dict) and QUANTITY_TAG in value:
        return Decimal(value[QUANTITY_TAG])
    raise ValueError("no such overload")


def parse_semver(text: str, normalize: bool = False) -> tuple[int, int, int, str]:
    """(major, minor, patch, prerelease) of a semver string; ValueError if it is not one."""
    if normalize:
        loose = _LOOSE_RE.match(text)
        if loose:
            suffix = loose.group(4) or ""
            text = ".".join(str(int(part or "0")) for part in loose.group(1, 2, 3)) + suffix
    match = _SEMVER_RE.match(text)
    if not match:
        raise ValueError(f"Could not parse semver {text!r}")
    return int(match.group(1)), int(match.group(2)), int(match.group(3)), match.group(4) or ""


def semver_value(text: str, normalize: bool = False) -> dict[str, str]:
    """The tagged CEL map for a version string (canonical: build metadata dropped)."""
    major, minor, patch, pre = parse_semver(text, normalize)
    canonical = f"{major}.{minor}.{patch}" + (f"-{pre}" if pre else "")
    return {SEMVER_TAG: canonical}


def _pre_key(pre: str) -> tuple[Any, ...]:
    """Semver precedence key for a prerelease: none sorts after any prerelease; numeric ids before alphanumeric."""
    if not pre:
        return (1,)
    parts = tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in pre.split("."))
    return (0, parts)


def _semver_key(value: Any) -> tuple[Any, ...]:
    major, minor, patch, pre = parse_semver(value[SEMVER_TAG])
    return major, minor, patch, _pre_key(pre)


def _sign(number: int | Decimal) -> int:
    return (number > 0) - (number < 0)


def compare(left: Any, right: Any) -> int:
    """compareTo for two quantities or two versions: -1, 0 or 1."""
    if isinstance(left, dict) and SEMVER_TAG in left and isinstance(right, dict) and SEMVER_TAG in right:
        a, b = _semver_key(left), _semver_key(right)
        return (a > b) - (a < b)
    return _sign(quantity_of(left) - quantity_of(right))


def to_quantity(text: str) -> dict[str, str]:
    """quantity(string): a runtime error for text that is not a Kubernetes quantity."""
    try:
        return quantity_value(parse_quantity(text))
    except QuantityError as exc:
        raise ValueError(str(exc)) from None


def is_quantity_text(text: str) -> bool:
    """isQuantity(string)."""
    try:
        parse_quantity(text)
    except QuantityError:
        return False
    return True


def is_semver_text(text: str, normalize: bool = False) -> bool:
    """isSemver(string[, normalize])."""
    try:
        parse_semver(text, normalize)
    except ValueError:
        return False
    return True


def as_integer(value: Any) -> int:
    """Quantity.asInteger(): error if fractional or outside int64 (quantity.go)."""
    number = quantity_of(value)
    if number != number.to_integral_value() or not _INT64_MIN <= number <= _INT64_MAX:
        raise ValueError("cannot convert value to integer")
    return int(number)


def is_integer(value: Any) -> bool:
    """Quantity.isInteger(): integral and within int64."""
    number = quantity_of(value)
    return number == number.to_integral_value() and _INT64_MIN <= number <= _INT64_MAX


def add(left: Any, right: Any) -> dict[str, str]:
    """Quantity.add(Quantity|int)."""
    return quantity_value(quantity_of(left) + quantity_of(right))


def sub(left: Any, right: Any) -> dict[str, str]:
    """Quantity.sub(Quantity|int)."""
    return quantity_value(quantity_of(left) - quantity_of(right))


def version_part(value: Any, index: int) -> int:
    """Semver.major()/minor()/patch()."""
    if not (isinstance(value, dict) and SEMVER_TAG in value):
        raise ValueError("no such overload")
    return parse_semver(value[SEMVER_TAG])[index]


def includes(container: Any, item: Any) -> bool:
    """x.includes(v): membership for list attributes, equality for scalars (list-type attributes, 1.36+)."""
    if isinstance(container, list):
        if len(container) > 48:  # ResourceSliceMaxAttributeValuesPerDevice (resource/v1 types.go)
            raise ValueError("'includes' function cannot be applied to lists longer than 48 values")
        return item in container
    return container == item


def _regex(pattern: str) -> Any:
    import regex  # backtracking engine with a timeout: a hostile pattern cannot hang the tool (RE2 upstream)

    try:
        return regex.compile(pattern)
    except regex.error as exc:
        raise ValueError(f"compile error: {exc}") from None


def find(text: str, pattern: str) -> str:
    """string.find(regex) from the Kubernetes regex library: the first match or ""."""
    try:
        match = _regex(pattern).search(text, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        raise ValueError("operation cancelled: actual cost limit exceeded") from None
    return match.group(0) if match else ""


def find_all(text: str, pattern: str, limit: int = -1) -> list[str]:
    """string.findAll(regex[, limit]) from the Kubernetes regex library."""
    if limit == 0:
        return []
    try:
        found = [m.group(0) for m in _regex(pattern).finditer(text, timeout=REGEX_TIMEOUT)]
    except TimeoutError:
        raise ValueError("operation cancelled: actual cost limit exceeded") from None
    return found if limit < 0 else found[:limit]
