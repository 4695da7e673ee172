"""The rule catalogue is complete: every RuleInfo in codes.py has exactly one implementation with the required doc
sections and fixtures, IDs and names are unique and well-formed, and selection works as documented."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from fixture_runner import FIXTURES

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.registry import all_rules, find_info, rule_infos, select_rules
from kubectl_wasdra.lint.rules import FAMILIES

SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Fix")
ACTIVE = [info for info in rule_infos() if info.status != "removed"]


def test_ids_and_names_are_unique_and_well_formed() -> None:
    infos = rule_infos()
    assert all(re.fullmatch(r"(LOAD|API|SCHEMA|GATE|VALID|REF|GANG|FIT|CONF)\d{3}", i.id) for i in infos)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i.name) for i in infos)
    assert not [k for k, n in Counter(i.id for i in infos).items() if n > 1]
    assert not [k for k, n in Counter(i.name for i in infos).items() if n > 1]


def test_every_rule_is_implemented_exactly_once() -> None:
    implemented = Counter(r.info.id for r in all_rules())
    assert {i.id for i in ACTIVE} == set(implemented)
    assert all(count == 1 for count in implemented.values())


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.info.id)
def test_rule_doc_has_the_sections(rule) -> None:
    positions = [rule.doc.find(section) for section in SECTIONS]
    assert all(p >= 0 for p in positions), f"{rule.info.id} doc lacks {SECTIONS}"
    assert positions == sorted(positions)


@pytest.mark.parametrize("info", ACTIVE, ids=lambda i: i.id)
def test_every_rule_has_a_failing_and_a_passing_fixture(info: codes.RuleInfo) -> None:
    names = [p.name for p in (FIXTURES / info.id).glob("*") if p.is_file()]
    assert any(n.startswith("bad") for n in names), f"fixtures/lint/{info.id}/bad*.yaml missing"
    assert any(n.startswith("good") for n in names), f"fixtures/lint/{info.id}/good*.yaml missing"


def test_families_are_modules_in_pipeline_order() -> None:
    assert FAMILIES[:3] == ("load", "api", "schema")


@pytest.mark.parametrize(("select", "ignore", "expected"), [
    (["LOAD002"], [], {"LOAD002"}),
    (["duplicate-key"], [], {"LOAD002"}),
    (["API"], ["API003"], {"API001", "API002"}),
    (["ALL"], ["LOAD", "SCHEMA", "GATE", "VALID", "REF", "GANG", "FIT", "CONF", "API002", "API003"], {"API001"}),
    (["api001"], [], {"API001"}),
], ids=["id", "name", "family-minus-id", "all-minus-families", "lower-case-id"])
def test_select_and_ignore(select: list[str], ignore: list[str], expected: set[str]) -> None:
    assert select_rules(select, ignore) == expected


@pytest.mark.parametrize(("key", "suggestion"),
                         [("SCHEMA02", "SCHEMA002"), ("LAOD", "LOAD"), ("duplicate-keys", "duplicate-key")])
def test_unknown_selection_suggests_the_closest(key: str, suggestion: str) -> None:
    with pytest.raises(UsageError) as error:
        select_rules([key])
    assert f'did you mean "{suggestion}"' in str(error.value)


def test_find_info_by_id_and_name() -> None:
    assert find_info("SCHEMA002") is codes.SCHEMA_UNKNOWN_FIELD
    assert find_info("unknown-field") is codes.SCHEMA_UNKNOWN_FIELD
