"""The check pipeline: load, run the selected rule families per document and per set, stamp findings, summarise.

Large inputs are split by file over a process pool (lint/parallel.py); set-scope rules always run once over all
documents. Findings are sorted by (file, line, column, rule) so output is byte-for-byte stable.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import IO, TYPE_CHECKING, Any, Final

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.codes import RuleInfo, Severity
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.overlap import drop_repeated_causes
from kubectl_wasdra.lint.problem import Finding, Problem, format_path
from kubectl_wasdra.lint.profiles import severity_for
from kubectl_wasdra.lint.registry import Rule, rules_for, select_rules
from kubectl_wasdra.load import DEFAULT_MAX_BYTES, Document, LoadProblem, load_paths

if TYPE_CHECKING:
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
    from kubectl_wasdra.lint.suppress import Suppressed
    from kubectl_wasdra.load.render import Rendered


def _empty() -> Mapping[str, bool]:
    return MappingProxyType({})


@dataclass(frozen=True)
class CheckOptions:
    """Everything `check` needs, built by the CLI from its flags."""

    paths: tuple[str, ...]
    releases: tuple[Release, ...] = (NEWEST,)
    feature_gates: Mapping[str, bool] = field(default_factory=_empty)
    runtime_config: Mapping[str, bool] = field(default_factory=_empty)
    profile: str = "default"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    schema_locations: tuple[str, ...] = ()
    snapshot: ClusterSnapshot | None = None
    stdin: IO[bytes] | None = field(default=None, compare=False)
    max_bytes: int = DEFAULT_MAX_BYTES
    jobs: int | None = None
    simulate: bool = False
    snapshot_problems: tuple[LoadProblem, ...] = ()  # malformed snapshot objects left out: reported as LOAD findings
    preemption: bool = True  # False: --no-preemption
    namespace: str | None = None  # -n: the namespace of namespaced objects that set none (kubectl apply -n)
    # project settings: excludes, suppressions, baseline, rendered Kustomize/Helm inputs
    exclude: tuple[str, ...] = ()
    default_excludes: bool = False
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    report_unused_ignores: bool = False
    show_suppressed: bool = False
    verbose: bool = False  # list the skipped non-manifests one by one in text and github output (-v)
    baseline: str | None = None
    rendered: tuple[Rendered, ...] = ()
    cluster_notes: tuple[str, ...] = ()  # where the release, gates and API versions came from (cluster/target.py)
    gitignore: bool = True  # directories are walked as git walks them (--no-gitignore: every file)
    # the repository as context (lint/repo/): references resolve against every manifest under this root
    project_root: str | None = None
    cache_dir: str | None = None  # where the repository index is kept (None: rebuilt in memory every run)

    def context(self, release: Release) -> CheckContext:
        from kubectl_wasdra.catalog.gates import overrides_for  # one flag set over several releases (gates come and go)

        gates = overrides_for(release, self.feature_gates, tuple(self.releases))
        return CheckContext(release=release, feature_gates=gates, runtime_config=self.runtime_config,
                            profile=self.profile, snapshot=self.snapshot, schema_locations=self.schema_locations,
                            simulate=self.simulate and self.snapshot is not None, preemption=self.preemption)


@dataclass(frozen=True)
class Summary:
    files: int
    documents: int
    errors: int
    warnings: int
    infos: int
    suppressed: int = 0
    baselined: int = 0

    def as_dict(self) -> dict[str, int]:
        """The JSON summary: the same counts the text summary line shows, info included."""
        counts = {"files": self.files, "documents": self.documents, "errors": self.errors, "warnings": self.warnings,
                  "infos": self.infos}
        extra = {"suppressed": self.suppressed, "baselined": self.baselined}
        return counts | {key: value for key, value in extra.items() if value}

    def line(self) -> str:
        """"2 files, 9 documents: 4 errors, 0 warnings"."""
        def plural(n: int, word: str) -> str:
            return f"{n} {word}{'' if n == 1 else 's'}"
        text = f"{plural(self.files, 'file')}, {plural(self.documents, 'document')}: "
        text += f"{plural(self.errors, 'error')}, {plural(self.warnings, 'warning')}"
        text += f", {self.infos} info" if self.infos else ""
        text += f" ({self.suppressed} suppressed)" if self.suppressed else ""
        return text + (f" ({self.baselined} in the baseline)" if self.baselined else "")


@dataclass(frozen=True)
class CheckReport:
    """The outcome of one check: sorted findings, the documents and files seen, and whether some input was unreadable."""

    releases: tuple[Release, ...]
    findings: tuple[Finding, ...]
    documents: tuple[Document, ...]
    files: tuple[str, ...]
    fatal: bool = False
    gaps: Mapping[str, str] = field(default_factory=dict)  # the cluster snapshot's gaps (kind -> why not read)
    suppressed: tuple[Suppressed, ...] = ()
    baselined: tuple[Finding, ...] = ()
    show_suppressed: bool = False
    rendered_by: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))   # file -> "helm template x"
    cluster_notes: tuple[str, ...] = ()  # where the release, gates and API versions came from (cluster/target.py)
    verbose: bool = False

    @property
    def skipped(self) -> tuple[Finding, ...]:
        """The files skipped as not manifests (LOAD013 notes): reported apart from the results (SARIF tool
        notifications; a one-line count in text and github output unless -v)."""
        return tuple(f for f in self.findings if f.rule == SKIPPED_RULE)

    def without_skipped(self) -> CheckReport:
        """The report less its skipped-file notes (what text and github output list without -v)."""
        return dataclasses.replace(self, findings=tuple(f for f in self.findings if f.rule != SKIPPED_RULE))

    def skipped_line(self) -> str:
        """"12 files skipped: not manifests; -v to list", "" when none was skipped."""
        count = len({f.file for f in self.skipped})
        if not count:
            return ""
        return f"{count} file{'' if count == 1 else 's'} skipped: not manifests; -v to list"

    @property
    def k8s_version(self) -> str:
        return ",".join(map(str, self.releases))

    @property
    def summary(self) -> Summary:
        count = dict.fromkeys(Severity, 0)
        for finding in self.findings:
            count[finding.severity] += 1
        return Summary(len(self.files), len(self.documents), count[Severity.ERROR], count[Severity.WARNING],
                       count[Severity.INFO], len(self.suppressed), len(self.baselined))

    def as_dict(self) -> dict[str, Any]:
        """DESIGN's JSON shape of `check`, keys in a fixed order (suppressed findings only with --show-suppressed)."""
        from kubectl_wasdra.lint.project_report import findings_as_dicts

        data: dict[str, Any] = {"k8sVersion": self.k8s_version, "findings": findings_as_dicts(self),
                                "summary": self.summary.as_dict()}
        if self.cluster_notes:  # only with a cluster that names its server
            data["cluster"] = list(self.cluster_notes)
        if self.gaps:  # only then: a complete read keeps DESIGN's shape exactly
            from kubectl_wasdra.cluster.gaps import gap_list

            data["gaps"] = gap_list(self.gaps)
        return data

    def fails(self, fail_on: str) -> bool:
        """True when some finding is at or above `fail_on` ("error", "warning", "info" or "never")."""
        if fail_on == "never":
            return False
        threshold = Severity(fail_on).rank
        return any(f.severity.rank >= threshold and f.rule != SKIPPED_RULE for f in self.findings)


