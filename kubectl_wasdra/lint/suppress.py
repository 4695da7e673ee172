"""Suppressions: the `wasdra.dev/ignore` annotation on an object, `# wasdra: ignore[RULE,...] reason` comments on the
offending line (or alone on the line above), and the config's per-file ignores; in the spirit of ruff's `noqa`.

A suppressed finding is kept aside (counted, shown with --show-suppressed, marked in SARIF), never dropped.
Directives naming no known rule, malformed ones and (on request) unused ones become CONF findings.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.load import Document

ANNOTATION: Final = "wasdra.dev/ignore"
_COMMENT: Final = re.compile(r"(?:^|\s)#\s*wasdra\s*:(?P<body>.*)$")
_IGNORE: Final = re.compile(r"\s*ignore\[(?P<rules>[^\]]*)\](?P<reason>.*)$")


@dataclass(frozen=True)
class Directive:
    """One suppression as written: where, which rule keys, why; `lines` (comments) or `objects` (annotations) say
    what it covers. `kind` is SARIF's suppression kind: inSource for the manifests, external for the config."""

    file: str
    line: int
    column: int
    rules: tuple[str, ...]
    reason: str
    lines: frozenset[int] = frozenset()
    objects: frozenset[str] = frozenset()
    kind: str = "inSource"
    pattern: str = ""


@dataclass(frozen=True)
class Suppressed:
    """A finding a directive silenced, with the directive's kind and reason."""

    finding: Finding
    kind: str
    reason: str


@dataclass(frozen=True)
class SuppressionProblem:
    """Something wrong with a directive, for the CONF rules: `kind` is unknown-rule, unused or malformed."""

    kind: str
    file: str
    line: int
    column: int
    message: str
    hint: str
    path: str = ""
    object: str = ""


@dataclass
class _Index:
    directives: list[Directive] = field(default_factory=list)
    problems: list[SuppressionProblem] = field(default_factory=list)


def comment_directives(file_at: Callable[[int], str], text: str, index: _Index) -> None:
    """`# wasdra: ignore[...]` comments of one source text: a trailing comment covers its line, a comment alone on its
    line covers the next line. `file_at(line)` names the file a line belongs to (rendered output holds several)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if "wasdra" not in line:
            continue
        file = file_at(number)
        match = _COMMENT.search(line)
        if match is None:
            continue
        column = line.index("#", match.start()) + 1
        ignore = _IGNORE.match(match.group("body"))
        if ignore is None:
            index.problems.append(SuppressionProblem(
                "malformed", file, number, column, f'"{line[column - 1:].strip()}" is not a suppression',
                "write `# wasdra: ignore[RULE,RULE] reason`"))
            continue
        alone = not line[: column - 1].strip()
        rules = _split(ignore.group("rules"))
        index.directives.append(Directive(file, number, column, rules, ignore.group("reason").strip(),
                                          lines=frozenset({number + 1 if alone else number})))


def annotation_directives(document: Document, label: str, index: _Index) -> None:
    """The object's `wasdra.dev/ignore: "RULE,RULE: reason"` annotation."""
    annotations = document.metadata.get("annotations")
    if not isinstance(annotations, dict) or ANNOTATION not in annotations:
        return
    value = annotations[ANNOTATION]
    path = ("metadata", "annotations", ANNOTATION)
    line, column = document.position(path, "value")
    if not isinstance(value, str) or not value.strip():
        index.problems.append(SuppressionProblem(
            "malformed", document.file, line, column, f"{ANNOTATION} must be a non-empty string of rule IDs",
            'write e.g. wasdra.dev/ignore: "REF003,GANG001: reason"', ".".join(path), label))
        return
    rules, _, reason = value.partition(":")
    index.directives.append(Directive(document.file, line, column, _split(rules), reason.strip(),
                                      objects=frozenset({label})))


def config_directives(per_file_ignores: Sequence[tuple[str, tuple[str, ...]]], files: Iterable[str]) -> list[Directive]:
    """The config's (and --per-file-ignores') glob -> rules, as external directives covering the matching files."""
    from kubectl_wasdra.load.excludes import Excludes

    directives = []
    for pattern, rules in per_file_ignores:
        matcher = Excludes((pattern,))
        for file in files:
            if matcher.matches(file):
                directives.append(Directive(file, 0, 0, tuple(rules), f"per-file ignore {pattern}", kind="external",
                                            pattern=pattern))
    return directives


def _sources(documents: Iterable[Document]) -> list[tuple[str, list[Document]]]:
    """Each source text that mentions "wasdra", with its documents (the text is searched once, not once per
    document: a file of many documents without the word was searched whole for each of them)."""
    grouped: dict[int, tuple[str, list[Document]]] = {}
    for document in documents:
        if document.source is not None:
            grouped.setdefault(id(document.source), (document.source.text, []))[1].append(document)
    return [(text, owners) for text, owners in grouped.values() if "wasdra" in text]


