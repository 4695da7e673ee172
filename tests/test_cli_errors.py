"""Every error of the command line is one line `kubectl-wasdra: error: where: what — how` with exit 2, never click's
four-line usage block and never a traceback."""

from __future__ import annotations

import pytest

from kubectl_wasdra.cli import main


@pytest.mark.parametrize(("argv", "needle"), [
    (["check"], "check: nothing to check — name files or directories, -f PATH, - for stdin, -k DIR or --helm CHART"),
    (["explain", "--snapshot", "."], "PATH: no manifests given — name files or directories, -f PATH, or - for stdin"),
    (["check", "--bogus", "x"], "check: no such option '--bogus'"),
    (["check", "-o", "xml", "x"], "check: invalid value for '-o' / '--output'"),
    (["frob"], "no such command 'frob' — see 'kubectl-wasdra --help'"),
    (["--bogus"], "no such option '--bogus'"),
    (["completion", "tcsh"], "completion: invalid value"),
    (["gates", "--diff", "1.35"], "option '--diff' requires 2 arguments"),
    (["check", "--snapshot", "/nonexistent/cluster", "x.yaml"], "check: invalid value for '--snapshot'"),
    (["check", "x.yaml", "--k8s-version", "1.99"], "--k8s-version: Kubernetes 1.99 is not supported — use one of"),
], ids=["missing-arg", "explain-no-manifests", "bad-option", "bad-choice", "bad-command", "bad-root-option", "bad-shell",
        "nargs", "bad-path",
        "bad-version"])
def test_usage_errors_are_one_line(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("kubectl-wasdra: error: ") and needle in lines[0]
    assert "Usage:" not in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["explain", "-f", "x.yaml"], ["explain-pending"]])
def test_explain_refuses_several_releases(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--snapshot", ".", "--k8s-version", "1.35,1.37"])
    _, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert err == ("kubectl-wasdra: error: --k8s-version: explain simulates one release at a time — give one release, "
                   "e.g. --k8s-version 1.37\n")


@pytest.mark.parametrize(("argv", "expected"), [
    (["--upgrade-from", "1.35", "-o", "sarif"],
     'kubectl-wasdra: error: -o: output "sarif" is not available with --upgrade-from — use -o text or -o json'),
    (["--upgrade-from", "1.99"], "kubectl-wasdra: error: --upgrade-from: Kubernetes 1.99 is not supported — use one of "
                                 "1.33, 1.34, 1.35, 1.36, 1.37"),
], ids=["format", "release"])
def test_upgrade_from_errors(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "x.yaml", *argv])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == "" and err.splitlines() == [expected]
