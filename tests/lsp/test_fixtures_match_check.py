"""Every file of fixtures/, opened alone in the server, gets exactly the findings `check FILE -o json` reports for it;
and with fixtures/ as the workspace folder, exactly those `check fixtures/ -o json` reports for it: same rules,
same severities, same start positions (and messages)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.cli_runner import run
from tests.lsp.conftest import SERVER, diagnostics_for, open_file

ROOT = Path(__file__).resolve().parent.parent.parent
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.is_file())
SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "info": types.DiagnosticSeverity.Information}


def _text(path: Path) -> str | None:
    """The file as an editor holds it; None for the few fixtures that are not UTF-8 text on purpose (LOAD007/008)."""
    raw = path.read_bytes()
    try:
        return None if b"\0" in raw else raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def loose_client(lsp_client: LanguageClient):
    """A server without a workspace folder: each open file is checked on its own, as `check FILE` checks it."""
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim")))
    yield
    await lsp_client.shutdown_session()


def _check_json(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    code, out, err = run(["check", str(path), "-o", "json", "--no-config"], capsys)
    assert code in (0, 1, 2), err
    return [f for f in json.loads(out)["findings"] if f["file"] == str(path)]


def _utf16(line: str, column: int) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in line[:column])


def _expected(text: str, findings: list[dict]) -> list[tuple]:
    """check's findings for a file as diagnostics would carry them: (rule, severity, 0-based line, UTF-16 column,
    message), sorted."""
    lines = text.splitlines()
    return sorted((f["rule"], SEVERITY[f["severity"]], f["line"] - 1,
                   _utf16(lines[f["line"] - 1], f["column"] - 1) if f["line"] <= len(lines) else f["column"] - 1,
                   f["message"]) for f in findings)


def _published(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    """The published diagnostics in the same form (the first line of each message)."""
    return sorted((str(d.code), d.severity, d.range.start.line, d.range.start.character, d.message.split("\n")[0])
                  for d in diagnostics)


@pytest.mark.asyncio
async def test_diagnostics_equal_check_json_for_every_fixture(loose_client: LanguageClient,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert len(FIXTURES) > 200
    checked, mismatches = 0, []
    for path in FIXTURES:
        text = _text(path)
        if text is None:
            continue
        uri = path.as_uri()
        loose_client.diagnostics.pop(uri, None)
        open_file(loose_client, path, text)
        published = await diagnostics_for(loose_client, uri)
        loose_client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        want, got = _expected(text, _check_json(path, capsys)), _published(published)
        checked += 1
        if got != want:
            mismatches.append((str(path.relative_to(ROOT)), got, want))
    assert checked > 200
    assert mismatches == []


@pytest.fixture
def fixtures_copy(tmp_path: Path) -> Path:
    """fixtures/ in a repository of its own (no config file above it)."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(ROOT / "fixtures", tmp_path / "fixtures")
    return tmp_path / "fixtures"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def folder_client(lsp_client: LanguageClient, fixtures_copy: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim"),
        workspace_folders=[types.WorkspaceFolder(uri=fixtures_copy.as_uri(), name="fixtures")]))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_workspace_diagnostics_equal_check_json_of_the_folder(folder_client: LanguageClient, fixtures_copy: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from kubectl_wasdra.lsp.settings import resolve_settings

    code, out, err = run(["check", str(fixtures_copy), "-o", "json", "--no-config"], capsys)
    assert code in (0, 1, 2), err
    by_file: dict[str, list[dict]] = {}
    for finding in json.loads(out)["findings"]:
        by_file.setdefault(finding["file"], []).append(finding)
    excluded = resolve_settings(str(fixtures_copy), {}).excluded   # check's default excludes (Chart.yaml ...)
    files = [(path, text) for path in sorted(p for p in fixtures_copy.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
             if (text := _text(path)) is not None and not excluded(str(path))]
    for path, text in files:   # all at once: the server checks the burst together
        open_file(folder_client, path, text)
    mismatches, checked = [], 0
    for path, text in files:
        published = await diagnostics_for(folder_client, path.as_uri())
        want, got = _expected(text, by_file.get(str(path), [])), _published(published)
        checked += 1
        if got != want:
            mismatches.append((str(path.relative_to(fixtures_copy)), got, want))
    assert checked > 200
    assert mismatches == []
