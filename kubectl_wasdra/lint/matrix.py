"""Multi-release views of a check: which releases accept each document unchanged (matrix), and what an upgrade
from one release to another breaks or changes (removed API versions, renamed fields, gates whose default moved).

Upstream: Kubernetes version skew policy (kubernetes/website content/en/releases/version-skew-policy.md: kube-apiserver
upgrades one minor at a time); renamed fields from kubernetes/api scheduling/{v1alpha1,v1alpha2,v1beta1}/types.go and
core/v1/types.go (release-1.35 .. release-1.37).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.catalog.field_gates import POD_TEMPLATE_PREFIXES, checked_fields, find_present, parse_pattern
from kubectl_wasdra.catalog.gates import GateState, effective_gates
from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.lint.pipeline import CheckOptions, CheckReport, check_documents, document_label
from kubectl_wasdra.lint.problem import Finding, format_path
from kubectl_wasdra.lint.registry import all_rules, select_rules
from kubectl_wasdra.load import Document, load_paths

_RELEASE_PREFIX: Final = re.compile(r"^\[(\d+\.\d+)\] ")
_NOT_AVAILABLE: Final = frozenset({codes.API_NOT_SERVED.id, codes.API_NOT_ENABLED.id})


@dataclass(frozen=True)
class Rename:
    """A field that a later release renamed or reshaped: present in `old` up to `last`, replaced by `new` from `last`+1."""

    group: str
    kind: str
    old: str
    last: Release
    new: str
    note: str


RENAMES: Final[tuple[Rename, ...]] = (
    Rename("", "Pod", "spec.workloadRef", Release(1, 35), "spec.schedulingGroup",
           "the pod's group link became spec.schedulingGroup {podGroupName} naming a PodGroup object"),
    Rename("scheduling.k8s.io", "Workload", "spec.podGroups", Release(1, 35), "spec.podGroupTemplates",
           "inline pod groups became templates (schedulingPolicy instead of policy); PodGroup objects hold the runtime group"),
    Rename("scheduling.k8s.io", "PodGroup", "spec.podGroupTemplateRef", Release(1, 36), "spec.workloadRef",
           "the template reference became spec.workloadRef {workloadName, templateName}"),
    Rename("scheduling.k8s.io", "PodGroup", "spec.disruptionMode", Release(1, 36), "spec.disruptionMode",
           "disruptionMode changed from a string (Pod | PodGroup) to a union ({single: {}} | {all: {}})"),
)


# ---------------------------------------------------------------------------------------------------------- matrix

@dataclass(frozen=True)
class MatrixRow:
    """One document: per release, the findings that stop that release accepting it unchanged (errors only)."""

    file: str
    line: int
    label: str
    blocking: Mapping[Release, tuple[Finding, ...]]

    def accepted(self, release: Release) -> bool:
        return not self.blocking.get(release)


@dataclass(frozen=True)
class Matrix:
    releases: tuple[Release, ...]
    rows: tuple[MatrixRow, ...]


def _finding_releases(finding: Finding, releases: Sequence[Release]) -> tuple[tuple[Release, ...], Finding]:
    """Which releases a merged finding belongs to (a "[1.35] " prefix names one; none means all), unprefixed."""
    match = _RELEASE_PREFIX.match(finding.message)
    if not match:
        return tuple(releases), finding
    from dataclasses import replace
    return (Release.parse(match.group(1)),), replace(finding, message=finding.message[match.end():])


def build_matrix(report: CheckReport) -> Matrix:
    """Per document and release: accepted unchanged, or the error findings to fix (from a multi-release check)."""
    releases = tuple(report.releases)
    blocking: dict[tuple[str, str], dict[Release, list[Finding]]] = {}
    for finding in report.findings:
        if finding.severity is not Severity.ERROR:
            continue
        owners, clean = _finding_releases(finding, releases)
        per_release = blocking.setdefault((finding.file, finding.object), {})
        for release in owners:
            per_release.setdefault(release, []).append(clean)
    rows = []
    for document in report.documents:
        label = document_label(document)
        found = blocking.get((document.file, label), {})
        rows.append(MatrixRow(document.file, document.position()[0], label,
                              {r: tuple(found.get(r, ())) for r in releases}))
    return Matrix(releases, tuple(rows))


def render_matrix_text(matrix: Matrix) -> str:
    """A table (document x release: ok / number of errors) and, per document, what to change for each release."""
    width = max((len(f"{r.file}:{r.line} {r.label}") for r in matrix.rows), default=8)
    head = f"{'document':<{width}}  " + "  ".join(f"{r!s:>6}" for r in matrix.releases)
    lines = ["", "Releases that accept each document unchanged:", head]
    for row in matrix.rows:
        cells = ["ok" if row.accepted(r) else f"{len(row.blocking[r])} err" for r in matrix.releases]
        lines.append(f"{f'{row.file}:{row.line} {row.label}':<{width}}  " + "  ".join(f"{c:>6}" for c in cells))
    changes = [row for row in matrix.rows if any(row.blocking.values())]
    if changes:
        lines += ["", "What to change per release:"]
    for row in changes:
        lines.append(f"  {row.file}:{row.line} {row.label}")
        for release in matrix.releases:
            for finding in row.blocking[release]:
                fix = f" — {finding.hint}" if finding.hint else ""
                lines.append(f"    {release}  {finding.rule} {finding.path or '(document)'}: {_first_line(finding.message)}{fix}")
    return "\n".join(lines) + "\n"


def matrix_as_dict(matrix: Matrix) -> dict[str, Any]:
    return {"releases": [str(r) for r in matrix.releases],
            "documents": [{"file": row.file, "line": row.line, "object": row.label,
                           "accepted": {str(r): row.accepted(r) for r in matrix.releases},
                           "changes": {str(r): [f.as_dict() for f in row.blocking[r]] for r in matrix.releases}}
                          for row in matrix.rows]}


def render_check_json(report: CheckReport) -> str:
    """`check -o json` over several releases: DESIGN's keys first and unchanged (k8sVersion, findings, summary), then
    "releases" (the releases checked, oldest first) and "matrix" (one entry per document in input order: file, line,
    object, accepted per release, and the blocking error findings per release without their "[release] " prefix)."""
    data = report.as_dict()
    matrix = matrix_as_dict(build_matrix(report))
    data["releases"] = matrix["releases"]
    data["matrix"] = matrix["documents"]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]


# --------------------------------------------------------------------------------------------------------- upgrade

@dataclass(frozen=True)
class UpgradeItem:
    """One consequence of the upgrade for one document: `change` is breaks, changes or fixed."""

    file: str
    line: int
    column: int
    label: str
    change: str
    rule: str
    path: str
    message: str
    hint: str | None = None


@dataclass(frozen=True)
class UpgradeReport:
    source: Release
    target: Release
    skipped: tuple[Release, ...]           # minors between source and target the control plane must pass through
    items: tuple[UpgradeItem, ...]
    documents: int

    @property
    def breaks(self) -> bool:
        return any(item.change == "breaks" for item in self.items)


def run_upgrade(options: CheckOptions, source: Release) -> UpgradeReport:
    """What upgrading the cluster from `source` to the check's (single) target release breaks or changes."""
    target = options.releases[-1]
    documents = load_paths(options.paths, stdin=options.stdin, max_bytes=options.max_bytes).documents
    selected = select_rules(options.select, options.ignore)
    rules = tuple(r for r in all_rules() if r.info.id in selected)
    before = _keyed(check_documents(documents, rules, options.context(source)))
    after = _keyed(check_documents(documents, rules, options.context(target)))
    items = [_item(f, "breaks") for key, f in after.items() if key not in before and f.severity is Severity.ERROR]
    unserved = {(f.file, f.object) for f in after.values() if f.rule in _NOT_AVAILABLE}   # nothing else is judged there
    items += [_item(f, "fixed") for key, f in before.items()
              if key not in after and f.severity is Severity.ERROR and (f.file, f.object) not in unserved]
    reported = {(i.file, i.path) for i in items if i.rule == "GATE001"}
    for document in documents:
        items += list(_renames(document, source, target))
        items += [i for i in _gate_defaults(document, source, target, options.feature_gates)
                  if (i.file, i.path) not in reported]
    skipped = tuple(r for r in SUPPORTED if source < r < target)
    return UpgradeReport(source, target, skipped, tuple(sorted(items, key=lambda i: (i.file, i.line, i.column, i.rule))),
                         len(documents))


