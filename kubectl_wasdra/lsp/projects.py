"""The workspace folders the server checks, each with its settings, its files and its latest findings; files outside
every folder are checked together as `check FILE...` would check them."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.lsp.analysis import Analysis
from kubectl_wasdra.lsp.settings import Settings, resolve_settings
from kubectl_wasdra.lsp.workspace import Workspace


class Project:
    """One workspace folder (root None: the open files outside every folder)."""

    def __init__(self, root: str | None, client: Mapping[str, Any]) -> None:
        self.root = root
        self.error: str | None = None
        self.settings = self._settings(client)
        from kubectl_wasdra.lint.repo.index import default_cache_dir

        self.workspace = Workspace(root, self.settings.excluded, excludes=self.settings.excludes,
                                   cache_dir=default_cache_dir(os.environ), gitignore=self.settings.gitignore)
        self.analysis = Analysis(self.settings, self.workspace)
        self.findings: dict[str, list[Finding]] = {}

    def _settings(self, client: Mapping[str, Any]) -> Settings:
        """The folder's settings; with a bad config file or setting, the defaults (and `error` says why)."""
        import click

        try:
            return resolve_settings(self.root, client)
        except WasdraError as exc:
            self.error = f"kubectl-wasdra: {exc}"
        except click.ClickException as exc:  # a bad value for a flag's syntax: one line, as check prints it
            self.error = f"kubectl-wasdra: {' '.join(exc.format_message().split())}"
        return resolve_settings(self.root, {}, use_config=False)

    def run(self) -> dict[str, list[Finding]]:
        self.findings = self.analysis.run()
        return self.findings


class Projects:
    """Every folder's project plus the loose one, chosen per file by the deepest folder holding it."""

    def __init__(self, roots: list[str], client: Mapping[str, Any]) -> None:
        self.client = dict(client)
        self.roots: list[str] = []
        self.set_roots(roots)
        self.by_root: dict[str | None, Project] = {}
        self.reload()

    def set_roots(self, roots: Iterable[str]) -> None:
        """The workspace folders, deepest first: `of` takes the first one that holds a file."""
        self.roots = sorted({os.path.abspath(root) for root in roots}, key=len, reverse=True)

    def reload(self, client: Mapping[str, Any] | None = None) -> None:
        """Settings changed (client or config file): new projects, each folder scanned again."""
        if client is not None:
            self.client = dict(client)
        self.by_root = {root: Project(root, self.client) for root in [*self.roots, None]}
        for project in self.by_root.values():
            project.workspace.scan()

    def of(self, path: str) -> Project:
        for root in self.roots:
            if path.startswith(root + os.sep):
                return self.by_root[root]
        return self.by_root[None]

    def __iter__(self) -> Any:
        return iter(self.by_root.values())
