"""Command line: declare flags, build options, call one function per command, render, exit.

Heavy imports (kubernetes, CEL, sched, dra, rich) happen inside the command that needs them.
Exit codes (DESIGN.md): 0 nothing at or above --fail-on; 1 findings / a group that does not fit; 2 the tool could not
do its job; 130 interrupted.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from kubectl_wasdra import __version__
from kubectl_wasdra.cli_check import (
    baseline_files,
    check_exit,
    check_snapshot,
    fixed_report,
    rendered_inputs,
    resolve_auto,
    write_baseline,
)
from kubectl_wasdra.cli_config import ConfiguredCommand
from kubectl_wasdra.cli_explain import cluster_options, explain_exit, explain_release, job_pod_cap, render_explain
from kubectl_wasdra.cli_options import (
    ALL_NAMESPACES_OPTION,
    CONTEXT_OPTION,
    FILENAME_OPTION,
    KUBECONFIG_OPTION,
    NAMESPACE_OPTION,
    NO_PREEMPTION_OPTION,
    RECURSIVE_OPTION,
    SCHEDULER_CONFIG_OPTION,
    SNAPSHOT_OPTION,
    SNAPSHOT_OUTPUT_OPTION,
    TEXT_OR_JSON_OPTION,
    CommonOptions,
    ProjectOptions,
    cluster_timeout_options,
    cluster_timeouts,
    common_options,
    complete_releases,
    complete_rules,
    config_options,
    explain_options,
    manifest_paths,
    pending_options,
    project_options,
)
from kubectl_wasdra.cli_output import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    PROG,
    say_error,
    use_color,
    write,
    write_report,
)
from kubectl_wasdra.errors import UsageError, WasdraError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(__version__, "--version", prog_name=PROG, message="%(prog)s %(version)s")
@click.option("--debug", is_flag=True, hidden=False, help="Show tracebacks for internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Lint and dry-run Kubernetes workload-aware scheduling and DRA manifests (Kubernetes 1.33-1.37).

    \b
    Examples:
      kubectl wasdra check deploy/ --k8s-version 1.37
      kubectl wasdra explain -f train.yaml --snapshot cluster/
      kubectl wasdra explain-pending pending-8gpu --live
      kubectl wasdra gates --k8s-version 1.37 --area dra
      kubectl wasdra version
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
    if debug:  # library code re-raises what it would otherwise turn into an internal-error finding
        os.environ["KUBECTL_WASDRA_DEBUG"] = "1"


@cli.command("check", cls=ConfiguredCommand)
@click.argument("paths", nargs=-1, metavar="[PATH]... | -", type=click.Path())
@FILENAME_OPTION
@RECURSIVE_OPTION
@common_options
@project_options
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes for large inputs (default: all cores).")
@click.option("--upgrade-from", metavar="VERSION", default=None,
              help="Report what upgrading from this release to --k8s-version breaks or changes.")
@click.option("--simulate/--no-simulate", default=True, show_default=True,
              help="With --snapshot/--live: dry-run the manifests' groups and report those that do not fit now (FIT004).")
# ---- check --fix (kubectl_wasdra/convert/fixes.py) ----
@click.option("--fix", is_flag=True,
              help="Apply the safe fixes in place (kubectl wasdra rules: the fix column), then report what is left.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix, apply the unsafe fixes too (API conversions that move fields).")
# ---- end of check --fix ----
@NO_PREEMPTION_OPTION
def check_command(paths: tuple[str, ...], filenames: tuple[str, ...], recursive: bool, common: CommonOptions,
                  project: ProjectOptions, jobs: int | None, upgrade_from: str | None = None,
                  simulate: bool = True, fix: bool = False, unsafe_fixes: bool = False, no_preemption: bool = False) -> int:
    """Lint manifests: API availability, schema, feature gates, API validation, references.

    PATH (or -f PATH) is a file, a directory (its .yaml, .yml and .json files; with -R its subdirectories' too), a
    glob, or - for stdin.

    \b
    Settings that repeat (release, gates, runtime config, excludes ...) belong in .wasdra.yaml: kubectl wasdra config.
    Silence one finding with `# wasdra: ignore[RULE] reason` on its line (or alone on the line above),
    or with the annotation wasdra.dev/ignore: "RULE,...: reason" on its object.

    \b
    Examples:
      kubectl wasdra check deploy/
      kubectl wasdra check -f train.yaml --k8s-version 1.36 --feature-gates GenericWorkload=true
      kubectl wasdra check deploy/ --runtime-config scheduling.k8s.io/v1beta1=true -o sarif > wasdra.sarif
      kubectl wasdra check deploy/ --select API,SCHEMA --ignore SCHEMA006 --fail-on warning
      kubectl wasdra check deploy/ --k8s-version 1.35,1.36,1.37
      kubectl wasdra check -R deploy/ --upgrade-from 1.35 --k8s-version 1.37
      cat deploy/*.yaml | kubectl wasdra check -
      kubectl wasdra check deploy/ --snapshot cluster/     # + references, fit and a dry run against a cluster
      kubectl wasdra check deploy/ --live --no-simulate
      kubectl wasdra check -k overlays/prod                # what kubectl kustomize renders
      kubectl wasdra check --helm chart/ --values prod.yaml --set replicas=4
      kubectl wasdra check deploy/ --exclude 'legacy/**' --baseline .wasdra-baseline.json
    """
    from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
    from kubectl_wasdra.report import render

    paths = manifest_paths(paths, filenames, recursive)
    rendered = rendered_inputs(paths, project)
    snapshot, left_out = check_snapshot(common) if common.snapshot or common.live else (None, ())
    common = resolve_auto(common, snapshot)

    options = CheckOptions(paths=paths, releases=common.releases or (common.release,), feature_gates=common.feature_gates,
                           runtime_config=common.runtime_config, profile=common.profile, select=common.select,
                           ignore=common.ignore, schema_locations=common.schema_locations,
                           stdin=sys.stdin.buffer if "-" in paths else None, jobs=jobs, snapshot=snapshot,
                           simulate=simulate, snapshot_problems=tuple(left_out), preemption=not no_preemption,
                           exclude=project.exclude + baseline_files(project), default_excludes=project.default_excludes,
                           rendered=rendered, per_file_ignores=project.per_file_ignores,
                           report_unused_ignores=project.report_unused_ignores, show_suppressed=project.show_suppressed,
                           baseline=None if project.write_baseline else project.baseline)
    if project.write_baseline:
        return write_baseline(run_check(options), project.write_baseline)
    if upgrade_from is not None:
        from kubectl_wasdra.lint.matrix import upgrade_output

        if common.output not in ("text", "json"):
            raise UsageError(f'output "{common.output}" is not available with --upgrade-from', where="-o",
                             hint="use -o text or -o json")
        text, code = upgrade_output(options, upgrade_from, common.output)
        write_report(text, common.output)
        return code
    counted = common.output == "text" or fix or unsafe_fixes
    report, fix_line = fixed_report(options, fix, unsafe_fixes) if counted else (run_check(options), "")
    if len(options.releases) > 1 and common.output == "json":
        from kubectl_wasdra.lint.matrix import render_check_json
        write_report(render_check_json(report), "json")
    else:
        write_report(render(report, common.output, color=use_color() and common.output == "text", fail_on=common.fail_on),
                     common.output)
    if len(options.releases) > 1 and common.output == "text":
        from kubectl_wasdra.lint.matrix import build_matrix, render_matrix_text
        write_report(render_matrix_text(build_matrix(report)), common.output)
    if fix_line and common.output == "text":
        write(fix_line + "\n")
    return check_exit(report, common.fail_on)


@cli.command("gates")
@click.option("--k8s-version", default=None, metavar="VERSION", shell_complete=complete_releases,
              help="Release to list (default: newest known).")
@click.option("--area", type=click.Choice(("scheduling", "dra", "node", "autoscaling", "apiserver")), default=None,
              help="Only gates of this area.")
@click.option("--diff", nargs=2, metavar="FROM TO", default=None, help="Gates that differ between two releases.")
@TEXT_OR_JSON_OPTION
def gates_command(k8s_version: str | None, area: str | None, diff: tuple[str, str] | None, output: str) -> int:
    """The feature-gate / KEP matrix: stage, default and components per release, or what changed between two.

    \b
    Examples:
      kubectl wasdra gates --k8s-version 1.37 --area dra
      kubectl wasdra gates --diff 1.35 1.37 --area scheduling
      kubectl wasdra gates -o json
    """
    from kubectl_wasdra.catalog.releases import NEWEST, Release
    from kubectl_wasdra.report.gates import render_diff, render_table

    if diff:
        write_report(render_diff(Release.parse(diff[0]), Release.parse(diff[1]), area, output), output)
    else:
        write_report(render_table(Release.parse(k8s_version) if k8s_version else NEWEST, area, output), output)
    return EXIT_OK


@cli.command("config", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--init", is_flag=True, help="Write a commented starter .wasdra.yaml at the repository root.")
@TEXT_OR_JSON_OPTION
@click.pass_context
def config_command(ctx: click.Context, init: bool, output: str) -> int:
    """The effective settings of `check` (flags > WASDRA_* environment > .wasdra.yaml > defaults) and where each
    one comes from. Takes check's flags, --config FILE, --no-config and --cluster NAME.

    \b
    Examples:
      kubectl wasdra config
      kubectl wasdra config --cluster prod -o json
      kubectl wasdra config --init
    """
    from kubectl_wasdra.cli_config import render_effective, write_starter
    from kubectl_wasdra.config.discover import repository_root

    if init:
        path, documents = write_starter(repository_root())
        say_error(f"wrote {path} (from {documents} manifest(s)); check it with: {PROG} config")
        return EXIT_OK
    check_ctx = check_command.make_context("check", list(ctx.args), parent=ctx)
    write_report(render_effective(check_ctx, output), output)
    return EXIT_OK


@cli.command("rules")
@click.argument("rule_id", required=False, metavar="[ID|NAME|FAMILY]", shell_complete=complete_rules)
@TEXT_OR_JSON_OPTION
def rules_command(rule_id: str | None, output: str) -> int:
    """The rule catalogue: IDs, names, severities and each rule's documentation.

    \b
    Examples:
      kubectl wasdra rules
      kubectl wasdra rules SCHEMA002
      kubectl wasdra rules GATE -o json
    """
    from kubectl_wasdra.report.catalog import render_rules

    write_report(render_rules(rule_id, output), output)
    return EXIT_OK


@cli.command("explain", cls=ConfiguredCommand)
@config_options
@click.argument("paths", nargs=-1, metavar="[PATH]... | -", type=click.Path())
@FILENAME_OPTION
@RECURSIVE_OPTION
@click.option("--no-suggestions", is_flag=True, help="Skip the suggestions (each costs one more simulation).")
@SCHEDULER_CONFIG_OPTION
@click.option("--numa-aware-scheduler", is_flag=True,
              help="The cluster's kube-scheduler runs scheduler-plugins' NodeResourceTopologyMatch filter in every "
                   "profile (as a --scheduler-config enabling it would say).")
@NO_PREEMPTION_OPTION
@explain_options
def explain_command(paths: tuple[str, ...], filenames: tuple[str, ...], recursive: bool, no_suggestions: bool,
                    common: CommonOptions, scheduler_config: str | None = None, no_preemption: bool = False,
                    numa_aware_scheduler: bool = False) -> int:
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
    """
    from kubectl_wasdra.explain.run import ExplainOptions, run_explain

    files = manifest_paths(paths, filenames, recursive)
    if not files:
        raise UsageError("no manifests given", where="PATH", hint="name files or directories, -f PATH, or - for stdin")
    common = cluster_options(common)
    options = ExplainOptions(files=files, snapshot=common.snapshot, live=common if common.live else None,
                             release=explain_release(common), feature_gates=common.feature_gates,
                             runtime_config=common.runtime_config, suggestions=not no_suggestions,
                             scheduler_config=scheduler_config,
                             namespace=common.namespace if common.live else None, job_pod_cap=job_pod_cap(),
                             preemption=not no_preemption, numa_aware=numa_aware_scheduler)
    report = run_explain(options)
    write_report(render_explain(report, common.output), common.output)
    return explain_exit(report, fits_anyway=common.fail_on == "never")


@cli.command("explain-pending", cls=ConfiguredCommand)
@config_options
@click.argument("target", required=False, metavar="[NAME|pod/NAME|podgroup/NAME|workload/NAME]")
@SCHEDULER_CONFIG_OPTION
@NO_PREEMPTION_OPTION
@pending_options
def explain_pending_command(target: str | None, common: CommonOptions, scheduler_config: str | None = None,
                            no_preemption: bool = False) -> int:
    """Explain Pending pods and groups of a cluster or snapshot, next to what the cluster itself recorded.

    A bare NAME is a pod, as in kubectl. With --live the namespace is the kubeconfig context's unless -n or -A says
    otherwise; a snapshot is searched in every namespace unless -n is given.

    \b
    Examples:
      kubectl wasdra explain-pending --snapshot cluster/ -A
      kubectl wasdra explain-pending pending-8gpu -n ml --snapshot cluster/    # a bare NAME is a pod
      kubectl wasdra explain-pending pod/pending-8gpu --live --context prod
      kubectl wasdra explain-pending --live -A
    """
    from kubectl_wasdra.explain.pending import PendingOptions, run_explain_pending

    common = cluster_options(common)
    options = PendingOptions(target=target, snapshot=common.snapshot, live=common if common.live else None,
                             release=explain_release(common), feature_gates=common.feature_gates,
                             runtime_config=common.runtime_config,
                             namespace=None if common.all_namespaces else common.namespace,
                             scheduler_config=scheduler_config, preemption=not no_preemption)
    report = run_explain_pending(options)
    write_report(render_explain(report, common.output), common.output)
    return explain_exit(report)


@cli.command("snapshot")
@SNAPSHOT_OUTPUT_OPTION
@click.option("--output-file", metavar="FILE", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of stdout (JSON if named *.json and no -o is given, else YAML).")
@click.option("--anonymize", is_flag=True, help="Replace node names, namespaces, pod names and label values consistently.")
@SNAPSHOT_OPTION
@click.option("--live", is_flag=True,
              help="Read the cluster of the kubeconfig: the default without --snapshot (kept for scripts).")
@KUBECONFIG_OPTION
@CONTEXT_OPTION
@NAMESPACE_OPTION
@ALL_NAMESPACES_OPTION
@cluster_timeout_options
def snapshot_command(output: str | None, output_file: str | None, anonymize: bool, snapshot: tuple[str, ...], live: bool,
                     kubeconfig: str | None, context: str | None, namespace: str | None, all_namespaces: bool,
                     **timeouts: str) -> int:
    """Dump the objects the simulator needs (read-only) as one portable List plus a header, for offline use and bug reports.

    Reads the cluster of the current kubeconfig context (or --context), or re-exports snapshot files given with
    --snapshot. Unlike kubectl get, every namespace is read unless -n NS is given: free node capacity depends on every
    pod. Types the cluster does not serve, or does not let you read, are listed in the header's gaps; the rest is
    written. With --snapshot, files that do not load are named on stderr and the exit code is 2; the objects of the
    other files are still written.

    \b
    Examples:
      kubectl wasdra snapshot -o json > cluster.json
      kubectl wasdra snapshot --context prod --anonymize --output-file bug-report.yaml
      kubectl wasdra snapshot --snapshot cluster/ --anonymize -o yaml > anonymized.yaml
    """
    from kubectl_wasdra.cli_options import LIVE_ONLY, require_live_for
    from kubectl_wasdra.cluster.export import SnapshotOptions, export_snapshot

    reads_cluster = live or not snapshot
    require_live_for({**LIVE_ONLY, "namespace": "-n/--namespace", "all_namespaces": "-A/--all-namespaces"}, reads_cluster)
    options = SnapshotOptions(output=output_file, format=output, anonymize=anonymize, snapshot=snapshot,
                              live=reads_cluster, kubeconfig=kubeconfig, context=context,
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


# ---- convert: rewrite manifests to the API versions a release serves (kubectl_wasdra/convert/) ----------------------
@cli.command("convert")
@click.argument("paths", nargs=-1, required=True, metavar="PATH... | -", type=click.Path())
@click.option("--to", "to_release", required=True, metavar="VERSION", shell_complete=complete_releases,
              help="Target Kubernetes release 1.33-1.37.")
@click.option("--runtime-config", multiple=True, metavar="GROUP/VERSION=BOOL,...",
              help="API versions enabled on the target's kube-apiserver: convert to those instead of the default ones.")
@click.option("--write", "mode", flag_value="write", help="Rewrite the files in place.")
@click.option("--diff", "mode", flag_value="diff", help="Print a unified diff; exit 1 when a file would change.")
@click.option("-o", "--output", type=click.Choice(("yaml", "json")), default="yaml", show_default=True,
              help="Format of the converted objects on stdout (without --write/--diff).")
def convert_command(paths: tuple[str, ...], to_release: str, runtime_config: tuple[str, ...], mode: str | None,
                    output: str) -> int:
    """Rewrite manifests to the API versions a release serves, keeping comments, order, quoting and layout.

    Objects whose apiVersion the release does not serve, deprecates or leaves off by default get the version it serves
    (with every field that moved), 1.35 Workloads get their PodGroups, pods' workloadRef becomes schedulingGroup.
    What cannot be converted without information the file lacks is reported (exit 1), never guessed.

    \b
    Examples:
      kubectl wasdra convert deploy/ --to 1.37 --diff
      kubectl wasdra convert claim.yaml --to 1.37 --write
      kubectl wasdra convert workload.yaml --to 1.36 -o json
    """
    from kubectl_wasdra.catalog.apis import parse_runtime_config
    from kubectl_wasdra.catalog.releases import Release
    from kubectl_wasdra.convert.run import convert_paths

    items = [item for value in runtime_config for item in value.split(",") if item.strip()]
    outcome = convert_paths(paths, Release.parse(to_release), parse_runtime_config(items), mode=mode or "print",
                            output=output)
    if outcome.stdout:
        write(outcome.stdout, output if mode is None else "text")  # --diff prints a diff
    sys.stderr.write(outcome.stderr)
    return outcome.exit_code
# ---- end of convert ------------------------------------------------------------------------------------------------


@cli.command("version")
@TEXT_OR_JSON_OPTION
def version_command(output: str) -> int:
    """The tool's version, the Kubernetes releases it supports and the versions of its schema and gate data.

    \b
    Examples:
      kubectl wasdra version
      kubectl wasdra version -o json
    """
    from kubectl_wasdra.report.version import render_version

    write_report(render_version(output), output)
    return EXIT_OK


@cli.command("completion")
@click.argument("shell", type=click.Choice(("bash", "zsh", "fish")))
def completion_command(shell: str) -> int:
    """Print a shell completion script for kubectl-wasdra.

    \b
    Examples:
      source <(kubectl-wasdra completion bash)
      kubectl-wasdra completion zsh > ~/.zfunc/_kubectl-wasdra    # with fpath+=~/.zfunc in ~/.zshrc
      kubectl-wasdra completion fish > ~/.config/fish/completions/kubectl-wasdra.fish
    """
    from click.shell_completion import get_completion_class

    completion_class = get_completion_class(shell)
    if completion_class is None:  # pragma: no cover - click ships all three
        raise WasdraError(f"no completion for {shell}")
    script = completion_class(cli, {}, "kubectl-wasdra", "_KUBECTL_WASDRA_COMPLETE").source()
    write(script if script.endswith("\n") else script + "\n")
    return EXIT_OK


def kubectl_complete(argv: list[str] | None = None) -> None:
    """`kubectl_complete-wasdra`: kubectl (1.26+) runs it to complete `kubectl wasdra ...` — the plugin's words, then the
    word being completed; it prints one candidate per line (value, tab, help) and cobra's directive `:4` (no file
    completion) or `:0` (let the shell complete file names)."""
    from click.shell_completion import ShellComplete

    args = list(sys.argv[1:] if argv is None else argv)
    incomplete = args.pop() if args else ""
    items = ShellComplete(cli, {}, "kubectl-wasdra", "_KUBECTL_WASDRA_COMPLETE").get_completions(args, incomplete)
    lines = [item.value + (f"\t{item.help}" if item.help else "") for item in items if item.type == "plain"]
    files = any(item.type in ("file", "dir") for item in items)
    sys.stdout.write("".join(f"{line}\n" for line in lines) + (":0\n" if files else ":4\n"))
    sys.exit(EXIT_OK)


def _click_error_line(exc: click.ClickException) -> str:
    """A click usage error as `where: what — how`, on one line (click's own output spans four)."""
    what = " ".join(exc.format_message().split()).rstrip(".")
    what = what[:1].lower() + what[1:]
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return what
    where = ctx.command_path.removeprefix(ctx.find_root().command_path).strip()
    return f"{where + ': ' if where else ''}{what} — see '{ctx.command_path} --help'"


def _exit_on_sigterm() -> None:
    """SIGTERM ends the process through SystemExit (exit 143), so exit handlers run: the kubernetes client library
    removes the client certificate and key files it wrote only then."""
    import signal

    def terminate(signum: int, _frame: Any) -> None:
        sys.exit(128 + signum)

    with contextlib.suppress(ValueError):  # not the main thread (embedded use): leave signals alone
        signal.signal(signal.SIGTERM, terminate)


def main(argv: list[str] | None = None) -> None:
    """Entry point: one error boundary mapping exceptions to one line and an exit code."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    _exit_on_sigterm()
    from kubectl_wasdra.report.encoding import configure_stream

    configure_stream(sys.stdout)  # any terminal encoding: ASCII stand-ins instead of UnicodeEncodeError
    configure_stream(sys.stderr)
    try:
        code = cli.main(args=argv, prog_name=PROG, standalone_mode=False, complete_var="_KUBECTL_WASDRA_COMPLETE")
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.ClickException as exc:
        say_error(f"{PROG}: error: {_click_error_line(exc)}")
        code = EXIT_ERROR
    except (KeyboardInterrupt, click.exceptions.Abort):
        say_error(f"{PROG}: interrupted")
        code = EXIT_INTERRUPTED
    except WasdraError as exc:
        say_error(f"{PROG}: error: {exc}")
        code = EXIT_ERROR
    except BrokenPipeError:
        code = EXIT_ERROR
    except Exception as exc:  # the one boundary where anything unexpected becomes one line
        if debug:
            raise
        say_error(f"{PROG}: internal error: {type(exc).__name__}: {exc} (rerun with --debug for the traceback)")
        code = EXIT_ERROR
    sys.exit(code if isinstance(code, int) else EXIT_OK)
