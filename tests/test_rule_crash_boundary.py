"""A rule that crashes on one object costs only its own findings: the others are reported, the crash is one error
finding at the object, and the run exits 2 (the tool could not fully do its job). --debug re-raises."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main
from kubectl_wasdra.lint import registry
from kubectl_wasdra.lint.registry import Rule

GOOD = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\nspec: {bogus: 1}\n"
BAD = "apiVersion: v1\nkind: Namespace\nmetadata: {name: boom}\n"


def _crashing_rules(monkeypatch: pytest.MonkeyPatch, scope: str) -> None:
    rules = registry.all_rules()
    victim = next(r for r in rules if r.scope == scope)

    def check(subject: object, ctx: object) -> Iterator[object]:
        names = [d.name for d in subject.documents] if scope == "set" else [subject.name]  # type: ignore[attr-defined]
        if "boom" in names:
            raise TypeError("unhashable type: 'list'")
        yield from victim.check(subject, ctx)

    patched = tuple(Rule(r.info, r.scope, check) if r is victim else r for r in rules)
    monkeypatch.setattr("kubectl_wasdra.lint.pipeline.rules_for", lambda kinds, cluster: patched)


@pytest.mark.parametrize("scope", ["document", "set"])
def test_a_crashing_rule_keeps_the_other_findings(scope: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _crashing_rules(monkeypatch, scope)
    (tmp_path / "a.yaml").write_text(BAD)
    (tmp_path / "b.yaml").write_text(GOOD)
    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(tmp_path), "-o", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert exit_info.value.code == 2
    crashes = [f for f in findings if f["message"].startswith("internal error in ")]
    assert len(crashes) == 1 and crashes[0]["file"] == str(tmp_path / "a.yaml") and crashes[0]["severity"] == "error"
    assert "TypeError: unhashable type: 'list'" in crashes[0]["message"]
    assert any(f["rule"] == "SCHEMA002" and f["file"] == str(tmp_path / "b.yaml") for f in findings)


def test_debug_reraises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _crashing_rules(monkeypatch, "document")
    monkeypatch.setenv("KUBECTL_WASDRA_DEBUG", "")
    (tmp_path / "a.yaml").write_text(BAD)
    with pytest.raises(TypeError):
        main(["--debug", "check", str(tmp_path / "a.yaml")])
