"""Comparing the simulator's verdict on a scenario with kube-scheduler's (the stored oracle verdict).

What must agree, per pending pod: placed or not, and the preemption victims, exactly; the node exactly or within the
set of nodes that had the top score (kube-scheduler breaks ties at random: pkg/scheduler/schedule_one.go selectHost);
the devices of every claim exactly; for a pod left unschedulable, kube-scheduler's PodScheduled=False message word for
word. A difference that a known release skew explains (release_skew.json) is tolerated; nothing else is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

HERE: Final = Path(__file__).resolve().parent
ASPECTS: Final = ("rejected", "placed", "node", "victims", "claims", "message")
EMPTY: Final = {"node": None, "message": "", "victims": [], "claims": {}}  # a pod the simulator gave no verdict


@dataclass(frozen=True)
class Difference:
    """One aspect of one pod on which the simulator and kube-scheduler disagree."""

    pod: str
    aspect: str  # one of ASPECTS
    oracle: Any
    ours: Any

    def __str__(self) -> str:
        return f"{self.pod}: {self.aspect}: kube-scheduler {self.oracle!r}, simulator {self.ours!r}"


@cache
def release_skew() -> tuple[dict[str, Any], ...]:
    """The known 1.36/1.37 differences (tests/oracle/release_skew.json), each with its upstream reference."""
    return tuple(json.loads((HERE / "release_skew.json").read_text())["differences"])


def _tolerated(diff: Difference) -> bool:
    for skew in release_skew():
        match = skew.get("match")
        if not match or match.get("aspect") != diff.aspect:
            continue
        if re.search(match.get("oracle", ""), str(diff.oracle)) and re.search(match.get("ours", ""), str(diff.ours)):
            return True
    return False


def compare(oracle: dict[str, Any], ours: dict[str, dict[str, Any]],
            twins: Iterable[Collection[str]] = ()) -> list[Difference]:
    """The differences between the stored oracle verdict of one scenario and the simulator's, skew excluded; within
    each set of `twins` (interchangeable(): identical pods of one group) the simulator's verdicts are matched to
    kube-scheduler's as a multiset."""
    ours = _matched(oracle, ours, twins)
    out: list[Difference] = []
    for pod in sorted(oracle["pods"]):
        want = oracle["pods"][pod]
        got = ours.get(pod, EMPTY)
        out.extend(d for d in _pod_differences(pod, want, got) if not _tolerated(d))
    return out


def interchangeable(scenario: dict[str, Any]) -> list[list[str]]:
    """Sets of pods ("namespace/name") of one pod group whose manifests differ only in their names. kube-scheduler
    releases a gang's held pods in Go map order (backend/queue/scheduling_queue.go moves them from the
    unschedulablePods map) and its pod-group cycle tries them in that order (schedule_one_podgroup.go
    podGroupInfoForPod), so which of them fits, lands where or fails is random: only the multiset of outcomes is
    kube-scheduler's verdict."""
    sets: dict[str, list[str]] = {}
    for obj in scenario["manifests"]:
        spec = obj.get("spec") or {}
        if obj.get("kind") != "Pod" or not spec.get("schedulingGroup"):
            continue
        meta = dict(obj.get("metadata") or {})
        name = meta.pop("name", "")
        shape = json.dumps({**obj, "metadata": meta}, sort_keys=True)
        sets.setdefault(shape, []).append(f"{meta.get('namespace', 'default')}/{name}")
    return [sorted(pods) for pods in sets.values() if len(pods) > 1]


def _matched(oracle: dict[str, Any], ours: dict[str, dict[str, Any]],
             twins: Iterable[Collection[str]]) -> dict[str, dict[str, Any]]:
    """`ours` with the verdicts of each set of twins reassigned: as many of kube-scheduler's pods as possible take a
    twin's verdict that agrees with it (a maximum bipartite matching), the rest the remaining verdicts in name order."""
    out = dict(ours)
    for pods in twins:
        names = sorted(p for p in pods if p in oracle["pods"])
        verdicts = [ours.get(p, EMPTY) for p in names]
        agrees = [[j for j, v in enumerate(verdicts) if not _pod_differences(pod, oracle["pods"][pod], v)]
                  for pod in names]
        owner: dict[int, int] = {}  # verdict index -> pod index
        for i in range(len(names)):
            _augment(i, agrees, owner, set())
        taken = {i: j for j, i in owner.items()}
        spare = iter(j for j in range(len(verdicts)) if j not in owner)
        for i, pod in enumerate(names):
            out[pod] = verdicts[taken[i]] if i in taken else verdicts[next(spare)]
    return out


def _pod_differences(pod: str, want: dict[str, Any], got: dict[str, Any]) -> list[Difference]:
    if want.get("rejected"):
        return [] if got.get("rejected") else [Difference(pod, "rejected", want["rejected"], got.get("node"))]
    node, ours = want.get("node"), got.get("node")
    if (node is None) != (ours is None):
        theirs = node or want.get("message", "") or ("bound, then preempted" if want.get("deleted") else "")
        return [Difference(pod, "placed", theirs, ours or got.get("message", ""))]
    out = []
    if node is not None and ours != node and ours not in want.get("ties", ()):
        out.append(Difference(pod, "node", want.get("ties") or node, ours))
    if sorted(want.get("victims", ())) != sorted(got.get("victims", ())):
        out.append(Difference(pod, "victims", sorted(want.get("victims", ())), sorted(got.get("victims", ()))))
    if node is not None and ours == node and want.get("claims", {}) != got.get("claims", {}):
        out.append(Difference(pod, "claims", want.get("claims", {}), got.get("claims", {})))
    if node is None and want.get("message", "") != got.get("message", "") \
            and want.get("message", "") not in got.get("messages", ()):
        out.append(Difference(pod, "message", want.get("message", ""), got.get("message", "")))
    return out


def chosen_nodes(oracle: dict[str, Any]) -> dict[str, str]:
    """{"namespace/pod": node} of every pod kube-scheduler placed (the simulator follows it among equal scores)."""
    return {pod: v["node"] for pod, v in oracle["pods"].items() if v.get("node")}


def load_corpus(path: Path = HERE / "corpus.jsonl") -> list[dict[str, Any]]:
    """The stored scenarios: seed, digest and kube-scheduler's verdict per scenario."""
    with path.open() as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_expected_failures(path: Path = HERE / "expected_failures.json") -> tuple[dict[str, str], dict[str, set[str]]]:
    """({class: reason}, {scenario id: its classes}): disagreements whose cause is known and not yet fixed."""
    data = json.loads(path.read_text())
    return ({name: item["reason"] for name, item in data["classes"].items()},
            {sid: set(classes) for sid, classes in data["scenarios"].items()})


def _augment(i: int, agrees: list[list[int]], owner: dict[int, int], seen: set[int]) -> bool:
    """Kuhn's augmenting path: give pod `i` an agreeing verdict, moving the verdict's owner to another if need be."""
    for j in agrees[i]:
        if j not in seen:
            seen.add(j)
            if j not in owner or _augment(owner[j], agrees, owner, seen):
                owner[j] = i
                return True
    return False
