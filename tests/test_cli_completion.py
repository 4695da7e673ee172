"""Shell completion: the scripts for bash/zsh/fish, completing commands, flags and flag values (releases, gates, rule
IDs), the real bash function sourced in bash, and kubectl's plugin completion through `kubectl_complete-wasdra`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kubectl_wasdra.cli import kubectl_complete, main

BIN = Path(sys.executable).parent


def complete(shell: str, words: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("_KUBECTL_WASDRA_COMPLETE", f"{shell}_complete")
    monkeypatch.setenv("COMP_WORDS", " ".join(["kubectl-wasdra", *words]))
    # fish passes the current token itself (`commandline -t`), bash and zsh its index
    monkeypatch.setenv("COMP_CWORD", words[-1] if shell == "fish" else str(len(words)))
    with pytest.raises(SystemExit):
        main([])
    return capsys.readouterr().out


@pytest.mark.parametrize(("words", "expected"), [
    (["ch"], {"check"}),
    (["ex"], {"explain", "explain-pending"}),
    (["check", "--fail"], {"--fail-on"}),
    (["check", "-o", ""], {"text", "json", "sarif", "junit", "github"}),
    (["check", "--k8s-version", ""], {"1.33", "1.34", "1.35", "1.36", "1.37", "auto"}),
    (["gates", "--k8s-version", ""], {"1.33", "1.34", "1.35", "1.36", "1.37"}),
    (["check", "--feature-gates", "GenericWork"], {"GenericWorkload="}),
    (["check", "--select", "SCHEMA00"], {f"SCHEMA00{i}" for i in range(1, 7)}),
    (["rules", "API00"], {"API001", "API002", "API003"}),
    (["completion", ""], {"bash", "zsh", "fish"}),
], ids=["command", "commands", "flag", "output", "release", "gates-release", "gate", "select", "rule-id", "shell"])
def test_bash_completion(words: list[str], expected: set[str], capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    out = complete("bash", words, capsys, monkeypatch)
    values = {line.split(",", 1)[1] for line in out.splitlines() if line.startswith("plain,")}
    assert expected <= values and all(v.startswith(words[-1].rpartition(",")[2].rpartition("=")[0] or "") for v in values)


def test_context_and_cluster_complete_from_the_kubeconfig(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "kubeconfig"
    config.write_text("apiVersion: v1\nkind: Config\ncurrent-context: prod\n"
                      "clusters: [{name: prod-eu, cluster: {server: 'https://a'}}, {name: lab, cluster: {server: 'https://b'}}]\n"
                      "users: [{name: u, user: {token: t}}]\n"
                      "contexts: [{name: prod, context: {cluster: prod-eu, user: u}},"
                      " {name: lab, context: {cluster: lab, user: u}}]\n")
    monkeypatch.setenv("KUBECONFIG", str(config))

    def names(words: list[str]) -> set[str]:
        out = complete("bash", words, capsys, monkeypatch)
        return {line.split(",", 1)[1] for line in out.splitlines() if line.startswith("plain,")}

    assert names(["explain", "--cluster", "pro"]) == {"prod-eu"}
    assert names(["snapshot", "--context", ""]) == {"prod", "lab"}
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "absent"))
    assert names(["check", "--cluster", ""]) == set()


def test_check_paths_complete_as_files(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert complete("bash", ["check", "fix"], capsys, monkeypatch).splitlines() == ["file,fix"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_complete(shell: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = complete(shell, ["check", "--k8s-ver"], capsys, monkeypatch)
    assert "--k8s-version" in out


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_sourced_bash_script_completes(tmp_path: Path) -> None:
    script = ('source <(kubectl-wasdra completion bash)\n'
              'COMP_WORDS=(kubectl-wasdra check --fail); COMP_CWORD=2\n'
              '_kubectl_wasdra_completion kubectl-wasdra\n'
              'echo "${COMPREPLY[@]}"\n')
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, check=False, cwd=tmp_path)
    assert result.stdout.split() == ["--fail-on"], result.stderr


def test_kubectl_plugin_completion_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        kubectl_complete(["check", "--profile", ""])
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == ":4" and {line.split("\t")[0] for line in lines[:-1]} == {"default", "production", "experimental"}
    with pytest.raises(SystemExit):
        kubectl_complete(["check", ""])
    assert capsys.readouterr().out.splitlines() == [":0"]  # manifests: let the shell complete file names


@pytest.mark.skipif(shutil.which("kubectl", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}") is None
                    or shutil.which("kubectl_complete-wasdra", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}") is None,
                    reason="kubectl or the installed kubectl_complete-wasdra script is not on PATH")
def test_kubectl_completes_the_plugin(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "KUBECONFIG": str(tmp_path / "none")}
    result = subprocess.run(["kubectl", "__complete", "wasdra", "explain-p"], capture_output=True, text=True, env=env,
                            check=False)
    assert result.stdout.splitlines()[0].split("\t")[0] == "explain-pending" and result.stdout.splitlines()[-1] == ":4"
