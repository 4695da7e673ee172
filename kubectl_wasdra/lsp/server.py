"""The language server: editor events in, `check`'s findings out as diagnostics, plus code actions, hover and completion.

Every change re-runs the (incremental) check of the folder it belongs to and republishes the diagnostics of each open
file whose findings changed, so fixing a reference in one file clears the diagnostic in the file that names it. The
files that depend on a hub the open files define (lsp/dependents.py) are checked after that, a chunk per turn of the
event loop, so the edited file's diagnostics come first and a new edit is never kept waiting behind them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Sequence
from typing import Any, Final

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from kubectl_wasdra import __version__
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.lsp.diagnostics import path_of, to_diagnostic, uri_of
from kubectl_wasdra.lsp.projects import Project, Projects

logger = logging.getLogger(__name__)
NAME: Final = "kubectl-wasdra"
SECTION: Final = "wasdra"   # client settings: the `wasdra` section (initializationOptions may hold it or its keys)
LANGUAGES: Final = ("yaml", "json")


class WasdraServer(LanguageServer):
    """pygls' server plus the projects (workspace folders) and what was last published per open file."""

    def __init__(self) -> None:
        super().__init__(NAME, __version__)
        self.projects: Projects | None = None
        self.published: dict[str, list[Finding]] = {}
        self.initialization_options: Any = None
        self._dirty: dict[int, Project] = {}
        self._flush_handle: asyncio.Handle | None = None
        self._step_handle: asyncio.Handle | None = None
        self._frozen = False

    def lines_of(self, path: str) -> Sequence[str]:
        """A file's lines: the editor's buffer when open, else the disk's (empty when unreadable)."""
        document = self.workspace.text_documents.get(uri_of(path))
        if document is not None:
            return document.lines
        try:
            with open(path, encoding="utf-8", errors="replace") as stream:
                return stream.read().splitlines(keepends=True)
        except OSError:
            return []

    def to_client(self, lines: Sequence[str], chars: types.Range) -> types.Range:
        return self.workspace.position_codec.range_to_client_units(lines, chars)

    def project(self, path: str) -> Project:
        assert self.projects is not None
        return self.projects.of(path)

    def refresh(self, projects: Sequence[Project]) -> None:
        """Check `projects` again once the messages already received are handled (a burst of keystrokes is checked
        once, not once per keystroke), then publish every open file whose findings changed."""
        self._dirty.update((id(project), project) for project in projects)
        if self._flush_handle is None:
            try:
                self._flush_handle = asyncio.get_running_loop().call_soon(self.flush)
            except RuntimeError:   # no event loop (called outside the server): check now
                self.flush()

    def forget_pending(self) -> None:
        """Drop the checks waiting to run (the projects were rebuilt)."""
        self._dirty.clear()

    def flush(self) -> None:
        """Check the projects that changed since the last check and publish what changed."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()   # called directly (a code action): the scheduled check has nothing left to do
        projects, self._dirty, self._flush_handle = list(self._dirty.values()), {}, None
        for project in projects:
            project.run()
            if project.error:
                self.window_show_message(types.ShowMessageParams(types.MessageType.Error, project.error))
                project.error = None
        for uri in list(self.workspace.text_documents):
            path = path_of(uri)
            found = self.project(path).findings.get(path, [])
            if self.published.get(path) != found:
                self.publish(uri, path, found)
        if projects and self.published and not self._frozen:   # the first check of an open file is done
            _freeze()
            self._frozen = True
        self._schedule_dependents()

    def _schedule_dependents(self) -> None:
        """Check the next chunk of some project's dependents once the messages already received are handled."""
        if self._step_handle is not None or self.projects is None or not any(p.analysis.pending for p in self.projects):
            return
        try:
            self._step_handle = asyncio.get_running_loop().call_soon(self._step)
        except RuntimeError:   # no event loop (called outside the server): check them all now, then publish
            pending = [p for p in self.projects if p.analysis.pending]
            for project in pending:
                project.analysis.settle()
            self.refresh(pending)

    def _step(self) -> None:
        """One chunk of dependents; when a project's are all checked, its files are checked again and published."""
        self._step_handle = None
        if self._dirty or self.projects is None:
            return   # a check is waiting: it runs first and schedules the dependents again
        project = next((p for p in self.projects if p.analysis.pending), None)
        if project is None:
            return
        if project.analysis.stale:
            self.refresh([project])
            return
        if project.analysis.step():
            self.refresh([project])
            return
        self._schedule_dependents()

    def publish(self, uri: str, path: str, findings: list[Finding]) -> None:
        self.published[path] = findings
        document = self.workspace.text_documents.get(uri)
        lines = functools.cache(self.lines_of)   # each file split into lines once, not once per finding
        diagnostics = [to_diagnostic(f, lines, self.to_client) for f in findings]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics, version=document.version if document is not None else None))


def _freeze() -> None:
    """Put what the first check loaded (modules, rules, schemas, the index) out of the cyclic garbage collector's
    reach: it lives as long as the server, and a full collection over it paused a check for ~60 ms (~30 ms after)."""
    import gc

    gc.collect()
    gc.freeze()


