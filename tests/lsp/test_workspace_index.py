"""The language server's workspace is the repository index `check` keeps: one cache file for both, and an edit's
cross-object rules run over the edited file and the files the index links to it, not the whole folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kubectl_wasdra.lint.repo.index import cache_file, load_index
from kubectl_wasdra.lsp.projects import Project
from tests.cli_runner import run
from tests.lsp.conftest import CLAIM_TEMPLATE, DEPLOYMENT

UNRELATED = """\
apiVersion: v1
kind: Service
metadata: {name: web, namespace: apps}
spec:
  selector: {app: web}
  ports: [{port: 80}]
"""


@pytest.fixture
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, project: Path) -> Path:
    """The index cache directory for `check` and the server alike (outside the project), with the project as the
    working directory."""
    directory = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("WASDRA_CACHE_DIR", str(directory))
    monkeypatch.setenv("WASDRA_REPO_CONTEXT", "true")
    monkeypatch.chdir(project)
    return directory


def test_language_server_and_check_share_the_index_cache(project: Path, cache: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", "deploy/infer.yaml", "-o", "json"], capsys)
    assert code in (0, 1), err
    assert [p.name for p in cache.iterdir()] == [os.path.basename(cache_file(str(project), str(cache)))]
    server = Project(str(project), {})
    server.workspace.scan()
    index = server.workspace.index
    assert index is not None and index.read == 0   # every entry came from the file check wrote
    assert index.definers("ResourceClaimTemplate/ml/gpu-tempalte") == (str(project / "deploy" / "template.yaml"),)
    (project / "deploy" / "template.yaml").write_text(CLAIM_TEMPLATE.replace("gpu-tempalte", "gpu-template"))
    server.workspace.reread(str(project / "deploy" / "template.yaml"))
    assert server.workspace.index.read == 1
    again = load_index(str(project), cache_dir=str(cache))   # what check loads next: the server's update
    assert again.read == 0
    assert again.definers("ResourceClaimTemplate/ml/gpu-template") == (str(project / "deploy" / "template.yaml"),)


def test_an_edit_checks_its_file_with_the_files_it_names_only(project: Path, cache: Path) -> None:
    for number in range(20):
        (project / "other" / f"s-{number}.yaml").parent.mkdir(exist_ok=True)
        (project / "other" / f"s-{number}.yaml").write_text(UNRELATED.replace("web", f"web-{number}"))
    server = Project(str(project), {})
    server.workspace.scan()
    infer = str(project / "deploy" / "infer.yaml")
    server.workspace.open(infer, DEPLOYMENT)
    names = {(d.kind, d.name) for d in server.workspace.context()}
    assert names == {("ResourceClaimTemplate", "gpu-tempalte")}   # the near miss, for "did you mean"
    assert [f.rule for f in server.run()[infer]] == ["REF001"]
    fixed = DEPLOYMENT.replace("gpu-template", "gpu-tempalte")
    server.workspace.open(infer, fixed)
    assert {(d.kind, d.name) for d in server.workspace.context()} == {
        ("ResourceClaimTemplate", "gpu-tempalte"), ("DeviceClass", "gpu.example.com")}   # and what the template names
    assert server.run().get(infer, []) == []
