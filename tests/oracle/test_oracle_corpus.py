"""The simulator against kube-scheduler on the stored differential corpus (tests/oracle/corpus.jsonl).

Each stored scenario is rebuilt from its seed (tests/oracle/scenarios.py), checked against the stored digest, run
through the simulator and compared with kube-scheduler's stored verdict (tests/oracle/compare.py). Scenarios whose
disagreement has a known, not yet fixed cause are listed in expected_failures.json and marked xfail with that cause.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle.classify import CLASSES, classify
from tests.oracle.compare import chosen_nodes, compare, interchangeable, load_corpus, load_expected_failures
from tests.oracle.scenarios import FAMILIES, digest, generate
from tests.oracle.simulate import simulate

CORPUS = load_corpus()
REASONS, EXPECTED = load_expected_failures()
JUDGED = [entry for entry in CORPUS if not entry.get("error") and not entry.get("timedOut")]


def test_corpus_is_large_and_covers_every_family():
    assert len(CORPUS) >= 2000
    families = {generate(entry["seed"])["family"] for entry in CORPUS[: len(FAMILIES) * 2]}
    assert families == set(FAMILIES)
    assert len(JUDGED) >= 2000, f"{len(CORPUS) - len(JUDGED)} scenarios have no oracle verdict"


def test_expected_failures_name_stored_scenarios():
    stored = {entry["id"] for entry in CORPUS}
    assert set(EXPECTED) <= stored, sorted(set(EXPECTED) - stored)[:5]
    assert set().union(*EXPECTED.values()) <= set(REASONS) <= set(CLASSES)


@pytest.mark.parametrize("entry", JUDGED, ids=[entry["id"] for entry in JUDGED])
def test_simulator_agrees_with_kube_scheduler(entry: dict[str, Any]) -> None:
    """Every difference fails the test, except those of the classes expected_failures.json lists for the scenario:
    then the scenario is xfail with their causes, until the simulator is fixed."""
    scenario = generate(entry["seed"])
    assert digest(scenario) == entry["digest"], (
        "tests/oracle/scenarios.py no longer builds the stored scenario: regenerate the corpus "
        "(python tools/oracle/regenerate.py --oracle PATH --changed)")
    differences = compare(entry, simulate(scenario, chosen_nodes(entry)), interchangeable(scenario))
    if not differences:
        return
    classes = {classify(scenario, entry, d) for d in differences}
    unexplained = [d for d in differences if classify(scenario, entry, d) not in EXPECTED.get(entry["id"], set())]
    assert not unexplained, "\n".join(map(str, unexplained))
    pytest.xfail("; ".join(f"{name}: {REASONS[name]}" for name in sorted(classes)))
