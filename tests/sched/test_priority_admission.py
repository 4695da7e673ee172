"""What the Priority admission plugin gives a pod on create (plugin/pkg/admission/priority/admission.go): the priority
and the preemptionPolicy of its PriorityClass, or of the globalDefault class, unless the pod sets them itself; and
that a pod whose class says Never does not preempt, alone or as a gang member."""

from __future__ import annotations

import pytest
from builders import node, pod, pod_group, priority_class, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.priorities import Priorities
from kubectl_wasdra.sched.simulation import Simulation

NEVER = "Never"
CLASSES = [priority_class("quiet", 100, preemption_policy=NEVER), priority_class("loud", 100),
           priority_class("base", 5, default=True, preemption_policy=NEVER), priority_class("base-low", 1, default=True)]


@pytest.mark.parametrize(("spec", "priority", "policy"), [
    ({"priorityClassName": "quiet"}, 100, NEVER),
    ({"priorityClassName": "loud"}, 100, "PreemptLowerPriority"),  # the class's policy defaults to PreemptLowerPriority
    ({"priorityClassName": "quiet", "preemptionPolicy": "Never"}, 100, NEVER),
    ({}, 1, "PreemptLowerPriority"),  # two globalDefault classes: the lowest value wins
], ids=["class-never", "class-default-policy", "pod-repeats-policy", "global-default-lowest"])
def test_class_priority_and_policy_are_copied_into_the_pod(spec, priority, policy):
    priorities = Priorities(snapshot(*CLASSES))
    assert (priorities.resolve(spec), priorities.resolve_policy(spec)) == (priority, policy)


def test_global_default_class_policy_applies_to_pods_without_a_class():
    priorities = Priorities(snapshot(priority_class("base", 5, default=True, preemption_policy=NEVER)))
    assert (priorities.resolve({}), priorities.resolve_policy({})) == (5, NEVER)


def _full():
    """Two 2-cpu nodes full of priority-0 pods."""
    return [node("n1", cpu="2"), node("n2", cpu="2"), pod("v1", cpu="2", node_name="n1", priority=0),
            pod("v2", cpu="2", node_name="n2", priority=0)]


def _run(*objects):
    return {r.name: r for r in Simulation(snapshot(*objects), all_on(NEWEST)).run()}


@pytest.mark.parametrize(("cls", "preempts"), [("quiet", False), ("loud", True)])
def test_a_pod_of_a_never_class_does_not_preempt(cls, preempts):
    result = _run(*_full(), *CLASSES[:2], pod("urgent", cpu="2", priorityClassName=cls))["urgent"]
    assert result.extra["preemption"].helps is preempts
    assert result.message.endswith("preemption: not eligible due to preemptionPolicy=Never.") is not preempts


@pytest.mark.parametrize(("cls", "preempts"), [("quiet", False), ("loud", True)])
def test_a_gang_of_a_never_class_does_not_preempt(cls, preempts):
    group = pod_group("train", min_count=2)
    group["spec"]["priorityClassName"] = cls
    members = [pod(f"t{i}", cpu="2", group="train", priorityClassName=cls) for i in range(2)]
    result = _run(*_full(), *CLASSES[:2], group, *members)["train"]
    assert result.extra["preemption"].helps is preempts
    assert result.message.endswith("pod group preemption: not eligible due to preemptionPolicy=Never.") is not preempts
