"""JUnit XML: one testcase per document (plus one per file with load problems); findings at or above --fail-on are
failures, the others go to system-out. Jenkins, GitLab and GitHub test reporters read it."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING
from xml.etree import ElementTree

from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.report.safe import printable

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckReport
    from kubectl_wasdra.lint.problem import Finding
    from kubectl_wasdra.load import Document


def _threshold(fail_on: str) -> int:
    return 99 if fail_on == "never" else Severity(fail_on).rank


def render(report: CheckReport, *, color: bool = False, fail_on: str = "error") -> str:
    """The testsuites document, pretty-printed."""
    from kubectl_wasdra.lint.pipeline import document_label

    labels = [(d.file, document_label(d), d) for d in report.documents]
    twins = Counter((file, label) for file, label, _ in labels)
    twins = Counter({key: count for key, count in twins.items() if count > 1})
    by_case: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in report.findings:
        key = (finding.file, finding.object or "(file)")
        by_case[_twin_case(finding, labels) if key in twins else key].append(finding)
    cases = list(dict.fromkeys([(file, _case_name(label, doc, twins[(file, label)])) for file, label, doc in labels]
                               + list(by_case)))
    threshold = _threshold(fail_on)
    suites = ElementTree.Element("testsuites", name="kubectl-wasdra")
    suite = ElementTree.SubElement(suites, "testsuite", name=f"kubectl-wasdra check (Kubernetes {report.k8s_version})")
    failures = 0
    for file, label in cases:
        case = ElementTree.SubElement(suite, "testcase", classname=printable(file), name=printable(label))
        findings = by_case.get((file, label), [])
        failing = [f for f in findings if f.severity.rank >= threshold]
        if failing:
            failures += 1
            failure = ElementTree.SubElement(case, "failure", message=_line(failing[0]), type=failing[0].rule)
            failure.text = "\n".join(_line(f) for f in failing)
        rest = [f for f in findings if f.severity.rank < threshold]
        if rest:
            ElementTree.SubElement(case, "system-out").text = "\n".join(_line(f) for f in rest)
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", "0")
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"


def _case_name(label: str, document: Document, twins: int) -> str:
    """The object's label; objects of one file with the same label (kind and name) also get their document number."""
    if not twins:
        return label
    return f"{label} (document {document.index + 1}" + (f", item {document.item + 1})" if document.item is not None else ")")


def _twin_case(finding: Finding, labels: list[tuple[str, str, Document]]) -> tuple[str, str]:
    """The test case of a finding whose label several objects of its file share: the last of them starting at or
    before the finding's line."""
    candidates = [(doc.position()[0], label, doc) for file, label, doc in labels
                  if file == finding.file and label == finding.object]
    before = [c for c in candidates if c[0] <= finding.line] or candidates[:1]
    _, label, doc = max(before, key=lambda c: c[0])
    return finding.file, _case_name(label, doc, 2)


def _line(f: Finding) -> str:
    where = f"{f.file}:{f.line}:{f.column}"
    hint = f" ({f.hint})" if f.hint else ""
    return printable(f"{where}: {f.severity} {f.rule} {f.name}: {f.path + ': ' if f.path else ''}{f.message}{hint}")
