"""gate_model: every gate the simulation reads counts as modelled, so `--feature-gates` naming it gets no
"not modelled" note."""

from __future__ import annotations

import pytest

from kubectl_wasdra.sched import admission
from kubectl_wasdra.sched.gate_model import is_modelled, unmodelled_notes


@pytest.mark.parametrize("gate", [admission.POLICY_GATE, admission.WAP_GATE_1_36],
                         ids=["PodGroupPreemptionPolicy", "WorkloadAwarePreemption"])
def test_preemption_gates_the_simulation_reads_are_modelled(gate: str) -> None:
    assert is_modelled(gate)
    assert unmodelled_notes({gate: True}, [gate]) == []


def test_a_gate_nothing_reads_still_gets_its_note() -> None:
    assert unmodelled_notes({"SchedulerAsyncPreemption": False}, ["SchedulerAsyncPreemption"]) == [
        "feature gate SchedulerAsyncPreemption=false is not modelled by the simulator: the verdicts are computed "
        "without it (kube-scheduler may decide differently)"]
