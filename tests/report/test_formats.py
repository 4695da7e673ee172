"""Report formats: JSON shape and key order, SARIF 2.1.0 as GitHub code scanning expects it, JUnit one testcase per
document, GitHub annotations escaped, text grouped by file with colour only on request."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.lint.pipeline import CheckReport
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.load import load_text
from kubectl_wasdra.report import render

POD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: ml\nspec:\n  containers: []\n"


def _report(findings: tuple[Finding, ...] = ()) -> CheckReport:
    documents, _ = load_text("deploy/train.yaml", POD.format(name="a") + "---\n" + POD.format(name="b"))
    return CheckReport((Release(1, 37),), tuple(sorted(findings)), tuple(documents), ("deploy/train.yaml",))


FINDINGS = (
    Finding("deploy/train.yaml", 14, 11, "SCHEMA002", "unknown-field", Severity.ERROR, "spec.containers[0].imag",
            'unknown field "imag"', 'did you mean "image"?', "Pod ml/a"),
    Finding("deploy/train.yaml", 3, 13, "API003", "api-deprecated", Severity.WARNING, "apiVersion",
            "deprecated: 50% done, a:b", None, "Pod ml/b"),
)


def test_json_shape_and_key_order() -> None:
    data = json.loads(render(_report(FINDINGS), "json"))
    assert list(data) == ["k8sVersion", "findings", "summary"]
    assert list(data["findings"][0]) == ["rule", "severity", "file", "line", "column", "path", "message", "hint"]
    assert [f["rule"] for f in data["findings"]] == ["API003", "SCHEMA002"]
    assert data["summary"] == {"files": 1, "documents": 2, "errors": 1, "warnings": 1, "infos": 0}


def test_json_is_byte_for_byte_stable() -> None:
    assert render(_report(FINDINGS), "json") == render(_report(tuple(reversed(FINDINGS))), "json")


@pytest.mark.parametrize("findings", [(), FINDINGS], ids=["empty", "two"])
def test_sarif_has_what_code_scanning_requires(findings: tuple[Finding, ...]) -> None:
    log = json.loads(render(_report(findings), "sarif"))
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert rules and all(r["id"] and r["shortDescription"]["text"] and r["help"]["text"] for r in rules)
    assert isinstance(run["results"], list) and len(run["results"]) == len(findings)
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == "deploy/train.yaml"
        assert location["region"]["startLine"] >= 1
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")


def test_junit_has_one_testcase_per_document() -> None:
    root = ElementTree.fromstring(render(_report(FINDINGS), "junit", fail_on="error"))
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["Pod ml/a", "Pod ml/b"]
    assert cases[0].find("failure").get("type") == "SCHEMA002"
    assert cases[1].find("failure") is None and "API003" in cases[1].find("system-out").text
    assert suite.get("tests") == "2" and suite.get("failures") == "1"


def test_github_annotations_are_escaped() -> None:
    lines = render(_report(FINDINGS), "github").splitlines()
    assert lines[0] == ("::warning file=deploy/train.yaml,line=3,col=13,title=API003 api-deprecated::"
                        "apiVersion: deprecated: 50%25 done, a:b")
    assert lines[1].startswith("::error file=deploy/train.yaml,line=14,col=11,title=SCHEMA002 unknown-field::")
    assert lines[1].endswith('%0Adid you mean "image"?')
    assert lines[-1] == "1 file, 2 documents: 1 error, 1 warning"


def test_text_groups_by_file_and_has_no_colour_by_default() -> None:
    text = render(_report(FINDINGS), "text")
    assert "\x1b[" not in text
    lines = text.splitlines()
    assert lines[0] == "deploy/train.yaml"
    assert lines[1].split()[:4] == ["3:13", "warning", "API003", "api-deprecated"]
    assert lines[-1] == "1 file, 2 documents: 1 error, 1 warning"


def test_text_colour_when_asked() -> None:
    assert "\x1b[" in render(_report(FINDINGS), "text", color=True)


def test_text_names_stdin_as_stdin_with_and_without_colour() -> None:
    finding = Finding("-", 4, 2, "SCHEMA002", "unknown-field", Severity.ERROR, "spec.bogus", 'unknown field "bogus"')
    report = CheckReport((Release(1, 37),), (finding,), (), ("-",))
    assert render(report, "text").splitlines()[0] == "stdin"
    coloured = render(report, "text", color=True)
    assert "stdin" in coloured.splitlines()[0] and "-\n" not in coloured


def test_clean_report_prints_only_the_summary() -> None:
    assert render(_report(), "text") == "1 file, 2 documents: 0 errors, 0 warnings\n"


def test_sarif_uris_are_relative_to_the_repository_root(tmp_path, monkeypatch) -> None:
    from kubectl_wasdra.report.sarif import artifact_uri, source_root

    (tmp_path / ".git").mkdir()
    (tmp_path / "deploy" / "team a").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "deploy")
    assert source_root() == str(tmp_path.resolve())
    assert artifact_uri("team a/x.yaml") == "deploy/team%20a/x.yaml"
    assert artifact_uri("/elsewhere/y.yaml").startswith("file:///elsewhere/")
    assert artifact_uri("-") == "stdin"


def test_json_summary_counts_what_the_text_summary_line_shows() -> None:
    info = Finding("deploy/train.yaml", 5, 1, "REF007", "unused-pod-claim", Severity.INFO, "spec", "unused", None, "Pod ml/a")
    report = _report((*FINDINGS, info))
    summary = json.loads(render(report, "json"))["summary"]
    line = render(report, "text").strip().splitlines()[-1]
    assert summary["infos"] == 1 and line.endswith(", 1 info")
    assert line.startswith(f"{summary['files']} file, {summary['documents']} documents: {summary['errors']} error, "
                           f"{summary['warnings']} warning")
