"""Kubernetes resource.Quantity: exact parsing to Decimal, comparison, and compact formatting.

Upstream: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (release-1.37).
Quantities are exact (Decimal), never float.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_UP, Context, Decimal, localcontext
from typing import Final

_BINARY: Final = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL: Final = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_SUFFIX_CHARS: Final = frozenset("eEinumkKMGTP")
_DIGITS: Final = frozenset("0123456789")
_MAX_BINARY: Final = Decimal(2**63 - 1)  # quantity.go: maxAllowed, the cap of BinarySI values
_NANO: Final = Decimal("1e-9")  # quantity.go rounds non-zero values up to 1n
# Go accepts exponents up to int32; values are kept exact up to 10^LIMIT_EXPONENT and held there beyond it, so that
# arithmetic on them stays finite (no real resource is anywhere near)
LIMIT_EXPONENT: Final = 100_000
_LIMIT: Final = Decimal(f"1e{LIMIT_EXPONENT}")
_WIDE: Final = Context(prec=LIMIT_EXPONENT + 100, Emax=10 * LIMIT_EXPONENT, Emin=-10 * LIMIT_EXPONENT)
_FORMS: Final = 'expected e.g. "100m", "2", "8Gi", "1e3"'
_SCIENTIFIC: Final = Decimal("1e100")  # longer integers are printed as 1e400


class QuantityError(ValueError):
    """Text is not a Kubernetes quantity; the message says what form is expected."""


def parse_quantity(value: str | int | float | Decimal) -> Decimal:
    """Exact value of a quantity string ("100m", "8Gi", "1e3") or a number as YAML gives it, accepting and rejecting
    exactly what resource.ParseQuantity does (a JSON number is parsed from its text, as Quantity.UnmarshalJSON does)."""
    if isinstance(value, bool):
        raise QuantityError(f"{value!r} is not a quantity")
    if isinstance(value, int):
        value = str(value)
    elif isinstance(value, float | Decimal):
        if not math.isfinite(value):
            raise QuantityError(f"{value} is not a quantity: the API has no infinite or NaN quantities (quote a number)")
        value = repr(value) if isinstance(value, float) else str(value)
    if not isinstance(value, str):
        raise QuantityError(f"{value!r} is not a quantity")
    positive, number, suffix = _split(value)
    return _interpret(value, positive, number, suffix)


def _clipped(text: str) -> str:
    """A value as a message quotes it: at most 60 characters."""
    return text if len(text) <= 60 else f"{text[:40]}...({len(text)} characters)"


def _split(text: str) -> tuple[bool, str, str]:
    """(sign, numeric part, suffix) as quantity.go's parseQuantityString scans them; QuantityError where it fails."""
    if not text:
        raise QuantityError(f'"" is not a quantity ({_FORMS})')
    pos, end = 0, len(text)
    positive = text[0] != "-"
    if text[0] in "+-":
        pos = 1
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end and text[pos] == ".":
        pos += 1
        while pos < end and text[pos] in _DIGITS:
            pos += 1
    number = text[start:pos]
    suffix_start = pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        raise QuantityError(f'"{_clipped(text)}" is not a quantity ({_FORMS})')
    return positive, number, text[suffix_start:]


def _interpret(text: str, positive: bool, number: str, suffix: str) -> Decimal:
    """The value of a scanned quantity: suffix applied, rounded up to 1n, BinarySI capped, as quantity.go does."""
    whole, _, fraction = number.partition(".")
    if not _valid_suffix(suffix):
        raise QuantityError(f'"{_clipped(text)}" is not a quantity: unknown suffix "{_clipped(suffix)}" ({_FORMS})')
    if (whole + fraction).strip("0") == "":
        return Decimal(0)
    with localcontext(_WIDE):
        amount = Decimal(f"{whole or '0'}.{fraction or '0'}")
        if suffix in _DECIMAL:
            amount = amount.scaleb(_DECIMAL[suffix])
        elif suffix in _BINARY:
            amount = min(amount * _BINARY[suffix], _MAX_BINARY)
        else:
            exponent = (int(suffix[1:]) + 2**31) % 2**32 - 2**31  # suffix.go: int32(parsed), wrapping as Go does
            amount = _LIMIT if exponent > LIMIT_EXPONENT else amount.scaleb(max(exponent, -10 * LIMIT_EXPONENT))
        if amount.as_tuple().exponent < -9:  # type: ignore[operator]
            amount = amount.quantize(_NANO, rounding=ROUND_UP) if amount > _NANO else _NANO
        amount = min(amount, _LIMIT)
    return amount if positive else -amount


