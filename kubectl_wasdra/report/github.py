"""GitHub Actions workflow commands: one `::error file=..,line=..,col=..::message` annotation per finding, the file
relative to the repository root so that the annotation lands on the file in the pull request.

Escaping follows the Actions toolkit (@actions/core command.ts): data escapes %, CR, LF; properties also : and ,.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kubectl_wasdra.report.safe import printable

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckReport

_LEVELS: Final = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: CheckReport, *, color: bool = False, fail_on: str = "error") -> str:
    """Annotation lines, then the summary line. Files are named relative to the repository root (annotations attach
    to files by that path), else as given."""
    from kubectl_wasdra.report.sarif import repo_relative, source_root

    root = source_root()
    skipped = "" if report.verbose else report.skipped_line()   # a ::notice per skipped file only with -v
    if skipped:
        report = report.without_skipped()
    lines = []
    for f in report.findings:
        message = f"{f.path}: {f.message}" if f.path else f.message
        if f.hint:
            message += f"\n{f.hint}"
        title = _property(f"{f.rule} {f.name}")
        file = f.file if f.file == "-" else repo_relative(f.file, root) or f.file
        lines.append(f"::{_LEVELS[str(f.severity)]} file={_property(file)},line={f.line},col={f.column},"
                     f"title={title}::{_data(message)}")
    lines.extend([skipped] if skipped else [])
    lines.append(report.summary.line())
    return "\n".join(lines) + "\n"
