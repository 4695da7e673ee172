"""LOAD rules: inputs that cannot be read as Kubernetes objects.

The loader (kubectl_wasdra/load) finds these problems with their positions; each rule here owns one kind of
load problem, and its docstring is the user documentation.
"""

from __future__ import annotations

from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.load import LoadProblem, ProblemKind


@rule(codes.LOAD_SYNTAX_ERROR, scope="load")
def syntax_error(problem: LoadProblem) -> bool:
    """
    ## What it does
    Reports YAML or JSON that does not parse, at the line and column where the parser stopped (tabs used for
    indentation, a missing colon, an unclosed quote, an unknown YAML tag).
    ## Why is this bad?
    kubectl and kube-apiserver reject the whole file. Later documents of the same stream are still checked (from
    the next `---` on), so one typo does not hide other findings.
    ## Example
        metadata:
        <TAB>name: web        # a tab character before "name"
    ## Fix
    Fix the syntax at the reported place; indent with spaces.
    """
    return problem.kind is ProblemKind.SYNTAX


@rule(codes.LOAD_DUPLICATE_KEY, scope="load")
def duplicate_key(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a mapping key that appears twice in the same object.
    ## Why is this bad?
    Strict decoding in kubectl and kube-apiserver rejects duplicate fields; lenient readers keep only the last
    value, silently dropping the first.
    ## Example
        metadata:
          name: web
          name: api
    ## Fix
    Keep one of the keys.
    """
    return problem.kind is ProblemKind.DUPLICATE_KEY


@rule(codes.LOAD_MISSING_API_VERSION, scope="load")
def missing_api_version(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a document without `apiVersion`.
    ## Why is this bad?
    Kubernetes cannot tell which API the object belongs to and rejects it; nothing else can be checked.
    ## Example
        kind: Pod
        metadata: {name: web}
    ## Fix
    Add the apiVersion, e.g. `apiVersion: v1`.
    """
    return problem.kind is ProblemKind.MISSING_API_VERSION


@rule(codes.LOAD_MISSING_KIND, scope="load")
def missing_kind(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a document with an apiVersion but no `kind`.
    ## Why is this bad?
    Kubernetes rejects an object without a kind; nothing else can be checked.
    ## Example
        apiVersion: v1
        metadata: {name: web}
    ## Fix
    Add the kind, e.g. `kind: Pod`.
    """
    return problem.kind is ProblemKind.MISSING_KIND


@rule(codes.LOAD_NOT_AN_OBJECT, scope="load")
def document_not_object(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a YAML document or `List` item that is a scalar or a list rather than an object.
    ## Why is this bad?
    Only mappings with apiVersion and kind are Kubernetes objects; kubectl refuses the file.
    ## Example
        - apiVersion: v1
          kind: Pod
    ## Fix
    Remove the leading `- ` (use `---` between objects) or wrap the items in a `kind: List`.
    """
    return problem.kind is ProblemKind.NOT_AN_OBJECT


@rule(codes.LOAD_EMPTY_FILE, scope="load")
def empty_file(problem: LoadProblem) -> bool:
    """
    ## What it does
    Warns about a file that contains no Kubernetes objects (only comments, `---` or nothing).
    ## Why is this bad?
    Usually a mistake: the file was meant to hold manifests, or it should not be passed to the checker.
    ## Example
        # TODO: add the PodGroup
    ## Fix
    Add the manifests, or leave the file out (e.g. with pre-commit's `exclude`).
    """
    return problem.kind is ProblemKind.EMPTY_FILE


@rule(codes.LOAD_NOT_UTF8, scope="load")
def not_utf8(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a file that is not UTF-8 (UTF-16, Latin-1 ...), naming the first byte that does not decode.
    ## Why is this bad?
    Kubernetes reads manifests as UTF-8; other encodings corrupt names and values or fail to parse.
    ## Example
        metadata: {name: caf\\xe9}     # Latin-1 byte 0xe9
    ## Fix
    Save the file as UTF-8.
    """
    return problem.kind is ProblemKind.NOT_UTF8


@rule(codes.LOAD_BINARY_FILE, scope="load")
def binary_file(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a file that contains NUL bytes (an image, an archive, a compiled file).
    ## Why is this bad?
    It cannot be a manifest; it was most likely passed by a too-wide glob.
    ## Example
        kubectl wasdra check charts/   # picks up charts/logo.png renamed .yaml
    ## Fix
    Pass only YAML or JSON manifests.
    """
    return problem.kind is ProblemKind.BINARY


@rule(codes.LOAD_FILE_TOO_LARGE, scope="load")
def file_too_large(problem: LoadProblem) -> bool:
    """
    ## What it does
    Skips a file larger than the size limit (32 MiB).
    ## Why is this bad?
    kube-apiserver refuses request bodies above 3 MiB and etcd objects above 1.5 MiB; a file this large is a dump,
    not a manifest, and would make the check slow.
    ## Example
        kubectl get all -A -o yaml > everything.yaml
    ## Fix
    Split the file, or check the objects you actually apply.
    """
    return problem.kind is ProblemKind.TOO_LARGE


@rule(codes.LOAD_EXCESSIVE_ALIASING, scope="load")
def excessive_aliasing(problem: LoadProblem) -> bool:
    """
    ## What it does
    Flags a document whose YAML aliases expand far beyond its own size (a "billion laughs" alias bomb), with the
    same ratio limit as the YAML library Kubernetes uses.
    ## Why is this bad?
    kube-apiserver rejects it ("document contains excessive aliasing"); expanding it would exhaust memory.
    ## Example
        a: &a [x, x, x, x, x, x, x, x, x]
        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    ## Fix
    Write the values out, or use fewer nested aliases.
    """
    return problem.kind is ProblemKind.ALIAS_LIMIT


@rule(codes.LOAD_UNREADABLE_PATH, scope="load")
def unreadable_path(problem: LoadProblem) -> bool:
    """
    ## What it does
    Reports a path that does not exist, a glob that matches nothing, or a file that cannot be read.
    ## Why is this bad?
    The check could not do its job for that input; the command exits with 2 after reporting the others.
    ## Example
        kubectl wasdra check deploy/trian.yaml
    ## Fix
    Check the path and its permissions.
    """
    return problem.kind is ProblemKind.UNREADABLE


@rule(codes.LOAD_EMPTY_DOCUMENT, scope="load")
def empty_document(problem: LoadProblem) -> bool:
    """
    ## What it does
    Notes an empty document in the middle of a YAML stream: two `---` separators in a row, or one with only comments
    before the next. A trailing `---` at the end of a file is not reported.
    ## Why is this bad?
    kubectl skips it, so it is harmless by itself, but it often marks a template that rendered nothing or an object
    that was deleted by mistake.
    ## Example
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: a}
        ---
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: b}
    ## Fix
    Remove the extra `---`, or restore the object that was meant to be there.
    """
    return problem.kind is ProblemKind.EMPTY_DOCUMENT


@rule(codes.LOAD_NOT_A_MANIFEST, scope="load")
def not_a_manifest(problem: LoadProblem) -> bool:
    """
    ## What it does
    Skips, with one note, a file that is not Kubernetes manifests and says what it is instead: Helm templates (Go
    template actions such as `{{ .Values.x }}`, or any file under a chart's `templates/`), `Chart.yaml`, Helm values
    files (`values*.yaml`), kustomization files, GitHub workflow and repository files (`.github/`), Docker Compose
    files, pre-commit, GitLab CI and other CI configuration, `mkdocs.yml` and other tool configuration, package
    manifests (`package.json`), OpenAPI descriptions and JSON Schemas. A file named like one of these that holds
    Kubernetes objects (apiVersion and kind) is checked as a manifest.
    ## Why is this bad?
    It is not: such files live beside manifests in the folders people check. Read as manifests they would only give
    false errors ("document has no apiVersion") or, for unrendered templates, nothing that means anything.
    ## Example
        # charts/trainer/templates/job.yaml
        metadata:
          name: {{ .Release.Name }}-train
    ## Fix
    Nothing to fix. Check what the file produces instead, as the note says: `kubectl wasdra check --helm CHART_DIR`,
    `kubectl wasdra check -k DIR`; or leave the file out of the paths you check.
    """
    return problem.kind is ProblemKind.NOT_A_MANIFEST
