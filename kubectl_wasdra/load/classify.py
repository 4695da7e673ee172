"""What a YAML or JSON file is when it is not Kubernetes manifests: Helm templates and charts, kustomizations, CI and
tool configuration. Such files sit beside manifests in the folders people check; they are skipped with one note
that says what the file is and how to check it instead, never reported as broken manifests.

`classify_name` looks at the path only (for excludes that must not read the file); `classify` adds the content.
A file named like a non-manifest (`values-gpu.yaml`) that holds Kubernetes objects is a manifest all the same.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class FileKind(StrEnum):
    """Kinds of files that are not Kubernetes manifests (stable: a later config may name them in excludes)."""

    HELM_TEMPLATE = "helm-template"
    HELM_CHART = "helm-chart"
    HELM_VALUES = "helm-values"
    HELM_TEST = "helm-unittest"
    KUSTOMIZATION = "kustomization"
    GITHUB_WORKFLOW = "github-workflow"
    GITHUB_CONFIG = "github-config"
    COMPOSE = "docker-compose"
    PRE_COMMIT = "pre-commit-config"
    CI_CONFIG = "ci-config"
    TOOL_CONFIG = "tool-config"
    PACKAGE_MANIFEST = "package-manifest"
    OPENAPI = "openapi"
    JSON_SCHEMA = "json-schema"
    CLUSTER_CONFIG = "cluster-config"


@dataclass(frozen=True)
class NonManifest:
    """A file that is not Kubernetes manifests: what it is (for the message) and how to check it instead (the hint)."""

    kind: FileKind
    what: str
    how: str


_HELM_HOW: Final = "check the rendered chart: `kubectl wasdra check --helm CHART_DIR [--values FILE]`"
_DESCRIBED: Final[dict[FileKind, tuple[str, str]]] = {
    FileKind.HELM_TEMPLATE: ("a Helm (Go) template", _HELM_HOW),
    FileKind.HELM_CHART: ("a Helm chart's metadata", _HELM_HOW),
    FileKind.HELM_VALUES: ("a Helm values file", _HELM_HOW + " (this file as `--values`)"),
    FileKind.HELM_TEST: ("a helm-unittest suite", "run it with `helm unittest CHART_DIR`"),
    FileKind.KUSTOMIZATION: ("a kustomization",
                             "check the built output: `kubectl wasdra check -k DIR`"),
    FileKind.GITHUB_WORKFLOW: ("a GitHub Actions workflow", "check it with actionlint"),
    FileKind.GITHUB_CONFIG: ("GitHub repository configuration", "GitHub validates it when it is pushed"),
    FileKind.COMPOSE: ("a Docker Compose file", "check it with `docker compose config`"),
    FileKind.PRE_COMMIT: ("pre-commit configuration", "check it with `pre-commit validate-config`"),
    FileKind.CI_CONFIG: ("CI configuration", "check it with the CI system's own linter"),
    FileKind.TOOL_CONFIG: ("a tool's configuration", "the tool that reads it checks it"),
    FileKind.PACKAGE_MANIFEST: ("a package manifest", "the package manager that reads it checks it"),
    FileKind.OPENAPI: ("an OpenAPI description", "check it with an OpenAPI linter; it describes an API, it is no object"),
    FileKind.JSON_SCHEMA: ("a JSON Schema", "pass schemas for custom resources with --schema-location DIR"),
    FileKind.CLUSTER_CONFIG: ("a local cluster's configuration (kind, k3d, ctlptl)",
                              "the tool that creates the cluster reads it; no API server stores it"),
}

# exact base names (lower case) -> kind
_NAMES: Final[dict[str, FileKind]] = {
    "chart.yaml": FileKind.HELM_CHART, "chart.lock": FileKind.HELM_CHART,
    "kustomization.yaml": FileKind.KUSTOMIZATION, "kustomization.yml": FileKind.KUSTOMIZATION,
    "kustomization": FileKind.KUSTOMIZATION,
    ".pre-commit-config.yaml": FileKind.PRE_COMMIT, ".pre-commit-config.yml": FileKind.PRE_COMMIT,
    ".pre-commit-hooks.yaml": FileKind.PRE_COMMIT,
    ".gitlab-ci.yml": FileKind.CI_CONFIG, ".gitlab-ci.yaml": FileKind.CI_CONFIG, ".travis.yml": FileKind.CI_CONFIG,
    "azure-pipelines.yml": FileKind.CI_CONFIG, "azure-pipelines.yaml": FileKind.CI_CONFIG,
    "bitbucket-pipelines.yml": FileKind.CI_CONFIG, "appveyor.yml": FileKind.CI_CONFIG, ".drone.yml": FileKind.CI_CONFIG,
    "cloudbuild.yaml": FileKind.CI_CONFIG, "cloudbuild.yml": FileKind.CI_CONFIG, "codecov.yml": FileKind.CI_CONFIG,
    ".codecov.yml": FileKind.CI_CONFIG, ".prow.yaml": FileKind.CI_CONFIG, "netlify.toml": FileKind.CI_CONFIG,
    "mkdocs.yml": FileKind.TOOL_CONFIG, "mkdocs.yaml": FileKind.TOOL_CONFIG, ".readthedocs.yaml": FileKind.TOOL_CONFIG,
    ".readthedocs.yml": FileKind.TOOL_CONFIG, "_config.yml": FileKind.TOOL_CONFIG, ".goreleaser.yml": FileKind.TOOL_CONFIG,
    ".goreleaser.yaml": FileKind.TOOL_CONFIG, ".golangci.yml": FileKind.TOOL_CONFIG, ".golangci.yaml": FileKind.TOOL_CONFIG,
    ".yamllint": FileKind.TOOL_CONFIG, ".yamllint.yaml": FileKind.TOOL_CONFIG, ".yamllint.yml": FileKind.TOOL_CONFIG,
    ".markdownlint.yaml": FileKind.TOOL_CONFIG, ".markdownlint.yml": FileKind.TOOL_CONFIG,
    ".markdownlint.json": FileKind.TOOL_CONFIG, "buf.yaml": FileKind.TOOL_CONFIG, "buf.gen.yaml": FileKind.TOOL_CONFIG,
    "buf.work.yaml": FileKind.TOOL_CONFIG, "taskfile.yml": FileKind.TOOL_CONFIG, "taskfile.yaml": FileKind.TOOL_CONFIG,
    "environment.yml": FileKind.TOOL_CONFIG, "environment.yaml": FileKind.TOOL_CONFIG, "renovate.json": FileKind.TOOL_CONFIG,
    ".renovaterc.json": FileKind.TOOL_CONFIG, "tsconfig.json": FileKind.TOOL_CONFIG, "jsconfig.json": FileKind.TOOL_CONFIG,
    ".eslintrc.json": FileKind.TOOL_CONFIG, ".prettierrc.json": FileKind.TOOL_CONFIG, "cspell.json": FileKind.TOOL_CONFIG,
    "devcontainer.json": FileKind.TOOL_CONFIG, ".devcontainer.json": FileKind.TOOL_CONFIG, "tslint.json": FileKind.TOOL_CONFIG,
    ".wasdra.yaml": FileKind.TOOL_CONFIG, "owners": FileKind.GITHUB_CONFIG, "owners_aliases": FileKind.GITHUB_CONFIG,
    "package.json": FileKind.PACKAGE_MANIFEST, "package-lock.json": FileKind.PACKAGE_MANIFEST,
    "composer.json": FileKind.PACKAGE_MANIFEST, "pnpm-lock.yaml": FileKind.PACKAGE_MANIFEST,
    "pnpm-workspace.yaml": FileKind.PACKAGE_MANIFEST, "bower.json": FileKind.PACKAGE_MANIFEST,
    "pubspec.yaml": FileKind.PACKAGE_MANIFEST, "action.yml": FileKind.GITHUB_CONFIG, "action.yaml": FileKind.GITHUB_CONFIG,
}
_COMPOSE = re.compile(r"^(docker-)?compose([.-][^/]*)?\.ya?ml$")
_VALUES = re.compile(r"^(values([._-][^/]*)?|[^/]*[.-]values)\.ya?ml$")
# Helm's built-in objects and functions inside an action: `{{ .Values.x }}`, `{{- include "n" . }}`, `{{ toYaml ... }}`
_HELM_ACTION = re.compile(r"\{\{-?\s*(?:[^}]*?\s)?(?:\$?\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|include\s+\"|"
                          r"toYaml\b|tpl\s)")
# an action that is YAML structure (a line starting with `{{`, or an unquoted value starting with it)
_STRUCTURAL_ACTION = re.compile(r"^\s*\{\{(?![{}])|:\s+\{\{(?![{}])", re.MULTILINE)
_TOP_KEY = re.compile(r"^(\"?)([A-Za-z_$][\w.$-]*)\1\s*:", re.MULTILINE)
_KUSTOMIZE_API = re.compile(r"^apiVersion:\s*[\"']?kustomize\.config\.k8s\.io/", re.MULTILINE)
# configuration of local-cluster tools: apiVersion and kind look like an object's, but no API server serves them
_CLUSTER_TOOL_API = re.compile(r"^apiVersion:\s*[\"']?(?:kind\.x-k8s\.io|k3d\.io|ctlptl\.dev)/", re.MULTILINE)


def _described(kind: FileKind) -> NonManifest:
    what, how = _DESCRIBED[kind]
    return NonManifest(kind, what, how)


def _parts(path: str) -> list[str]:
    return os.path.normpath(path).replace(os.sep, "/").split("/")


def _in_chart_templates(path: str) -> bool:
    """True for a file under `templates/` of a folder that holds a Chart.yaml."""
    parts = _parts(os.path.abspath(path))
    for index in range(len(parts) - 2, 0, -1):
        if parts[index] == "templates" and os.path.isfile("/".join([*parts[:index], "Chart.yaml"])):
            return True
    return False


def classify_name(path: str) -> NonManifest | None:
    """What the file is by its path alone, or None when the name says nothing (most manifests). Values files are
    included: `classify` keeps them as manifests when they hold Kubernetes objects."""
    if path == "-":
        return None
    parts = _parts(path)
    name = parts[-1].lower()
    if ".github" in parts[:-1]:
        workflows = len(parts) > 2 and parts[-2] == "workflows" and parts[-3] == ".github"
        return _described(FileKind.GITHUB_WORKFLOW if workflows else FileKind.GITHUB_CONFIG)
    if ".circleci" in parts[:-1]:
        return _described(FileKind.CI_CONFIG)
    if name in _NAMES:
        return _described(_NAMES[name])
    if _COMPOSE.match(name):
        return _described(FileKind.COMPOSE)
    if _VALUES.match(name):
        return _described(FileKind.HELM_VALUES)
    if _in_chart_templates(path):
        return _described(FileKind.HELM_TEMPLATE)
    return None


def _has_objects(text: str) -> bool:
    """True when some document has top-level apiVersion and kind (a Kubernetes object, or a List of them)."""
    keys = {m.group(2) for m in _TOP_KEY.finditer(text)}
    return ("apiVersion" in keys and "kind" in keys) or ('"apiVersion"' in text and '"kind"' in text)


def _by_content(text: str) -> FileKind | None:
    if _KUSTOMIZE_API.search(text):
        return FileKind.KUSTOMIZATION
    if _CLUSTER_TOOL_API.search(text) and not _HELM_ACTION.search(text):
        return FileKind.CLUSTER_CONFIG
    if _HELM_ACTION.search(text) or (_STRUCTURAL_ACTION.search(text) and not _parses(text)):
        return FileKind.HELM_TEMPLATE
    if _has_objects(text):
        return None
    keys = {m.group(2) for m in _TOP_KEY.finditer(text[:65536])}
    if {"suite", "tests"} <= keys:  # helm-unittest (charts/*/tests/*_test.yaml)
        return FileKind.HELM_TEST
    if keys & {"openapi", "swagger"}:
        return FileKind.OPENAPI
    if "$schema" in keys and "json-schema.org" in text[:4096]:
        return FileKind.JSON_SCHEMA
    return None


def _parses(text: str) -> bool:
    from kubectl_wasdra.load.parse import parse_text

    return not parse_text(text, is_json=False).issues


def classify(path: str, text: str) -> NonManifest | None:
    """What the file is when it is not Kubernetes manifests, from its path and decoded text; None for manifests.
    Helm templates are recognised by their actions wherever they are (stdin too); a name that says "values",
    "compose" ... counts only when the file holds no Kubernetes object."""
    by_content = _by_content(text)
    if by_content is not None:
        return _described(by_content)
    by_name = classify_name(path)
    if by_name is None or (by_name.kind is not FileKind.HELM_TEMPLATE and _has_objects(text)):
        return None
    return by_name
