#!/usr/bin/env python3
"""Build the single-file `kubectl-wasdra` executable for the platform this runs on, and its release archive.

PyInstaller (from PyPI, pinned below) bundles the interpreter, the package, its native dependencies and the data
directories schemas/ and rules/ (as kubectl_wasdra/_data/, where catalog/data.py looks first) into one file that
needs no Python on the target machine. Everything happens in a private virtual environment, so the build pulls nothing
into the interpreter that runs this script. Run it once per platform (linux-amd64, linux-arm64, darwin-amd64,
darwin-arm64, windows-amd64): PyInstaller does not cross-compile.

    python3 tools/build_executable.py                  # -> dist/kubectl-wasdra_<os>_<arch>.tar.gz (.zip on Windows)
    python3 tools/build_executable.py --dist out/ --venv build/exe-venv

The archive holds `kubectl-wasdra` (`.exe` on Windows) and LICENSE-free README.md; tools/krew_manifest.py turns the
archives into a krew plugin manifest.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYINSTALLER = "pyinstaller==6.22.3"
NAME = "kubectl-wasdra"
DATA_DIRECTORIES = ("schemas", "rules")
_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}
ENTRY = 'from kubectl_wasdra.cli import main\n\nmain()\n'


def platform_name() -> tuple[str, str]:
    """(os, arch) in Go/krew spelling for the running machine: ("linux", "amd64"), ("darwin", "arm64") ..."""
    system = platform.system().lower()
    machine = platform.machine().lower()
    if machine not in _ARCH:
        raise SystemExit(f"build_executable: unsupported machine {machine!r}; add it to _ARCH")
    return system, _ARCH[machine]


def _venv_python(directory: Path) -> Path:
    return directory / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def prepare_venv(directory: Path) -> Path:
    """A virtual environment with the package (non-editable) and PyInstaller installed; reused when present."""
    python = _venv_python(directory)
    if not python.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(directory)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", PYINSTALLER, str(ROOT)],
                   check=True)
    return python


def build(python: Path, work: Path) -> Path:
    """Run PyInstaller; return the executable it wrote."""
    work.mkdir(parents=True, exist_ok=True)
    entry = work / "entry.py"
    entry.write_text(ENTRY)
    separator = ";" if os.name == "nt" else ":"
    data = [arg for name in DATA_DIRECTORIES
            for arg in ("--add-data", f"{ROOT / name}{separator}kubectl_wasdra/_data/{name}")]
    subprocess.run([str(python), "-m", "PyInstaller", "--onefile", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--name", NAME, "--distpath", str(work / "dist"), "--workpath", str(work / "build"),
                    "--specpath", str(work), "--collect-submodules", "kubectl_wasdra", *data, str(entry)], check=True)
    return work / "dist" / (NAME + (".exe" if os.name == "nt" else ""))


def archive(executable: Path, dist: Path, system: str, arch: str) -> Path:
    """Pack the executable and the README into dist/kubectl-wasdra_<os>_<arch>.tar.gz (.zip for Windows)."""
    dist.mkdir(parents=True, exist_ok=True)
    stem = dist / f"{NAME}_{system}_{arch}"
    if system == "windows":
        path = stem.with_suffix(".zip")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(executable, executable.name)
            zf.write(ROOT / "README.md", "README.md")
        return path
    path = Path(f"{stem}.tar.gz")
    with tarfile.open(path, "w:gz") as tf:
        tf.add(executable, executable.name)
        tf.add(ROOT / "README.md", "README.md")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the archive goes (default: dist/)")
    parser.add_argument("--venv", type=Path, default=ROOT / "build" / "exe-venv", help="build environment (reused)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "exe", help="PyInstaller's work directory")
    args = parser.parse_args(argv)
    system, arch = platform_name()
    started = time.monotonic()
    python = prepare_venv(args.venv)
    installed = time.monotonic()
    executable = build(python, args.work)
    built = time.monotonic()
    path = archive(executable, args.dist, system, arch)
    shutil.copy2(executable, args.dist / executable.name)
    print(f"{path} ({path.stat().st_size / 2**20:.1f} MiB); executable {args.dist / executable.name}; "
          f"install {installed - started:.0f} s, build {built - installed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
