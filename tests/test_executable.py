"""The executable: tools/build_executable.py builds it for this platform as docs/install.md says (with the Python of the
environment running the tests, PyInstaller added in a private directory) as a one-folder archive, and the archive's
`kubectl-wasdra`, reached through a symbolic link as krew installs it, runs the fixtures with no Python on PATH; its
`kubectl_complete-wasdra` answers kubectl's completion; tools/krew_manifest.py describes that archive with its sha256.
Start-up times are measured by bench/executable_startup.py, not here.

The build is most of this module's time (PyInstaller's analysis and bundling; no dependency is installed again);
`-m "not build"` leaves these tests out of a quick local run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
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
    extract(archive, unpacked)
    return archive, unpacked


def extract(archive: Path, target: Path) -> None:
    """Unpack a release archive, refusing members that would land outside `target` or are not plain files, folders or
    links within it. tarfile's own filter="data" does that from Python 3.11.4 only; 3.11.2 (Debian 12) has no filter."""
    with tarfile.open(archive) as tf:
        if hasattr(tarfile, "data_filter"):
            tf.extractall(target, filter="data")
            return
        root = target.resolve()
        for member in tf.getmembers():
            where = (root / member.name).resolve()
            link = (where.parent / member.linkname).resolve() if member.issym() else where
            if not (member.isfile() or member.isdir() or member.issym()) or not where.is_relative_to(root) \
                    or not link.is_relative_to(root):
                raise AssertionError(f"{archive.name}: unsafe member {member.name}")
        tf.extractall(target)  # every member checked above


def _bin(unpacked: Path, tmp_path: Path) -> Path:
    """A PATH folder with symbolic links to the archive's programs (as krew links them) and no Python at all."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("kubectl-wasdra", "kubectl_complete-wasdra"):
        if not (bin_dir / name).exists():
            (bin_dir / name).symlink_to(unpacked / name)
    for tool in ("dirname", "readlink"):  # what the completion script runs
        if not (bin_dir / tool).exists():
            (bin_dir / tool).symlink_to(shutil.which(tool))
    assert shutil.which("python3", path=str(bin_dir)) is None and shutil.which("python", path=str(bin_dir)) is None
    return bin_dir


def _run(unpacked: Path, *argv: str, tmp_path: Path, program: str = "kubectl-wasdra") -> subprocess.CompletedProcess[str]:
    """Run the unpacked program through its link, from the repository root, with a PATH that holds no Python."""
    bin_dir = _bin(unpacked, tmp_path)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "TMPDIR": str(tmp_path), "NO_COLOR": "1", "LANG": "C.UTF-8"}
    return subprocess.run([str(bin_dir / program), *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_archive_holds_the_folder_completion_and_notices(built: tuple[Path, Path]) -> None:
    archive, unpacked = built
    with tarfile.open(archive) as tf:
        names = set(tf.getnames())
    assert {"README.md", "LICENSE", "NOTICE", "kubectl-wasdra", "kubectl_complete-wasdra"} <= names
    assert any(name.startswith("_internal/kubectl_wasdra/_data/schemas/") for name in names)
    assert not {name for name in names if "/" not in name} - {"README.md", "LICENSE", "NOTICE", "kubectl-wasdra",
                                                              "kubectl_complete-wasdra", "_internal", "docs"}
    readme_links = re.findall(r"\]\((docs/[^)#\s]+)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert readme_links and set(readme_links) <= names  # the README's links resolve in the unpacked archive
    assert os.access(unpacked / "kubectl-wasdra", os.X_OK) and os.access(unpacked / "kubectl_complete-wasdra", os.X_OK)


def test_completion_script_answers_kubectl(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = _run(built[1], "check", "--prof", tmp_path=tmp_path, program="kubectl_complete-wasdra")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("--profile") and result.stdout.endswith(":4\n")


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
                          "https://example.org/releases/v1/", "--homepage", "https://example.org/kubectl-wasdra",
                          str(archive)], capture_output=True, text=True, check=True)
    plugin = yaml.safe_load(out.stdout)
    assert plugin["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2" and plugin["kind"] == "Plugin"
    assert plugin["metadata"]["name"] == "wasdra"
    spec = plugin["spec"]
    assert spec["version"] == "v" + krew_manifest.__version__ and len(spec["shortDescription"]) <= 50
    # what krew-index's validation asks of a plugin manifest
    assert spec["homepage"] == "https://example.org/kubectl-wasdra" and spec["description"] and spec["caveats"]
    (entry,) = spec["platforms"]
    system, arch = build_executable.platform_name()
    assert entry["selector"] == {"matchLabels": {"os": system, "arch": arch}}
    assert entry["uri"] == f"https://example.org/releases/v1/{archive.name}"
    assert entry["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
    with tarfile.open(archive) as tf:
        names = set(tf.getnames())
    assert entry["bin"] in names and all(f["to"] == "." for f in entry["files"])
    assert all(f["from"] in names or any(n.startswith(f["from"] + "/") for n in names) for f in entry["files"])
    assert {name.split("/")[0] for name in names} == {f["from"] for f in entry["files"]}  # nothing left behind
