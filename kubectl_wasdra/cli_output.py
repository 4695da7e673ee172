"""What the command line writes and returns: the exit codes, the program's name, colour and CI decisions (made once,
here), and the one way each report or error line reaches stdout or stderr in any terminal encoding."""

from __future__ import annotations

import os
import sys

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130
# kubectl sets KUBECTL_PATH when it runs a plugin: then usage reads "kubectl wasdra check ..."
PROG = "kubectl wasdra" if os.environ.get("KUBECTL_PATH") else "kubectl-wasdra"


COLOR_MODES = ("auto", "always", "never")


def use_color(stream: object = None, mode: str = "auto") -> bool:  # no typing import: `--version` loads this module
    """Whether text output is coloured, decided once, here: `--color always|never` first; then a non-empty NO_COLOR
    turns it off (no-color.org: an empty one does not count); then a FORCE_COLOR (force-color.org) or CLICOLOR_FORCE
    (bixense.com/clicolors) that is set and not "0" turns it on; otherwise only on a TTY that is not a dumb terminal."""
    if mode != "auto":
        return mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if any(os.environ.get(name, "") not in ("", "0") for name in ("FORCE_COLOR", "CLICOLOR_FORCE")):
        return True
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"


def on_ci() -> bool:
    """True in a CI job (GitHub Actions sets GITHUB_ACTIONS=true; most CI systems set CI), decided here only."""
    ci = os.environ.get("CI", "").strip().lower()
    return os.environ.get("GITHUB_ACTIONS") == "true" or ci not in ("", "0", "false", "no")


def ci_safe(text: str, output: str) -> str:
    """Human text output with workflow commands (`::error::` at a line start) neutralised when on CI; other formats
    (JSON, SARIF, JUnit, and -o github, whose commands are meant) unchanged."""
    if output != "text" or not on_ci():
        return text
    from kubectl_wasdra.report.safe import neutralise_workflow_commands

    return neutralise_workflow_commands(text)


def write_report(text: str, output: str) -> None:
    """Write a rendered report of format `output`: human text goes through ci_safe, so every text report of every
    command is neutralised for CI logs in this one place (not converted manifests or diffs: those are data)."""
    write(ci_safe(text, output), output)


def write(text: str, output: str = "text") -> None:
    """Write text of format `output` (-o) to stdout, as is when stdout's encoding has every character (else see
    report/encoding.py: JSON escapes, XML character references, ASCII glyphs)."""
    from kubectl_wasdra.report.encoding import encodable

    sys.stdout.write(encodable(text, getattr(sys.stdout, "encoding", None), output))
    sys.stdout.flush()


def say_error(line: str) -> None:
    """One line on stderr, in whatever encoding stderr has (click would re-encode an ASCII stream as UTF-8)."""
    from kubectl_wasdra.report.encoding import encodable

    sys.stderr.write(encodable(line, getattr(sys.stderr, "encoding", None)) + "\n")
    sys.stderr.flush()
