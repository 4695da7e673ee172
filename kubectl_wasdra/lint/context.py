"""What every rule may consult: the target release, gate and runtime-config overrides, profile, snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING

from kubectl_wasdra.catalog.releases import NEWEST, Release

if TYPE_CHECKING:
    from kubectl_wasdra.catalog.gates import GateState
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot


def _empty() -> Mapping[str, bool]:
    return MappingProxyType({})


@dataclass(frozen=True, eq=False)
class CheckContext:
    """One release, one set of overrides: rules read it, never change it. Hashed by identity, so per-context caches
    can key on it."""

    release: Release = NEWEST
    feature_gates: Mapping[str, bool] = field(default_factory=_empty)
    runtime_config: Mapping[str, bool] = field(default_factory=_empty)
    profile: str = "default"
    snapshot: ClusterSnapshot | None = None
    schema_locations: tuple[str, ...] = ()
    simulate: bool = False  # check --simulate: FIT004 runs the explain simulation against `snapshot`
    preemption: bool = True  # False (check --no-preemption): the simulation leaves preemption out

    @cached_property
    def gates(self) -> GateState:
        """Effective feature-gate state for this release with the overrides (`.enabled(name) -> bool`)."""
        from kubectl_wasdra.catalog.gates import all_gates_on, effective_gates
        from kubectl_wasdra.lint.profiles import assumes_all_gates_on

        state = effective_gates(self.release, self.feature_gates)  # validates --feature-gates in every profile
        return all_gates_on(self.release) if assumes_all_gates_on(self.profile) else state

    def gate_enabled(self, name: str) -> bool:
        """Whether gate `name` is on (a gate this release does not register is off)."""
        return self.gates.enabled(name)
