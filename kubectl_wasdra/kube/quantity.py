"""Kubernetes resource.Quantity: exact parsing to Decimal, comparison, and compact formatting.

Upstream: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (release-1.37).
Quantities are exact (Decimal), never float.
"""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, Decimal, InvalidOperation, localcontext
from typing import Final

# quantity.go: <quantity> ::= <signedNumber><suffix>; suffix is binarySI | decimalSI | decimalExponent
_QUANTITY_RE: Final = re.compile(
    r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$"
)
_BINARY: Final = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL: Final = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_MAX_EXPONENT: Final = 64  # larger exponents are rejected rather than building huge Decimals


class QuantityError(ValueError):
    """Text is not a Kubernetes quantity; the message says what form is expected."""


def parse_quantity(value: str | int | float | Decimal) -> Decimal:
    """Exact value of a quantity string ("100m", "8Gi", "1e3") or a number as YAML gives it."""
    if isinstance(value, bool):
        raise QuantityError(f"{value!r} is not a quantity")
    if isinstance(value, int | Decimal):
        return Decimal(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):  # YAML .inf/.nan: no quantity has them
            raise QuantityError(f"{value!r} is not a quantity")
        return Decimal(repr(value))
    if not isinstance(value, str):
        raise QuantityError(f"{value!r} is not a quantity")
    match = _QUANTITY_RE.match(value.strip())
    if not match or value != value.strip():
        raise QuantityError(f'"{value}" is not a quantity (expected e.g. "100m", "2", "8Gi", "1e3")')
    number, suffix = match.group(1), match.group(2) or ""
    try:
        base = Decimal(number)
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only decimals
        raise QuantityError(f'"{value}" is not a quantity') from exc
    if suffix in _BINARY:
        return base * _BINARY[suffix]
    exponent = _DECIMAL[suffix] if suffix in _DECIMAL else int(suffix[1:])
    if abs(exponent) > _MAX_EXPONENT:
        raise QuantityError(f'"{value}": exponent {exponent} is out of range')
    return base.scaleb(exponent)


def milli_value(quantity: Decimal) -> int:
    """The value in milli-units, rounded up as Quantity.MilliValue does for CPU requests."""
    with localcontext() as ctx:
        ctx.prec = 60
        return int((quantity * 1000).to_integral_value(rounding=ROUND_CEILING))


def ceil_value(quantity: Decimal) -> int:
    """The value rounded up to an integer, as Quantity.Value does (memory, pods, extended resources)."""
    with localcontext() as ctx:
        ctx.prec = 60
        return int(quantity.to_integral_value(rounding=ROUND_CEILING))


def format_quantity(quantity: Decimal, *, binary: bool = False) -> str:
    """Compact string for messages: "8Gi" when binary and exact, "500m" for fractions, else decimal suffixes."""
    if quantity == 0:
        return "0"
    if binary and quantity == quantity.to_integral_value():
        for suffix, factor in sorted(_BINARY.items(), key=lambda item: -item[1]):
            if quantity % factor == 0:
                return f"{int(quantity // factor)}{suffix}"
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
