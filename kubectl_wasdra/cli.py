"""Command line: declare flags, build options, call one function per command, render, exit. `check` and `config` are
declared here; the other commands in cli_info, cli_explain, cli_capacity, cli_snapshot, cli_convert and cli_lsp
(CommandTable).

Heavy imports (kubernetes, CEL, sched, dra, rich) happen inside the command that needs them.
Exit codes (DESIGN.md): 0 nothing at or above --fail-on; 1 findings / a group that does not fit; 2 the tool could not
do its job; 130 interrupted.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any, Final

import click

from kubectl_wasdra import __version__
from kubectl_wasdra.cli_check import (
    baseline_files,
    check_exit,
    check_snapshot,
    fixed_report,
    rendered_inputs,
    repo_settings,
    resolve_auto,
    write_baseline,
)
from kubectl_wasdra.cli_config import ConfiguredCommand
from kubectl_wasdra.cli_options import (
    FILENAME_OPTION,
    NO_PREEMPTION_OPTION,
    RECURSIVE_OPTION,
    TEXT_OR_JSON_OPTION,
    CommonOptions,
    ProjectOptions,
    common_options,
    manifest_paths,
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


class CommandTable(click.Group):
    """The group whose commands other than `check` and `config` are declared in their own modules, imported only
    when they run, are listed (--help) or are completed: building a flag costs about 20 microseconds, and `check`
    uses 39 of the 106."""

    ELSEWHERE: Final = {"capacity": "cli_capacity", "completion": "cli_info", "convert": "cli_convert",
                        "explain": "cli_explain", "explain-pending": "cli_explain", "gates": "cli_info", "lsp": "cli_lsp",
                        "rules": "cli_info", "snapshot": "cli_snapshot", "version": "cli_info"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.ELSEWHERE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.ELSEWHERE:
            module = importlib.import_module(f"kubectl_wasdra.{self.ELSEWHERE[cmd_name]}")
            self.add_command(getattr(module, cmd_name.replace("-", "_") + "_command"), cmd_name)
        return self.commands.get(cmd_name)

    def all_commands(self) -> dict[str, click.Command]:
        """Every command by name, each imported (for tools and tests that walk them all)."""
        return {name: command for name in self.list_commands(click.Context(self))
                if (command := self.get_command(click.Context(self), name)) is not None}


@click.group(cls=CommandTable, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
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
      kubectl wasdra capacity -f job.yaml --snapshot cluster/
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
@click.option("-v", "--verbose", is_flag=True,
              help="List every file skipped as not a manifest (text and github output show only their count).")
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
                  simulate: bool = True, fix: bool = False, unsafe_fixes: bool = False, no_preemption: bool = False,
                  verbose: bool = False) -> int:
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

    \b
    Exit codes (130 after Ctrl-C):
      0  no finding at or above --fail-on (default error)
      1  findings at or above --fail-on
      2  could not do the job: unreadable path, bad flag or value, unreachable cluster
    """
    from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
    from kubectl_wasdra.report import render

    paths = manifest_paths(paths, filenames, recursive)
    rendered = rendered_inputs(paths, project)
    snapshot, left_out = check_snapshot(common) if common.snapshot or common.live else (None, ())
    common, cluster_notes = resolve_auto(common, snapshot)

    options = CheckOptions(paths=paths, releases=common.releases or (common.release,), feature_gates=common.feature_gates,
                           runtime_config=common.runtime_config, profile=common.profile, select=common.select,
                           namespace=common.namespace,
                           ignore=common.ignore, schema_locations=common.schema_locations,
                           stdin=sys.stdin.buffer if "-" in paths else None, jobs=jobs, snapshot=snapshot,
                           simulate=simulate, snapshot_problems=tuple(left_out), preemption=not no_preemption,
                           exclude=project.exclude + baseline_files(project), default_excludes=project.default_excludes,
                           rendered=rendered, per_file_ignores=project.per_file_ignores,
                           report_unused_ignores=project.report_unused_ignores, show_suppressed=project.show_suppressed,
                           baseline=None if project.write_baseline else project.baseline, cluster_notes=cluster_notes,
                           gitignore=project.gitignore, verbose=verbose, **repo_settings(paths, project))
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
    report, fix_line, refused = fixed_report(options, fix, unsafe_fixes) if counted else (run_check(options), "", 0)
    if len(options.releases) > 1 and common.output == "json":
        from kubectl_wasdra.lint.matrix import render_check_json
        write_report(render_check_json(report), "json")
    else:
        write_report(render(report, common.output, color=use_color(mode=common.color) and common.output == "text",
                            fail_on=common.fail_on),
                     common.output)
    if len(options.releases) > 1 and common.output == "text":
        from kubectl_wasdra.lint.matrix import build_matrix, render_matrix_text
        write_report(render_matrix_text(build_matrix(report)), common.output)
    if fix_line and common.output == "text":
        write(fix_line + "\n")
    return EXIT_ERROR if refused else check_exit(report, common.fail_on)


@cli.command("config", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--init", is_flag=True, help="Write a commented starter .wasdra.yaml at the repository root.")
@TEXT_OR_JSON_OPTION
@click.pass_context
def config_command(ctx: click.Context, init: bool, output: str) -> int:
    """The effective settings of `check` (flags > WASDRA_* environment > .wasdra.yaml > defaults) and where each
    one comes from. Takes check's flags, --config FILE, --no-config and --config-cluster NAME.

    --init writes a starter .wasdra.yaml; the feature gates and runtime config come from a cluster (--snapshot FILE
    with a header, or --live): without one, those the manifests need are written commented out, to be confirmed.

    \b
    Examples:
      kubectl wasdra config
      kubectl wasdra config --config-cluster prod -o json
      kubectl wasdra config --init

    \b
    Exit codes (130 after Ctrl-C):
      0  settings printed (--init: the starter file written)
      2  a bad config file or flag, or --init where the file exists
    """
    from kubectl_wasdra.cli_config import init_starter, render_effective

    check_ctx = check_command.make_context("check", list(ctx.args), parent=ctx)
    if init:
        return init_starter(check_ctx)
    write_report(render_effective(check_ctx, output), output)
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
    except click.exceptions.NoArgsIsHelpError as exc:  # bare `kubectl-wasdra`: the help, as kubectl prints it
        write(exc.ctx.get_help() + "\n")
        code = EXIT_OK
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
