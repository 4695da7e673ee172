"""`convert`: rewrite manifests to the API versions a release serves (kubectl_wasdra/convert/). Declared here, imported
by cli.py's command table when it runs (or is listed)."""

from __future__ import annotations

import sys

import click

from kubectl_wasdra.cli_options import complete_releases
from kubectl_wasdra.cli_output import write


@click.command("convert")
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

    \b
    Exit codes (130 after Ctrl-C):
      0  converted, or nothing to convert
      1  an object could not be converted without information the file lacks (reported), or --diff found changes
      2  could not do the job: unreadable path, bad flag or value
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
