"""`explain` and `explain-pending`, and their steps beside the simulation: the cluster options they run with, the Job
pod cap, rendering and the exit code. Declared here, imported by cli.py's command table when one of them runs (or is
listed)."""

from __future__ import annotations

import os
from typing import Any

import click

from kubectl_wasdra.cli_config import ConfiguredCommand
from kubectl_wasdra.cli_options import (
    FILENAME_OPTION,
    NO_PREEMPTION_OPTION,
    RECURSIVE_OPTION,
    SCHEDULER_CONFIG_OPTION,
    CommonOptions,
    config_options,
    explain_options,
    manifest_paths,
    pending_options,
)
from kubectl_wasdra.cli_output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, say_error, use_color, write_report
from kubectl_wasdra.cli_progress import progress_for_stderr
from kubectl_wasdra.errors import UsageError


def cluster_options(common: CommonOptions) -> CommonOptions:
    """explain's and explain-pending's options with the live namespace resolved (the release, gates and runtime config
    are resolved once the cluster is read: explain/run.py resolve_release); UsageError without a cluster or with
    several releases typed."""
    if not common.snapshot and not common.live:
        raise UsageError("no cluster given", where="--snapshot", hint="pass --snapshot PATH or --live")
    if common.releases is not None and len(common.releases) > 1 and _typed("k8s_version"):
        raise UsageError("explain simulates one release at a time", where="--k8s-version",
                         hint=f"give one release, e.g. --k8s-version {common.releases[-1]}")
    return _live_namespace(common)


def _live_namespace(common: CommonOptions) -> CommonOptions:
    """In live mode without -n or -A, the namespace of the kubeconfig's context ("default" when it names none), as
    kubectl does."""
    if not common.live or common.namespace is not None or common.all_namespaces:
        return common
    import dataclasses

    from kubectl_wasdra.cluster.kubeconfig import context_namespace

    return dataclasses.replace(common, namespace=context_namespace(common.kubeconfig, common.context,
                                                                   os.environ.get("KUBECONFIG"), common.cluster))


def _typed(param: str) -> bool:
    """The flag was given on the command line (not taken from WASDRA_* or .wasdra.yaml, which serve check's release
    lists too: explain then simulates the newest release of the list)."""
    from click.core import ParameterSource

    ctx = click.get_current_context(silent=True)
    return ctx is None or ctx.get_parameter_source(param) is ParameterSource.COMMANDLINE


def explain_release(common: CommonOptions) -> Any:
    """The one release to simulate; None for `--k8s-version auto` still open (explain reads the snapshot header)."""
    return common.release if common.releases is not None else None


def job_pod_cap() -> int:
    """WASDRA_MAX_JOB_PODS (a positive integer), else the default cap of pods materialised per Job."""
    from kubectl_wasdra.explain.overlay import MAX_JOB_PODS

    value = os.environ.get("WASDRA_MAX_JOB_PODS", "").strip()
    if not value:
        return MAX_JOB_PODS
    if not value.isdigit() or int(value) < 1:
        raise UsageError(f'WASDRA_MAX_JOB_PODS="{value}" is not a positive integer', where="WASDRA_MAX_JOB_PODS",
                         hint=f"unset it for the default of {MAX_JOB_PODS}")
    return int(value)


def render_explain(report: Any, output: str, color: str = "auto") -> str:
    """The report as JSON or YAML, as the names of the groups that do not fit (-o name), as one HTML page, or as text
    (-o wide: every list in full), coloured as --color and the environment say."""
    if output == "html":
        from kubectl_wasdra.explain.render_html import render_html
        from kubectl_wasdra.explain.render_json import html_document

        return render_html(html_document(report))
    if output == "json":
        from kubectl_wasdra.explain.render_json import render_json

        return render_json(report)
    if output in ("yaml", "name"):
        from kubectl_wasdra.explain.render_forms import render_name, render_yaml

        return render_yaml(report) if output == "yaml" else render_name(report)
    from kubectl_wasdra.explain.render_text import render_text

    color_on = use_color(mode=color)
    if not color_on:
        return render_text(report, wide=output == "wide")
    import shutil

    return render_text(report, color=True, width=shutil.get_terminal_size((130, 24)).columns, wide=output == "wide")


