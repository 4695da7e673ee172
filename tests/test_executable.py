"""The single-file executable: tools/build_executable.py builds it for this platform as the README says (with the
Python of the environment running the tests, PyInstaller added in a private directory), and the archive's
`kubectl-wasdra` runs the fixtures with no Python on PATH; tools/krew_manifest.py describes that archive with its
sha256.

The build is most of this module's time (PyInstaller's analysis and bundling; no dependency is installed again);
`-m "not build"` leaves these tests out of a quick local run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import build_executable  # noqa: E402
import krew_manifest  # noqa: E402

pytestmark = pytest.mark.build
GATES = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
         "--runtime-config", "scheduling.k8s.io/v1beta1=true"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the release archive, the directory it was unpacked into)."""
    work = tmp_path_factory.mktemp("exe")
    started = time.monotonic()
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_executable.py"), "--dist", str(work / "dist"),
                    "--pyinstaller", str(work / "pyinstaller"), "--work", str(work / "build")], check=True, timeout=900)
    print(f"\nbuild_executable.py: {time.monotonic() - started:.0f} s")
    system, arch = build_executable.platform_name()
    archive = work / "dist" / f"kubectl-wasdra_{system}_{arch}.tar.gz"
    unpacked = work / "unpacked"
    with tarfile.open(archive) as tf:
        tf.extractall(unpacked, filter="data")
    return archive, unpacked


def _run(unpacked: Path, *argv: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the unpacked executable from the repository root with a PATH that holds no Python at all."""
    empty = tmp_path / "empty-bin"
    empty.mkdir(exist_ok=True)
    env = {"PATH": str(empty), "HOME": str(tmp_path), "TMPDIR": str(tmp_path), "NO_COLOR": "1", "LANG": "C.UTF-8"}
    assert shutil.which("python3", path=env["PATH"]) is None and shutil.which("python", path=env["PATH"]) is None
    return subprocess.run([str(unpacked / "kubectl-wasdra"), *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_archive_holds_the_executable_and_readme(built: tuple[Path, Path]) -> None:
    archive, unpacked = built
    with tarfile.open(archive) as tf:
        assert sorted(tf.getnames()) == ["README.md", "kubectl-wasdra"]
    assert os.access(unpacked / "kubectl-wasdra", os.X_OK)


@pytest.mark.parametrize(("argv", "code", "needle"), [
    (["check", "fixtures/manifests/check"], 0, "0 errors"),
    (["check", "fixtures/manifests/check-broken"], 1, "SCHEMA002"),
    (["check", "fixtures/lint/FIT001/bad.yaml", "--snapshot", "fixtures/clusters/two-racks"], 1,
     "FIT001 selector-matches-no-device"),
    (["explain", "fixtures/manifests/explain/", "--snapshot", "fixtures/clusters/two-racks", *GATES, "--fail-on", "never"],
     0, "PodGroup ml/finetune — fits"),
    (["explain", "-f", "fixtures/manifests/explain/train-gang-racks.yaml", "--snapshot", "fixtures/clusters/two-racks",
      *GATES], 1, "does NOT fit"),
    (["rules", "SCHEMA002"], 0, "SCHEMA002"),
    (["gates", "--k8s-version", "1.37", "--area", "dra"], 0, "DRA"),
], ids=["check-clean", "check-broken", "check-snapshot-cel", "explain-fits", "explain-does-not-fit", "rules", "gates"])
def test_executable_runs_the_fixtures_without_python(built: tuple[Path, Path], tmp_path: Path, argv: list[str], code: int,
                                                     needle: str) -> None:
    result = _run(built[1], *argv, tmp_path=tmp_path)
    assert result.returncode == code, result.stdout + result.stderr
    assert needle in result.stdout, result.stdout
    assert "Traceback" not in result.stderr


def test_executable_version_names_the_bundled_data(built: tuple[Path, Path], tmp_path: Path) -> None:
    from kubectl_wasdra import __version__

    result = _run(built[1], "version", "-o", "json", tmp_path=tmp_path)
    info = json.loads(result.stdout)
    assert result.returncode == 0 and info["version"] == __version__ and len(info["data"]["schemas"]) == 5


def test_krew_manifest_describes_the_archive(built: tuple[Path, Path], tmp_path: Path) -> None:
    archive, _ = built
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "krew_manifest.py"), "--base-url",
                          "https://example.org/releases/v1/", str(archive)], capture_output=True, text=True, check=True)
    plugin = yaml.safe_load(out.stdout)
    assert plugin["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2" and plugin["kind"] == "Plugin"
    assert plugin["metadata"]["name"] == "wasdra"
    spec = plugin["spec"]
    assert spec["version"] == "v" + krew_manifest.__version__ and len(spec["shortDescription"]) <= 50
    (entry,) = spec["platforms"]
    system, arch = build_executable.platform_name()
    assert entry["selector"] == {"matchLabels": {"os": system, "arch": arch}}
    assert entry["uri"] == f"https://example.org/releases/v1/{archive.name}"
    assert entry["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
    with tarfile.open(archive) as tf:
        names = set(tf.getnames())
    assert entry["bin"] in names and {f["from"] for f in entry["files"]} <= names
