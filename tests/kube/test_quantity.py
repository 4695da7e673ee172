from decimal import Decimal

import pytest

from kubectl_wasdra.kube.quantity import QuantityError, format_quantity, milli_value, parse_quantity


@pytest.mark.parametrize(
    ("text", "expected"),
    [("100m", Decimal("0.1")), ("8Gi", Decimal(8 * 2**30)), ("1e3", Decimal(1000)), ("2k", Decimal(2000)),
     ("1.5", Decimal("1.5")), ("0", Decimal(0)), ("-1", Decimal(-1)), ("12n", Decimal("0.000000012"))],
    ids=["milli", "gibi", "exponent", "kilo", "fraction", "zero", "negative", "nano"],
)
def test_parse_quantity(text: str, expected: Decimal) -> None:
    assert parse_quantity(text) == expected


@pytest.mark.parametrize("text", ["", "1.2.3", "8GB", "abc", " 1", "1e999"], ids=str)
def test_parse_quantity_rejects(text: str) -> None:
    with pytest.raises(QuantityError):
        parse_quantity(text)


def test_milli_value_rounds_up() -> None:
    assert milli_value(parse_quantity("1n")) == 1
    assert milli_value(parse_quantity("1.5")) == 1500


@pytest.mark.parametrize(("text", "binary", "out"), [("8Gi", True, "8Gi"), ("500m", False, "500m"), ("2000", False, "2k")])
def test_format_quantity(text: str, binary: bool, out: str) -> None:
    assert format_quantity(parse_quantity(text), binary=binary) == out
