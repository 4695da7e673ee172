"""What the target release and its gates let through to the scheduler: is a group object served at all (else the API
server rejects it: APINotServed), and which group fields survive (else they are dropped on create: FeatureGateDisabled).

Gate states come from catalog.gates; served group/versions from catalog.apis when installed, otherwise from the
scheduling.k8s.io rows of shared/reference/api-versions.yaml (every workload API version is off by default and needs
--runtime-config plus GenericWorkload).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release

# api-versions.yaml (scheduling.k8s.io): version -> (releases serving it, kinds)
_WORKLOAD_APIS: Final = {
    "scheduling.k8s.io/v1alpha1": ((35,), ("Workload",)),
    "scheduling.k8s.io/v1alpha2": ((36,), ("Workload", "PodGroup")),
    "scheduling.k8s.io/v1beta1": ((37,), ("Workload", "PodGroup")),
    "scheduling.k8s.io/v1alpha3": ((37,), ("Workload", "PodGroup", "CompositePodGroup")),
}
GENERIC_WORKLOAD: Final = "GenericWorkload"
TOPOLOGY_GATE: Final = "TopologyAwareWorkloadScheduling"
COMPOSITE_GATE: Final = "CompositePodGroup"
CLAIMS_GATE: Final = "DRAWorkloadResourceClaims"
POLICY_GATE: Final = "PodGroupPreemptionPolicy"  # a PodGroup's own preemptionPolicy
WAP_GATE_1_36: Final = "WorkloadAwarePreemption"  # 1.36 alpha gate; folded into GenericWorkload in 1.37


@dataclass(frozen=True)
class Gates:
    """The gate and runtime-config view the simulation uses (one release)."""

    release: Release
    enabled_gates: Mapping[str, bool]
    runtime_config: Mapping[str, bool]

    def enabled(self, name: str) -> bool:
        """True if gate `name` is on."""
        return bool(self.enabled_gates.get(name, False))


def make_gates(release: Release, overrides: Mapping[str, bool] | None = None,
               runtime_config: Mapping[str, bool] | None = None) -> Gates:
    """Effective gates of `release` with `overrides` (validated by catalog.gates) and the runtime config."""
    from kubectl_wasdra.catalog.gates import effective_gates

    state = effective_gates(release, overrides or {})
    return Gates(release, {name: state.enabled(name) for name in state.table.gates}, dict(runtime_config or {}))


def all_on(release: Release) -> Gates:
    """Every workload gate on and every workload API version enabled (for callers that want pure group semantics);
    the other gates keep the release's defaults."""
    names = (GENERIC_WORKLOAD, TOPOLOGY_GATE, COMPOSITE_GATE, CLAIMS_GATE, "DRAExtendedResource")
    defaults = make_gates(release).enabled_gates  # every other gate (the DRA features) at the release's default
    return Gates(release, {**defaults, **dict.fromkeys(names, True)}, dict.fromkeys(_WORKLOAD_APIS, True))


def _catalog_status(gates: Gates, api_version: str, kind: str) -> Any:
    from kubectl_wasdra.catalog import apis

    api_status = getattr(apis, "api_status", None)
    if api_status is None:  # catalog.apis without the per-kind table yet
        return None
    return api_status(gates.release, api_version, kind, gates.runtime_config, gates.enabled_gates.get)


def _version_on(gates: Gates, api_version: str) -> bool:
    from kubectl_wasdra.catalog.apis import version_enabled

    group, _, version = api_version.rpartition("/")
    return version_enabled(gates.runtime_config, group, version, default=False)


def api_rejection(gates: Gates, api_version: str, kind: str) -> str | None:
    """Why the API server would reject this object for the target release, or None if it is served."""
    status = _catalog_status(gates, api_version, kind)
    if status is not None:
        if not status.served:
            return str(status.not_served_message())
        return None if status.enabled else str(status.not_enabled_message())
    row = _WORKLOAD_APIS.get(api_version)
    if row is None:
        return None
    minors, kinds = row
    if gates.release.minor not in minors or kind not in kinds:
        return f"{api_version} {kind} is not served by Kubernetes {gates.release}"
    if not _version_on(gates, api_version):
        return f"{api_version} is off by default in Kubernetes {gates.release}: needs --runtime-config {api_version}=true"
    if not gates.enabled(GENERIC_WORKLOAD):
        return f"{kind} needs feature gate {GENERIC_WORKLOAD} in Kubernetes {gates.release}"
    return None
