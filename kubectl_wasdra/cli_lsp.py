"""`kubectl wasdra lsp`: the language server on stdio. Declared here, imported by cli.py's command table when it
runs (or is listed), so `check` never loads the server or pygls."""

from __future__ import annotations

import click

from kubectl_wasdra.cli_output import EXIT_OK
from kubectl_wasdra.errors import UsageError


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default and only transport; editors pass it).")
def lsp_command(stdio: bool) -> int:
    """Language server on stdio: check's findings as you type, fixes as code actions, field docs on hover.

    Settings come from .wasdra.yaml (found from the workspace folder upward, as check finds it) and from the
    editor's `wasdra` settings (k8sVersion, featureGates, runtimeConfig, snapshot ...), which win.

    \b
    Examples:
      kubectl wasdra lsp                # what an editor runs; see docs/lsp.md for VS Code, Neovim and Helix
      kubectl-wasdra lsp --stdio

    \b
    Exit codes (130 after Ctrl-C):
      0  the editor shut the server down
      2  the language server's packages are not installed (pip install 'kubectl-wasdra[lsp]')
    """
    try:
        from kubectl_wasdra.lsp.server import serve
    except ImportError as exc:
        package = (exc.name or "pygls").partition(".")[0]
        raise UsageError(f"the language server needs {package}, which is not installed", where="lsp",
                         hint="pip install 'kubectl-wasdra[lsp]'") from None
    serve()
    return EXIT_OK
