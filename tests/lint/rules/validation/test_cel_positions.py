"""CEL error positions mapped from the expression onto the YAML source (block, folded, quoted and plain scalars)."""

from __future__ import annotations

import pytest

from kubectl_wasdra.lint.rules.validation.cel import expression_offset, source_position

BLOCK = """\
spec:
  expression: |
    device.driver == "a" &&
      device.x ==
"""
FOLDED = """\
spec:
  expression: >
    device.driver == "a" &&
    devices.capacity > 1
"""
QUOTED = 'spec:\n  expression: "device.attributes[\\"a\\"].b > quantity(\\"1\\") +"\n'
PLAIN = "spec:\n  expression: device.driver = \"a\"\n"


@pytest.mark.parametrize(("text", "value", "cel", "expected"), [
    (BLOCK, (2, 15), (1, 1), (3, 5)),           # first character of the block
    (BLOCK, (2, 15), (2, 3), (4, 7)),           # second line keeps its extra indentation
    (BLOCK, (2, 15), (3, 1), (4, 18)),          # end of input: just after the last character
    (FOLDED, (2, 15), (1, 25), (4, 5)),         # folded: one CEL line spans two source lines
    (QUOTED, (2, 15), (1, 24), (2, 41)),        # after an escaped quote (two columns)
    (QUOTED, (2, 15), (1, 64), (2, 62)),        # end of input lands on the closing quote
    (PLAIN, (2, 15), (1, 15), (2, 29)),
], ids=["block-start", "block-line2", "block-eof", "folded", "quoted-escape", "quoted-eof", "plain"])
def test_source_position(text: str, value: tuple[int, int], cel: tuple[int, int], expected: tuple[int, int]) -> None:
    import yaml
    node = yaml.compose(text).value[0][1].value[0][1]
    expression = node.value
    assert (node.start_mark.line + 1, node.start_mark.column + 1) == value
    offset = expression_offset(expression, *cel)
    assert source_position(text, *value, offset) == expected


def test_expression_offset() -> None:
    assert expression_offset("ab\ncd", 2, 2) == 4
    assert expression_offset("ab", 5, 1) == 0


@pytest.mark.parametrize(("expression", "expected"), [
    ("device.driver == \"a\"", (0, 1, 1)),
    ("device.attributes.all(a, device.attributes.all(b, true))", (2, 1, 44)),
    ('device.attributes.all(a, "x.all(y" == a) &&\n  device.capacity.exists(c, c.map(x, (x)).size() > 0)', (2, 2, 31)),
], ids=["none", "nested", "string-and-second-line"])
def test_deepest_comprehension(expression: str, expected: tuple[int, int, int]) -> None:
    from kubectl_wasdra.lint.rules.validation.cel import deepest_comprehension

    assert deepest_comprehension(expression) == expected


def test_over_expensive_selector_is_a_clear_finding() -> None:
    from pathlib import Path

    from kubectl_wasdra.catalog.releases import Release
    from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

    path = Path(__file__).resolve().parents[4] / "fixtures" / "lint" / "VALID031" / "bad-cost.yaml"
    report = run_check(CheckOptions(paths=(str(path),), releases=(Release(1, 37),), select=("VALID031",), jobs=1))
    first = report.findings[0]
    assert (first.line, first.column) == (10, 112)
    assert first.message.startswith("too complex, exceeds cost limit: 4 nested comprehensions, estimated worst-case cost ")
    assert "above the limit of 1,000,000" in first.message
    assert first.hint is not None and first.hint.startswith("avoid nesting comprehensions")
