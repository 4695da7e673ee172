"""The feasible-node window's heap (placement._Window.best) picks exactly what best_node picks, through the updates
a window sees between pods of one shape: nodes refreshed in place, dropped when full, topped up past its end."""

from __future__ import annotations

import random

import pytest

from kubectl_wasdra.sched.placement import _Window
from kubectl_wasdra.sched.scoring import best_node
from kubectl_wasdra.sched.state import SchedState

NODES = tuple(f"node-{i:04d}" for i in range(300))


def _raw(rng: random.Random, extras: bool) -> tuple[int, int, int, int]:
    """Resource scores from a small range, so equal maxima (ties broken by node order) are common."""
    extra = rng.randint(0, 2) if extras and rng.random() < 0.05 else 0
    return (rng.randint(0, 12), extra, 0, 0)


@pytest.mark.parametrize("seed", range(20))
def test_window_best_is_best_node_through_updates(seed: int) -> None:
    rng = random.Random(seed)
    state = SchedState({}, minor=36)
    extras = seed % 2 == 1  # odd seeds: some nodes get a PreferNoSchedule raw score, where the heap must decline
    end = 80
    window = _Window({name: _raw(rng, extras) for name in NODES[:end]}, end - 1, state)
    declined = 0
    for _ in range(400):
        chosen = window.best(state, NODES)
        expected = best_node(window.scores) if window.scores else None
        if chosen is None and window.scores:
            declined += 1
            assert any(raw[1] for raw in window.scores.values())  # only when best_node may weigh other scores
        else:
            assert chosen == expected
        if not window.scores:
            break
        victim = expected or rng.choice(list(window.scores))
        if rng.random() < 0.2:
            window.drop(victim)  # the chosen node filled up
            if window.end + 1 < len(NODES):  # topped up past the end, in node order
                window.end += 1
                window.put(state, NODES, NODES[window.end], _raw(rng, extras))
        else:
            window.put(state, NODES, victim, _raw(rng, extras))  # the chosen node refreshed in place
        if rng.random() < 0.1:  # another changed node
            other = rng.choice(list(window.scores))
            window.put(state, NODES, other, _raw(rng, extras))
    assert declined == 0 or extras
