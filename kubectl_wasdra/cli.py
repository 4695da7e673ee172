"""Command line: declare flags, build options, call one function per command, render, exit.

Heavy imports (kubernetes, CEL, sched, dra, rich) happen inside the command that needs them.
Exit codes (DESIGN.md): 0 nothing at or above --fail-on; 1 findings / a group that does not fit; 2 the tool could not
do its job; 130 interrupted.
"""

from __future__ import annotations

import sys

import click

from kubectl_wasdra import __version__
from kubectl_wasdra.errors import WasdraError

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130
PROG = "kubectl-wasdra"


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(__version__, "--version", prog_name=PROG, message="%(prog)s %(version)s")
@click.option("--debug", is_flag=True, hidden=False, help="Show tracebacks for internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Lint and dry-run Kubernetes workload-aware scheduling and DRA manifests (Kubernetes 1.33-1.37).

    \b
    Examples:
      kubectl wasdra check deploy/ --k8s-version 1.37
      kubectl wasdra explain -f train.yaml --snapshot cluster.json
      kubectl wasdra explain-pending podgroup/train -n ml
      kubectl wasdra gates --k8s-version 1.37 --area dra
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def main(argv: list[str] | None = None) -> None:
    """Entry point: one error boundary mapping exceptions to one line and an exit code."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        code = cli.main(args=argv, prog_name=PROG, standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.UsageError as exc:
        exc.show()
        code = EXIT_ERROR
    except click.ClickException as exc:
        exc.show()
        code = EXIT_ERROR
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo(f"{PROG}: interrupted", err=True)
        code = EXIT_INTERRUPTED
    except WasdraError as exc:
        click.echo(f"{PROG}: error: {exc}", err=True)
        code = EXIT_ERROR
    except BrokenPipeError:
        code = EXIT_ERROR
    except Exception as exc:  # the one boundary where anything unexpected becomes one line
        if debug:
            raise
        click.echo(f"{PROG}: internal error: {type(exc).__name__}: {exc} (rerun with --debug for the traceback)", err=True)
        code = EXIT_ERROR
    sys.exit(code if isinstance(code, int) else EXIT_OK)
