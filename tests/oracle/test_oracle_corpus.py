"""The simulator against kube-scheduler on the stored differential corpus (tests/oracle/corpus.jsonl).

Each stored scenario is rebuilt from its seed (tests/oracle/scenarios.py), checked against the stored digest, run
through the simulator and compared with kube-scheduler's stored verdict (tests/oracle/compare.py). Scenarios whose
disagreement has a known, not yet fixed cause are listed in expected_failures.json and marked xfail with that cause.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle.compare import chosen_nodes, compare, load_corpus, load_expected_failures
from tests.oracle.scenarios import FAMILIES, digest, generate
from tests.oracle.simulate import simulate

CORPUS = load_corpus()
EXPECTED = load_expected_failures()


def _param(entry: dict[str, Any]) -> Any:
    known = EXPECTED.get(entry["id"])
    marks = [pytest.mark.xfail(reason=f"{known['class']}: {known['reason']}", strict=False)] if known else []
    return pytest.param(entry, id=entry["id"], marks=marks)


def test_corpus_is_large_and_covers_every_family():
    assert len(CORPUS) >= 2000
    families = {generate(entry["seed"])["family"] for entry in CORPUS[: len(FAMILIES) * 2]}
    assert families == set(FAMILIES)
    judged = [e for e in CORPUS if not e.get("error") and not e.get("timedOut")]
    assert len(judged) >= 2000, f"{len(CORPUS) - len(judged)} scenarios have no oracle verdict"


def test_expected_failures_name_stored_scenarios():
    stored = {entry["id"] for entry in CORPUS}
    assert set(EXPECTED) <= stored, sorted(set(EXPECTED) - stored)[:5]


@pytest.mark.parametrize("entry", [_param(e) for e in CORPUS if not e.get("error") and not e.get("timedOut")])
def test_simulator_agrees_with_kube_scheduler(entry):
    scenario = generate(entry["seed"])
    assert digest(scenario) == entry["digest"], (
        "tests/oracle/scenarios.py no longer builds the stored scenario: regenerate the corpus "
        "(python tools/oracle/regenerate.py --oracle PATH)")
    differences = compare(entry, simulate(scenario, chosen_nodes(entry)))
    assert not differences, "\n".join(map(str, differences))
