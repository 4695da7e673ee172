"""`check`'s steps beside the lint pipeline: the cluster (`--k8s-version auto`, read once), rendered inputs (-k,
--helm), baselines, --fix and the exit code."""

from __future__ import annotations

import os
from typing import Any

from kubectl_wasdra.cli_options import CommonOptions, ProjectOptions
from kubectl_wasdra.cli_output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, say_error
from kubectl_wasdra.errors import UsageError


def fixed_report(options: Any, fix: bool, unsafe: bool) -> tuple[Any, str]:
    """check --fix: apply the fixes and check again (what is left is reported); without --fix, count the fixable,
    for the same input --fix accepts (files, one release)."""
    from kubectl_wasdra.lint.codes import FIXABILITY
    from kubectl_wasdra.lint.pipeline import run_check

    fixable_input = len(options.releases) == 1 and options.stdin is None and not options.rendered
    if (fix or unsafe) and not fixable_input:
        raise UsageError("--fix needs files and one --k8s-version", where="--fix",
                         hint="name the files (not -, -k or --helm) and a single release")
    if unsafe and not fix:
        raise UsageError("--unsafe-fixes works with --fix", where="--unsafe-fixes", hint="add --fix")
    report = run_check(options)
    if not fix and (not fixable_input or not any(f.rule in FIXABILITY for f in report.findings)):
        return report, ""  # nothing to count: convert (and ruamel.yaml) stay unloaded
    from kubectl_wasdra.convert.fixes import fix_findings

    summary = fix_findings(report.findings, options.releases[0], options.runtime_config, apply=fix, unsafe=unsafe)
    if summary.fixed:
        report = run_check(options)
        left = fix_findings(report.findings, options.releases[0], options.runtime_config, apply=False, unsafe=False)
        summary.safe, summary.unsafe = left.safe, left.unsafe
    return report, summary.line(applied=fix)


def rendered_inputs(paths: tuple[str, ...], project: ProjectOptions) -> tuple[Any, ...]:
    """Kustomize and Helm output to check beside the paths; UsageError when there is no input at all."""
    if not paths and not project.kustomize and not project.helm:
        raise UsageError("nothing to check", where="check",
                         hint="name files or directories, -f PATH, - for stdin, -k DIR or --helm CHART")
    if (project.values or project.set_values) and not project.helm:
        raise UsageError("--values and --set need --helm CHART", where="--values")
    if not project.kustomize and not project.helm:
        return ()
    from kubectl_wasdra.load.render import render_helm, render_kustomize

    # kubectl names itself in KUBECTL_PATH when it runs a plugin: render with that same kubectl
    rendered = [render_kustomize(directory, os.environ.get("KUBECTL_PATH")) for directory in project.kustomize]
    if project.helm:
        rendered.append(render_helm(project.helm, project.values, project.set_values))
    return tuple(rendered)


def repo_settings(paths: tuple[str, ...], project: ProjectOptions) -> dict[str, str | None]:
    """The project root and index cache for the repository as context (lint/repo/), when files are named."""
    if not project.repo_context or not any(path != "-" for path in paths):
        return {}
    from kubectl_wasdra.lint.repo.context import project_root
    from kubectl_wasdra.lint.repo.index import default_cache_dir

    return {"project_root": project_root(), "cache_dir": default_cache_dir(os.environ)}


def baseline_files(project: ProjectOptions) -> tuple[str, ...]:
    """The baseline files as exclude patterns: a baseline inside a checked directory is not a manifest."""
    return tuple(os.path.abspath(path) for path in (project.baseline, project.write_baseline) if path)


def write_baseline(report: Any, path: str) -> int:
    from kubectl_wasdra.lint.baseline import render_baseline

    with open(path, "w", encoding="utf-8") as stream:
        stream.write(render_baseline(report.findings))
    say_error(f"wrote {path}: {len(report.findings)} finding(s) recorded")
    return check_exit(report, "never")  # the findings are recorded, not failed on


def check_exit(report: Any, fail_on: str) -> int:
    """2 when check could not do its job (an unreadable input, a rule that crashed, a cluster kind it needs not read),
    else 1 when a finding is at or above `fail_on`, else 0."""
    if report.fatal:
        return EXIT_ERROR
    return EXIT_FINDINGS if report.fails(fail_on) else EXIT_OK


def resolve_auto(common: CommonOptions, snapshot: Any = None) -> tuple[CommonOptions, tuple[str, ...]]:
    """check with a cluster: the release, gates and runtime config of the cluster's server unless flags say otherwise
    (cluster/target.py), and notes saying where each came from. A list of releases is a matrix run: left alone."""
    if snapshot is None or (common.releases is not None and len(common.releases) > 1):
        return common, ()
    import dataclasses

    from kubectl_wasdra.cluster.target import resolve_target

    release = common.releases[-1] if common.releases else None
    header = snapshot.header if (snapshot.header.server_version or release is None) else None
    target = resolve_target(header, release, release_given=common.release_given, feature_gates=common.feature_gates,
                            runtime_config=common.runtime_config)
    return dataclasses.replace(common, releases=(target.release,), feature_gates=target.feature_gates,
                               runtime_config=target.runtime_config), target.notes


def check_snapshot(common: CommonOptions) -> tuple[Any, tuple[Any, ...]]:
    """The cluster for check --snapshot/--live, read once, and the malformed snapshot objects left out of it (reported
    as findings); a snapshot file that does not load at all is exit 2 with file:line:col."""
    from kubectl_wasdra.explain.run import load_cluster_leaving_out

    return load_cluster_leaving_out(common.snapshot, common if common.live else None)
