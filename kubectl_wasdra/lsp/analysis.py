"""`check` over the open files of a workspace, again after every edit, reusing what the edit did not touch.

The steps are the check pipeline's own (lint/pipeline.py `_run_check`) for `check OPEN-FILES...` with the repository
as context: load findings, document rules, set rules over the open files' documents plus the context the repository
index finds for them (lint/repo/context.py: findings the open files cause in context files are reported on them),
releases merged, then the project settings (suppressions, per-file ignores, baseline). The document rules are cached
by document text, so an unchanged document keeps its findings (moved by as many lines as the edit added above it) and
a one-object edit re-checks one object; the set rules run over the edited files and their context, never the whole
folder.

The files that reach the open ones only by naming a hub they define (lsp/dependents.py: the DeviceClass all claims
name) are not in that context: what they add to or take from the open files' findings is found apart, a chunk per
`step()`, after `run()` has returned the edited files' own findings, and only when what they can read of the hubs
changed (or they did, on disk); meanwhile the last such delta is applied, moved with the documents it sits in.
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
from kubectl_wasdra.lsp.dependents import Delta, chunks, fingerprint
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
        self._near: tuple[Document, ...] = ()
        self._local: tuple[int, list[list[Finding]]] | None = None   # (generation, set findings without dependents)
        self._deps: _Dependents | None = None   # the hubs' dependents and what they add and take, chunk by chunk
        self.dependents_checked = 0     # dependent files checked so far (tests and the bench read it)

    def run(self) -> dict[str, list[Finding]]:
        """Every open file's findings, sorted as `check` sorts them (files without findings are absent)."""
        options = self.settings.options
        workspace = self.workspace
        documents = workspace.documents()
        context = workspace.context()
        kinds = {(document.group, document.kind) for document in (*documents, *context)}
        # dependents name a hub, so they are workloads: every family runs, as over the whole folder
        cluster = options.snapshot is not None or bool(workspace.dependents)
        rules = tuple(r for r in rules_for(kinds, cluster=cluster) if r.info.id in self.selected)
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

        local = [set_findings_with_context(documents, context, rules, ctx) for ctx in self.contexts]
        self._near, self._local = context, (workspace.generation, local)
        for number, found in enumerate(self._with_dependents(local)):
            per_release[number].extend(found)
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

    def _with_dependents(self, local: list[list[Finding]]) -> list[list[Finding]]:
        """The set findings with what the dependents add and take: each chunk's delta, found again for the chunks
        that read a hub whose read part changed (`step`); meanwhile the last deltas, moved with their documents."""
        workspace = self.workspace
        if not workspace.dependents:
            if self._deps is not None:
                self._deps = None
                workspace.keep_read(set())   # no hub open any more: its dependents' packed files go too
            return local
        hubs = dict(fingerprint(workspace.documents(), workspace.hubs, self.settings.options.snapshot is not None))
        setting = (self._rules, tuple(workspace.files()), workspace.dependents, workspace.disk_generation)
        deps = self._deps
        if deps is None or deps.setting != setting:   # other files open, other dependents: every chunk again
            shown = [delta for delta, _ in deps.parts.values()] + deps.shown if deps is not None else []
            self._deps = deps = _Dependents(setting, hubs, shown=shown)
        elif deps.hubs != hubs:
            changed = {key for key in hubs.keys() | deps.hubs.keys() if hubs.get(key) != deps.hubs.get(key)}
            deps.hubs = hubs
            deps.redo(self._referrers(changed))
        result = []
        for number, found in enumerate(local):
            for chunk, (delta, _) in sorted(deps.parts.items()):
                found, complete = delta.apply(number, found, workspace.entries)
                if not complete:   # a finding's field is gone: that chunk is checked again
                    deps.redo_chunk(chunk)
            for delta in deps.shown if deps.pending else ():
                found = delta.apply(number, found, workspace.entries)[0]
            result.append(_distinct(found))
        return result

    def _referrers(self, keys: set[str]) -> set[str]:
        index = self.workspace.index
        return {path for key in keys for path in index.referrers(key)} if index is not None else set()

    @property
    def pending(self) -> bool:
        """Whether dependents remain to be checked (`step`)."""
        return self._deps is not None and self._deps.pending

    @property
    def stale(self) -> bool:
        """Whether the workspace changed since the last run() (then step() waits for the next)."""
        return self._local is None or self._local[0] != self.workspace.generation

    def step(self) -> bool:
        """Check the next chunk of dependents; True when that was the last one (run() again for the findings). Does
        nothing while the workspace changed since the last run()."""
        deps, workspace = self._deps, self.workspace
        if deps is None or not deps.pending or self._local is None or self.stale:
            return False
        from kubectl_wasdra.lint.repo.context import set_findings_with_context

        if deps.chunks is None:   # grouped in a step of its own, not in run(): no edit waits for it
            index = workspace.index
            assert index is not None
            deps.chunks = chunks(index, workspace.dependents, workspace.hubs)
            deps.todo = list(range(len(deps.chunks)))
            return False
        number = deps.todo.pop(0)
        files = workspace.dependent_files(deps.chunks[number])
        documents, context = workspace.documents(), (*self._near, *workspace.read(files))
        delta = Delta.empty(len(self.contexts))
        for release, ctx in enumerate(self.contexts):
            together = set_findings_with_context(documents, context, self._rules, ctx)
            delta.record(release, self._local[1][release], together, workspace.entries)
        deps.parts[number] = (delta, frozenset(files))
        self.dependents_checked += len(deps.chunks[number])
        if deps.pending:
            return False
        deps.shown = []
        workspace.keep_read({path for _, files in deps.parts.values() for path in files})
        return True

    def settle(self) -> dict[str, list[Finding]]:
        """Every open file's findings with all dependents checked (what `check` reports): run() and every step."""
        found = self.run()
        while self.pending:
            if self.stale or self.step():
                found = self.run()
        return found

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


@dataclasses.dataclass
class _Dependents:
    """The hubs' dependents of one `setting` (rules, open files, dependents, disk state) in chunks, and each checked
    chunk's delta with the files it read; `hubs` is the part of each hub they read, as last checked."""

    setting: object
    hubs: dict[str, tuple[bytes, ...]]
    chunks: list[list[str]] | None = None   # None: not grouped yet (every chunk to check)
    todo: list[int] = dataclasses.field(default_factory=list)
    parts: dict[int, tuple[Delta, frozenset[str]]] = dataclasses.field(default_factory=dict)
    shown: list[Delta] = dataclasses.field(default_factory=list)   # the last setting's deltas, shown meanwhile

    @property
    def pending(self) -> bool:
        return self.chunks is None or bool(self.todo)

    def redo(self, read_by: set[str]) -> None:
        """Check again every checked chunk that read one of the files `read_by` (the changed hubs' referrers)."""
        for chunk, (_, files) in self.parts.items():
            if files & read_by:
                self.redo_chunk(chunk)

    def redo_chunk(self, chunk: int) -> None:
        if chunk not in self.todo:
            self.todo.append(chunk)


def _distinct(findings: list[Finding]) -> list[Finding]:
    """Findings without repeats (two chunks may find one finding)."""
    from kubectl_wasdra.lsp.dependents import identity

    seen: set[tuple[object, ...]] = set()
    kept = []
    for finding in findings:
        key = (identity(finding), finding.line, finding.column)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def _moved(findings: list[Finding], lines: int) -> list[Finding]:
    """Findings of an unchanged document that now starts `lines` further down."""
    if not lines:
        return findings
    return [dataclasses.replace(f, line=f.line + lines) for f in findings]
