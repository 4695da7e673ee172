"""Properties of preemption: it never evicts a pod of equal or higher (effective) priority, never part of a
disruptionMode `all` group, and once the reported victims are gone the simulator places the preemptor."""

from __future__ import annotations

from builders import node, pod, pod_group, run_all, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

# nodes: cpu; victims: (node index, cpu, priority, group index or None); groups: (priority, all?)
nodes_st = st.lists(st.integers(1, 6), min_size=1, max_size=4)
victims_st = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 3), st.integers(0, 3), st.none() | st.integers(0, 2)),
                      max_size=10)
groups_st = st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=3, max_size=3)
# the preemptor: priority, cpu per pod, number of pods (1: a single pod, more: a gang of that minCount)
preemptor_st = st.tuples(st.integers(1, 4), st.integers(1, 3), st.integers(1, 3))


def _objects(nodes, victims, groups, preemptor, gone=frozenset()):
    objects = [node(f"n{i}", cpu=str(cpu)) for i, cpu in enumerate(nodes)]
    for index, (priority, whole) in enumerate(groups):
        group = pod_group(f"v{index}", priority=priority)
        group["spec"]["disruptionMode"] = {"all": {}} if whole else {"single": {}}
        objects.append(group)
    for index, (node_index, cpu, priority, group) in enumerate(victims):
        name = f"victim{index}"
        if name in gone:
            continue
        fields = {"schedulingGroup": {"podGroupName": f"v{group}"}} if group is not None else {}
        own = groups[group][0] if group is not None else priority  # a group's pods carry its priority
        objects.append(pod(name, node_name=f"n{node_index % len(nodes)}", cpu=str(cpu), priority=own, **fields))
    priority, cpu, count = preemptor
    if count == 1:
        objects.append(pod("want", cpu=str(cpu), priority=priority))
    else:
        objects.append(pod_group("want", min_count=count, priority=priority))
        objects += [pod(f"want-{i}", cpu=str(cpu), priority=priority, group="want") for i in range(count)]
    return objects


@settings(max_examples=60, deadline=None)
@given(nodes_st, victims_st, groups_st, preemptor_st)
def test_preemption_is_sound(nodes, victims, groups, preemptor):
    result = run_all(snapshot(*_objects(nodes, victims, groups, preemptor)))["want"]
    answer = result.extra.get("preemption")
    if result.fits or answer is None or not answer.helps:
        return
    chosen = {v.name for v in answer.victims}
    for index, (_node, _cpu, priority, group) in enumerate(victims):
        if f"victim{index}" in chosen:
            effective = groups[group][0] if group is not None else priority
            assert effective < preemptor[0], "evicted a pod of equal or higher priority"
    for index, (_priority, whole) in enumerate(groups):
        members = {f"victim{i}" for i, v in enumerate(victims) if v[3] == index}
        if whole and members & chosen:
            assert members <= chosen, "left part of a disruptionMode all group running"
    again = run_all(snapshot(*_objects(nodes, victims, groups, preemptor, frozenset(chosen))))["want"]
    assert again.fits, "the preemptor does not fit after its victims are gone"