SKIPPED_RULE: Final = codes.LOAD_NOT_A_MANIFEST.id


def finding_order(finding: Finding) -> tuple[str, int, int, str, str, str, str, str]:
    """Sort key: (file, line, column, rule), then the text, so equal positions still order deterministically."""
    return (finding.file, finding.line, finding.column, finding.rule, finding.path, finding.message, finding.hint or "",
            finding.object)


def document_label(document: Document) -> str:
    """"PodGroup ml/train", "DeviceClass gpu" or "document 3" — how findings and test cases name an object."""
    name = document.name
    if not name:
        return f"{document.kind or 'document'} #{document.index + 1}" + (f".{document.item}" if document.item is not None else "")
    return f"{document.kind} {document.namespace + '/' if document.namespace else ''}{name}"


def run_check(options: CheckOptions) -> CheckReport:
    """Load the inputs, run every selected rule for every release, return the sorted report."""
    from kubectl_wasdra.load.heap import paused_gc

    with paused_gc():  # documents, node trees and findings make no cycles
        return _run_check(options)


def _run_check(options: CheckOptions) -> CheckReport:
    from kubectl_wasdra.lint.parallel import document_findings_parallel

    gaps, options = _without_unread_cluster(options)
    selected = select_rules(options.select, options.ignore)
    contexts = [options.context(release) for release in options.releases]
    for ctx in contexts:
        _ = ctx.gates  # bad --feature-gates fail here, before any work (UsageError)
    loaded = _in_namespace(_load(options), options.namespace)
    context = _repo_context(options, loaded.documents, loaded.files)
    kinds = {(document.group, document.kind) for document in (*loaded.documents, *context)}
    skipped = _cluster_rules(gaps)
    rules = tuple(r for r in rules_for(kinds, cluster=options.snapshot is not None)
                  if r.info.id in selected and r.info.id not in skipped)
    per_release = [document_findings_parallel(loaded.documents, rules, ctx, options.jobs) for ctx in contexts]
    for findings, ctx in zip(per_release, contexts, strict=True):
        if context:
            from kubectl_wasdra.lint.repo.context import set_findings_with_context

            findings.extend(set_findings_with_context(loaded.documents, context, rules, ctx))
        else:
            findings.extend(set_findings(loaded.documents, rules, ctx))
    findings = load_findings([*loaded.problems, *options.snapshot_problems], rules, options.profile)
    findings.extend(merge_releases(per_release, options.releases))
    internal = any(f.hint == INTERNAL_ERROR_HINT for f in findings)
    report = CheckReport(tuple(options.releases), tuple(sorted(set(findings), key=finding_order)), loaded.documents,
                         loaded.files, fatal=internal or any(p.fatal for p in loaded.problems) or _blocks(gaps),
                         gaps=gaps, cluster_notes=options.cluster_notes)
    from kubectl_wasdra.lint.project_report import apply_project_settings

    return apply_project_settings(report, options, selected)


