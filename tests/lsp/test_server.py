"""The language server through the protocol: diagnostics on open and change, the workspace as context."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import CLAIM_TEMPLATE, change_file, codes, diagnostics_for, open_file

pytestmark = pytest.mark.asyncio


async def test_open_reports_the_finding_with_checks_range_and_rule_link(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "infer.yaml")
    found = await diagnostics_for(client, uri)
    assert codes(found) == ["REF001"]
    diagnostic = found[0]
    # check points at line 14, column 36 (1-based): the value "gpu-template"
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (13, 35)
    assert (diagnostic.range.end.line, diagnostic.range.end.character) == (13, 35 + len("gpu-template"))
    assert diagnostic.severity == 2 and diagnostic.source == "kubectl-wasdra"
    assert diagnostic.code_description.href.endswith("rules.md#ref001")
    assert '"gpu-tempalte"' in diagnostic.message   # the hint names the template of the other file


async def test_fixing_the_other_file_clears_the_diagnostic(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "infer.yaml")
    assert codes(await diagnostics_for(client, uri)) == ["REF001"]
    other = open_file(client, project / "deploy" / "template.yaml")
    change_file(client, other, CLAIM_TEMPLATE.replace("gpu-tempalte", "gpu-template"), 2)
    assert await diagnostics_for(client, uri, until=lambda found: not found) == []


async def test_unsaved_changes_are_checked(client: LanguageClient, project: Path) -> None:
    path = project / "deploy" / "class.yaml"
    uri = open_file(client, path)
    assert await diagnostics_for(client, uri) == []
    change_file(client, uri, path.read_text().replace("  selectors:", "  selectorz:"), 2)
    found = await diagnostics_for(client, uri, until=lambda found: bool(found))
    assert codes(found) == ["SCHEMA002"]
    assert found[0].range.start.line == 5


async def test_cross_object_finding_names_the_other_object(client: LanguageClient, project: Path) -> None:
    copy = project / "deploy" / "class-copy.yaml"
    text = (project / "deploy" / "class.yaml").read_text().replace("gpu.example.com\"", "other.example.com\"")
    copy.write_text(text)   # a second, different DeviceClass "gpu.example.com" in the same folder
    uri = open_file(client, copy)
    found = await diagnostics_for(client, uri, until=lambda found: "REF013" in codes(found))
    duplicate = next(d for d in found if d.code == "REF013")
    [related] = duplicate.related_information
    assert related.location.uri == (project / "deploy" / "class.yaml").as_uri()
    assert (related.location.range.start.line, related.location.range.start.character) == (3, 2)   # its name
    assert related.message == "DeviceClass gpu.example.com"


async def test_client_settings_override_the_config_file(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "class.yaml")
    assert await diagnostics_for(client, uri) == []
    client.set_configuration({"k8sVersion": "1.33"}, section="wasdra")   # .wasdra.yaml says 1.37
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    found = await diagnostics_for(client, uri, until=lambda found: bool(found))
    assert codes(found) == ["API001"]   # resource.k8s.io/v1 is served from 1.34 on
    assert "1.33" in found[0].message


async def test_a_changed_config_file_applies(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "infer.yaml")
    assert codes(await diagnostics_for(client, uri)) == ["REF001"]
    config = project / ".wasdra.yaml"
    config.write_text("k8sVersion: '1.37'\nignore: [REF001]\n")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))
    assert await diagnostics_for(client, uri, until=lambda found: not found) == []


async def test_a_fix_saved_by_another_program_clears_the_diagnostic(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "infer.yaml")
    assert codes(await diagnostics_for(client, uri)) == ["REF001"]
    template = project / "deploy" / "template.yaml"   # not open in the editor: changed on disk
    template.write_text(CLAIM_TEMPLATE.replace("gpu-tempalte", "gpu-template"))
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=template.as_uri(), type=types.FileChangeType.Changed)]))
    assert await diagnostics_for(client, uri, until=lambda found: not found) == []


async def test_closing_a_file_clears_its_diagnostics(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "infer.yaml")
    assert codes(await diagnostics_for(client, uri)) == ["REF001"]
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    assert await diagnostics_for(client, uri, until=lambda found: not found) == []


async def test_incremental_changes_from_the_editor(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "infer.yaml")
    assert codes(await diagnostics_for(client, uri)) == ["REF001"]
    # the editor sends only the edited range: "gpu-template" -> "gpu-tempalte" on line 14 (0-based 13)
    start = len("        resourceClaimTemplateName: ")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(13, start), types.Position(13, start + len("gpu-template"))),
            text="gpu-tempalte")]))
    assert await diagnostics_for(client, uri, until=lambda found: not found) == []
