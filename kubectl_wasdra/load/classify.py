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

from kubectl_wasdra.lazy_regex import lazy
from kubectl_wasdra.load.gotemplate import has_plain_field_action


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
    GO_TEMPLATE = "go-template"


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
    FileKind.GO_TEMPLATE: ("a Go template (its {{ }} actions are filled in by the program that reads it)",
                           "check what that program renders from it: `kubectl wasdra check RENDERED.yaml`"),
}

# kind -> its exact base names (lower case)
_NAMED: Final[dict[FileKind, tuple[str, ...]]] = {
    FileKind.HELM_CHART: ("chart.yaml", "chart.lock"),
    FileKind.KUSTOMIZATION: ("kustomization.yaml", "kustomization.yml", "kustomization"),
    FileKind.PRE_COMMIT: (".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml"),
    FileKind.CI_CONFIG: (
        ".gitlab-ci.yml", ".gitlab-ci.yaml", ".travis.yml", "azure-pipelines.yml", "azure-pipelines.yaml",
        "bitbucket-pipelines.yml", "appveyor.yml", ".drone.yml", "cloudbuild.yaml", "cloudbuild.yml", "codecov.yml",
        ".codecov.yml", ".prow.yaml", "netlify.toml"),
    FileKind.TOOL_CONFIG: (
        "mkdocs.yml", "mkdocs.yaml", ".readthedocs.yaml", ".readthedocs.yml", "_config.yml", ".goreleaser.yml",
        ".goreleaser.yaml", ".golangci.yml", ".golangci.yaml", ".yamllint", ".yamllint.yaml", ".yamllint.yml",
        ".markdownlint.yaml", ".markdownlint.yml", ".markdownlint.json", "buf.yaml", "buf.gen.yaml", "buf.work.yaml",
        "taskfile.yml", "taskfile.yaml", "environment.yml", "environment.yaml", "renovate.json", ".renovaterc.json",
        "tsconfig.json", "jsconfig.json", ".eslintrc.json", ".prettierrc.json", "cspell.json", "devcontainer.json",
        ".devcontainer.json", "tslint.json", ".wasdra.yaml"),
    FileKind.GITHUB_CONFIG: ("owners", "owners_aliases", "action.yml", "action.yaml"),
    FileKind.PACKAGE_MANIFEST: (
        "package.json", "package-lock.json", "composer.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "bower.json",
        "pubspec.yaml"),
}
_NAMES: Final[dict[str, FileKind]] = {name: kind for kind, names in _NAMED.items() for name in names}
_COMPOSE = lazy(r"^(docker-)?compose([.-][^/]*)?\.ya?ml$")
_VALUES = lazy(r"^(values([._-][^/]*)?|[^/]*[.-]values)\.ya?ml$")
# Helm's built-in objects and functions inside an action: `{{ .Values.x }}`, `{{- include "n" . }}`, `{{ toYaml ... }}`
_HELM_ACTION = lazy(r"\{\{-?\s*(?:[^}]*?\s)?(?:\$?\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|include\s+\"|"
                          r"toYaml\b|tpl\s)")
# an action that is YAML structure (a line starting with `{{`, or an unquoted value starting with it)
_STRUCTURAL_ACTION = lazy(r"^\s*\{\{(?![{}])|:\s+\{\{(?![{}])", re.MULTILINE)
_TOP_KEY = lazy(r"^(\"?)([A-Za-z_$][\w.$-]*)\1\s*:", re.MULTILINE)
_TOP_API_VERSION = re.compile(r"^(\"?)apiVersion\1\s*:", re.MULTILINE)
_TOP_KIND = re.compile(r"^(\"?)kind\1\s*:", re.MULTILINE)
_KUSTOMIZE_API = lazy(r"^apiVersion:\s*[\"']?kustomize\.config\.k8s\.io/", re.MULTILINE)
# configuration of local-cluster tools: apiVersion and kind look like an object's, but no API server serves them
_CLUSTER_TOOL_APIS: Final = ("kind.x-k8s.io/", "k3d.io/", "ctlptl.dev/")
_CLUSTER_TOOL_API = lazy(r"^apiVersion:\s*[\"']?(?:kind\.x-k8s\.io|k3d\.io|ctlptl\.dev)/", re.MULTILINE)


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
    if "compose" in name and _COMPOSE.match(name):
        return _described(FileKind.COMPOSE)
    if "values" in name and _VALUES.match(name):
        return _described(FileKind.HELM_VALUES)
    if _in_chart_templates(path):
        return _described(FileKind.HELM_TEMPLATE)
    return None


def _has_objects(text: str) -> bool:
    """True when some document has top-level apiVersion and kind (a Kubernetes object, or a List of them)."""
    if _TOP_API_VERSION.search(text) and _TOP_KIND.search(text):  # each stops at its first match
        return True
    return '"apiVersion"' in text and '"kind"' in text


def _by_content(text: str, has_objects: bool) -> FileKind | None:
    """The kind the content says; the pattern scans run only on text holding their literal part (a manifest of
    many megabytes holds neither)."""
    if "kustomize.config.k8s.io/" in text and _KUSTOMIZE_API.search(text):
        return FileKind.KUSTOMIZATION
    if any(api in text for api in _CLUSTER_TOOL_APIS) and _CLUSTER_TOOL_API.search(text) \
            and not ("{{" in text and _HELM_ACTION.search(text)):
        return FileKind.CLUSTER_CONFIG
    if "{{" in text:
        if _HELM_ACTION.search(text):
            return FileKind.HELM_TEMPLATE
        if (_STRUCTURAL_ACTION.search(text) and not _parses(text)) or has_plain_field_action(text):
            return FileKind.GO_TEMPLATE
    if has_objects:
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
    has_objects = _has_objects(text)
    by_content = _by_content(text, has_objects)
    by_name = classify_name(path)
    if by_content is FileKind.GO_TEMPLATE and by_name is not None and by_name.kind is FileKind.HELM_TEMPLATE:
        return by_name   # a chart's template that happens to use no Helm built-in
    if by_content is not None:
        return _described(by_content)
    if by_name is None or (by_name.kind is not FileKind.HELM_TEMPLATE and has_objects):
        return None
    return by_name
