"""Kustomize and Helm inputs: render with `kubectl kustomize` / `helm template` (or the embedded Helm SDK of
helm-python-sdk when no helm binary is on PATH), load the output, and name each document after the file that
produced it (Helm's `# Source:` comments; Kustomize's origin annotations). Positions stay those of the rendered
output, whose label (`Rendered.label`) reports show beside the file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load.bounded import read_text_capped
from kubectl_wasdra.load.document import Document, LoadProblem
from kubectl_wasdra.load.files import load_text
from kubectl_wasdra.load.stream import document_starts

ORIGIN_ANNOTATION: Final = "config.kubernetes.io/origin"
_SOURCE: Final = re.compile(r"^# Source: (?P<path>\S.*?)\s*$", re.MULTILINE)
HELM_INSTALL_HINT: Final = ("install helm (https://helm.sh/docs/intro/install/) or the embedded renderer: "
                            "pip install 'kubectl-wasdra[helm]'")
RELEASE_NAME: Final = "release-name"   # helm template's default release name


@dataclass(frozen=True)
class Rendered:
    """Rendered manifests: `label` says how they were made ("helm template chart/"), `base` anchors origin paths."""

    label: str
    text: str
    tool: str          # "helm" or "kustomize"
    base: str          # the chart directory (Helm) or the directory origin paths are relative to (Kustomize)


def render_kustomize(directory: str, kubectl: str | None = None) -> Rendered:
    """`kubectl kustomize DIR` with origin annotations: a throw-away kustomization that includes DIR and turns on
    `buildMetadata: [originAnnotations]`, so DIR's own files stay untouched. `kubectl` is the binary to use (the one
    that runs the plugin, when it says so), else the one on PATH."""
    kubectl = kubectl if kubectl and os.path.isfile(kubectl) else shutil.which("kubectl")
    if kubectl is None:
        raise UsageError("kubectl is not on PATH", where="-k", hint="install kubectl, or pipe `kustomize build DIR` into check -")
    with tempfile.TemporaryDirectory(prefix="wasdra-kustomize-") as wrapper:
        target = os.path.relpath(os.path.abspath(directory), wrapper).replace(os.sep, "/")
        with open(os.path.join(wrapper, "kustomization.yaml"), "w", encoding="utf-8") as stream:
            stream.write(f"resources:\n- {target}\nbuildMetadata: [originAnnotations]\n")
        text = _run([kubectl, "kustomize", wrapper], "-k", f"kubectl kustomize {directory}")
        return Rendered(f"kubectl kustomize {directory}", text, "kustomize", wrapper)


def render_helm(chart: str, values: Sequence[str] = (), set_values: Sequence[str] = ()) -> Rendered:
    """`helm template CHART --values F... --set k=v...` with the helm binary, else with helm-python-sdk; UsageError
    (exit 2) with how to install one when neither is there."""
    label = f"helm template {chart}"
    helm = shutil.which("helm")
    if helm is not None:
        command = [helm, "template", RELEASE_NAME, chart]
        for file in values:
            command += ["--values", file]
        for item in set_values:
            command += ["--set", item]
        return Rendered(label, _run(command, "--helm", label), "helm", chart)
    return Rendered(label, _render_with_sdk(chart, values, set_values), "helm", chart)


def _render_with_sdk(chart: str, values: Sequence[str], set_values: Sequence[str]) -> str:
    try:
        import helm_python
    except ImportError:
        raise UsageError("no Helm renderer: helm is not on PATH and helm-python-sdk is not installed", where="--helm",
                         hint=HELM_INSTALL_HINT) from None
    merged: dict[str, Any] = {}
    try:
        for file in values:
            _deep_merge(merged, helm_python.values_from_yaml(read_text_capped(file)) or {})
        for item in set_values:
            _deep_merge(merged, helm_python.parse_set_string(item))
        loaded = helm_python.Chart.load(chart)
        manifests = loaded.render(values=merged, name=RELEASE_NAME)
    except helm_python.HelmError as exc:
        raise UsageError(f"helm could not render the chart: {exc}", where=chart, hint="fix the chart or its values") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read a values file: {getattr(exc, 'strerror', None) or exc}", where="--values",
                         hint="pass UTF-8 YAML files of at most 32 MiB") from None
    name = loaded.name
    parts = []
    for path in sorted(manifests):
        body = manifests[path]
        if not path.endswith((".yaml", ".yml", ".json")) or not body.strip():
            continue  # NOTES.txt and templates that render to nothing, as helm template leaves them out
        source = path if path.startswith(f"{name}/") else f"{name}/{path}"
        parts.append(f"---\n# Source: {source}\n{body.strip()}\n")
    return "".join(parts)


def _deep_merge(into: dict[str, Any], other: dict[str, Any]) -> None:
    for key, value in other.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _deep_merge(into[key], value)
        else:
            into[key] = value


def _run(command: list[str], flag: str, label: str) -> str:
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"{label} failed: {exc}", where=flag, hint="run it by hand to see why") from None
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        raise UsageError(f"{label} failed: {lines[-1] if lines else f'exit {result.returncode}'}", where=flag,
                         hint="run it by hand to see the whole error")
    return result.stdout


def load_rendered(rendered: Rendered) -> tuple[list[Document], list[LoadProblem]]:
    """The rendered documents, each named after its source file (relative to the working directory when below it);
    problems of the output itself keep the renderer's label as their file."""
    documents, problems = load_text(rendered.label, rendered.text)
    starts = document_starts(rendered.text) if rendered.tool == "helm" else []
    named = [_with_origin(document, rendered, starts) for document in documents]
    return named, problems


def _with_origin(document: Document, rendered: Rendered, starts: list[int]) -> Document:
    origin = _helm_origin(document, rendered, starts) if rendered.tool == "helm" else _kustomize_origin(document, rendered)
    if origin is None:
        return document
    return Document(origin, document.index, document.data, document.item, document.source)


def _helm_origin(document: Document, rendered: Rendered, starts: list[int]) -> str | None:
    """The `# Source: chart/templates/x.yaml` comment that opens the document (helm writes it after the `---`), else
    the nearest one before, as a path inside the chart directory. `starts`: where each document of the output starts
    (load/stream.py), so no document is composed for its position."""
    text, index = rendered.text, document.index
    start = starts[index] if index < len(starts) else len(text)
    end = starts[index + 1] if index + 1 < len(starts) else len(text)
    match = _SOURCE.search(text, start, end) or next(reversed(list(_SOURCE.finditer(text, 0, start))), None)
    if match is None:
        return None
    inside = match.group("path").split("/", 1)[-1]   # drop the chart name helm puts first
    return _display(os.path.join(rendered.base, inside))


def _kustomize_origin(document: Document, rendered: Rendered) -> str | None:
    """`config.kubernetes.io/origin: "path: ..."` (relative to the throw-away kustomization), removed from the data."""
    annotations = document.metadata.get("annotations")
    if not isinstance(annotations, dict) or not isinstance(annotations.get(ORIGIN_ANNOTATION), str):
        return None
    origin = annotations.pop(ORIGIN_ANNOTATION)
    if not annotations:
        document.data["metadata"].pop("annotations")
    match = re.search(r"^path:\s*(?P<path>\S.*?)\s*$", origin, re.MULTILINE)
    if match is None:
        return None
    return _display(os.path.normpath(os.path.join(rendered.base, match.group("path"))))


def _display(path: str) -> str:
    relative = os.path.relpath(os.path.abspath(path))
    return path if relative.startswith("..") else relative