def _keyed(findings: Sequence[Finding]) -> dict[tuple[str, str, str, str], Finding]:
    return {(f.file, f.object, f.rule, f.path): f for f in findings}


def _item(finding: Finding, change: str) -> UpgradeItem:
    return UpgradeItem(finding.file, finding.line, finding.column, finding.object, change, finding.rule, finding.path,
                       _first_line(finding.message), finding.hint)


def _renames(document: Document, source: Release, target: Release) -> Iterator[UpgradeItem]:
    group, kind = document.group, document.kind or ""
    for rename in RENAMES:
        if not source <= rename.last < target:
            continue
        prefixes: list[tuple[str, ...]] = []
        if (rename.group, rename.kind) == (group, kind):
            prefixes.append(())
        elif rename.kind == "Pod" and (group, kind) in POD_TEMPLATE_PREFIXES:
            prefixes.append(POD_TEMPLATE_PREFIXES[(group, kind)])
        for prefix in prefixes:
            for path in find_present(document.data, prefix + parse_pattern(rename.old)):
                line, column = document.position(path)
                new = ".".join((*prefix, rename.new)) if prefix else rename.new
                yield UpgradeItem(document.file, line, column, document_label(document), "changes", "", format_path(path),
                                  f"{rename.old} exists up to {rename.last}; from {_next(rename.last)} "
                                  f"it is {new}: {rename.note}", f"rewrite the object for {_next(rename.last)} before upgrading")


