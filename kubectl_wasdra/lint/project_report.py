"""What the project settings do to a check: inputs less the excluded files plus rendered Kustomize/Helm output, and
findings less those suppressed (annotations, comments, per-file ignores) or already in the baseline."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.lint.profiles import severity_for
from kubectl_wasdra.load import LoadResult, load_paths

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckOptions, CheckReport
    from kubectl_wasdra.lint.suppress import Suppressed, SuppressionProblem
    from kubectl_wasdra.load import Document
    from kubectl_wasdra.load.excludes import Excludes


def excludes_of(options: CheckOptions) -> Excludes:
    """The files left out: the default excludes (unless turned off) and the configured ones."""
    from kubectl_wasdra.load.default_excludes import DEFAULT_EXCLUDES
    from kubectl_wasdra.load.excludes import Excludes

    return Excludes.of(DEFAULT_EXCLUDES if options.default_excludes else (), options.exclude)


def exclude_predicate(options: CheckOptions) -> Callable[[str], bool] | None:
    """Whether a file is left out, None when nothing is."""
    excludes = excludes_of(options)
    return excludes.matches if excludes.patterns else None


def load_inputs(options: CheckOptions) -> LoadResult:
    """The paths' documents (excluded files left out) followed by the documents of each rendered input."""
    loaded = load_paths(options.paths, stdin=options.stdin, max_bytes=options.max_bytes,
                        exclude=exclude_predicate(options), gitignore=options.gitignore) \
        if options.paths else LoadResult((), (), ())
    documents, problems, files = list(loaded.documents), list(loaded.problems), list(loaded.files)
    for rendered in options.rendered:
        from kubectl_wasdra.load.render import load_rendered

        rendered_documents, rendered_problems = load_rendered(rendered)
        documents += rendered_documents
        problems += rendered_problems
        files += [file for file in dict.fromkeys(d.file for d in rendered_documents) if file not in files]
    return LoadResult(tuple(documents), tuple(problems), tuple(files))


def apply_project_settings(report: CheckReport, options: CheckOptions, selected: Iterable[str]) -> CheckReport:
    """The report with suppressed and baselined findings set aside and the CONF findings added."""
    from kubectl_wasdra.lint.pipeline import document_label, finding_order

    findings: list[Finding] = list(report.findings)
    suppressed: tuple[Suppressed, ...] = ()
    if options.per_file_ignores or _has_directives(report.documents):
        from kubectl_wasdra.lint.suppress import apply_suppressions

        chosen = frozenset(selected)
        result = apply_suppressions(report.findings, report.documents, document_label, options.per_file_ignores,
                                    report_unused=options.report_unused_ignores, selected=chosen)
        suppressed = result.suppressed
        findings = sorted(list(result.findings) + _conf_findings(result.problems, chosen, options.profile),
                          key=finding_order)
    baselined: list[Finding] = []
    if options.baseline is not None:
        from kubectl_wasdra.lint.baseline import read_baseline, split_by_baseline

        findings, baselined = split_by_baseline(findings, read_baseline(options.baseline))
    rendered_by = {d.file: r.label for r in options.rendered for d in report.documents
                   if d.source is not None and d.source.text is r.text}
    return dataclasses.replace(report, findings=tuple(findings), suppressed=suppressed, baselined=tuple(baselined),
                               show_suppressed=options.show_suppressed, rendered_by=MappingProxyType(rendered_by),
                               verbose=options.verbose)


def _has_directives(documents: Iterable[Document]) -> bool:
    """Whether any document may carry a suppression (the word "wasdra" in its file), so lint/suppress.py loads only
    for runs that need it."""
    texts = {id(d.source): d.source.text for d in documents if d.source is not None}
    return any("wasdra" in text for text in texts.values())


def _conf_findings(problems: Iterable[SuppressionProblem], selected: frozenset[str], profile: str) -> list[Finding]:
    from kubectl_wasdra.lint.registry import all_rules

    owners = [r for r in all_rules() if r.scope == "suppression" and r.info.id in selected]
    findings = []
    for problem in problems:
        owner = next((r for r in owners if r.check(problem)), None)
        if owner is not None:
            findings.append(Finding(problem.file, problem.line, problem.column, owner.info.id, owner.info.name,
                                    severity_for(owner.info, profile), problem.path, problem.message, problem.hint,
                                    problem.object))
    return findings


def findings_as_dicts(report: CheckReport) -> list[dict[str, Any]]:
    """JSON findings: the kept ones, plus (with --show-suppressed) the suppressed ones with a "suppressed" entry; a
    finding in rendered output names its renderer under "renderedBy"."""
    from kubectl_wasdra.lint.pipeline import finding_order

    rows: list[tuple[Finding, dict[str, Any]]] = [(f, f.as_dict()) for f in report.findings]
    if report.show_suppressed:
        rows += [(s.finding, s.finding.as_dict() | {"suppressed": {"kind": s.kind, "reason": s.reason}})
                 for s in report.suppressed]
    rows.sort(key=lambda row: finding_order(row[0]))
    for finding, row in rows:
        if finding.file in report.rendered_by:
            row["renderedBy"] = report.rendered_by[finding.file]
    return [row for _, row in rows]


def visible_findings(report: CheckReport) -> list[Finding]:
    """The findings a text report lists: the kept ones, plus (with --show-suppressed) the suppressed ones, their
    message marked "[suppressed: reason]"."""
    from kubectl_wasdra.lint.pipeline import finding_order

    if not report.show_suppressed or not report.suppressed:
        return list(report.findings)
    marked = []
    for s in report.suppressed:
        mark = f"[suppressed{': ' + s.reason if s.reason else ''}]"
        field = "path" if s.finding.path else "message"
        marked.append(dataclasses.replace(s.finding, **{field: f"{mark} {getattr(s.finding, field)}"}))
    return sorted([*report.findings, *marked], key=finding_order)