def _file_at(documents: list[Document]) -> Callable[[int], str]:
    """Line -> file for one source text: its only file, or (rendered output) the file of the document the line is in
    or before."""
    files = {d.file for d in documents}
    if len(files) == 1:
        only = files.pop()
        return lambda _line: only
    starts = sorted((d.position()[0], d.file) for d in documents)
    lines = [line for line, _ in starts]

    def file_at(line: int) -> str:
        return starts[max(bisect.bisect_right(lines, line + 1) - 1, 0)][1]   # a comment line above a document opens it

    return file_at


def _split(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


@functools.lru_cache(maxsize=256)
def _expand(key: str) -> frozenset[str] | None:
    """Rule IDs a directive item stands for (an ID, a name, a family or ALL); None when it names nothing. Cached:
    per-file ignores repeat the same keys for every file they cover."""
    from kubectl_wasdra.lint.registry import select_rules

    try:
        return select_rules([key])
    except UsageError:
        return None


def _unknown_hint(key: str) -> str:
    """The did-you-mean --ignore gives for the same key ("REF03" -> "REF003"), else where the rule IDs are."""
    from kubectl_wasdra.lint.registry import unknown_rule_hint

    return unknown_rule_hint(key)


_Expanded = tuple[Directive, list[tuple[str, frozenset[str] | None]]]   # a directive with each key's rule IDs


@dataclass(frozen=True)
class SuppressionResult:
    findings: tuple[Finding, ...]
    suppressed: tuple[Suppressed, ...]
    problems: tuple[SuppressionProblem, ...]


def apply_suppressions(findings: Sequence[Finding], documents: Sequence[Document], label: Callable[[Document], str],
                       per_file_ignores: Sequence[tuple[str, tuple[str, ...]]] = (), *,
                       report_unused: bool = False, selected: frozenset[str] | None = None) -> SuppressionResult:
    """Split `findings` into kept and suppressed; directive problems (unknown rules, malformed, unused) come back for
    the CONF rules. `label(document)` names a document the way findings do (Finding.object). A suppression of rules
    none of which ran (not in `selected`) is not called unused."""
    index = _Index()
    for document in documents:
        annotations = document.metadata.get("annotations")
        if isinstance(annotations, dict) and ANNOTATION in annotations:
            annotation_directives(document, label(document), index)
    for text, owners in _sources(documents):
        comment_directives(_file_at(owners), text, index)
    directives = index.directives + config_directives(per_file_ignores, sorted({f.file for f in findings}))
    expanded = [(d, [(key, _expand(key)) for key in d.rules]) for d in directives]
    by_file: dict[str, list[int]] = {}
    for number, directive in enumerate(directives):
        by_file.setdefault(directive.file, []).append(number)
    used: set[tuple[int, str]] = set()
    kept, suppressed = [], []
    for finding in findings:
        hit = _first_match(finding, expanded, by_file.get(finding.file, ()))
        if hit is None:
            kept.append(finding)
            continue
        number, key = hit
        used.add((number, key))
        directive = expanded[number][0]
        suppressed.append(Suppressed(finding, directive.kind, directive.reason))
    problems = index.problems + _directive_problems(expanded, used if report_unused else None, selected)
    return SuppressionResult(tuple(kept), tuple(suppressed), tuple(problems))


def _directive_problems(expanded: list[_Expanded],
                        used: set[tuple[int, str]] | None, selected: frozenset[str] | None) -> list[SuppressionProblem]:
    """Rule keys of in-source directives that name no rule, and (when `used` is given) those that matched nothing."""
    problems = []
    for number, (directive, keys) in enumerate(expanded):
        if directive.kind != "inSource":
            continue
        for key, rules in keys:
            if rules is None:
                problems.append(SuppressionProblem(
                    "unknown-rule", directive.file, directive.line, directive.column,
                    f'suppression names "{key}", which is no rule', _unknown_hint(key)))
            elif used is not None and (number, key) not in used and (selected is None or rules & selected):
                problems.append(SuppressionProblem(
                    "unused", directive.file, directive.line, directive.column,
                    f'suppression of "{key}" matched no finding', "remove it (the finding it was for is gone)"))
    return problems


def _first_match(finding: Finding, expanded: list[_Expanded], numbers: Sequence[int]) -> tuple[int, str] | None:
    """(directive number, rule key) of the first directive among `numbers` (those of the finding's file) that
    silences `finding`, or None."""
    for number in numbers:
        directive, keys = expanded[number]
        if directive.lines and finding.line not in directive.lines:
            continue
        if directive.objects and finding.object not in directive.objects:
            continue
        for key, rules in keys:
            if rules is not None and finding.rule in rules:
                return number, key
    return None
