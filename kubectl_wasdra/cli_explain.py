"""`explain`'s and `explain-pending`'s steps beside the simulation: the cluster options they run with, the Job pod cap,
rendering and the exit code."""

from __future__ import annotations

import os
from typing import Any

import click

from kubectl_wasdra.cli_check import resolve_auto
from kubectl_wasdra.cli_options import CommonOptions
from kubectl_wasdra.cli_output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, use_color
from kubectl_wasdra.errors import UsageError


def cluster_options(common: CommonOptions) -> CommonOptions:
    """explain's and explain-pending's options with `auto` and the live namespace resolved; UsageError without a
    cluster or with several releases typed."""
    if not common.snapshot and not common.live:
        raise UsageError("no cluster given", where="--snapshot", hint="pass --snapshot PATH or --live")
    if common.releases is not None and len(common.releases) > 1 and _typed("k8s_version"):
        raise UsageError("explain simulates one release at a time", where="--k8s-version",
                         hint=f"give one release, e.g. --k8s-version {common.releases[-1]}")
    return _live_namespace(resolve_auto(common))


def _live_namespace(common: CommonOptions) -> CommonOptions:
    """In live mode without -n or -A, the namespace of the kubeconfig's context ("default" when it names none), as
    kubectl does."""
    if not common.live or common.namespace is not None or common.all_namespaces:
        return common
    import dataclasses

    from kubectl_wasdra.cluster.live import context_namespace

    return dataclasses.replace(common, namespace=context_namespace(common.kubeconfig, common.context))


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


def render_explain(report: Any, output: str) -> str:
    """The report as JSON, or as text (coloured on a terminal)."""
    if output == "json":
        from kubectl_wasdra.explain.render_json import render_json

        return render_json(report)
    from kubectl_wasdra.explain.render_text import render_text

    return render_text(report, color=use_color())


def explain_exit(report: Any, *, fits_anyway: bool = False) -> int:
    """2 when a verdict is unknown (the cluster read has gaps it depends on) or an object was left out as malformed,
    else 1 when a group does not fit, unless `fits_anyway` (explain --fail-on never)."""
    if report.has_unknown or report.left_out:
        return EXIT_ERROR
    return EXIT_OK if report.all_fit or fits_anyway else EXIT_FINDINGS
