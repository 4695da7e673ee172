"""Files that are not Kubernetes manifests: classified by path and content, skipped with one LOAD013 info each."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.load.classify import FileKind, classify, classify_name

JOB = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\n"
       "spec: {template: {spec: {restartPolicy: Never, containers: []}}}\n")
HELM = 'metadata:\n  name: {{ .Release.Name }}\n  labels:\n    {{- include "x.labels" . | nindent 4 }}\n'

CASES = [
    ("chart/templates/job.yaml", HELM, FileKind.HELM_TEMPLATE),
    ("job.yaml", 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "{{ .Values.name }}"\n', FileKind.HELM_TEMPLATE),
    ("job.yaml", "{{- if .Capabilities.APIVersions.Has \"x\" }}\napiVersion: v1\n{{- end }}\n", FileKind.HELM_TEMPLATE),
    ("job.yaml", "spec:\n{{ toYaml .spec | indent 2 }}\n", FileKind.HELM_TEMPLATE),
    ("chart/Chart.yaml", "apiVersion: v2\nname: trainer\nversion: 0.1.0\n", FileKind.HELM_CHART),
    ("chart/values.yaml", "replicaCount: 1\n", FileKind.HELM_VALUES),
    ("chart/tests/svc_test.yaml", "suite: svc\ntemplates: [svc.yaml]\ntests:\n- it: works\n  asserts:\n"
                                  "  - containsDocument: {apiVersion: v1, kind: Service}\n", FileKind.HELM_TEST),
    ("chart/values-gpu.yaml", "gpus: 8\n", FileKind.HELM_VALUES),
    ("env/prod.values.yaml", "gpus: 8\n", FileKind.HELM_VALUES),
    ("kustomization.yaml", "resources: [job.yaml]\n", FileKind.KUSTOMIZATION),
    ("Kustomization", "resources: [job.yaml]\n", FileKind.KUSTOMIZATION),
    ("overlay/kustom.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n", FileKind.KUSTOMIZATION),
    ("component.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n", FileKind.KUSTOMIZATION),
    (".github/workflows/ci.yml", "on: push\njobs: {}\n", FileKind.GITHUB_WORKFLOW),
    (".github/dependabot.yml", "version: 2\n", FileKind.GITHUB_CONFIG),
    ("docker-compose.yml", "services: {web: {image: nginx}}\n", FileKind.COMPOSE),
    ("compose.override.yaml", "services: {}\n", FileKind.COMPOSE),
    (".pre-commit-config.yaml", "repos: []\n", FileKind.PRE_COMMIT),
    (".gitlab-ci.yml", "stages: [test]\n", FileKind.CI_CONFIG),
    ("mkdocs.yml", "site_name: docs\n", FileKind.TOOL_CONFIG),
    ("package.json", '{"name": "x"}', FileKind.PACKAGE_MANIFEST),
    ("api/spec.yaml", "openapi: 3.0.0\ninfo: {title: x}\n", FileKind.OPENAPI),
    ("api/swagger.json", '{"swagger": "2.0"}\n', None),  # JSON keys are not at the start of a line: left as is
    ("schema/thing.yaml", "$schema: http://json-schema.org/draft-07/schema#\ntype: object\n", FileKind.JSON_SCHEMA),
    # scheduler_perf's templates: valid YAML whose plain values are placeholders, or YAML only once rendered
    ("perf/class.yaml", "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: test-class-{{.Index}}\n",
     FileKind.GO_TEMPLATE),
    ("perf/pod.yaml", "apiVersion: v1\nkind: Pod\nspec:\n  priority: {{ .priority }}\n", FileKind.GO_TEMPLATE),
    ("perf/cpg.yaml", "spec:\n  {{- if .gang }}\n  gang: {}\n  {{- end }}\n", FileKind.GO_TEMPLATE),
    ("chart/templates/pod.yaml", "metadata:\n  name: pod-{{ .index }}\n", FileKind.HELM_TEMPLATE),
    # Kueue's site/static/examples/multikueue/dev/worker-kind-config.yaml: a kind cluster, not an object
    ("dev/worker-kind-config.yaml", "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n",
     FileKind.CLUSTER_CONFIG),
    ("k3d.yaml", "apiVersion: k3d.io/v1alpha5\nkind: Simple\nservers: 1\n", FileKind.CLUSTER_CONFIG),
]


@pytest.mark.parametrize(("path", "text", "kind"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_classify(tmp_path: Path, path: str, text: str, kind: FileKind | None) -> None:
    file = tmp_path / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text)
    if path.startswith("chart/templates/"):
        (tmp_path / "chart" / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n")
    found = classify(str(file), text)
    assert (found.kind if found else None) == kind


@pytest.mark.parametrize(("path", "text"), [
    ("values-job.yaml", JOB),                            # named like values, holds an object: a manifest
    ("docker-compose.yaml", JOB),
    ("alerts.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  t: |\n"
                    "    {{ range .Alerts }}{{ .Labels.alertname }}{{ end }}\n"),   # another program's Go template
    ("wf.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: w}\nspec:\n"
                "  arguments: {parameters: [{name: m, value: '{{workflow.name}}'}]}\n"),
    ("-", JOB),
    ("rules.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\ndata:\n"
                   "  summary: Instance {{ $labels.instance }} down\n"),   # Prometheus' template variables
    ("quoted.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: q}\n"
                    "data: {title: '{{ .CommonLabels.alertname }}', b: \"{{.X}}\"}\n"),  # quoted: the object's data
    ("commented.yaml", JOB + "# name: job-{{.Index}}\n"),
    ("folded.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  t: >-\n"
                    "    {{.Status}}\n  u: plain\n"),
])
def test_manifests_stay_manifests(path: str, text: str) -> None:
    assert classify(path, text) is None


def test_classify_name_needs_no_content() -> None:
    assert classify_name("a/b/Chart.yaml").kind is FileKind.HELM_CHART
    assert classify_name("deploy/job.yaml") is None and classify_name("-") is None


def _chart(root: Path) -> None:
    (root / "chart" / "templates").mkdir(parents=True)
    (root / "chart" / "Chart.yaml").write_text("apiVersion: v2\nname: trainer\nversion: 0.1.0\n")
    (root / "chart" / "values.yaml").write_text("workers: 4\n")
    (root / "chart" / "templates" / "job.yaml").write_text(HELM)
    (root / "chart" / "templates" / "plain.yaml").write_text(JOB)   # rendered with the chart all the same
    (root / "kustomization.yaml").write_text("resources: [chart]\n")
    (root / "job.yaml").write_text(JOB)


def test_a_chart_folder_gives_one_info_per_file_and_no_error(tmp_path: Path) -> None:
    _chart(tmp_path)
    report = run_check(CheckOptions(paths=(str(tmp_path),), jobs=1))
    notes = sorted((Path(f.file).relative_to(tmp_path).as_posix(), f.rule, str(f.severity)) for f in report.findings)
    assert notes == [("chart/Chart.yaml", "LOAD013", "info"), ("chart/templates/job.yaml", "LOAD013", "info"),
                     ("chart/templates/plain.yaml", "LOAD013", "info"), ("chart/values.yaml", "LOAD013", "info"),
                     ("kustomization.yaml", "LOAD013", "info")]
    assert not report.fatal and [d.file for d in report.documents] == [str(tmp_path / "job.yaml")]


def test_a_helm_template_passed_directly_or_on_stdin_is_skipped(tmp_path: Path) -> None:
    import io

    (tmp_path / "t.yaml").write_text(HELM)
    direct = run_check(CheckOptions(paths=(str(tmp_path / "t.yaml"),), jobs=1))
    piped = run_check(CheckOptions(paths=("-",), stdin=io.BytesIO(HELM.encode()), jobs=1))
    for report in (direct, piped):
        assert [(f.rule, f.line, f.column) for f in report.findings] == [("LOAD013", 1, 1)] and not report.fatal
        assert "a Helm (Go) template" in report.findings[0].message and "check --helm" in (report.findings[0].hint or "")


@pytest.mark.parametrize(("text", "rules"), [
    ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ foo }}\n", ["LOAD013"]),   # a template, no Helm built-ins
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  {a: 1}: x\n", ["LOAD001"]),  # a mapping as a key
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  [a]: x\n", ["LOAD001"]),     # a list as a key
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  :\n", ["LOAD001"]),             # an empty key
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  ~: x\n", ["LOAD001"]),          # a null key
], ids=["template-without-helm-objects", "mapping-key", "list-key", "empty-key", "null-key"])
def test_collection_keys_are_load_problems_not_crashes(tmp_path: Path, text: str, rules: list[str]) -> None:
    """yaml-rs turns `{{ x }}` and `{a: 1}: x` into frozenset keys and `: x` into a None key; go-yaml and
    sigs.k8s.io/yaml refuse them ("invalid map key", "Unsupported map key of type")."""
    (tmp_path / "x.yaml").write_text(text)
    report = run_check(CheckOptions(paths=(str(tmp_path / "x.yaml"),), jobs=1))
    assert [f.rule for f in report.findings] == rules and not report.fatal


def _string_keys_only(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _string_keys_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_string_keys_only(v) for v in value)
    return True


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab:- \n{}[],01", max_size=60))
@example("{0}")  # a flow-mapping key without a value
@example("{:}")  # a null key before "}"
@example("[:]")  # a single-pair mapping inside a flow sequence
def test_loaded_documents_have_string_keys_only(body: str) -> None:
    """Whatever the YAML, rules only ever see string keys (as after sigs.k8s.io/yaml's JSON conversion)."""
    from kubectl_wasdra.load import load_text

    documents, _ = load_text("x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  " + body + "\n")
    assert all(_string_keys_only(d.data) for d in documents)


def test_flow_mapping_keys_without_values_become_strings() -> None:
    """`{0}` is the mapping {0: null}: its key is converted to "0" as sigs.k8s.io/yaml does (found by the property test)."""
    from kubectl_wasdra.load import load_text

    for body, keys in (("{0}", ["0"]), ("{a, 1}", ["a", "1"]), ("{true}", ["true"])):
        documents, _ = load_text("x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  " + body + "\n")
        assert list(documents[0].data["data"]) == keys

