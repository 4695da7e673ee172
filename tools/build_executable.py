#!/usr/bin/env python3
"""Build the `kubectl-wasdra` executable for the platform this runs on, and its release archive.

PyInstaller (from PyPI, pinned below) bundles the interpreter, the package, its native dependencies and the data
directories schemas/ and rules/ (as kubectl_wasdra/_data/, where catalog/data.py looks first) into one folder that
needs no Python on the target machine: the executable `kubectl-wasdra` beside `_internal/` (the interpreter, the
modules, the data). A one-folder build starts about as fast as a virtual environment; the single-file form
PyInstaller also offers unpacks all of that into a temporary directory on every run (CPU seconds for `--version`: 0.77
single-file, 0.09 one-folder, 0.02 a venv; bench/executable_startup.py). Run it once per platform (linux-amd64,
linux-arm64, darwin-amd64, darwin-arm64, windows-amd64): PyInstaller does not cross-compile.

By default the build uses the environment of the Python that runs this script (the README set-up's .venv, which holds
the package's dependencies) and adds PyInstaller in a private directory (build/pyinstaller, `pip install --target`),
so nothing is installed twice and the environment itself is left as it was; the package is bundled from this checkout.
`--venv DIR` builds in a clean virtual environment instead (the package and PyInstaller installed there; slower).

    .venv/bin/python tools/build_executable.py         # -> dist/kubectl-wasdra_<os>_<arch>.tar.gz (.zip on Windows)
    python3 tools/build_executable.py --dist out/ --venv build/exe-venv

The archive holds, at its top level, `kubectl-wasdra` (`.exe` on Windows), its `_internal/` folder,
`kubectl_complete-wasdra` (kubectl's plugin completion; not on Windows), README.md, docs/ (what the README links
to), LICENSE and NOTICE. Unpack it into a folder of its own and put a symbolic link to `kubectl-wasdra` on PATH;
tools/krew_manifest.py turns the archives into a krew plugin manifest.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from pathlib import Path

from readme_setup import requirement_name, requirements

ROOT = Path(__file__).resolve().parent.parent
PYINSTALLER = "pyinstaller==6.22.3"
NAME = "kubectl-wasdra"
DATA_DIRECTORIES = ("schemas", "rules")
_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}
# the frozen program: `kubectl-wasdra`, or kubectl's completion when the kubectl_complete-wasdra script runs it
ENTRY = """import os

if os.environ.pop("_WASDRA_KUBECTL_COMPLETE", None) == "1":
    from kubectl_wasdra.cli import kubectl_complete

    kubectl_complete()
else:
    from kubectl_wasdra.entry import main

    main()
"""
# kubectl (1.26+) runs kubectl_complete-<plugin> from PATH to complete `kubectl wasdra ...`; the executable beside it
# answers (the symbolic link krew or the user puts on PATH is followed to find it)
COMPLETE_SCRIPT = """#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
_WASDRA_KUBECTL_COMPLETE=1 exec "$here/kubectl-wasdra" "$@"
"""
SIDE_FILES = ("README.md", "LICENSE", "NOTICE")
DOCS = "docs"  # the reference the README links to, so its links resolve in the unpacked archive


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


def missing_dependencies() -> list[str]:
    """The package's runtime dependencies (pyproject.toml) that the running interpreter does not have."""
    missing = []
    for name in requirements():
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def runtime_distributions() -> set[str]:
    """The distributions a plain `pip install .` brings: the runtime dependencies and theirs, extras left out."""
    seen: set[str] = set()
    todo = requirements()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        todo.extend(requirement_name(req) for req in requires if "extra" not in req.partition(";")[2])  # extras are opt-in
    return seen


def _top_levels(dist: importlib.metadata.Distribution) -> set[str]:
    listed = dist.read_text("top_level.txt")
    if listed:
        return {line.strip() for line in listed.splitlines() if line.strip()}
    tops = set()
    for file in dist.files or ():
        head = file.parts[0]
        if head.endswith((".dist-info", ".egg-info", ".data")) or head in ("..", "__pycache__") or head.endswith(".pth"):
            continue
        tops.add(head.split(".")[0] if len(file.parts) == 1 else head)
    return tops


def foreign_modules() -> list[str]:
    """Top-level modules installed here that a plain `pip install .` would not bring (test tooling and whatever else
    the environment holds): left out of the bundle, so that it holds what a clean environment would."""
    wanted = runtime_distributions()
    keep: set[str] = set()
    other: set[str] = set()
    for dist in importlib.metadata.distributions():
        name = requirement_name(dist.metadata["Name"] or "")
        (keep if name in wanted else other).update(_top_levels(dist))
    return sorted(module for module in other - keep - {"kubectl_wasdra"} if module.isidentifier())