OUTPUT_FILE_OPTION = click.option(
    "--output-file", metavar="FILE", type=click.Path(dir_okay=False), default=None,
    help="Write the report (any -o format) to FILE instead of stdout, e.g. -o html --output-file report.html.")


def emit(text: str, output: str, output_file: str | None) -> None:
    """The rendered report to stdout, or written to `output_file` (atomically, as UTF-8; a line on stderr says so)
    when one is named; an unwritable file is exit 2 with the reason."""
    if output_file is None:
        write_report(text, _written_as(output))
        return
    from kubectl_wasdra.errors import WasdraError
    from kubectl_wasdra.load.safe_write import write_output

    try:
        write_output(output_file, text.encode("utf-8"))
    except OSError as exc:
        raise WasdraError(f"cannot write {output_file}: {exc.strerror or exc}", where="--output-file",
                          hint="name a file in a directory you can write to") from None
    say_error(f"wrote {output_file} ({output}, {len(text.encode('utf-8')):,} bytes)")  # as `snapshot --output-file` does


def _written_as(output: str) -> str:
    """The format write_report is told: wide is text (neutralised on CI alike), yaml and name are data."""
    return "text" if output == "wide" else output


def explain_exit(report: Any, *, fits_anyway: bool = False) -> int:
    """2 when a verdict is unknown (the cluster read has gaps it depends on) or an object was left out as malformed,
    else 1 when a group does not fit, unless `fits_anyway` (explain --fail-on never)."""
    if report.has_unknown or report.left_out:
        return EXIT_ERROR
    return EXIT_OK if report.all_fit or fits_anyway else EXIT_FINDINGS


def parse_plugin_nodes(value: str) -> int | None:
    """--plugin-nodes: a number of nodes (0 or more) or "all" (None); UsageError otherwise."""
    text = value.strip().lower()
    if text == "all":
        return None
    if not text.isdigit():
        raise UsageError(f'--plugin-nodes "{value}" is neither a number nor "all"', where="--plugin-nodes",
                         hint="give a count of nodes such as 20, or all")
    return int(text)


def _plugin_mode(flag: bool | None, output: str) -> bool | str:
    """--plugin-results as given; unsaid: the sample -o html draws, nothing for the other formats."""
    if flag is None:
        return "sample" if output == "html" else False
    return flag


@click.command("explain", cls=ConfiguredCommand)
@config_options
@click.argument("paths", nargs=-1, metavar="[PATH]... | -", type=click.Path())
@FILENAME_OPTION
@RECURSIVE_OPTION
@click.option("--no-suggestions", is_flag=True, help="Skip the suggestions (each costs one more simulation).")
@click.option("--what-if-budget", default="", metavar="[SECONDSs][,COUNT]",
              help="CPU seconds and simulations the suggestions may spend over all groups (default 10s,40).")
@SCHEDULER_CONFIG_OPTION
@click.option("--numa-aware-scheduler", is_flag=True,
              help="The cluster's kube-scheduler runs scheduler-plugins' NodeResourceTopologyMatch filter in every "
                   "profile (as a --scheduler-config enabling it would say).")
@NO_PREEMPTION_OPTION
@click.option("--plugin-results/--no-plugin-results", default=None,
              help="With -o json|yaml|html: each pod's Filter plugins' verdicts and Score plugins' scores per node, the "
                   "totals and the chosen node (docs/plugin-results.md). -o html draws them by default for the pods "
                   "it shows in full (the first 8 of each of the first 50 groups); --no-plugin-results leaves them out.")
@click.option("--plugin-nodes", default="20", metavar="N|all", show_default=True,
              help="With --plugin-results: the chosen node and the N closest others are listed; all: every node.")
