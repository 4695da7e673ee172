"""Messages that used to mislead: bare invocation, help defaults, config errors, suppressions, kubeconfig and
namespace errors (each names what the user actually did)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_runner import run

ROOT = Path(__file__).resolve().parent.parent


def test_bare_command_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([], capsys)
    assert code == 0 and err == "" and out.startswith("Usage: kubectl-wasdra") and "\n  check " in out


def test_recursive_default_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["check", "--help"], capsys)
    assert "[default: R]" not in out and "[default: recursive]" in " ".join(out.split())


def test_every_config_error_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".wasdra.yaml").write_text('k8sVersion: "1.99"\nprofil: x\nclusters:\n  a: {failOn: x, profile: nah}\n')
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["config"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 4, err
    assert [line.split(": ")[0 if n else 2].rsplit(":", 2)[-2] for n, line in enumerate(lines)] == ["1", "2", "4", "4"]
    assert 'did you mean "profile"' in lines[1] and '"failOn" in cluster "a"' in lines[2] and '"nah"' in lines[3]


def test_a_suppression_of_an_unknown_rule_suggests_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x # wasdra: ignore[REF03] because\n")
    _, out, _ = run(["check", str(path), "-o", "json"], capsys)
    assert "CONF001" in out and 'did you mean \\"REF003\\"?' in out


@pytest.mark.parametrize(("args", "env", "named"), [
    ([], {}, "~/.kube/config"),
    ([], {"KUBECONFIG": "/nonexistent/config"}, "KUBECONFIG=/nonexistent/config"),
    (["--kubeconfig", "/nonexistent/k"], {}, "--kubeconfig /nonexistent/k"),
], ids=["default", "env", "flag"])
def test_kubeconfig_errors_name_the_kubeconfig_used(args: list[str], env: dict[str, str], named: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code, _, err = run(["snapshot", *args], capsys)
    where = err.split("error: ", 1)[1].split(": cannot use the kubeconfig")[0]
    assert code == 2 and where.startswith(named) and "--context" not in where, err


def test_explain_pending_for_a_namespace_the_cluster_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    cluster = str(ROOT / "fixtures" / "clusters" / "two-racks")
    code, out, err = run(["explain-pending", "--snapshot", cluster, "-n", "mll"], capsys)
    assert code == 2 and 'namespace "mll" does not exist' in err and 'did you mean "ml"?' in err
    code, out, _ = run(["explain-pending", "--snapshot", cluster, "-n", "default"], capsys)
    assert code == 0 and "nothing is Pending in default" in out