def client_settings(value: Any) -> dict[str, Any]:
    """The `wasdra` section of what the client sent (or the whole value when it holds the keys directly)."""
    if not isinstance(value, dict):
        return {}
    section = value.get(SECTION)
    return dict(section) if isinstance(section, dict) else dict(value)


def build_server() -> WasdraServer:
    """The server with every feature registered."""
    server = WasdraServer()
    _documents(server)
    _workspace(server)
    from kubectl_wasdra.lsp.features import register

    register(server)
    return server


def _is_manifest(uri: str, language: str | None = None) -> bool:
    return uri.startswith("file:") and (language in LANGUAGES or uri.endswith((".yaml", ".yml", ".json")))


def _documents(server: WasdraServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: WasdraServer, params: types.InitializeParams) -> None:
        ls.initialization_options = params.initialization_options

    @server.feature(types.INITIALIZED)
    async def initialized(ls: WasdraServer, params: types.InitializedParams) -> None:
        folders = ls.workspace.folders.values()
        roots = [path_of(folder.uri) for folder in folders] or ([ls.workspace.root_path] if ls.workspace.root_path else [])
        client = client_settings(ls.initialization_options) | await _pulled_settings(ls)
        ls.projects = Projects([r for r in roots if r], client)
        _hold_open_files(ls)   # files opened while the settings were being asked for
        ls.refresh(list(ls.projects))
        _watch_files(ls)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: WasdraServer, params: types.DidOpenTextDocumentParams) -> None:
        _edited(ls, params.text_document.uri, params.text_document.language_id)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: WasdraServer, params: types.DidChangeTextDocumentParams) -> None:
        _edited(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: WasdraServer, params: types.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if ls.projects is None or path not in ls.published:
            return
        project = ls.project(path)
        project.workspace.close(path)
        ls.published.pop(path, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
        ls.refresh([project])


def _edited(ls: WasdraServer, uri: str, language: str | None = None) -> None:
    if ls.projects is None or not _is_manifest(uri, language):
        return
    path = path_of(uri)
    project = ls.project(path)
    if project.settings.excluded(path):   # as `check FILE` leaves it out (Chart.yaml ...): no findings to show
        ls.refresh([])
        return
    project.workspace.open(path, ls.workspace.get_text_document(uri).source)
    ls.refresh([project])


def _workspace(server: WasdraServer) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: WasdraServer, params: types.DidChangeWatchedFilesParams) -> None:
        if ls.projects is None:
            return
        paths = [path_of(change.uri) for change in params.changes]
        if any(os.path.basename(p) in (".wasdra.yaml", ".wasdra.yml") for p in paths):
            _reload(ls, None)
            return
        touched = {id(ls.project(p)): ls.project(p) for p in paths}
        for path in paths:
            ls.project(path).workspace.reread(path)
        ls.refresh(list(touched.values()))

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders(ls: WasdraServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        if ls.projects is None:
            return
        removed = {path_of(folder.uri) for folder in params.event.removed}
        roots = [root for root in ls.projects.roots if root not in removed]
        ls.projects.set_roots([*roots, *(path_of(f.uri) for f in params.event.added)])
        _reload(ls, None)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration(ls: WasdraServer, params: types.DidChangeConfigurationParams) -> None:
        if ls.projects is None:
            return
        pushed = client_settings(params.settings) if params.settings else {}
        _reload(ls, pushed or await _pulled_settings(ls) or None)


async def _pulled_settings(ls: WasdraServer) -> dict[str, Any]:
    """The `wasdra` section from workspace/configuration, for clients that answer it ({} otherwise)."""
    workspace = ls.client_capabilities.workspace
    if workspace is None or not workspace.configuration:
        return {}
    try:
        values = await ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section=SECTION)]))
    except JsonRpcException as exc:  # a client that claims the capability but fails the request: keep what we have
        logger.warning("workspace/configuration failed: %s", exc)
        return {}
    return dict(values[0]) if values and isinstance(values[0], dict) else {}


def _reload(ls: WasdraServer, client: dict[str, Any] | None) -> None:
    """New settings: every project rebuilt, the open files put back, everything checked and republished."""
    assert ls.projects is not None
    ls.projects.reload(client)
    ls.forget_pending()
    _hold_open_files(ls)
    ls.published.clear()
    ls.refresh(list(ls.projects))


def _hold_open_files(ls: WasdraServer) -> None:
    """Give every project the editors' text of its open manifests."""
    for uri, document in ls.workspace.text_documents.items():
        path = path_of(uri)
        if _is_manifest(uri, document.language_id) and not ls.project(path).settings.excluded(path):
            ls.project(path).workspace.open(path, document.source)


def _watch_files(ls: WasdraServer) -> None:
    """Ask the client to report manifest and config file changes on disk, when it lets servers register for that."""
    capabilities = ls.client_capabilities.workspace
    watched = capabilities.did_change_watched_files if capabilities is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    watchers = [types.FileSystemWatcher(glob_pattern=pattern) for pattern in ("**/*.{yaml,yml,json}", "**/.wasdra.{yaml,yml}")]
    options = types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
    ls.client_register_capability(types.RegistrationParams(registrations=[
        types.Registration(id="wasdra-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]))


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    build_server().start_io()