def prepare_here(directory: Path) -> tuple[Path, dict[str, str]]:
    """(the running interpreter, the environment to run PyInstaller with): PyInstaller installed into `directory`
    (reused when it holds the pinned version), this checkout first on the path, the dependencies as installed here."""
    missing = missing_dependencies()
    if missing:
        raise SystemExit(f"build_executable: this Python lacks {', '.join(missing)}; run it with the set-up's "
                         ".venv/bin/python, or pass --venv DIR to build in a clean virtual environment")
    version = PYINSTALLER.split("==")[1]
    if not any(directory.glob(f"[Pp]yinstaller-{version}.dist-info")):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--upgrade",
                        "--target", str(directory), PYINSTALLER], check=True)
    path = os.pathsep.join([str(ROOT), str(directory), *filter(None, [os.environ.get("PYTHONPATH")])])
    return Path(sys.executable), dict(os.environ, PYTHONPATH=path)


def build(python: Path, work: Path, env: dict[str, str] | None = None, exclude: list[str] | tuple[str, ...] = ()) -> Path:
    """Run PyInstaller (leaving out the modules `exclude`); return the folder it wrote (the executable, _internal/)."""
    work.mkdir(parents=True, exist_ok=True)
    entry = work / "entry.py"
    entry.write_text(ENTRY)
    separator = ";" if os.name == "nt" else ":"
    data = [arg for name in DATA_DIRECTORIES
            for arg in ("--add-data", f"{ROOT / name}{separator}kubectl_wasdra/_data/{name}")]
    subprocess.run([str(python), "-m", "PyInstaller", "--onedir", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--name", NAME, "--distpath", str(work / "dist"), "--workpath", str(work / "build"),
                    "--specpath", str(work), "--paths", str(ROOT), "--collect-submodules", "kubectl_wasdra", *data,
                    *(arg for module in exclude for arg in ("--exclude-module", module)), str(entry)], check=True, env=env)
    return work / "dist" / NAME


def archive_members(folder: Path, system: str) -> list[tuple[Path, str]]:
    """(file on disk, name in the archive) for everything the archive holds, sorted by name."""
    members = [(path, path.relative_to(folder).as_posix()) for path in folder.rglob("*") if path.is_file()]
    members += [(ROOT / name, name) for name in SIDE_FILES]
    members += [(path, path.relative_to(ROOT).as_posix()) for path in (ROOT / DOCS).rglob("*")  # the README's links
                if path.is_file()]
    if system != "windows":
        script = folder.parent / "kubectl_complete-wasdra"
        script.write_text(COMPLETE_SCRIPT)
        script.chmod(0o755)
        members.append((script, script.name))
    return sorted(members, key=lambda member: member[1])


def archive(folder: Path, dist: Path, system: str, arch: str) -> Path:
    """Pack the one-folder build, the completion script, README, LICENSE and NOTICE into
    dist/kubectl-wasdra_<os>_<arch>.tar.gz (.zip for Windows), all at the archive's top level."""
    dist.mkdir(parents=True, exist_ok=True)
    stem = dist / f"{NAME}_{system}_{arch}"
    members = archive_members(folder, system)
    if system == "windows":
        path = stem.with_suffix(".zip")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for source, name in members:
                zf.write(source, name)
        return path
    path = Path(f"{stem}.tar.gz")
    with tarfile.open(path, "w:gz") as tf:
        for source, name in members:
            tf.add(source, name)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the archive goes (default: dist/)")
    parser.add_argument("--venv", type=Path, default=None,
                        help="build in this clean virtual environment (created or reused) instead of this Python's")
    parser.add_argument("--pyinstaller", type=Path, default=ROOT / "build" / "pyinstaller",
                        help="where PyInstaller is installed without --venv (reused)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "exe", help="PyInstaller's work directory")
    args = parser.parse_args(argv)
    system, arch = platform_name()
    started = time.monotonic()
    if args.venv:
        python, env, exclude = prepare_venv(args.venv), None, []
    else:
        (python, env), exclude = prepare_here(args.pyinstaller), foreign_modules()
    installed = time.monotonic()
    folder = build(python, args.work, env, exclude)
    built = time.monotonic()
    path = archive(folder, args.dist, system, arch)
    print(f"{path} ({path.stat().st_size / 2**20:.1f} MiB); install {installed - started:.0f} s, "
          f"build {built - installed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
