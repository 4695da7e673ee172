"""Code actions, hover and completion through the protocol."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import DEPLOYMENT, change_file, codes, diagnostics_for, open_file

pytestmark = pytest.mark.asyncio
TYPO = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpus
  namespace: ml
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        cuont: 2
"""
OLD_API = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: old
  namespace: ml
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
"""


def _apply(text: str, action: types.CodeAction, uri: str) -> str:
    edits = action.edit.changes[uri]
    assert len(edits) == 1 and edits[0].range.start == types.Position(0, 0)
    return edits[0].new_text


async def _actions(client: LanguageClient, uri: str, line: int,
                   diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=types.Range(types.Position(line, 0), types.Position(line, 0)),
        context=types.CodeActionContext(diagnostics=diagnostics)))
    return list(result or [])


async def test_a_safe_fix_applied_clears_the_finding(client: LanguageClient, project: Path) -> None:
    path = project / "deploy" / "claim.yaml"
    uri = open_file(client, path, TYPO)
    found = await diagnostics_for(client, uri)
    assert codes(found) == ["SCHEMA002"]
    actions = await _actions(client, uri, 11, found)
    fix = next(a for a in actions if a.kind == types.CodeActionKind.QuickFix)
    assert fix.is_preferred and "SCHEMA002" in fix.title and fix.diagnostics[0].code == "SCHEMA002"
    fixed = _apply(TYPO, fix, uri)
    assert "        count: 2\n" in fixed and "cuont" not in fixed
    change_file(client, uri, fixed, 2)
    assert await diagnostics_for(client, uri, until=lambda found: not found) == []


async def test_unsafe_fix_is_marked_and_conversion_is_offered(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "old.yaml", OLD_API)
    found = await diagnostics_for(client, uri)
    assert "API002" in codes(found)   # v1beta1 is off by default in 1.37
    actions = await _actions(client, uri, 0, found)
    titles = [a.title for a in actions]
    convert = [a for a in actions if a.kind == types.CodeActionKind.RefactorRewrite]
    assert any("Kubernetes 1.37" in a.title for a in convert), titles
    to_137 = next(a for a in convert if "1.37" in a.title)
    converted = _apply(OLD_API, to_137, uri)
    assert converted.startswith("apiVersion: resource.k8s.io/v1\n") and "exactly:" in converted
    fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    unsafe = [a for a in fixes if "unsafe" in a.title]
    assert unsafe and not any(a.is_preferred for a in unsafe), titles   # the request's fields move under `exactly:`


async def test_hover_describes_the_field(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "deploy" / "claim.yaml", TYPO)
    await diagnostics_for(client, uri)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri), position=types.Position(9, 8)))
    text = hover.contents.value
    assert text.startswith("**exactly**: `ExactDeviceRequest (object)`")
    assert "single request that must be met exactly" in text   # the upstream field description
    assert "added in 1.34" in text


async def test_completion_offers_the_fields_not_yet_set(client: LanguageClient, project: Path) -> None:
    text = TYPO.replace("        cuont: 2\n", "        \n")
    uri = open_file(client, project / "deploy" / "claim.yaml", text)
    await diagnostics_for(client, uri)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri), position=types.Position(11, 8)))
    labels = [item.label for item in result.items]
    assert "count" in labels and "allocationMode" in labels
    assert "deviceClassName" not in labels   # already set
    kind = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri), position=types.Position(1, 6)))
    kinds = [item.label for item in kind.items]   # the kinds resource.k8s.io/v1 serves in 1.37
    assert {"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"} <= set(kinds)
    assert "Pod" not in kinds


async def test_completion_offers_the_enum_values_of_the_release(client: LanguageClient, project: Path) -> None:
    text = DEPLOYMENT.replace("        image: registry.example.com/infer:1\n",
                              "        image: registry.example.com/infer:1\n        imagePullPolicy: \n")
    uri = open_file(client, project / "deploy" / "infer.yaml", text)
    await diagnostics_for(client, uri)
    row = text.splitlines().index("        imagePullPolicy: ")
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri), position=types.Position(row, 25)))
    assert sorted(item.label for item in result.items) == ["Always", "IfNotPresent", "Never"]
