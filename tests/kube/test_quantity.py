from decimal import Decimal

import pytest

from kubectl_wasdra.kube.quantity import QuantityError, ceil_value, copies, format_quantity, milli_value, parse_quantity


@pytest.mark.parametrize(
    ("text", "expected"),
    [("100m", Decimal("0.1")), ("8Gi", Decimal(8 * 2**30)), ("1e3", Decimal(1000)), ("2k", Decimal(2000)),
     ("1.5", Decimal("1.5")), ("0", Decimal(0)), ("-1", Decimal(-1)), ("12n", Decimal("0.000000012"))],
    ids=["milli", "gibi", "exponent", "kilo", "fraction", "zero", "negative", "nano"],
)
def test_parse_quantity(text: str, expected: Decimal) -> None:
    assert parse_quantity(text) == expected


@pytest.mark.parametrize("text", ["", "1.2.3", "8GB", "abc", " 1", "1ki", "1e", "1m5", "1 ", "0x10", "1_000",
                                  "1e9223372036854775808", "1e3.5", "--1", "Gx", float("inf"), float("-inf"), float("nan"),
                                  Decimal("NaN")], ids=str)
def test_parse_quantity_rejects(text: str) -> None:
    with pytest.raises(QuantityError):
        parse_quantity(text)


def test_milli_value_rounds_up() -> None:
    assert milli_value(parse_quantity("1n")) == 1
    assert milli_value(parse_quantity("1.5")) == 1500


@pytest.mark.parametrize(("text", "binary", "out"), [("8Gi", True, "8Gi"), ("500m", False, "500m"), ("2000", False, "2k")])
def test_format_quantity(text: str, binary: bool, out: str) -> None:
    assert format_quantity(parse_quantity(text), binary=binary) == out


# What resource.ParseQuantity (apimachinery/pkg/api/resource/quantity.go, suffix.go) accepts, and the value it gives
@pytest.mark.parametrize(("value", "expected"), [
    ("-", Decimal(0)), (".", Decimal(0)), ("Gi", Decimal(0)), ("0Ki", Decimal(0)), ("+", Decimal(0)), ("1.", Decimal(1)),
    (".5", Decimal("0.5")),
    ("5.Gi", Decimal(5 * 2**30)), ("1e+5", Decimal(100000)), ("1E3", Decimal(1000)), ("1e999", Decimal("1e999")),
    ("1e309", Decimal("1e309")), ("1e-12", Decimal("1e-9")), ("-1e-12", Decimal("-1e-9")),
    ("1.0000000001", Decimal("1.000000001")),
    ("16Ei", Decimal(2**63 - 1)), ("-16Ei", -Decimal(2**63 - 1)), ("1e4294967296", Decimal(1)),
    ("00012", Decimal(12)),
    (1e-309, Decimal("1e-9")), (1e300, Decimal("1e300")), (7, Decimal(7)), (0.5, Decimal("0.5")),
], ids=str)
def test_parse_quantity_follows_upstream(value: object, expected: Decimal) -> None:
    assert parse_quantity(value) == expected  # type: ignore[arg-type]


def test_huge_quantities_stay_finite_and_format() -> None:
    huge = parse_quantity("1e2147483647")
    assert huge == parse_quantity("1e100001") > parse_quantity("1e99999")
    assert milli_value(parse_quantity("1e40")) == 2**63 - 1 == ceil_value(huge)  # int64, as MilliValue/Value return
    assert milli_value(parse_quantity("9223372036854775")) == 9223372036854775000  # exact up to the bound
    assert copies(parse_quantity("1e400"), Decimal(1)) == 2**63 - 1 and copies(Decimal(7), Decimal("0.5")) == 14
    assert format_quantity(parse_quantity("1e40"), binary=True) == "9094947017729282379150390625Ti"
    assert format_quantity(huge).startswith("1e")
