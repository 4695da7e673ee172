"""Findings as LSP diagnostics: the range over the key or value `check` points at, the severity, the rule ID with a link
to its documentation, and the other places a cross-object finding names as related information."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Final
from urllib.parse import unquote, urlparse

from lsprotocol import types

from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.lsp.ranges import finding_range

SOURCE: Final = "kubectl-wasdra"
RULES_URL: Final = "https://github.com/kubectl-wasdra/kubectl-wasdra/blob/main/docs/rules.md#{anchor}"
_SEVERITY: Final = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
                    Severity.INFO: types.DiagnosticSeverity.Information}

LinesOf = Callable[[str], Sequence[str]]   # a file's lines (an editor's buffer, else the disk's)
ToClient = Callable[[Sequence[str], types.Range], types.Range]   # characters -> the client's position encoding


def path_of(uri: str) -> str:
    """The file system path of a file: URI."""
    return os.path.abspath(unquote(urlparse(uri).path))


def uri_of(path: str) -> str:
    from pathlib import Path

    return Path(path).absolute().as_uri()


def rule_url(rule: str) -> str:
    """Where a rule's documentation is (docs/rules.md, made from `kubectl wasdra rules`)."""
    return RULES_URL.format(anchor=rule.lower())


def to_range(lines: Sequence[str], line: int, column: int, to_client: ToClient) -> types.Range:
    (start_line, start), (end_line, end) = finding_range(lines, line, column)
    chars = types.Range(types.Position(start_line, start), types.Position(end_line, end))
    return to_client(lines, chars)


def to_diagnostic(finding: Finding, lines_of: LinesOf, to_client: ToClient) -> types.Diagnostic:
    """One finding as a diagnostic of its file; `data` keeps what code actions need (rule, path, hint)."""
    lines = lines_of(finding.file)
    message = finding.message + (f"\n{finding.hint}" if finding.hint else "")
    return types.Diagnostic(
        range=to_range(lines, finding.line, finding.column, to_client), message=message,
        severity=_SEVERITY[finding.severity], code=finding.rule,
        code_description=types.CodeDescription(href=rule_url(finding.rule)), source=SOURCE,
        related_information=_related(finding, lines_of, to_client) or None,
        data={"rule": finding.rule, "path": finding.path, "line": finding.line, "column": finding.column,
              "message": finding.message, "hint": finding.hint})


def _related(finding: Finding, lines_of: LinesOf, to_client: ToClient) -> list[types.DiagnosticRelatedInformation]:
    """The other objects a cross-object finding is about (the other copies of an object, the gang's other members
    and its group), at the field each one is about."""
    from kubectl_wasdra.lint.pipeline import document_label

    related = []
    for document, path in finding.related:
        line, column = document.position(tuple(path))
        file = os.path.abspath(document.file)
        location = types.Location(uri_of(file), to_range(lines_of(file), line, column, to_client))
        related.append(types.DiagnosticRelatedInformation(location, document_label(document)))
    return related
