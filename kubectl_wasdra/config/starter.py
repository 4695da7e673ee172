"""`kubectl wasdra config --init`: a commented starter `.wasdra.yaml` for the repository at hand, with the release,
runtime config and feature gates its manifests need already filled in."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from kubectl_wasdra.catalog.releases import NEWEST, SUPPORTED, Release
from kubectl_wasdra.load import Document

SCHEMA_URL: Final = "https://raw.githubusercontent.com/kubectl-wasdra/kubectl-wasdra/main/schemas/wasdra-config.json"


@dataclass
class Needs:
    """What the manifests need from the cluster: a release serving every apiVersion, runtime config and gates."""

    release: Release = NEWEST
    runtime_config: dict[str, bool] = field(default_factory=dict)
    feature_gates: dict[str, bool] = field(default_factory=dict)
    documents: int = 0


def detect_needs(documents: Iterable[Document]) -> Needs:
    """The newest release serving every built-in apiVersion/kind found, and the runtime config and gates that
    release needs for them (API versions off by default, gated kinds and fields whose gate is off by default)."""
    from kubectl_wasdra.catalog.apis import api_status, serving_releases

    documents = [d for d in documents if d.api_version and d.kind]
    candidates = list(SUPPORTED)
    for document in documents:
        serving = serving_releases(document.api_version or "", document.kind or "")
        if serving and any(r in serving for r in candidates):
            candidates = [r for r in candidates if r in serving]
    needs = Needs(release=candidates[-1] if candidates else NEWEST, documents=len(documents))
    for document in documents:
        status = api_status(needs.release, document.api_version or "", document.kind or "", {})
        if status.info is None:
            continue
        if status.missing_runtime_config:
            needs.runtime_config[status.info.api_version] = True
        for gate in status.info.gates_for(document.kind or ""):
            _need_gate(needs, gate)
        _field_gates(needs, document)
    return needs


def _field_gates(needs: Needs, document: Document) -> None:
    from kubectl_wasdra.catalog.field_gates import checked_fields, find_governed

    for gated in checked_fields(needs.release, document.api_version or "", document.kind or ""):
        if next(find_governed(document.data, gated), None) is not None:  # as GATE001 decides it
            for gate in gated.gates_all:
                _need_gate(needs, gate)


def _need_gate(needs: Needs, gate: str) -> None:
    from kubectl_wasdra.catalog.gates import gate_table

    info = gate_table(needs.release).get(gate)
    if info is not None and not info.default:
        needs.feature_gates[gate] = True


def starter_text(needs: Needs) -> str:
    """The starter file: what was detected, then every other key commented out with an example."""
    gates = "".join(f"  {name}: true\n" for name in sorted(needs.feature_gates)) or "  {}\n"
    runtime = "".join(f"  {name}: true\n" for name in sorted(needs.runtime_config)) or "  {}\n"
    return f"""# yaml-language-server: $schema={SCHEMA_URL}
# kubectl-wasdra project settings, found by `kubectl wasdra` from any directory below this one.
# Precedence: command-line flags > WASDRA_* environment variables > this file > built-in defaults.
# `kubectl wasdra config` shows the effective settings and where each one comes from.
# Detected from {needs.documents} manifest(s) in this repository.

# Release(s) to check against: one ("1.37"), a list (["1.35", "1.37"]) or a range ("1.35..1.37").
k8sVersion: "{needs.release}"

# Feature gates the cluster enables (kube-apiserver / kube-scheduler --feature-gates).
featureGates:
{gates}
# API versions kube-apiserver serves beyond its defaults (--runtime-config).
runtimeConfig:
{runtime}
# Severity profile: default, production or experimental.
# profile: default

# Rules: ALL, a family (GATE), an ID (GATE001) or a name; failOn: error, warning, info or never.
# select: [ALL]
# ignore: [SCHEMA006]
# failOn: error

# Files to leave out (gitignore-like globs; Chart.yaml, values*.yaml, kustomization.yaml ... are left out already).
# exclude:
#   - "legacy/**"

# Rules to skip in some files.
# perFileIgnores:
#   "examples/**": [REF003, REF010]

# Extra schemas for custom resources, a cluster snapshot, the output format, a baseline of accepted findings.
# schemaLocations: [crds/]
# snapshot: cluster-snapshot.json
# output: text
# baseline: .wasdra-baseline.json

# Named cluster descriptions, chosen with --cluster NAME (or WASDRA_CLUSTER); their gates and runtime config are
# merged over the ones above.
# clusters:
#   staging:
#     k8sVersion: "1.36"
#     featureGates: {{GenericWorkload: true}}
"""
