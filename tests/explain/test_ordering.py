"""Natural order and compact runs of names (explain/ordering.py)."""

# ruff: noqa: RUF001 (en dashes join runs of names, as explain prints them)
from __future__ import annotations

import pytest

from kubectl_wasdra.explain.ordering import natural_sorted, runs, shortened


def test_numbers_sort_as_numbers():
    assert natural_sorted(["r10", "r2", "r1", "node-010", "node-9"]) == ["node-9", "node-010", "r1", "r2", "r10"]


@pytest.mark.parametrize(("names", "expected"), [
    (["r10", "r2", "r1", "r3"], ["r1–r3", "r10"]),
    (["r9", "r10", "r11"], ["r9–r11"]),
    (["r1", "r2"], ["r1, r2"]),
    (["node-09", "node-10", "node-11"], ["node-09–node-11"]),
    (["a", "b1", "b2", "b3", "c"], ["a", "b1–b3", "c"]),
    (["n01", "n2"], ["n01", "n2"]),  # a different width is another name, not the next number
], ids=["gap", "across-a-power-of-ten", "pair", "padded", "mixed", "widths"])
def test_runs(names, expected):
    assert runs(names) == expected


def test_shortened_says_how_many_were_left_out_and_where_to_see_them():
    assert shortened(["a", "b", "c"], 3) == "a, b, c"
    assert shortened(["a", "b", "c", "d"], 2, "names") == "a, b … and 2 more names (-o json lists all)"
