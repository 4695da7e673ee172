"""`capacity`: how many more copies of one pod or one group fit now, in total, per topology domain and per node, and
what runs out first where. Declared here, imported by cli.py's command table when it runs (or is listed)."""

from __future__ import annotations

import click

from kubectl_wasdra.cli_config import ConfiguredCommand
from kubectl_wasdra.cli_explain import OUTPUT_FILE_OPTION, cluster_options, emit, explain_release
from kubectl_wasdra.cli_options import (
    FILENAME_OPTION,
    RECURSIVE_OPTION,
    SCHEDULER_CONFIG_OPTION,
    CommonOptions,
    capacity_options,
    config_options,
    manifest_paths,
)
from kubectl_wasdra.cli_output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from kubectl_wasdra.cli_progress import progress_for_stderr
from kubectl_wasdra.errors import UsageError


def render_capacity(report: object, output: str) -> str:
    """The report as JSON, as an HTML page drawn from that JSON, or as text fitted to the terminal (-o wide: every
    domain and node)."""
    if output == "json":
        from kubectl_wasdra.explain.capacity_render import render_capacity_json

        return render_capacity_json(report)  # type: ignore[arg-type]
    if output == "html":
        from kubectl_wasdra.explain.capacity_html import render_capacity_html
        from kubectl_wasdra.explain.capacity_render import capacity_json

        return render_capacity_html(capacity_json(report))  # type: ignore[arg-type]
    import shutil

    from kubectl_wasdra.explain.capacity_render import render_capacity_text

    width = max(shutil.get_terminal_size((130, 24)).columns, 60)
    return render_capacity_text(report, width=width, wide=output == "wide")  # type: ignore[arg-type]


def capacity_exit(report: object, minimum: int) -> int:
    """2 when the answer may be wrong (a kind it needs was not read, a snapshot object was left out as malformed),
    else 1 when fewer than `minimum` copies fit, else 0."""
    if getattr(report, "unread", None) or getattr(report, "left_out", None):
        return EXIT_ERROR
    return EXIT_OK if getattr(report, "copies", 0) >= minimum else EXIT_FINDINGS


@click.command("capacity", cls=ConfiguredCommand)
@config_options
@click.argument("paths", nargs=-1, metavar="[PATH]... | -", type=click.Path())
@FILENAME_OPTION
@RECURSIVE_OPTION
@click.option("--max", "max_copies", type=click.IntRange(min=1), default=10_000, show_default=True, metavar="N",
              help="Stop after N copies fit (the answer then says at least N).")
@click.option("--min", "min_copies", type=click.IntRange(min=0), default=1, show_default=True, metavar="N",
              help="Exit 1 when fewer than N copies fit (a CI gate: --min 4).")
@click.option("--topology-key", metavar="LABEL",
              help="Count per value of this node label (default: the group's topology constraint, if any).")
@SCHEDULER_CONFIG_OPTION
@OUTPUT_FILE_OPTION
@capacity_options
def capacity_command(paths: tuple[str, ...], filenames: tuple[str, ...], recursive: bool, common: CommonOptions,
                     max_copies: int = 10_000, min_copies: int = 1, topology_key: str | None = None,
                     scheduler_config: str | None = None, output_file: str | None = None) -> int:
    """How many more copies of one pod, or of one whole group, fit now: in total, per topology domain, per node, and
    what runs out first where (cpu, memory, pods, a host port, a device class's devices, counters, aligned sets).

    PATH (or -f PATH) holds one Pod (or a Deployment, ReplicaSet, StatefulSet or Job without spec.scheduling: one pod
    of its template), or one PodGroup/Workload with its pods (a Job with spec.scheduling: its gang) and their
    ResourceClaimTemplates. Copies are placed one after another by the same
    simulator as explain (gangs all or nothing, in one domain under a topology constraint), so N copies fit exactly
    when explain of the shape and N-1 renamed copies says they all fit.

    \b
    Examples:
      kubectl wasdra capacity -f job.yaml --snapshot cluster/                     # one pod of the Job's template
      kubectl wasdra capacity -f train.yaml --snapshot cluster/ -o wide \
          --feature-gates GenericWorkload=true,TopologyAwareWorkloadScheduling=true \
          --runtime-config scheduling.k8s.io/v1beta1=true                          # whole gangs per rack
      kubectl wasdra capacity -f job.yaml --snapshot cluster/ --topology-key example.com/rack -o json
      kubectl wasdra capacity -f job.yaml --snapshot cluster/ -o html > capacity.html
      kubectl wasdra capacity -f job.yaml --live --min 8                          # exit 1 when fewer than 8 fit

    \b
    Exit codes (130 after Ctrl-C):
      0  at least --min copies fit (default 1)
      1  fewer than --min copies fit
      2  could not do the job, a kind it needs was not read, or a snapshot object was left out as malformed
    """
    from kubectl_wasdra.explain.capacity_run import CapacityOptions, run_capacity

    files = manifest_paths(paths, filenames, recursive)
    if not files:
        raise UsageError("no manifests given", where="PATH", hint="name the file of the pod or group, -f PATH, or - for stdin")
    common = cluster_options(common)
    options = CapacityOptions(files=files, snapshot=common.snapshot, live=common if common.live else None,
                              release=explain_release(common), release_given=common.release_given,
                              feature_gates=common.feature_gates, runtime_config=common.runtime_config,
                              scheduler_config=scheduler_config, namespace=common.namespace if common.live else None,
                              max_copies=max_copies, topology_key=topology_key, progress=progress_for_stderr())
    try:
        report = run_capacity(options)
    finally:
        if options.progress is not None:
            options.progress.close()
    emit(render_capacity(report, common.output), common.output, output_file)
    return capacity_exit(report, min_copies)
