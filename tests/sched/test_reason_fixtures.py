"""fixtures/sched/<ReasonCode>/: each small cluster explains a pending entry with that reason code."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.explain.diagnose import diagnose
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import Simulation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sched"
CODES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and p.name in Reason._value2member_map_)


@pytest.mark.parametrize("code", CODES)
def test_fixture_explains_its_reason(code):
    snapshot, problems = load_snapshot([str(FIXTURES / code)])
    assert not problems
    (result,) = [r for r in Simulation(snapshot, all_on(NEWEST)).run() if not r.fits]
    assert code in [item.code for item in diagnose(result).reasons]


def test_there_are_reason_fixtures():
    assert len(CODES) >= 10
