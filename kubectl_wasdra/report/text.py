"""Human output of `check`: findings grouped by file, aligned columns, a summary line; colour (rich) only when asked.

The CLI decides colour once (a TTY and no NO_COLOR); rich is imported only then.
"""

from __future__ import annotations

import textwrap
from itertools import groupby
from typing import TYPE_CHECKING, Final

from kubectl_wasdra.report.safe import printable

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckReport
    from kubectl_wasdra.lint.problem import Finding

WIDTH: Final = 118
_STYLES: Final = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _rows(report: CheckReport) -> list[tuple[str, list[tuple[Finding, str, list[str], int]]]]:
    """Per file (stdin named so): (finding, head, continuation lines, how many of those are the hint), columns aligned
    over the report."""
    from kubectl_wasdra.lint.project_report import visible_findings

    findings = visible_findings(report)
    pos_w = max((len(f"{f.line}:{f.column}") for f in findings), default=0)
    id_w = max((len(f.rule) for f in findings), default=0)
    name_w = max((len(f.name) for f in findings), default=0)
    indent = 2 + pos_w + 2 + 7 + 2 + id_w + 1 + name_w + 2
    grouped = []
    for file, group in groupby(findings, key=lambda f: printable(f.file)):
        rows = []
        for f in group:
            head = f"  {f'{f.line}:{f.column}':>{pos_w}}  {f.severity!s:<7}  {f.rule:<{id_w}} {f.name:<{name_w}}  "
            body = printable(f"{f.path}: {f.message}" if f.path else f.message)
            wrapped = textwrap.wrap(body, max(40, WIDTH - indent)) or [""]
            hint = textwrap.wrap(printable(f.hint), max(40, WIDTH - indent)) if f.hint else []
            rows.append((f, head + wrapped[0], [" " * indent + line for line in wrapped[1:] + hint], len(hint)))
        rendered = report.rendered_by.get(file)
        grouped.append(("stdin" if file == "-" else file + (f" (lines of `{rendered}`)" if rendered else ""), rows))
    return grouped


def render(report: CheckReport, *, color: bool = False, fail_on: str = "error") -> str:
    """Plain text, or ANSI-coloured text when `color`. Files skipped as not manifests are one count line before the
    summary unless the report is verbose (-v)."""
    skipped = "" if report.verbose else report.skipped_line()
    if skipped:
        report = report.without_skipped()
    grouped = _rows(report)
    if color:
        return _render_rich(report, grouped, skipped)
    lines: list[str] = [*cluster_lines(report), *gap_lines(report)]
    for file, rows in grouped:
        lines.append(file)
        for _, head, rest, _ in rows:
            lines.append(head)
            lines.extend(rest)
    if lines:
        lines.append("")
    lines.extend([skipped] if skipped else [])
    lines.append(report.summary.line())
    return "\n".join(lines) + "\n"


def cluster_lines(report: CheckReport) -> list[str]:
    """Where the release, feature gates and API versions judged against came from, when a cluster named them."""
    return [printable(f"cluster: {note}") for note in report.cluster_notes]


def gap_lines(report: CheckReport) -> list[str]:
    """One line per kind the cluster read could not read that a verdict needs (cluster/gaps.py), first in the report."""
    if not report.gaps:
        return []
    from kubectl_wasdra.cluster.gaps import unread_kinds
    from kubectl_wasdra.lint.cluster_needs import skipped_rules

    skipped = skipped_rules(report.gaps)
    lines = []
    for kind, why in unread_kinds(report.gaps).items():
        rules = [rule for rule, kinds in skipped.items() if kind in kinds]
        what = f"skipped: {', '.join(rules)}" if rules else "no check needed it"
        lines.append(printable(f"not read from the cluster: {kind}: {why} — {what}"))
    return lines


def _render_rich(report: CheckReport, grouped: list, skipped: str) -> str:
    import io

    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=WIDTH + 10, soft_wrap=True,
                      highlight=False)
    for line in cluster_lines(report):
        console.print(Text(line, style="dim"))
    for line in gap_lines(report):
        console.print(Text(line, style="bold red"))
    for file, rows in grouped:
        console.print(Text(file, style="bold underline"))
        for finding, head, rest, hint_lines in rows:
            text = Text(head)
            text.highlight_words([f" {finding.severity!s} "], style=_STYLES[str(finding.severity)])
            text.highlight_words([finding.rule], style="bold")
            console.print(text)
            for number, line in enumerate(rest):
                console.print(Text(line, style="dim" if number >= len(rest) - hint_lines else ""))
    summary = report.summary
    style = "bold red" if summary.errors else "yellow" if summary.warnings else "green"
    if grouped:
        console.print()
    if skipped:
        console.print(Text(skipped, style="dim"))
    console.print(Text(summary.line(), style=style))
    return buffer.getvalue()