def _valid_suffix(suffix: str) -> bool:
    """suffix.go interpret: a decimal or binary SI suffix, or e/E and an int64 exponent."""
    return suffix in _DECIMAL or suffix in _BINARY or (len(suffix) > 1 and suffix[0] in "eE" and _is_int64(suffix[1:]))


def _is_int64(text: str) -> bool:
    """strconv.ParseInt(text, 10, 64) succeeds."""
    body = text[1:] if text[:1] in "+-" else text
    return bool(body) and body.isascii() and body.isdigit() and -(2**63) <= int(text) < 2**63


# Quantity.MilliValue and Value return int64, undefined beyond it (quantity.go scaledValue ends in big.Int.Int64): held
# at the int64 bounds here, so that a huge request never fits, a huge capacity always has room, and arithmetic on
# 1e100000 stays cheap (exact integers of 100,000 digits made one explain run take 40 s of CPU)
INT64_MAX: Final = 2**63 - 1
_INT64_DECIMAL: Final = Decimal(INT64_MAX)


def _held(value: Decimal) -> int:
    if value > _INT64_DECIMAL:
        return INT64_MAX
    if value < -_INT64_DECIMAL:
        return -INT64_MAX
    return int(value.to_integral_value(rounding=ROUND_CEILING))


def milli_value(quantity: Decimal) -> int:
    """The value in milli-units, rounded up as Quantity.MilliValue does for CPU requests; held at the int64 bounds."""
    with localcontext() as ctx:
        ctx.prec = 60
        return _held(quantity * 1000)


def ceil_value(quantity: Decimal) -> int:
    """The value rounded up to an integer, as Quantity.Value does (memory, pods, extended resources); held at the
    int64 bounds."""
    with localcontext() as ctx:
        ctx.prec = 60
        return _held(quantity)


def copies(total: Decimal, each: Decimal) -> int:
    """How many times `each` fits in `total` (floor), held at the int64 bounds; INT64_MAX when `each` is not positive.
    Exact for any quantity (plain Decimal division stops at 28 digits: DivisionImpossible on 1e400 // 1)."""
    if each <= 0:
        return INT64_MAX
    if total <= 0:
        return 0
    with localcontext() as ctx:
        ctx.prec = 60
        if total >= each * _INT64_DECIMAL:
            return INT64_MAX
        return int(total // each)  # a quotient below 2^63 has at most 19 digits: exact at 60


def _scientific(quantity: Decimal) -> str:
    """A quantity beyond any real resource as 1e400 rather than a 400-digit number; 1e100000 past the limit."""
    if abs(quantity) >= _LIMIT:
        return f"{'-' if quantity < 0 else ''}1e{LIMIT_EXPONENT}"
    mantissa, _, exponent = format(quantity.normalize(), "e").partition("e")
    return f"{mantissa}e{int(exponent)}"


def format_quantity(quantity: Decimal, *, binary: bool = False) -> str:
    """Compact string for messages: "8Gi" when binary and exact, "500m" for fractions, else decimal suffixes."""
    if quantity == 0:
        return "0"
    if abs(quantity) >= _SCIENTIFIC:
        return _scientific(quantity)
    if binary and quantity == quantity.to_integral_value():
        whole = int(quantity)
        for suffix, factor in sorted(_BINARY.items(), key=lambda item: -item[1]):
            if whole % factor == 0:
                return f"{whole // factor}{suffix}"
    if quantity != quantity.to_integral_value():
        milli = quantity * 1000
        if milli == milli.to_integral_value():
            return f"{int(milli)}m"
        return format(quantity.normalize(), "f")
    integer = int(quantity)
    for suffix, exponent in (("E", 18), ("P", 15), ("T", 12), ("G", 9), ("M", 6), ("k", 3)):
        if integer % (10**exponent) == 0:
            return f"{integer // 10**exponent}{suffix}"
    return str(integer)