def _next(release: Release) -> Release:
    return SUPPORTED[SUPPORTED.index(release) + 1]


def _gate_defaults(document: Document, source: Release, target: Release, overrides: Mapping[str, bool]
                   ) -> Iterator[UpgradeItem]:
    """Gated fields whose gate is on in one release and off in the other (a default moved, or the gate appeared)."""
    if not document.api_version or not document.kind:
        return
    given = tuple(overrides.items())
    before_state, after_state = _upgrade_gates(source, given), _upgrade_gates(target, given)
    seen = {f.pattern for f in checked_fields(source, document.api_version, document.kind)}
    for field in checked_fields(target, document.api_version, document.kind):
        for path in find_present(document.data, field.pattern):
            was = field.pattern in seen and all(before_state.enabled(g) for g in field.gates_all)
            now = all(after_state.enabled(g) for g in field.gates_all)
            if was == now:
                continue
            line, column = document.position(path)
            info = after_state.table.get(field.gate)
            stage = f"{info.stage}, {'on' if info.default else 'off'} by default in {target}" if info else f"unknown in {target}"
            if now:
                message = (f"{field.gate} ({stage}) turns on: {format_path(path)} is dropped by {source} and takes effect "
                           f"in {target}")
            else:
                message = f"{field.gate} ({stage}) is off: {format_path(path)} worked in {source} and is dropped in {target}"
            yield UpgradeItem(document.file, line, column, document_label(document), "changes" if now else "breaks",
                              "GATE001", format_path(path), message,
                              None if now else f"enable {field.gate} on the upgraded cluster, or remove the field")


@functools.cache
def _upgrade_gates(release: Release, overrides: tuple[tuple[str, bool], ...]) -> GateState:
    """The release's gate state under the overrides it knows (computed once per release, not per document)."""
    from kubectl_wasdra.catalog.gates import META_GATES, gate_table

    known = frozenset(gate_table(release).gates) | frozenset(META_GATES)
    return effective_gates(release, {k: v for k, v in overrides if k in known})


def render_upgrade_text(report: UpgradeReport) -> str:
    lines = [f"Upgrade {report.source} -> {report.target} ({report.documents} documents)"]
    if report.skipped:
        path = " -> ".join(str(r) for r in (report.source, *report.skipped, report.target))
        lines.append(f"  warning: control-plane minor versions cannot be skipped: upgrade kube-apiserver {path}, one minor "
                     "at a time (Kubernetes version skew policy); check each step with --upgrade-from")
    current = None
    for item in report.items:
        if item.file != current:
            current = item.file
            lines.append(item.file)
        rule = f"{item.rule} " if item.rule else ""
        lines.append(f"  {item.line}:{item.column}  {item.change:<8} {rule}{item.label}: {item.path}: {item.message}")
        if item.hint:
            lines.append(f"      {item.hint}")
    if not report.items:
        lines.append("  nothing breaks or changes meaning")
    return "\n".join(lines) + "\n"


def render_upgrade_json(report: UpgradeReport) -> str:
    data = {"from": str(report.source), "to": str(report.target),
            "mustPassThrough": [str(r) for r in report.skipped],
            "items": [{"file": i.file, "line": i.line, "column": i.column, "object": i.label, "change": i.change,
                       "rule": i.rule or None, "path": i.path, "message": i.message, "hint": i.hint} for i in report.items]}
    return json.dumps(data, indent=2) + "\n"


def upgrade_output(options: CheckOptions, upgrade_from: str, output: str) -> tuple[str, int]:
    """Rendered upgrade report and exit code (1 when something breaks) for `check --upgrade-from`."""
    from kubectl_wasdra.errors import UsageError

    try:
        source = Release.parse(upgrade_from)
    except UsageError as exc:
        raise UsageError(exc.message, where="--upgrade-from", hint=exc.hint and exc.hint.replace("--k8s-version",
                                                                                                  "--upgrade-from")) from None
    if len(options.releases) != 1 or not source < options.releases[0]:
        raise UsageError(f"--upgrade-from {source} needs one newer --k8s-version", where="--upgrade-from",
                         hint=f"e.g. --upgrade-from {source} --k8s-version {SUPPORTED[-1]}")
    report = run_upgrade(options, source)
    text = render_upgrade_json(report) if output == "json" else render_upgrade_text(report)
    return text, 1 if report.breaks else 0
