"""`snapshot`: dump what the simulator reads from a cluster (or re-export snapshot files) as one portable List.
Declared here, imported by cli.py's command table when it runs (or is listed)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import click

from kubectl_wasdra.cli_options import (
    ALL_NAMESPACES_OPTION,
    CLUSTER_OPTION,
    CONTEXT_OPTION,
    KUBECONFIG_OPTION,
    NAMESPACE_OPTION,
    SNAPSHOT_OPTION,
    SNAPSHOT_OUTPUT_OPTION,
    cluster_timeout_options,
    cluster_timeouts,
)
from kubectl_wasdra.cli_output import EXIT_ERROR, EXIT_OK, PROG, say_error


@click.command("snapshot")
@SNAPSHOT_OUTPUT_OPTION
@click.option("--output-file", metavar="FILE", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of stdout (JSON if named *.json and no -o is given, else YAML).")
@click.option("--anonymize", is_flag=True, help="Replace node names, namespaces, pod names and label values consistently.")
@SNAPSHOT_OPTION
@click.option("--live", is_flag=True,
              help="Read the cluster of the kubeconfig: the default without --snapshot (kept for scripts).")
@KUBECONFIG_OPTION
@CONTEXT_OPTION
@CLUSTER_OPTION
@NAMESPACE_OPTION
@ALL_NAMESPACES_OPTION
@cluster_timeout_options
def snapshot_command(output: str | None, output_file: str | None, anonymize: bool, snapshot: tuple[str, ...], live: bool,
                     kubeconfig: str | None, context: str | None, cluster: str | None, namespace: str | None,
                     all_namespaces: bool,
                     **timeouts: str) -> int:
    """Dump the objects the simulator needs (read-only) as one portable List plus a header, for offline use and bug reports.

    Reads the cluster of the current kubeconfig context (or --context, --cluster), or re-exports snapshot files given with
    --snapshot. Unlike kubectl get, every namespace is read unless -n NS is given: free node capacity depends on every
    pod. Types the cluster does not serve, or does not let you read, are listed in the header's gaps; the rest is
    written. With --snapshot, files that do not load are named on stderr and the exit code is 2; the objects of the
    other files are still written.

    \b
    Examples:
      kubectl wasdra snapshot -o json > cluster.json
      kubectl wasdra snapshot --context prod --anonymize --output-file bug-report.yaml
      kubectl wasdra snapshot --snapshot cluster/ --anonymize -o yaml > anonymized.yaml

    \b
    Exit codes (130 after Ctrl-C):
      0  written
      2  the cluster could not be read, or a --snapshot file did not load (what loaded is still written)
    """
    from kubectl_wasdra.cli_options import CLUSTER_CHOICE, LIVE_ONLY, require_live_for
    from kubectl_wasdra.cluster.export import SnapshotOptions, export_snapshot

    reads_cluster = live or not snapshot
    require_live_for({**CLUSTER_CHOICE, **LIVE_ONLY, "namespace": "-n/--namespace", "all_namespaces": "-A/--all-namespaces"},
                     reads_cluster)
    options = SnapshotOptions(output=output_file, format=output, anonymize=anonymize, snapshot=snapshot,
                              live=reads_cluster, kubeconfig=kubeconfig, context=context, cluster=cluster,
                              namespace=None if all_namespaces else namespace, **cluster_timeouts(timeouts))
    with _progress_display(enabled=reads_cluster) as progress:
        result = export_snapshot(options, progress)
    from kubectl_wasdra.explain.left_out import problem_line

    for problem in result.problems:
        say_error(f"{PROG}: error: {problem_line(problem)}")
    for kind, why in sorted(result.snapshot.header.gaps.items()):
        say_error(f"{PROG}: not read: {kind}: {why}")
    if anonymize:
        replaced = ", ".join(f"{count} {what}" for what, count in result.replaced.items()) or "nothing"
        say_error(f"{PROG}: anonymized: replaced {replaced}; dropped managedFields, resourceVersions, annotations the "
                  "simulator does not read, IPs, images, commands and environment")
    if result.data is not None:
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
    else:
        counts = ", ".join(f"{len(objs)} {kind}" for kind, objs in result.snapshot.objects.items() if objs)
        say_error(f"wrote {output_file}: {counts or 'no objects'}")
    if _nothing_read(result.snapshot):
        say_error(f"{PROG}: error: nothing could be read from the cluster but its version — see the reasons above")
        return EXIT_ERROR
    return EXIT_ERROR if result.problems else EXIT_OK  # what loaded is written; the files that did not are the error


def _nothing_read(snapshot: Any) -> bool:
    """True when a snapshot holds no object and some kind was not read for a reason other than not being served."""
    from kubectl_wasdra.cluster.gaps import NOT_SERVED

    blocked = [why for why in snapshot.header.gaps.values() if not str(why).startswith(NOT_SERVED)]
    return bool(blocked) and not any(snapshot.objects.values())


@contextlib.contextmanager
def _progress_display(*, enabled: bool) -> Iterator[Any]:
    """A progress callback for live reads: a rich status line on a TTY (stderr), nothing otherwise."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    with Console(stderr=True).status("reading the cluster") as status:
        def update(event: Any) -> None:
            status.update(f"reading {event.kind}: {event.count} objects" + (" (done)" if event.done else ""))

        yield update