@OUTPUT_FILE_OPTION
@explain_options
def explain_command(paths: tuple[str, ...], filenames: tuple[str, ...], recursive: bool, no_suggestions: bool,
                    common: CommonOptions, scheduler_config: str | None = None, no_preemption: bool = False,
                    numa_aware_scheduler: bool = False, what_if_budget: str = "", plugin_results: bool | None = None,
                    plugin_nodes: str = "20", output_file: str | None = None) -> int:
    """Dry-run the manifests' pods and groups against a snapshot: placement plan, or why not and what would fit.

    PATH (or -f PATH) is a file, a directory (its .yaml, .yml and .json files; with -R its subdirectories' too), a
    glob, or - for stdin. Exit 1 when a group does not fit (unless --fail-on never).

    \b
    Examples:
      kubectl wasdra explain -f train.yaml --snapshot cluster/
      kubectl wasdra explain train.yaml --snapshot cluster/ --feature-gates GenericWorkload=true \\
          --runtime-config scheduling.k8s.io/v1beta1=true -o json
      kubectl wasdra explain -f train.yaml --snapshot cluster/ --fail-on never
      kubectl wasdra explain -f job.yaml --live
      kubectl wasdra explain -f job.yaml --snapshot cluster/ --scheduler-config kube-scheduler.yaml
      kubectl wasdra explain -f train.yaml --snapshot cluster/ -o html --plugin-results --output-file report.html
      kubectl wasdra explain -f job.yaml --snapshot cluster/ -o json --plugin-results --plugin-nodes 50

    \b
    Exit codes (130 after Ctrl-C):
      0  every group fits (with --fail-on never: the dry run completed)
      1  a group does not fit
      2  could not do the job, a verdict is unknown (a kind it needs was not read), or an object was left out as malformed
    """
    from kubectl_wasdra.explain.run import ExplainOptions, run_explain

    files = manifest_paths(paths, filenames, recursive)
    if not files:
        raise UsageError("no manifests given", where="PATH", hint="name files or directories, -f PATH, or - for stdin")
    common = cluster_options(common)
    options = ExplainOptions(files=files, snapshot=common.snapshot, live=common if common.live else None,
                             release=explain_release(common), release_given=common.release_given,
                             feature_gates=common.feature_gates,
                             runtime_config=common.runtime_config, suggestions=not no_suggestions,
                             scheduler_config=scheduler_config,
                             namespace=common.namespace if common.live else None, job_pod_cap=job_pod_cap(),
                             preemption=not no_preemption, numa_aware=numa_aware_scheduler,
                             what_if_budget=what_if_budget, plugin_nodes=parse_plugin_nodes(plugin_nodes),
                             plugin_results=_plugin_mode(plugin_results, common.output),
                             progress=progress_for_stderr(), grids=common.output == "html")
    try:
        report = run_explain(options)
    finally:
        if options.progress is not None:
            options.progress.close()
    emit(render_explain(report, common.output, common.color), common.output, output_file)
    return explain_exit(report, fits_anyway=common.fail_on == "never")


@click.command("explain-pending", cls=ConfiguredCommand)
@config_options
@click.argument("target", required=False, metavar="[NAME|pod/NAME|podgroup/NAME|workload/NAME]")
@SCHEDULER_CONFIG_OPTION
@NO_PREEMPTION_OPTION
@OUTPUT_FILE_OPTION
@pending_options
def explain_pending_command(target: str | None, common: CommonOptions, scheduler_config: str | None = None,
                            no_preemption: bool = False, output_file: str | None = None) -> int:
    """Explain Pending pods and groups of a cluster or snapshot, next to what the cluster itself recorded.

    A bare NAME is a pod, as in kubectl. With --live the namespace is the kubeconfig context's unless -n or -A says
    otherwise; a snapshot is searched in every namespace unless -n is given.

    \b
    Examples:
      kubectl wasdra explain-pending --snapshot cluster/ -A
      kubectl wasdra explain-pending pending-8gpu -n ml --snapshot cluster/    # a bare NAME is a pod
      kubectl wasdra explain-pending pod/pending-8gpu --live --context prod
      kubectl wasdra explain-pending --live -A

    \b
    Exit codes (130 after Ctrl-C):
      0  every pending pod and group explained would fit now
      1  one would still not fit
      2  could not do the job (nothing pending by that name, cluster unreachable), a verdict is unknown, or an object was left out
    """
    from kubectl_wasdra.explain.pending import PendingOptions, run_explain_pending

    common = cluster_options(common)
    options = PendingOptions(target=target, snapshot=common.snapshot, live=common if common.live else None,
                             release=explain_release(common), release_given=common.release_given,
                             feature_gates=common.feature_gates, runtime_config=common.runtime_config,
                             namespace=None if common.all_namespaces else common.namespace,
                             scheduler_config=scheduler_config, preemption=not no_preemption,
                             grids=common.output == "html")
    report = run_explain_pending(options)
    emit(render_explain(report, common.output, common.color), common.output, output_file)
    return explain_exit(report)
