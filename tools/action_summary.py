#!/usr/bin/env python3
"""The GitHub Action's job summary: `kubectl-wasdra check -o json` rendered as Markdown for $GITHUB_STEP_SUMMARY
(used when SARIF upload is off, beside `-o github` annotations).

    kubectl-wasdra check -R deploy/ -o json > report.json; python3 tools/action_summary.py report.json >> "$GITHUB_STEP_SUMMARY"
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MAX_ROWS = 200  # GitHub caps a step summary at 1 MiB; the annotations carry every finding anyway


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def summary(report: dict) -> str:
    """Markdown: a headline with the counts, then one table row per finding (file:line:col, rule, severity, message)."""
    counts = report.get("summary", {})
    findings = report.get("findings", [])
    lines = [f"### kubectl-wasdra check (Kubernetes {report.get('k8sVersion', '?')})", "",
             f"{counts.get('files', 0)} files, {counts.get('documents', 0)} documents: "
             f"{counts.get('errors', 0)} errors, {counts.get('warnings', 0)} warnings", ""]
    if not findings:
        return "\n".join([*lines, "No findings.", ""])
    lines += ["| where | rule | severity | message |", "|---|---|---|---|"]
    for finding in findings[:MAX_ROWS]:
        where = f"{finding.get('file')}:{finding.get('line')}:{finding.get('column')}"
        lines.append(f"| `{_cell(where)}` | {_cell(finding.get('rule'))} | {_cell(finding.get('severity'))} | "
                     f"{_cell(finding.get('message'))} |")
    if len(findings) > MAX_ROWS:
        lines.append(f"\n{len(findings) - MAX_ROWS} more findings: see the annotations")
    return "\n".join([*lines, ""])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: action_summary.py REPORT.json", file=sys.stderr)
        return 2
    try:
        report = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"### kubectl-wasdra check\n\nno report to summarise ({exc})")
        return 0
    sys.stdout.write(summary(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
