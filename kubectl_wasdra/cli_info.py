"""The informational commands: the feature-gate matrix, the rule catalogue, the version and shell completion scripts.
Declared here, imported by cli.py's command table when one of them runs (or is listed)."""

from __future__ import annotations

import click

from kubectl_wasdra.cli_options import TEXT_OR_JSON_OPTION, complete_releases, complete_rules
from kubectl_wasdra.cli_output import EXIT_OK, write, write_report
from kubectl_wasdra.errors import WasdraError


@click.command("gates")
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

    \b
    Exit codes (130 after Ctrl-C):
      0  printed
      2  a bad flag or value (unknown release or area)
    """
    from kubectl_wasdra.catalog.releases import NEWEST, Release
    from kubectl_wasdra.report.gates import render_diff, render_table

    if diff:
        write_report(render_diff(Release.parse(diff[0]), Release.parse(diff[1]), area, output), output)
    else:
        write_report(render_table(Release.parse(k8s_version) if k8s_version else NEWEST, area, output), output)
    return EXIT_OK


@click.command("rules")
@click.argument("rule_id", required=False, metavar="[ID|NAME|FAMILY]", shell_complete=complete_rules)
@TEXT_OR_JSON_OPTION
def rules_command(rule_id: str | None, output: str) -> int:
    """The rule catalogue: IDs, names, severities and each rule's documentation.

    \b
    Examples:
      kubectl wasdra rules
      kubectl wasdra rules SCHEMA002
      kubectl wasdra rules GATE -o json

    \b
    Exit codes (130 after Ctrl-C):
      0  printed
      2  a bad flag or value (unknown rule ID)
    """
    from kubectl_wasdra.report.catalog import render_rules

    write_report(render_rules(rule_id, output), output)
    return EXIT_OK


@click.command("version")
@TEXT_OR_JSON_OPTION
def version_command(output: str) -> int:
    """The tool's version, the Kubernetes releases it supports and the versions of its schema and gate data.

    \b
    Examples:
      kubectl wasdra version
      kubectl wasdra version -o json

    \b
    Exit codes (130 after Ctrl-C):
      0  printed
      2  a bad flag or value
    """
    from kubectl_wasdra.report.version import render_version

    write_report(render_version(output), output)
    return EXIT_OK


@click.command("completion")
@click.argument("shell", type=click.Choice(("bash", "zsh", "fish")))
def completion_command(shell: str) -> int:
    """Print a shell completion script for kubectl-wasdra.

    \b
    Examples:
      source <(kubectl-wasdra completion bash)
      kubectl-wasdra completion zsh > ~/.zfunc/_kubectl-wasdra    # with fpath+=~/.zfunc in ~/.zshrc
      kubectl-wasdra completion fish > ~/.config/fish/completions/kubectl-wasdra.fish

    \b
    Exit codes (130 after Ctrl-C):
      0  printed
      2  a bad flag or value (unknown shell)
    """
    from click.shell_completion import get_completion_class

    completion_class = get_completion_class(shell)
    if completion_class is None:  # pragma: no cover - click ships all three
        raise WasdraError(f"no completion for {shell}")
    from kubectl_wasdra.cli import cli

    script = completion_class(cli, {}, "kubectl-wasdra", "_KUBECTL_WASDRA_COMPLETE").source()
    write(script if script.endswith("\n") else script + "\n")
    return EXIT_OK
