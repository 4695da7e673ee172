"""`kubectl wasdra config --init`: a commented starter `.wasdra.yaml` for the repository at hand.

The release, runtime config and feature gates describe the cluster, so they are taken from one (`--snapshot` with
a header, or `--live`): the gates and API versions the manifests need are written with the values the cluster runs.
Without a cluster they can only come from the manifests, which say what is needed, not what is there: those are
written commented out under a warning, since enabling them would silence exactly the findings (API002, GATE001) that
tell a user the cluster lacks them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

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
    cluster: str | None = None   # where the values were checked ("snapshot FILE", "the live cluster"), None: unchecked
    unknown_gates: tuple[str, ...] = ()   # needed gates the cluster description does not say (no /metrics read)
    unknown_runtime: tuple[str, ...] = ()   # needed API versions it does not say (no discovery in the header)


def apply_cluster(needs: Needs, header: Any, source: str) -> Needs:
    """`needs` with the cluster's answers: its release (server version), whether it serves each API version the
    manifests need (runtime config true or false) and its value of each gate they need (from the header's /metrics
    gates; a gate it does not list stays unknown)."""
    from kubectl_wasdra.cluster.header import server_release

    release = server_release(header.server_version) if header.server_version else None
    served = set(header.served)
    runtime = {api: api in served for api in needs.runtime_config} if served else {}
    gates = {gate: bool(header.feature_gates[gate]) for gate in needs.feature_gates if gate in header.feature_gates}
    unknown = tuple(sorted(gate for gate in needs.feature_gates if gate not in header.feature_gates))
    return Needs(release or needs.release, runtime, gates, needs.documents, source, unknown,
                 () if served else tuple(sorted(needs.runtime_config)))


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


def _mapping(values: dict[str, bool]) -> str:
    return "".join(f"  {name}: {str(value).lower()}\n" for name, value in sorted(values.items())) or "  {}\n"


def _unchecked(key: str, names: Iterable[str], what: str) -> str:
    """The values the manifests need but no cluster confirmed: a loud comment and the mapping commented out."""
    names = sorted(names)
    if not names:
        return ""
    lines = "".join(f"#   {name}: true\n" for name in names)
    return (f"# !! The manifests need these {what}, but the cluster's were NOT read: enable only those your\n"
            f"# !! cluster runs with (or rerun `kubectl wasdra config --init --snapshot FILE` / `--live`). Enabling\n"
            f"# !! one the cluster lacks hides the findings that say so.\n# {key}:\n{lines}")


def starter_text(needs: Needs) -> str:
    """The starter file: what was detected, then every other key commented out with an example."""
    checked = needs.cluster is not None
    gates = _mapping(needs.feature_gates if checked else {})
    runtime = _mapping(needs.runtime_config if checked else {})
    unchecked_gates = _unchecked("featureGates", needs.unknown_gates if checked else needs.feature_gates, "feature gates")
    unchecked_runtime = _unchecked("runtimeConfig", needs.unknown_runtime if checked else needs.runtime_config,
                                   "API versions")
    origin = f"Release, runtime config and feature gates read from {needs.cluster}" if checked else \
        "Release detected from the manifests; no cluster was read (see the !! notes below)"
    return f"""# yaml-language-server: $schema={SCHEMA_URL}
# kubectl-wasdra project settings, found by `kubectl wasdra` from any directory below this one.
# Precedence: command-line flags > WASDRA_* environment variables > this file > built-in defaults.
# `kubectl wasdra config` shows the effective settings and where each one comes from.
# {origin}; {needs.documents} manifest(s) in this repository.

# Release(s) to check against: one ("1.37"), a list (["1.35", "1.37"]) or a range ("1.35..1.37").
k8sVersion: "{needs.release}"

# Feature gates the cluster enables (kube-apiserver / kube-scheduler --feature-gates).
{unchecked_gates}featureGates:
{gates}
# API versions kube-apiserver serves beyond its defaults (--runtime-config).
{unchecked_runtime}runtimeConfig:
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

# Named cluster descriptions, chosen with --config-cluster NAME (or WASDRA_CONFIG_CLUSTER); their gates and runtime
# config are merged over the ones above.
# clusters:
#   staging:
#     k8sVersion: "1.36"
#     featureGates: {{GenericWorkload: true}}
"""
