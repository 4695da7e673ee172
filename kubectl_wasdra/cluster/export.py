"""`kubectl wasdra snapshot`: read a cluster (live, read-only) or re-export snapshot files, optionally anonymize, write."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.cluster.live_limits import DEFAULT_MAX_OBJECTS
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.cluster.timeouts import DEFAULT_READ_DEADLINE, DEFAULT_REQUEST_TIMEOUT
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load.document import LoadProblem


@dataclass(frozen=True)
class SnapshotOptions:
    """What to read and where to write: `output` None means stdout; `format` "yaml" or "json" (None: JSON for an
    output file named *.json, YAML otherwise)."""

    output: str | None = None
    format: str | None = None
    anonymize: bool = False
    snapshot: Sequence[str] = ()
    live: bool = False
    kubeconfig: str | None = None
    context: str | None = None
    cluster: str | None = None
    namespace: str | None = None
    request_timeout: float | None = DEFAULT_REQUEST_TIMEOUT
    read_deadline: float | None = DEFAULT_READ_DEADLINE
    max_objects: int = DEFAULT_MAX_OBJECTS


@dataclass(frozen=True)
class SnapshotExport:
    """The written snapshot, its bytes (when written to stdout), and the problems of re-exported files."""

    snapshot: ClusterSnapshot
    data: bytes | None
    problems: tuple[LoadProblem, ...]
    replaced: Mapping[str, int] = field(default_factory=dict)  # --anonymize: distinct originals replaced, per sort


def export_snapshot(options: SnapshotOptions, progress: Callable[[Any], None] | None = None) -> SnapshotExport:
    """Read, anonymize if asked, and write the snapshot (to options.output, or return the bytes for stdout)."""
    from kubectl_wasdra.cluster.write import render_snapshot, write_snapshot

    if options.live == bool(options.snapshot):
        raise UsageError("give either --live or --snapshot PATH", where="snapshot",
                         hint="--live reads the cluster; --snapshot re-exports files")
    problems: tuple[LoadProblem, ...] = ()
    if options.live:
        from kubectl_wasdra.cluster.live import LiveOptions, read_live

        snapshot = read_live(LiveOptions(kubeconfig=options.kubeconfig, context=options.context, cluster=options.cluster,
                                         namespace=options.namespace, request_timeout=options.request_timeout,
                                         read_deadline=options.read_deadline, max_objects=options.max_objects),
                             progress)
    else:
        from kubectl_wasdra.cluster.files import load_snapshot

        snapshot, problems = load_snapshot(list(options.snapshot))
    from kubectl_wasdra.cluster.allowlist import allowed_snapshot

    snapshot = allowed_snapshot(snapshot)  # only what the simulator reads is ever written (no env, secrets, ...)
    replaced: dict[str, int] = {}
    if options.anonymize:
        from kubectl_wasdra.cluster.anonymize import anonymize_with_report

        snapshot, replaced = anonymize_with_report(snapshot)
    as_json = None if options.format is None else options.format == "json"
    if options.output is None:
        return SnapshotExport(snapshot, render_snapshot(snapshot, as_json=bool(as_json)), problems, replaced)
    write_snapshot(snapshot, options.output, as_json=as_json)
    return SnapshotExport(snapshot, None, problems, replaced)
