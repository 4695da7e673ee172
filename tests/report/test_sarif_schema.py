"""SARIF against the part of the OASIS SARIF 2.1.0 schema (sarif-schema-2.1.0.json) that our log uses, written out here
(nothing is downloaded at test time) with the schema's own `additionalProperties: false`, plus GitHub code scanning's
upload rules; JUnit and GitHub annotations on hostile text (control characters, %, CR/LF, `::`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from xml.etree import ElementTree

import jsonschema_rs
import pytest

from kubectl_wasdra.cli import main

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "fixtures" / "manifests" / "check-broken"
GOOD = ROOT / "fixtures" / "manifests" / "check"


def _obj(properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "additionalProperties": False, "properties": properties, "required": list(required)}


_MESSAGE = {"type": "object", "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
            "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}, "id": {"type": "string"}}}
_MULTIFORMAT = _obj({"text": {"type": "string"}, "markdown": {"type": "string"}}, ("text",))
_PROPERTY_BAG = {"type": "object", "properties": {"tags": {"type": "array", "uniqueItems": True, "items": {"type": "string"}}}}
_LEVEL = {"enum": ["none", "note", "warning", "error"]}
_DESCRIPTOR = _obj({
    "id": {"type": "string"}, "name": {"type": "string"}, "shortDescription": _MULTIFORMAT, "fullDescription": _MULTIFORMAT,
    "help": _MULTIFORMAT, "helpUri": {"type": "string"},
    "defaultConfiguration": _obj({"enabled": {"type": "boolean"}, "level": _LEVEL, "rank": {"type": "number"},
                                  "properties": _PROPERTY_BAG}),
    "properties": _PROPERTY_BAG}, ("id",))
_REGION = _obj({name: {"type": "integer", "minimum": 1} for name in ("startLine", "startColumn", "endLine", "endColumn")})
_LOCATION = _obj({"physicalLocation": _obj({
    "artifactLocation": _obj({"uri": {"type": "string"}, "uriBaseId": {"type": "string"}, "index": {"type": "integer"}}),
    "region": _REGION})})
_RESULT = _obj({"ruleId": {"type": "string"}, "ruleIndex": {"type": "integer", "minimum": -1}, "level": _LEVEL,
                "message": _MESSAGE, "locations": {"type": "array", "items": _LOCATION},
                "partialFingerprints": {"type": "object"}, "properties": _PROPERTY_BAG}, ("message",))
_DRIVER = _obj({"name": {"type": "string"}, "version": {"type": "string"}, "semanticVersion": {"type": "string"},
                "informationUri": {"type": "string"}, "rules": {"type": "array", "uniqueItems": True, "items": _DESCRIPTOR}},
               ("name",))
SARIF_SUBSET = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    **_obj({"$schema": {"type": "string"}, "version": {"enum": ["2.1.0"]},
            "runs": {"type": "array", "items": _obj({
                "tool": _obj({"driver": _DRIVER}, ("driver",)),
                "results": {"type": "array", "items": _RESULT},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "originalUriBaseIds": {"type": "object"},
                "properties": _PROPERTY_BAG}, ("tool",))}}, ("version", "runs")),
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, _ = capsys.readouterr()
    return exit_info.value.code, out


@pytest.mark.parametrize("inputs", [[str(BROKEN)], [str(GOOD)]], ids=["findings", "empty"])
def test_sarif_validates_and_meets_code_scanning_rules(inputs: list[str], capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT / "fixtures")  # run from a subdirectory: URIs are still relative to the repository root
    _, out = run(["check", *inputs, "-o", "sarif"], capsys)
    log = json.loads(out)
    errors = [error.message for error in jsonschema_rs.validator_for(SARIF_SUBSET).iter_errors(log)]
    assert errors == []
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert isinstance(run_["results"], list)
    assert all(rule["help"]["text"].strip() and rule["shortDescription"]["text"].strip() for rule in rules)
    for result in run_["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.startswith("fixtures/manifests/check-broken/") and ":" not in uri and ".." not in uri
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] and result["message"]["text"]
    if inputs == [str(BROKEN)]:
        assert run_["results"]


def test_sarif_rejects_what_the_schema_rejects() -> None:
    """The subset is not vacuous: a zero line, an unknown property and a bad level are all caught."""
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rulez": []}}, "results": [
        {"message": {"text": "m"}, "level": "fatal",
         "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]}
    errors = list(jsonschema_rs.validator_for(SARIF_SUBSET).iter_errors(bad))
    assert len(errors) == 3


HOSTILE = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: "o\\ek"}\nspec: {"\\e[2J%0A::x,y\\x01\\x7f": 1}\n'


def test_control_characters_never_reach_the_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "esc.yaml"
    path.write_text(HOSTILE)
    for output in ("text", "github", "junit", "json", "sarif"):
        code, out = run(["check", str(path), "-o", output], capsys)
        assert code == 1 and not any((ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f for c in out), output
    _, out = run(["check", str(path), "-o", "text"], capsys)
    assert r'unknown field "\x1b[2J%0A::x,y\x01\x7f"' in out


def test_junit_parses_and_has_one_testcase_per_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "esc.yaml"
    path.write_text(HOSTILE + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: fine}\n")
    _, out = run(["check", str(path), str(GOOD), "-o", "junit"], capsys)
    suite = ElementTree.fromstring(out).find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 2 + 4 and suite.get("tests") == "6" and suite.get("failures") == "1"
    assert cases[0].find("failure") is not None and "\\x1b[2J" in cases[0].find("failure").text


def test_github_annotation_escaping(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a,b:c%.yaml"
    path.write_text(HOSTILE)
    _, out = run(["check", str(path), "-o", "github", "--select", "SCHEMA002"], capsys)
    line = out.splitlines()[0]
    head, _, message = line.partition("::")[2].partition("::")
    assert head.startswith("error file=") and "a%2Cb%3Ac%25.yaml" in head and ",line=4,col=" in head
    assert message.startswith(r'spec.\x1b[2J%250A::x,y\x01\x7f: unknown field') and "%0A" in message
    assert "\r" not in line and "\n" not in line


def test_github_paths_are_relative_to_the_repository(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    _, out = run(["check", ".", "-o", "github"], capsys)
    files = {part.split(",")[0] for part in out.split("file=")[1:]}
    assert files == {os.path.relpath(BROKEN / name, ROOT) for name in ("train.yaml", "serve.yaml")} or \
        all(f.startswith("fixtures/manifests/check-broken/") for f in files)


def test_junit_objects_with_the_same_name_stay_separate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    namespace = "apiVersion: v1\nkind: Namespace\nmetadata: {name: twin}\n"
    path = tmp_path / "twins.yaml"
    path.write_text(namespace + "---\n" + namespace + "spec: {bogus: 1}\n---\n" + namespace)
    _, out = run(["check", str(path), "-o", "junit", "--ignore", "REF013"], capsys)  # (the same object thrice)
    cases = ElementTree.fromstring(out).find("testsuite").findall("testcase")
    assert [(c.get("name"), c.find("failure") is not None) for c in cases] == [
        ("Namespace twin (document 1)", False), ("Namespace twin (document 2)", True), ("Namespace twin (document 3)", False)]