def _blocks(gaps: Mapping[str, str]) -> bool:
    """True when a gap leaves cluster checks without data they need (cluster/gaps.py); imported only with a cluster."""
    if not gaps:
        return False
    from kubectl_wasdra.cluster.gaps import unread_kinds

    return bool(unread_kinds(gaps))


def _without_unread_cluster(options: CheckOptions) -> tuple[Mapping[str, str], CheckOptions]:
    """The snapshot's gaps, and the options to check with: the cluster kept with what was read, the simulation off
    when a kind it needs was not read (a verdict on a partial read would be a guess; the report lists the gaps and
    exits 2). The rules that need an unread kind are skipped in _run_check (lint/cluster_needs.py)."""
    if options.snapshot is None:
        return {}, options
    from kubectl_wasdra.cluster.gaps import unread_kinds

    gaps = dict(options.snapshot.header.gaps)
    if unread_kinds(gaps):
        return gaps, dataclasses.replace(options, simulate=False)
    return gaps, options


def _cluster_rules(gaps: Mapping[str, str]) -> frozenset[str]:
    """IDs of the cluster rules the read's gaps leave without data (none for a complete read or no cluster)."""
    if not gaps:
        return frozenset()
    from kubectl_wasdra.lint.cluster_needs import skipped_rules

    return frozenset(skipped_rules(gaps))


def _in_namespace(loaded: Any, namespace: str | None) -> Any:
    """`check -n NS`: namespaced objects that set no namespace are checked as created in NS, as `kubectl apply -n NS`
    creates them (references, duplicates and fit then look there); cluster-scoped kinds and objects that name a
    namespace are left as they are."""
    if not namespace:
        return loaded
    from kubectl_wasdra.kube.scope import is_cluster_scoped

    documents = tuple(d.in_namespace(namespace) if d.namespace is None and d.kind and
                      not is_cluster_scoped(d.group, d.kind) else d for d in loaded.documents)
    return dataclasses.replace(loaded, documents=documents)


def _load(options: CheckOptions) -> Any:
    """The inputs: paths (less the excluded files) plus rendered Kustomize/Helm output."""
    from kubectl_wasdra.lint.project_report import load_inputs

    if not (options.exclude or options.default_excludes or options.rendered):
        return load_paths(options.paths, stdin=options.stdin, max_bytes=options.max_bytes, gitignore=options.gitignore)
    return load_inputs(options)


def _repo_context(options: CheckOptions, documents: Sequence[Document], files: Sequence[str]) -> tuple[Document, ...]:
    """The repository documents the given ones reach (lint/repo/context.py); none without a project root."""
    root = options.project_root
    if root is None or not documents or not any(os.path.abspath(f).startswith(os.path.join(root, "")) for f in files
                                                 if f != "-"):
        return ()   # nothing given from inside the project: its other files are no context for it
    from kubectl_wasdra.lint.project_report import excludes_of
    from kubectl_wasdra.lint.repo.context import repo_context

    texts = {id(r.text) for r in options.rendered}
    rendered = [d for d in documents if d.source is not None and id(d.source.text) in texts]
    return repo_context(options.project_root, documents, files, cache_dir=options.cache_dir,
                        gitignore=options.gitignore, exclude=excludes_of(options), rendered=rendered).documents


def load_findings(problems: Iterable[LoadProblem], rules: Sequence[Rule], profile: str) -> list[Finding]:
    """One finding per load problem, by the LOAD rule that owns its kind (dropped when that rule is not selected)."""
    load_rules = [r for r in rules if r.scope == "load"]
    findings = []
    for problem in problems:
        owner = next((r for r in load_rules if r.check(problem)), None)
        if owner is not None:
            findings.append(Finding(problem.file, problem.line, problem.column, owner.info.id, owner.info.name,
                                    severity_for(owner.info, profile), format_path(problem.path), problem.message,
                                    problem.hint))
    return findings


