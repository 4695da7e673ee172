"""SARIF 2.1.0 for GitHub code scanning: rules with ids and help, a results array (even when empty), and for every
result a repo-relative artifactLocation.uri and region.startLine >= 1.

Spec: OASIS SARIF 2.1.0 (sarif-schema-2.1.0.json); GitHub docs "SARIF support for code scanning".
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import quote

from kubectl_wasdra import __version__
from kubectl_wasdra.lint.pipeline import SKIPPED_RULE
from kubectl_wasdra.lint.registry import Rule, all_rules
from kubectl_wasdra.report.safe import json_safe

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckReport
    from kubectl_wasdra.lint.problem import Finding

SCHEMA_URI: Final = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI: Final = "https://github.com/kubectl-wasdra/kubectl-wasdra"
_LEVELS: Final = {"error": "error", "warning": "warning", "info": "note"}


def source_root(start: str | None = None) -> str:
    """The repository root (nearest directory upwards holding .git), or the working directory outside a repository:
    GitHub code scanning resolves result URIs against the repository root."""
    directory = Path(start or os.getcwd()).resolve()
    for candidate in (directory, *directory.parents):
        if (candidate / ".git").exists():
            return str(candidate)
    return str(directory)


def artifact_uri(file: str, root: str | None = None) -> str:
    """Repository-relative URI (POSIX separators, percent-encoded); stdin is "stdin"; paths outside the repository
    become absolute file:// URIs."""
    if file == "-":
        return "stdin"
    relative = repo_relative(file, root or source_root())
    return PurePath(os.path.realpath(os.path.abspath(file))).as_uri() if relative is None else quote(relative)


def repo_relative(file: str, root: str) -> str | None:
    """`file` relative to the repository root `root` with POSIX separators, or None when it lies outside."""
    relative = os.path.relpath(os.path.realpath(os.path.abspath(file)), root)
    return None if relative.startswith("..") else PurePath(relative).as_posix()


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    info = rule.info
    return {
        "id": info.id,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.summary},
        "help": {"text": rule.doc or info.summary, "markdown": rule.doc or info.summary},
        "defaultConfiguration": {"level": _LEVELS[str(info.severity)]},
        "properties": {"tags": [info.family], "status": info.status},
    }


def _result_marks(report: CheckReport) -> dict[int, dict[str, Any]]:
    """SARIF properties by finding identity: `suppressions` (kind inSource for annotations and comments, external for
    the config's per-file ignores) and, with a baseline, `baselineState` (new / unchanged)."""
    marks: dict[int, dict[str, Any]] = {}
    for s in report.suppressed:
        suppression = {"kind": s.kind, "status": "accepted"} | ({"justification": s.reason} if s.reason else {})
        marks[id(s.finding)] = {"suppressions": [suppression]}
    if report.baselined:
        for f in report.findings:
            marks[id(f)] = {"baselineState": "new"}
        for f in report.baselined:
            marks[id(f)] = {"baselineState": "unchanged"}
    return marks


def _skipped_notification(finding: Finding, root: str) -> dict[str, Any]:
    """A file skipped as not a manifest, as a SARIF tool execution notification (never a result)."""
    return {"level": "note", "descriptor": {"id": finding.rule}, "message": {"text": finding.message + (
        f" ({finding.hint})" if finding.hint else "")}, "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(finding.file, root), "uriBaseId": "%SRCROOT%"}}}]}


def render(report: CheckReport, *, color: bool = False, fail_on: str = "error") -> str:
    """The SARIF log as indented JSON."""
    from kubectl_wasdra.cluster.gaps import unread_kinds
    from kubectl_wasdra.lint.baseline import SARIF_KEY, fingerprint

    rules = all_rules()
    index = {r.info.id: i for i, r in enumerate(rules)}
    root = source_root()
    results = []
    marks = _result_marks(report)
    skipped = report.skipped   # not results (each would become a code-scanning alert): tool notifications
    for f in (*report.findings, *report.baselined, *(s.finding for s in report.suppressed)):
        if f.rule == SKIPPED_RULE:
            continue
        text = f"{f.path}: {f.message}" if f.path else f.message
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "level": _LEVELS[str(f.severity)],
            "message": {"text": text + (f" ({f.hint})" if f.hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(f.file, root), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": max(1, f.line), "startColumn": max(1, f.column)},
            }}],
        }
        if f.rule in index:
            result["ruleIndex"] = index[f.rule]
        result["partialFingerprints"] = {SARIF_KEY: fingerprint(f)}
        result.update(marks.get(id(f), {}))
        results.append(result)
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "kubectl-wasdra", "version": __version__, "semanticVersion": __version__,
                                "informationUri": INFORMATION_URI, "rules": [_rule_descriptor(r) for r in rules]}},
            "results": results,
            "columnKind": "unicodeCodePoints",
            "properties": {"k8sVersion": report.k8s_version},
        }],
    }
    notifications = [
        {"level": "error" if kind in unread_kinds(report.gaps) else "note", "descriptor": {"id": "cluster-read-gap"},
         "message": {"text": f"not read from the cluster: {kind}: {why}"}}
        for kind, why in sorted(report.gaps.items())]   # what the cluster read could not read
    notifications += [_skipped_notification(f, root) for f in skipped]
    if notifications:
        log["runs"][0]["invocations"] = [{"executionSuccessful": not unread_kinds(report.gaps),
                                          "toolExecutionNotifications": notifications}]
    return json_safe(json.dumps(log, indent=2, ensure_ascii=False)) + "\n"
