"""A real client (pytest-lsp) talking to `kubectl-wasdra lsp` in a subprocess over stdio."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "kubectl_wasdra", "lsp"]
CLAIM_TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: gpu-tempalte
  namespace: ml
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
"""
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: infer
  namespace: ml
spec:
  replicas: 2
  selector: {matchLabels: {app: infer}}
  template:
    metadata: {labels: {app: infer}}
    spec:
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: gpu-template
      containers:
      - name: c
        image: registry.example.com/infer:1
        resources: {claims: [{name: gpu}]}
"""
DEVICE_CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
"""


@pytest.fixture(autouse=True)
def index_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The servers started here keep their repository index in a temporary directory, not the user's cache."""
    monkeypatch.setenv("WASDRA_CACHE_DIR", str(tmp_path_factory.mktemp("index-cache")))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A workspace folder: a Deployment whose claim template is misspelt in another file, and a .wasdra.yaml."""
    (tmp_path / ".git").mkdir()   # the repository root: the config search stops here
    (tmp_path / ".wasdra.yaml").write_text("k8sVersion: '1.37'\n")
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "infer.yaml").write_text(DEPLOYMENT)
    (tmp_path / "deploy" / "template.yaml").write_text(CLAIM_TEMPLATE)
    (tmp_path / "deploy" / "class.yaml").write_text(DEVICE_CLASS)
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, project: Path):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
        """Accept the server's file watchers, as editors do."""

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="project")]))
    yield
    await lsp_client.shutdown_session()


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    language = "json" if path.suffix == ".json" else "yaml"
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id=language, version=version, text=path.read_text() if text is None else text)))
    return uri


def change_file(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics_for(client: LanguageClient, uri: str, until: Callable[[list[types.Diagnostic]], bool] = bool,
                          timeout: float = 60) -> list[types.Diagnostic]:
    """The diagnostics last published for `uri` once `until` holds for them (default: some were published), waiting
    for the server's notifications; TimeoutError with the last ones otherwise."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        published = client.diagnostics.get(uri)
        if published is not None and (until is bool or until(list(published))):
            return list(published)
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise TimeoutError(f"diagnostics for {uri}: {published}")
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining)
        except TimeoutError:
            continue


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)
