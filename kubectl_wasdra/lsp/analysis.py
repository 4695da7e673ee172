"""`check` over the open files of a workspace, again after every edit, reusing what the edit did not touch.

The steps are the check pipeline's own (lint/pipeline.py `_run_check`) for `check OPEN-FILES...` with the repository
as context: load findings, document rules, set rules over the open files' documents plus the context the repository
index finds for them (lint/repo/context.py: findings the open files cause in context files are reported on them),
releases merged, then the project settings (suppressions, per-file ignores, baseline). The document rules are cached
by document text, so an unchanged document keeps its findings (moved by as many lines as the edit added above it) and
a one-object edit re-checks one object; the set rules run over the edited files and their context, never the whole
folder.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping, Sequence

from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import (
    INTERNAL_ERROR_HINT,
    CheckReport,
    document_findings,
    finding_order,
    load_findings,
    merge_releases,
)
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.lint.registry import Rule, rules_for, select_rules
from kubectl_wasdra.load import Document
from kubectl_wasdra.lsp.settings import Settings
from kubectl_wasdra.lsp.workspace import FileEntry, Workspace

# (context number, document index, List item, document text) -> (the text's first line, its findings)
_Key = tuple[int, int, int | None, str]


class Analysis:
    """The findings of one workspace under one set of settings; `run()` after every change."""

    def __init__(self, settings: Settings, workspace: Workspace) -> None:
        self.settings = settings
        self.workspace = workspace
        options = settings.options
        self.selected = select_rules(options.select, options.ignore)
        self.contexts: tuple[CheckContext, ...] = tuple(options.context(release) for release in options.releases)
        for ctx in self.contexts:
            _ = ctx.gates  # bad feature gates fail here, as in check
        self._rules: tuple[Rule, ...] = ()
        self._by_file: dict[str, tuple[FileEntry, list[list[Finding]]]] = {}
        self._by_text: dict[str, dict[_Key, tuple[int, list[Finding]]]] = {}
        self.report: CheckReport | None = None

    def run(self) -> dict[str, list[Finding]]:
        """Every open file's findings, sorted as `check` sorts them (files without findings are absent)."""
        options = self.settings.options
        workspace = self.workspace
        documents = workspace.documents()
        context = workspace.context()
        kinds = {(document.group, document.kind) for document in (*documents, *context)}
        rules = tuple(r for r in rules_for(kinds, cluster=options.snapshot is not None) if r.info.id in self.selected)
        if rules != self._rules:
            self._rules, self._by_file, self._by_text = rules, {}, {}
        per_release: list[list[Finding]] = [[] for _ in self.contexts]
        problems = []
        for path in workspace.files():
            entry = workspace.entry(path)
            assert entry is not None
            problems.extend(entry.problems)
            for number, found in enumerate(self._file_findings(entry)):
                per_release[number].extend(found)
        self._forget_closed(workspace.files())
        from kubectl_wasdra.lint.repo.context import set_findings_with_context

        for number, ctx in enumerate(self.contexts):
            per_release[number].extend(set_findings_with_context(documents, context, rules, ctx))
        findings = load_findings([*problems, *options.snapshot_problems], rules, options.profile)
        findings.extend(merge_releases(per_release, options.releases))
        internal = any(f.hint == INTERNAL_ERROR_HINT for f in findings)
        report = CheckReport(tuple(options.releases), tuple(sorted(set(findings), key=finding_order)), documents,
                             tuple(workspace.files()), fatal=internal)
        from kubectl_wasdra.lint.project_report import apply_project_settings

        self.report = apply_project_settings(report, options, self.selected)
        by_file: dict[str, list[Finding]] = defaultdict(list)
        for finding in self.report.findings:
            by_file[finding.file].append(finding)
        return dict(by_file)

    def _file_findings(self, entry: FileEntry) -> list[list[Finding]]:
        """The document rules' findings of one file, per context: the same as last time for the same entry, else
        reused for each document whose text did not change, and computed in one go for the others."""
        known = self._by_file.get(entry.path)
        if known is not None and known[0] is entry:
            return known[1]
        documents = entry.documents
        source = documents[0].source if documents and entry.text is not None else None  # an editor's file
        segments = source.segments() if source is not None else None   # (files on disk change rarely: not kept)
        if segments is None or any(d.source is not source or d.index >= len(segments) for d in documents):
            result = [document_findings(list(documents), self._rules, ctx) for ctx in self.contexts]
            self._by_file[entry.path], self._by_text[entry.path] = (entry, result), {}
            return result
        before = self._by_text.get(entry.path, {})
        now: dict[_Key, tuple[int, list[Finding]]] = {}
        result = [self._contextual(number, ctx, documents, segments, before, now)
                  for number, ctx in enumerate(self.contexts)]
        self._by_file[entry.path] = (entry, result)
        self._by_text[entry.path] = now
        return result

    def _contextual(self, number: int, ctx: CheckContext, documents: Sequence[Document],
                    segments: Sequence[tuple[str, int]], before: Mapping[_Key, tuple[int, list[Finding]]],
                    now: dict[_Key, tuple[int, list[Finding]]]) -> list[Finding]:
        """One context's findings of one file's documents: cached ones moved to where their text now starts, the
        others checked together (one call: the rule list is set up once) and told apart by their lines."""
        found: list[Finding] = []
        fresh: list[tuple[Document, _Key]] = []
        for document in documents:
            text, offset = segments[document.index]
            key = (number, document.index, document.item, text)
            cached = before.get(key)
            if cached is None:
                fresh.append((document, key))
            elif key not in now:
                now[key] = (offset, _moved(cached[1], offset - cached[0]))
                found.extend(now[key][1])
        if fresh:
            checked = document_findings([document for document, _ in fresh], self._rules, ctx)
            for document, key in fresh:
                text, offset = segments[document.index]
                last = max(offset + text.count("\n"), offset + 1)
                now[key] = (offset, [f for f in checked if offset < f.line <= last])
            found.extend(checked)
        return found

    def _forget_closed(self, files: Sequence[str]) -> None:
        gone = set(self._by_file) - set(files)
        for path in gone:
            self._by_file.pop(path, None)
            self._by_text.pop(path, None)


def _moved(findings: list[Finding], lines: int) -> list[Finding]:
    """Findings of an unchanged document that now starts `lines` further down."""
    if not lines:
        return findings
    return [dataclasses.replace(f, line=f.line + lines) for f in findings]
