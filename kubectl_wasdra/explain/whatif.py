"""What-ifs under a budget: each re-runs the simulation of the snapshot with a change, reusing the prepared state of
the first run (pod infos, node facts, device inventory; sched/simulation.py `base`), and every one is recorded with
its outcome, so that "no single change found" can list what was tried.

A what-if asks whether the group fits: a topology-constrained group stops at the first domain it fits in (where()
names that domain), rather than scoring every domain as the real run does.

The budget (CPU time and count) is shared by every group of one explain run: `--what-if-budget 10s,40` by default. A
what-if is not started when the last one's cost would take the time past the budget. The count keeps runs
reproducible; the time bound may cut a search at a different point on a slower machine.
"""

from __future__ import annotations

import copy
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.explain.model import Tried
from kubectl_wasdra.explain.ordering import natural_key
from kubectl_wasdra.sched.admission import Gates
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.simulation import Simulation

DEFAULT_SECONDS: Final = 10.0
DEFAULT_RUNS: Final = 40
_PART = re.compile(r"^(?:(\d+(?:\.\d+)?)s|(\d+))$")


class BudgetSpent(Exception):
    """Raised by Verifier.run when the budget allows no further what-if."""


@dataclass
class Budget:
    """What-ifs left: CPU seconds and simulation runs, shared by all groups of one run."""

    seconds: float = DEFAULT_SECONDS
    runs: int = DEFAULT_RUNS
    used_runs: int = 0
    used_seconds: float = 0.0
    spent: bool = False  # True once a what-if was refused

    last_seconds: float = 0.0  # what the last what-if cost (the estimate for the next)

    def allows(self) -> bool:
        """True while another what-if may run (and, by the cost of the last one, finish within the time)."""
        return self.used_runs < self.runs and self.used_seconds + self.last_seconds <= self.seconds

    def describe(self) -> str:
        """ "12 of 40 what-ifs, 3.1 of 20 s"."""
        return f"{self.used_runs} of {self.runs} what-ifs, {self.used_seconds:.1f} of {self.seconds:g} s"


def parse_budget(text: str) -> Budget:
    """`--what-if-budget`: "20s", "40" (runs) or both ("20s,40"); UsageError otherwise."""
    budget = Budget()
    for part in (p.strip() for p in text.split(",")):
        match = _PART.match(part)
        if match is None:
            raise UsageError(f'--what-if-budget "{text}" is not SECONDS s and/or a count', where="--what-if-budget",
                             hint='e.g. --what-if-budget 10s,40 (10 CPU seconds, at most 40 what-ifs); "0" for none')
        if match.group(1) is not None:
            budget.seconds = float(match.group(1))
        else:
            budget.runs = int(match.group(2))
    return budget


@dataclass
class Verifier:
    """Re-runs the simulation of one snapshot with a change and says whether the target entry fits then."""

    snapshot: ClusterSnapshot
    gates: Gates
    result: GroupResult
    base: Simulation | None = None
    budget: Budget = field(default_factory=Budget)
    tried: list[Tried] = field(default_factory=list)
    progress: Callable[[str], None] | None = None  # told which what-if runs (the CLI's status line)

    @property
    def target(self) -> tuple[str, str, str]:
        """(kind, namespace, name) of the entry the what-ifs are about."""
        return (self.result.kind, self.result.namespace, self.result.name)

    def simulate(self, objects: Iterable[dict[str, Any]] = (), gates: Gates | None = None, *, kind: str = "",
                 change: str = "", explain: bool = False) -> GroupResult | None:
        """The target's result after overlaying `objects` (None when it is no longer queued); the run is recorded
        as tried (`kind`, `change`) with its outcome. BudgetSpent when the budget allows no more."""
        if not self.budget.allows():
            self.budget.spent = True
            raise BudgetSpent
        if self.progress is not None:
            self.progress(f"what-if {self.budget.used_runs + 1} for {self.result.kind} {self.result.namespace}/"
                          f"{self.result.name}: {change or kind}")
        started = time.process_time()
        snapshot = self.snapshot.overlay(list(objects))
        simulation = Simulation(snapshot, gates or self.gates, explain=explain, base=self.base)
        results = simulation.run({self.target}, stop=True, first_fit=True)
        self.budget.used_runs += 1
        self.budget.last_seconds = time.process_time() - started
        self.budget.used_seconds += self.budget.last_seconds
        after = results[0] if results else None
        outcome = "the group is no longer queued" if after is None else \
            where(after, self.result.entry.topology_key) if after.fits else "does not fit"
        self.tried.append(Tried(kind, change, outcome))
        return after

    def run(self, objects: Iterable[dict[str, Any]] = (), gates: Gates | None = None, *, kind: str = "",
            change: str = "") -> GroupResult | None:
        """simulate() without the per-node diagnoses (what a suggestion needs: fits or not, where)."""
        return self.simulate(objects, gates, kind=kind, change=change)


def where(result: GroupResult, key: str | None) -> str:
    """ "fits: r1 x3, r2 x1" (pods per value of `key`), or how many pods were placed."""
    if key is None or result.state is None:
        return f"fits: {len(result.placement)} pod(s) placed"
    counts = Counter(result.state.facts[n].labels.get(key, "?") for n in result.placement.values())
    return "fits: " + ", ".join(f"{value} x{count}" for value, count in sorted(counts.items(),
                                                                               key=lambda item: natural_key(item[0])))


def group_object(verifier: Verifier) -> dict[str, Any] | None:
    """A copy of the group's PodGroup object to change, or None (no PodGroup)."""
    entry = verifier.result.entry
    group = entry.group
    return copy.deepcopy(dict(group.obj)) if group is not None and group.kind == "PodGroup" else None
