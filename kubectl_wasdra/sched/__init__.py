"""The embedded scheduler: filters, pod groups (gang, topology, composite), the queue and `simulate`.

Entry points: `sched.simulation.Simulation(snapshot, gates).run()` -> list[GroupResult], and `simulate()` below.
"""

from __future__ import annotations

from typing import Any


def simulate(snapshot: Any, groups: Any = None, release: Any = None, gates: Any = None) -> Any:
    """sched.simulation.simulate, imported on first use so importing the package stays cheap."""
    from kubectl_wasdra.catalog.releases import NEWEST
    from kubectl_wasdra.sched.simulation import simulate as run

    return run(snapshot, groups, release or NEWEST, gates)