def check_documents(documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext) -> list[Finding]:
    """Findings of the document- and set-scope rules over `documents` for one context."""
    return document_findings(documents, rules, ctx) + set_findings(documents, rules, ctx)


def document_findings(documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext) -> list[Finding]:
    """Findings of the document-scope rules, document by document."""
    findings: list[Finding] = []
    document_rules = [(r, severity_for(r.info, ctx.profile)) for r in rules if r.scope == "document"]
    from kubectl_wasdra.lint.rules._gated import skipped_families

    for document in documents:
        skipped = skipped_families(document, ctx)  # API001/API002 report it; what would only cascade is left out
        crashed: set[str] = set()  # rules sharing one analysis fail together: report the failure once
        found: list[tuple[RuleInfo, Severity, Problem]] = []
        for implemented, severity in document_rules:
            if implemented.info.family in skipped:
                continue
            try:
                for problem in implemented.check(document, ctx):  # a loop, not extend(generator): 30+ rules a document
                    found.append((implemented.info, severity, problem))
            except WasdraError:
                raise  # the tool cannot do its job (a bad --schema-location file ...): exit 2 with its one line
            except Exception as exc:  # one rule failing on one object never loses the other findings
                if f"{type(exc).__name__}: {exc}" not in crashed:
                    crashed.add(f"{type(exc).__name__}: {exc}")
                    findings.append(_internal_error(implemented.info, document, exc))
        if found:
            findings.extend(_stamp(info, severity, document, problem.path, problem.message, problem.hint, problem.at,
                                   problem.position) for info, severity, problem in drop_repeated_causes(found))
    return findings


def set_findings(documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext) -> list[Finding]:
    """Findings of the set-scope (cross-object) rules over all documents."""
    findings: list[Finding] = []
    docset = DocumentSet(tuple(documents))
    for implemented in (r for r in rules if r.scope == "set"):
        severity = severity_for(implemented.info, ctx.profile)
        try:
            for problem in implemented.check(docset, ctx):
                milder = problem.severity is not None and problem.severity.rank < severity.rank
                finding = _stamp(implemented.info, problem.severity if milder else severity, problem.document,
                                 problem.path, problem.message, problem.hint, problem.at, problem.position)
                findings.append(dataclasses.replace(finding, related=problem.related) if problem.related else finding)
        except WasdraError:
            raise
        except Exception as exc:
            if not documents:
                raise
            findings.append(_internal_error(implemented.info, documents[0], exc, whole_set=True))
    return findings


INTERNAL_ERROR_HINT: Final = "this is a bug in kubectl-wasdra: please report it with the object (exit code 2)"


def _internal_error(info: RuleInfo, document: Document, exc: Exception, *, whole_set: bool = False) -> Finding:
    """A rule that crashed, as an error finding at the object (for set rules: at the first object) that makes the
    run exit 2; `KUBECTL_WASDRA_DEBUG=1` (set by --debug) re-raises for the traceback."""
    if os.environ.get("KUBECTL_WASDRA_DEBUG"):
        raise exc
    line, column = document.position()
    scope = "the cross-object checks" if whole_set else "this object"
    message = f"internal error in {info.id} while checking {scope}: {type(exc).__name__}: {exc}"
    return Finding(document.file, line, column, info.id, info.name, Severity.ERROR, "", message, INTERNAL_ERROR_HINT,
                   document_label(document))


def _stamp(info: RuleInfo, severity: Severity, document: Document, path: tuple[str | int, ...], message: str,
           hint: str | None, at: str, position: tuple[int, int] | None = None) -> Finding:
    line, column = position or document.position(tuple(path), "value" if at == "value" else "key")
    return Finding(document.file, line, column, info.id, info.name, severity, format_path(tuple(path)), message, hint,
                   document_label(document))


def merge_releases(per_release: Sequence[list[Finding]], releases: Sequence[Release]) -> list[Finding]:
    """Findings of several releases: those every release shares once, the others prefixed with their release."""
    if len(per_release) == 1:
        return per_release[0]
    shared = set.intersection(*(set(f) for f in per_release))
    merged = list(shared)
    for release, findings in zip(releases, per_release, strict=True):
        merged.extend(_with_release(f, release) for f in findings if f not in shared)
    return merged


def _with_release(finding: Finding, release: Release) -> Finding:
    from dataclasses import replace

    return replace(finding, message=f"[{release}] {finding.message}")
