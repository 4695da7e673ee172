"""The order suggestions are tried in: most promising first, judged from the failure itself (which reason rejected
most nodes), so that a what-if budget is spent where a change is likely to help."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.result import GroupResult

_DRA_REASONS = frozenset({Reason.DEVICES_ALLOCATED, Reason.NO_MATCHING_DEVICES, Reason.CONSTRAINT_UNSATISFIABLE,
                          Reason.CAPACITY_EXHAUSTED, Reason.COUNTERS_EXHAUSTED})


def reason_shares(result: GroupResult) -> Counter[Reason]:
    """How many nodes each reason rejected, for the first failing pod of every attempt (every topology domain)."""
    counts: Counter[Reason] = Counter()
    attempts = result.outcome.attempts if result.outcome is not None else ()
    errors = [next(iter(a.failed.values())) for a in attempts if a.failed] or list(result.pod_errors.values())[:1]
    for error in errors:
        counts.update(status.reason for status in error.statuses.values())
    return counts


def _score(name: str, result: GroupResult, shares: Counter[Reason], total: int) -> float:
    """Higher is more promising; the base ranks keep the order stable when the failure says little."""
    entry = result.entry
    share = {reason: count / total for reason, count in shares.items()} if total else {}
    dra = sum(v for r, v in share.items() if r in _DRA_REASONS)
    scores: dict[str, float] = {
        "enable_api": 100.0 if any(n.reason is Reason.API_NOT_SERVED for n in result.notices) else 0.0,
        "tolerate_taint": 60 * share.get(Reason.UNTOLERATED_TAINT, 0.0),
        "tolerate_device_taint": 60 * share.get(Reason.DEVICE_TAINTED, 0.0),
        "fewer_devices": 55 * dra,
        "relax_match_attribute": 50 * share.get(Reason.CONSTRAINT_UNSATISFIABLE, 0.0) + 10 * dra,
        "drop_topology": 40.0 if entry.topology_key else 0.0,
        "lower_min_count": 35.0 if entry.group is not None and entry.group.gang else 0.0,
        "other_topology_key": 30.0 if entry.topology_key else 0.0,
        "more_nodes": 20.0,
        "free_devices": 10 * dra,
        "_raise_priority": 5.0,
    }
    return scores.get(name, 1.0)


def ordered(result: GroupResult, suggesters: Sequence[Callable[[Any], Any]]) -> list[Callable[[Any], Any]]:
    """`suggesters` most promising first (ties: their declared order)."""
    shares = reason_shares(result)
    total = sum(shares.values())
    ranked = sorted(enumerate(suggesters), key=lambda item: (-_score(item[1].__name__, result, shares, total), item[0]))
    return [suggester for _, suggester in ranked]
