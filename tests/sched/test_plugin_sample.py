"""Which pods -o html records plugin results for by default (sched/plugin_results.sampled_pods): the first pods of
the first groups, composite children counted one by one, never a pod outside the manifests."""

from __future__ import annotations

from dataclasses import dataclass, field

from kubectl_wasdra.sched.plugin_results import sampled_pods


@dataclass
class _Pod:
    key: str


@dataclass
class _Entry:
    pods: list[_Pod]
    children: list[_Entry] = field(default_factory=list)


def _group(name: str, size: int) -> _Entry:
    return _Entry([_Pod(f"ml/{name}-{i}") for i in range(size)])


def test_the_first_pods_of_the_first_groups_are_sampled():
    entries = [_group(f"g{n}", 12) for n in range(5)]
    wanted = frozenset(p.key for e in entries for p in e.pods)
    sample = sampled_pods(entries, wanted, groups=3, pods=4)
    assert sample == {f"ml/g{n}-{i}" for n in range(3) for i in range(4)}


def test_entries_without_wanted_pods_do_not_use_up_the_groups():
    bound, mine = _group("running", 3), _group("train", 2)
    sample = sampled_pods([bound, mine], frozenset(p.key for p in mine.pods), groups=1, pods=8)
    assert sample == {"ml/train-0", "ml/train-1"}


def test_composite_children_count_as_groups_in_queue_order():
    root = _Entry([], [_group("a", 2), _group("b", 2)])
    later = _group("c", 2)
    wanted = frozenset(p.key for e in (*root.children, later) for p in e.pods)
    assert sampled_pods([root, later], wanted, groups=2, pods=1) == {"ml/a-0", "ml/b-0"}
